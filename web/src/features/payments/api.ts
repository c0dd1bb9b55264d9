import { useMutation, useQuery, type UseMutationOptions } from '@tanstack/react-query';
import type {
  CreatePaymentIntentInput,
  CreatePaymentIntentResponse,
  PaymentConfigResponse,
  SandboxConfirmInput,
  SandboxConfirmResponse,
} from '@warmline/contracts/orders';
import { apiRequest } from '../../lib/api';

/** Hooks of the payments API (orders service through the gateway, spec §7). Query keys come only from this factory. */
export const paymentKeys = {
  all: ['payments'] as const,
  config: () => [...paymentKeys.all, 'config'] as const,
  orderStatus: (orderId: string) => [...paymentKeys.all, 'order-status', orderId] as const,
};

type MutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/** Which card form to show: the sandbox's or Stripe Elements with this publishable key. */
export function usePaymentConfig() {
  return useQuery({
    queryKey: paymentKeys.config(),
    queryFn: ({ signal }) => apiRequest<PaymentConfigResponse>('/api/config', { signal }),
  });
}

/**
 * A payment session for a package: the server prices it from the contracts table and refuses
 * an amount that differs. Send the same `idempotencyKey` when retrying the same attempt, so a
 * lost answer never creates a second order.
 */
export function useCreatePaymentIntent(
  options: MutationOptions<CreatePaymentIntentResponse, CreatePaymentIntentInput & { idempotencyKey: string }> = {},
) {
  return useMutation({
    ...options,
    mutationFn: (body: CreatePaymentIntentInput & { idempotencyKey: string }) =>
      apiRequest<CreatePaymentIntentResponse>('/api/create-payment-intent', { method: 'POST', body }),
  });
}

/** Confirms a sandbox payment with the card form's fields (Stripe's test cards). */
export function confirmSandboxPayment(body: SandboxConfirmInput): Promise<SandboxConfirmResponse> {
  return apiRequest<SandboxConfirmResponse>('/api/payments/sandbox/confirm', { method: 'POST', body });
}

/**
 * A fresh key for one payment attempt (a UUID v4). crypto.randomUUID needs a secure context;
 * getRandomValues works everywhere.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
