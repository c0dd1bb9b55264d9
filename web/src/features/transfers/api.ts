import { queryOptions, useMutation, useQuery, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type {
  CallTransferOrderInput,
  CallTransferOrderResponse,
  TransferOrdersResponse,
} from '@warmline/contracts/transfers';
import { apiRequest } from '../../lib/api';

/** Hooks of the transfer-order API (orders service through the gateway, spec §7). Query keys come only from this factory. */
const transferKeys = {
  all: ['transfer-orders'] as const,
  /** Every order and the four figures (admins). */
  list: () => [...transferKeys.all, 'list'] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/**
 * Orders live transfers: the server prices them at the agent's own per-transfer price and
 * refuses a `price` that differs; the answer carries the payment's client secret.
 */
export function useCreateTransferOrder(options: MutationOptions<CallTransferOrderResponse, CallTransferOrderInput> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: CallTransferOrderInput) =>
      apiRequest<CallTransferOrderResponse>('/api/call-transfer-order', { method: 'POST', body }),
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: transferKeys.all });
      await options.onSuccess?.(...args);
    },
  });
}

/** Every transfer order with the admin page's four figures (admins only; the server checks). */
/** The transfer orders' query (the admin route prefetches it, issue 22). */
export const transferOrdersOptions = () =>
  queryOptions({ queryKey: transferKeys.list(), queryFn: ({ signal }) => apiRequest<TransferOrdersResponse>('/api/transfer-orders', { signal }) });

export function useTransferOrders() {
  return useQuery(transferOrdersOptions());
}
