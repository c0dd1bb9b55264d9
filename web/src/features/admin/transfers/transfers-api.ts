import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminTransferAgentsAnswer,
  AdminTransferDisputesAnswer,
  AdminTransferRevenueAnswer,
  AdminTransfersAnswer,
  TransferStatus,
} from '@warmline/contracts/live-transfers';
import { apiRequest } from '../../../lib/api';

/**
 * Hooks of the Transfers tab (issue 23 §7). Keys live under ['admin'] so a change anywhere in the
 * back office reads them again; query keys come only from this factory.
 */
const transferAdminKeys = {
  all: ['admin', 'transfers'] as const,
  list: (date: string, status: TransferStatus | '', page: number) => [...transferAdminKeys.all, 'list', { date, status, page }] as const,
  agents: () => [...transferAdminKeys.all, 'agents'] as const,
  disputes: () => [...transferAdminKeys.all, 'disputes', 'pending'] as const,
  revenue: () => [...transferAdminKeys.all, 'revenue'] as const,
};

/** How often the tab asks again while shown: today's transfers as they happen, the agents a little slower. */
const LIVE_POLL_MS = 5_000;
const AGENTS_POLL_MS = 10_000;
const DISPUTES_POLL_MS = 15_000;

/** One day's transfers with their agent (the business's day), newest first, 50 a page. */
export function useAdminTransfers(date: string, status: TransferStatus | '', page: number) {
  return useQuery({
    queryKey: transferAdminKeys.list(date, status, page),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_POLL_MS,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ date, page: String(page) });
      if (status) params.set('status', status);
      return apiRequest<AdminTransfersAnswer>(`/api/admin/transfers?${params}`, { signal });
    },
  });
}

export function useTransferAgents() {
  return useQuery({
    queryKey: transferAdminKeys.agents(),
    refetchInterval: AGENTS_POLL_MS,
    queryFn: async ({ signal }) => (await apiRequest<AdminTransferAgentsAnswer>('/api/admin/transfer-agents', { signal })).agents,
  });
}

export function usePendingDisputes() {
  return useQuery({
    queryKey: transferAdminKeys.disputes(),
    refetchInterval: DISPUTES_POLL_MS,
    queryFn: async ({ signal }) => (await apiRequest<AdminTransferDisputesAnswer>('/api/admin/transfer-disputes?status=pending', { signal })).disputes,
  });
}

export function useTransferRevenue() {
  return useQuery({
    queryKey: transferAdminKeys.revenue(),
    queryFn: ({ signal }) => apiRequest<AdminTransferRevenueAnswer>('/api/admin/transfer-revenue', { signal }),
  });
}

/** After a decision or an adjustment: the whole back office reads again (balances, queue, counts). */
function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin'] });
}

export function useDecideDispute() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: 'accept' | 'refuse'; reason?: string }) =>
      apiRequest<unknown>(`/api/admin/transfer-disputes/${encodeURIComponent(id)}`, { method: 'POST', body: { decision, ...(reason ? { reason } : {}) } }),
    onSuccess: invalidate,
  });
}

export function useAdjustTransferCredits() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ userId, transfers, reason }: { userId: string; transfers: number; reason: string }) =>
      apiRequest<unknown>(`/api/admin/users/${encodeURIComponent(userId)}/transfer-credits`, { method: 'POST', body: { transfers, reason } }),
    onSuccess: invalidate,
  });
}
