import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminRefund, AllOrdersAnswer, RefundAnswer, RevenueAnswer, TransferStatusChange } from '@warmline/contracts/admin-orders';
import { apiRequest } from '../../../lib/api';
import { adminKeys, type MutationOptions } from '../shared/api';

/* All Orders' hooks and the changes an admin makes to an order (issue 22). */

export interface AllOrdersFilter {
  product: string;
  status: string;
  from: string;
  to: string;
  /** A buyer's e-mail or name: one customer's orders (the customer search opens them so). */
  q: string;
  page: number;
}

const orderKeys = {
  all: ['admin-orders'] as const,
  list: (filter: AllOrdersFilter) => [...orderKeys.all, 'list', filter] as const,
  revenue: (days: 30 | 90) => [...orderKeys.all, 'revenue', days] as const,
};

function allOrdersParams(filter: Omit<AllOrdersFilter, 'page'>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['product', 'status', 'from', 'to', 'q'] as const) if (filter[key]) params.set(key, filter[key]);
  return params;
}

/** All Orders' filter as the URL holds it. */
export function allOrdersFilterFrom(params: URLSearchParams): AllOrdersFilter {
  return {
    product: params.get('product') ?? '',
    status: params.get('status') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    q: params.get('q') ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}

export const allOrdersOptions = (filter: AllOrdersFilter) =>
  queryOptions({
    queryKey: orderKeys.list(filter),
    queryFn: ({ signal }) => {
      const params = allOrdersParams(filter);
      params.set('page', String(filter.page));
      return apiRequest<AllOrdersAnswer>(`/api/admin/orders?${params}`, { signal });
    },
  });

export function useAllOrders(filter: AllOrdersFilter) {
  return useQuery({ ...allOrdersOptions(filter), placeholderData: keepPreviousData });
}

/** Every order the filter keeps, as a CSV download (issue 22). */
export function allOrdersCsvUrl(filter: Omit<AllOrdersFilter, 'page'>): string {
  const params = allOrdersParams(filter).toString();
  return `/api/admin/orders.csv${params ? `?${params}` : ''}`;
}

export function useRevenue(days: 30 | 90) {
  return useQuery({
    queryKey: orderKeys.revenue(days),
    queryFn: ({ signal }) => apiRequest<RevenueAnswer>(`/api/admin/revenue?days=${days}`, { signal }),
  });
}

/** After an order changes: every order list, the transfer orders page and the cards are read again. */
function useOrderMutation<TData, TVariables>(request: (v: TVariables) => Promise<TData>, options: MutationOptions<TData, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: request,
    onSuccess: async (...args) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['transfer-orders'] }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]);
      await options.onSuccess?.(...args);
    },
  });
}

export function useMoveTransferOrder(options: MutationOptions<unknown, { orderId: string; change: TransferStatusChange }> = {}) {
  return useOrderMutation(
    ({ orderId, change }) => apiRequest(`/api/transfer-orders/${orderId}/status`, { method: 'PATCH', body: change }),
    options,
  );
}

/** One refund per dialog: the key is made when the dialog opens, so a double click refunds once. */
export function useRefundOrder(options: MutationOptions<RefundAnswer, { orderId: string; refund: AdminRefund; idempotencyKey: string }> = {}) {
  return useOrderMutation(
    ({ orderId, refund, idempotencyKey }) =>
      apiRequest<RefundAnswer>(`/api/admin/orders/${orderId}/refund`, { method: 'POST', body: refund, headers: { 'Idempotency-Key': idempotencyKey } }),
    options,
  );
}
