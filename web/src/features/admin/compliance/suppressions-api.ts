import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuppressionCreated, SuppressionImportResult, SuppressionPage } from '@warmline/contracts/lead-imports';
import { apiRequest } from '../../../lib/api';

/**
 * Hooks of the suppression list (issue 13) and its opt-out list upload (issue 24). Keys live under
 * ['admin'] so a change anywhere in the back office reads them again; query keys come only from
 * this factory.
 */
const suppressionKeys = {
  all: ['admin', 'suppressions'] as const,
  page: (q: string, page: number) => [...suppressionKeys.all, { q, page }] as const,
};

/** One page of suppressed phones, newest first, searched on the server. */
export function useSuppressions(q: string, page: number) {
  return useQuery({
    queryKey: suppressionKeys.page(q, page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (q) params.set('q', q);
      return apiRequest<SuppressionPage>(`/api/admin/suppressions?${params}`, { signal });
    },
  });
}

/**
 * A suppression takes leads off sale, so the market's counts, the imports and the back office
 * are read again too.
 */
function useInvalidateAfterSuppression() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin'] });
}

export function useAddSuppression() {
  const invalidate = useInvalidateAfterSuppression();
  return useMutation({
    mutationFn: (body: { phone: string; reason: string }) => apiRequest<SuppressionCreated>('/api/admin/suppressions', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

/** Issue 24: an opt-out list, its lines as the file has them. */
export function useImportSuppressions() {
  const invalidate = useInvalidateAfterSuppression();
  return useMutation({
    mutationFn: (body: { fileName: string; lines: string[]; reason: string }) =>
      apiRequest<SuppressionImportResult>('/api/admin/suppressions/import', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useRemoveSuppression() {
  const invalidate = useInvalidateAfterSuppression();
  return useMutation({
    mutationFn: (phone: string) => apiRequest<void>(`/api/admin/suppressions/${encodeURIComponent(phone)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
