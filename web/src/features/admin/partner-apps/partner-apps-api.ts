import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PartnerApplicationStatus, PartnerApplicationView } from '@warmline/contracts/partners';
import { apiRequest } from '../../../lib/api';
import { getWithHeaders } from '../shared/api';

/**
 * Hooks of the Partner Apps tab (issue 14). Keys live under ['admin'] so a change anywhere in the
 * back office reads them again; query keys come only from this factory.
 */
const partnerAppKeys = {
  all: ['admin', 'partner-apps'] as const,
  list: (status: PartnerApplicationStatus | '', page: number) => [...partnerAppKeys.all, 'list', { status, page }] as const,
};

export interface PartnerApplicationsPage {
  applications: PartnerApplicationView[];
  total: number;
}

const applicationUrl = (id: string) => `/api/affnetwork-signups/${encodeURIComponent(id)}`;

/** One page of applications (50), newest first, of one status or all; the total comes in X-Total-Count. */
export function usePartnerApplications(status: PartnerApplicationStatus | '', page: number) {
  return useQuery({
    queryKey: partnerAppKeys.list(status, page),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<PartnerApplicationsPage> => {
      const params = new URLSearchParams({ page: String(page) });
      if (status) params.set('status', status);
      const { body, headers } = await getWithHeaders<PartnerApplicationView[]>(`/api/affnetwork-signups?${params}`, signal);
      return { applications: body, total: Number(headers.get('x-total-count') ?? body.length) };
    },
  });
}

/** After a change: the lists, the back office's counts and the customer search read again. */
function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin'] });
}

export function useSetPartnerStatus() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, status, note }: { id: string; status: PartnerApplicationStatus; note?: string }) =>
      apiRequest<PartnerApplicationView>(`${applicationUrl(id)}/status`, { method: 'PATCH', body: { status, ...(note ? { note } : {}) } }),
    onSuccess: invalidate,
  });
}

export function useDeletePartnerApplication() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(applicationUrl(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
