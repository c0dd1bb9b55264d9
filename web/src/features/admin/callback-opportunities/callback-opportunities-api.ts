import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkCallbackOpportunitiesInput,
  BulkCallbackResult,
  CallbackAgent,
  CallbackOpportunity,
  CallbackOpportunityInput,
  CallbackOpportunityStatus,
  CallbackSource,
  CreatedVendorKey,
  VendorKey,
} from '@warmline/contracts/callbacks';
import { ApiError, apiRequest } from '../../../lib/api';
import { issuesByField } from '../../partners/api';
import { getWithHeaders } from '../shared/api';

/**
 * Hooks of the Upload Callback Opportunities tab (issue 15): vendor keys (ingestion) and callback
 * opportunities (catalog). Keys live under ['admin'] so a change anywhere in the back office reads
 * them again; query keys come only from this factory.
 */
const callbackAdminKeys = {
  all: ['admin', 'callbacks'] as const,
  vendorKeys: () => [...callbackAdminKeys.all, 'vendor-keys'] as const,
  opportunities: () => [...callbackAdminKeys.all, 'opportunities'] as const,
  opportunityPage: (filter: OpportunityFilter) => [...callbackAdminKeys.opportunities(), filter] as const,
  agents: () => [...callbackAdminKeys.all, 'agents'] as const,
};

/** The list's filters; '' is "any". State 'NONE' is the opportunities waiting for a state. */
export interface OpportunityFilter {
  status: CallbackOpportunityStatus | '';
  state: string;
  source: CallbackSource | '';
  page: number;
}

export interface OpportunityPage {
  opportunities: CallbackOpportunity[];
  total: number;
}

const vendorKeyUrl = (id: string) => `/api/admin/vendor-keys/${encodeURIComponent(id)}`;
const opportunityUrl = (id: string) => `/api/callback-opportunities/${encodeURIComponent(id)}`;

export function useVendorKeys() {
  return useQuery({
    queryKey: callbackAdminKeys.vendorKeys(),
    queryFn: ({ signal }) => apiRequest<VendorKey[]>('/api/admin/vendor-keys', { signal }),
  });
}

/** One page (50) of opportunities, newest first; the total comes in X-Total-Count. */
export function useCallbackOpportunities(filter: OpportunityFilter) {
  return useQuery({
    queryKey: callbackAdminKeys.opportunityPage(filter),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<OpportunityPage> => {
      const params = filterParams(filter);
      params.set('page', String(filter.page));
      const { body, headers } = await getWithHeaders<CallbackOpportunity[]>(`/api/callback-opportunities?${params}`, signal);
      return { opportunities: body, total: Number(headers.get('x-total-count') ?? body.length) };
    },
  });
}

/** The list's filters as the query of the list and of its CSV export. */
function filterParams(filter: Omit<OpportunityFilter, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.state) params.set('state', filter.state);
  if (filter.source) params.set('source', filter.source);
  return params;
}

/** The CSV export of every opportunity the filters match (issue 22): a plain download, the session's cookie goes with it. */
export const exportUrl = (filter: Omit<OpportunityFilter, 'page'>) => {
  const query = filterParams(filter).toString();
  return `/api/callback-opportunities/export.csv${query ? `?${query}` : ''}`;
};

/** Agents who can receive call-backs (a call-back account), with balance and states: the manual-assign picker (issue 22). */
export function useCallbackAgents() {
  return useQuery({
    queryKey: callbackAdminKeys.agents(),
    queryFn: ({ signal }) => apiRequest<CallbackAgent[]>('/api/admin/callback-agents', { signal }),
  });
}

/** After a change: the tab's lists and the back office's counts read again. */
function useInvalidateCallbacks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: callbackAdminKeys.all });
}

export function useCreateVendorKey() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: (name: string) => apiRequest<CreatedVendorKey>('/api/admin/vendor-keys', { method: 'POST', body: { name } }),
    onSuccess: invalidate,
  });
}

export function useRevokeVendorKey() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(vendorKeyUrl(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useAddCallbackOpportunity() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: (input: CallbackOpportunityInput) => apiRequest<CallbackOpportunity>('/api/callback-opportunities', { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useBulkCallbackOpportunities() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: (body: BulkCallbackOpportunitiesInput) => apiRequest<BulkCallbackResult>('/api/callback-opportunities/bulk', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useSetOpportunityState() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: ({ id, state }: { id: string; state: string }) => apiRequest<CallbackOpportunity>(opportunityUrl(id), { method: 'PATCH', body: { state } }),
    onSuccess: invalidate,
  });
}

export function useAssignOpportunity() {
  const invalidate = useInvalidateCallbacks();
  return useMutation({
    mutationFn: ({ id, userId }: { id: string; userId: string }) =>
      apiRequest<CallbackOpportunity>(`${opportunityUrl(id)}/assign`, { method: 'POST', body: { userId } }),
    onSuccess: invalidate,
  });
}

/** A refusal's problems by field (the platform's 400 `issues`), first message each; {} for any other failure. */
export function fieldMessages(error: unknown): Record<string, string> {
  return error instanceof ApiError && error.status === 400 ? issuesByField(error) : {};
}
