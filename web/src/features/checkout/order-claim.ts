import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimOrderResponse } from '@warmline/contracts/orders';
import { apiRequest } from '../../lib/api';

/**
 * The claim tokens of packages this browser paid without a session (ADR 0022), by order id, so
 * /onboarding-success can attach the order to the account its buyer creates or logs into. Kept
 * in session storage: the token is a bearer right to the order, so it dies with the tab that paid
 * (the account is made in a second tab; the buyer comes back to this one to log in and add it).
 * Removed once used. The server signs each for its one order and honours it once.
 */
const ORDER_CLAIMS_KEY = 'orderClaims';

type Claims = Record<string, string>;

function readClaims(): Claims {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(ORDER_CLAIMS_KEY) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function writeClaims(claims: Claims): void {
  try {
    if (Object.keys(claims).length === 0) sessionStorage.removeItem(ORDER_CLAIMS_KEY);
    else sessionStorage.setItem(ORDER_CLAIMS_KEY, JSON.stringify(claims));
  } catch {
    // Storage full or disabled: the buyer simply is not offered to attach the order.
  }
}

export function saveOrderClaim(orderId: string, claimToken: string): void {
  writeClaims({ ...readClaims(), [orderId]: claimToken });
}

export function readOrderClaim(orderId: string): string | null {
  return readClaims()[orderId] ?? null;
}

function forgetOrderClaim(orderId: string): void {
  const { [orderId]: _used, ...rest } = readClaims();
  writeClaims(rest);
}

/** POST /api/orders/{id}/claim: attaches the paid order to the logged-in account. */
export function useClaimOrder(options: { onSuccess?: (answer: ClaimOrderResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, claimToken }: { orderId: string; claimToken: string }) =>
      apiRequest<ClaimOrderResponse>(`/api/orders/${encodeURIComponent(orderId)}/claim`, { method: 'POST', body: { claimToken } }),
    onSuccess: async (answer) => {
      forgetOrderClaim(answer.orderId);
      // My Orders now lists it.
      await queryClient.invalidateQueries({ queryKey: ['my-orders'] });
      options.onSuccess?.(answer);
    },
  });
}
