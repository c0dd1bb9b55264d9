import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyOrdersAnswer } from '@warmline/contracts/my-orders';
import type { BulkPurchaseResponse, CancelLeadPurchaseResponse, UnpaidLeadPurchasesResponse } from '@warmline/contracts/catalog';
import { apiRequest } from '../../lib/api';
import { agedLeadKeys } from '../aged-leads/api';

/** My Orders (issue 12): every order of the logged-in agent, newest first, each with its receipt once paid. */
const myOrderKeys = {
  all: ['my-orders'] as const,
  /** The agent's unpaid aged-lead purchases, each with Pay and Cancel (issue 22). */
  unpaid: () => [...myOrderKeys.all, 'unpaid'] as const,
};

export function useMyOrders(page: number) {
  return useQuery({
    queryKey: [...myOrderKeys.all, page],
    queryFn: ({ signal }) => apiRequest<MyOrdersAnswer>(`/api/my-orders?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Unpaid aged-lead purchases that still hold their leads (they end 15 minutes after they were opened). */
export function useUnpaidPurchases() {
  return useQuery({
    queryKey: myOrderKeys.unpaid(),
    queryFn: ({ signal }) => apiRequest<UnpaidLeadPurchasesResponse>('/api/bulk-purchase-leads', { signal }),
    // A reservation ends on its own; the list follows within a minute.
    refetchInterval: 60_000,
  });
}

/** Pay: the same payment as before (same order, same card form's session). */
export function useResumePurchase() {
  return useMutation({
    mutationFn: (orderId: string) =>
      apiRequest<BulkPurchaseResponse>(`/api/bulk-purchase-leads/${encodeURIComponent(orderId)}/resume`, { method: 'POST' }),
  });
}

/** Cancel: the leads go back on the market at once and the purchase can no longer be paid. */
export function useCancelPurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      apiRequest<CancelLeadPurchaseResponse>(`/api/bulk-purchase-leads/${encodeURIComponent(orderId)}/cancel`, { method: 'POST' }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: myOrderKeys.all }), queryClient.invalidateQueries({ queryKey: agedLeadKeys.all })]),
  });
}
