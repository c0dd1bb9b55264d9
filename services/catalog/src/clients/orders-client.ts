import { z } from 'zod';
import { AppError, conflict, notFound } from '@warmline/platform/errors';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import { LEAD_PURCHASE_ALREADY_PAID_MESSAGE, type CreateLeadOrderRequest, type CreateLeadOrderResponse } from '@warmline/contracts/catalog';
import { paidCallBacksOrdersAnswer, type PaidCallBacksOrder } from '@warmline/contracts/callbacks';

/** The orders service, as the catalog uses it: it takes the payment of reserved leads, and knows agents' transfer orders. */
export interface OrdersClient {
  createLeadOrder(buyer: Identity, request: CreateLeadOrderRequest, correlationId: string): Promise<CreateLeadOrderResponse>;
  /**
   * The buyer cancels their unpaid lead order (issue 22): it can no longer be paid. Throws a 409
   * when it was paid meanwhile, a 404 when orders knows no such order of theirs, and
   * PaymentUnavailable when orders cannot be reached.
   */
  cancelLeadOrder(buyer: Identity, orderId: string, correlationId: string): Promise<void>;
  /** The 2-letter states of the agent's latest transfer order that was not cancelled; [] when none. Throws when orders cannot say. */
  latestTransferStates(agent: Identity, correlationId: string): Promise<string[]>;
  /** The buyer's latest paid Call-Backs orders, newest first (issue 22). Throws when orders cannot say. */
  paidCallBacksOrders(buyer: Identity, correlationId: string): Promise<PaidCallBacksOrder[]>;
}

const transferStatesAnswer = z.object({ states: z.array(z.string().regex(/^[A-Z]{2}$/)).max(100) });

/** The payment could not be opened; the buyer may simply try again. */
export class PaymentUnavailable extends AppError {
  constructor(cause: unknown) {
    super('PaymentUnavailable', 'The payment service is unavailable, please try again shortly', 502);
    this.cause = cause;
  }
}

/**
 * Calls `POST /api/internal/lead-orders` and the other routes orders keeps for the catalog with
 * the catalog's own credential, acting for the buyer (docs/adr/0042).
 */
export function httpOrdersClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): OrdersClient {
  const url = new URL('/api/internal/lead-orders', options.baseUrl).toString();
  const transferStatesUrl = new URL('/api/internal/my-transfer-states', options.baseUrl).toString();
  const paidCallBacksUrl = new URL('/api/internal/my-paid-call-backs-orders', options.baseUrl).toString();
  return {
    async createLeadOrder(buyer, request, correlationId) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'orders', buyer),
            'x-request-id': correlationId,
          },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (err) {
        throw new PaymentUnavailable(err);
      }
      const text = await response.text();
      if (!response.ok) {
        throw new PaymentUnavailable(new Error(`orders answered ${response.status}: ${text.slice(0, 500)}`));
      }
      return JSON.parse(text) as CreateLeadOrderResponse;
    },
    async cancelLeadOrder(buyer, orderId, correlationId) {
      let response: Response;
      try {
        response = await fetch(`${url}/${encodeURIComponent(orderId)}/cancel`, {
          method: 'POST',
          headers: { [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'orders', buyer), 'x-request-id': correlationId },
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (err) {
        throw new PaymentUnavailable(err);
      }
      const text = await response.text();
      if (response.ok) return;
      if (response.status === 409) throw conflict(LEAD_PURCHASE_ALREADY_PAID_MESSAGE);
      if (response.status === 404) throw notFound('Purchase not found');
      throw new PaymentUnavailable(new Error(`orders answered ${response.status} to a cancellation: ${text.slice(0, 500)}`));
    },
    async latestTransferStates(agent, correlationId) {
      const response = await fetch(transferStatesUrl, {
        headers: { [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'orders', agent), 'x-request-id': correlationId },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      if (!response.ok) throw new Error(`orders answered ${response.status} for the agent's transfer states`);
      const answer = transferStatesAnswer.safeParse(await response.json());
      if (!answer.success) throw new Error(`orders answered a malformed list of transfer states: ${answer.error.message}`);
      return answer.data.states;
    },
    async paidCallBacksOrders(buyer, correlationId) {
      const response = await fetch(paidCallBacksUrl, {
        headers: { [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'orders', buyer), 'x-request-id': correlationId },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      if (!response.ok) throw new Error(`orders answered ${response.status} for the buyer's paid Call-Backs orders`);
      const answer = paidCallBacksOrdersAnswer.safeParse(await response.json());
      if (!answer.success) throw new Error(`orders answered a malformed list of paid Call-Backs orders: ${answer.error.message}`);
      return answer.data.orders;
    },
  };
}
