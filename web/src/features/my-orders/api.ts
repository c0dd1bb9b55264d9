import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MyOrdersAnswer } from '@warmline/contracts/my-orders';
import { apiRequest } from '../../lib/api';

/** My Orders (issue 12): every order of the logged-in agent, newest first, each with its receipt once paid. */
const myOrderKeys = {
  all: ['my-orders'] as const,
};

export function useMyOrders(page: number) {
  return useQuery({
    queryKey: [...myOrderKeys.all, page],
    queryFn: ({ signal }) => apiRequest<MyOrdersAnswer>(`/api/my-orders?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
