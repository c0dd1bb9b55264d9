import { z } from 'zod';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';

/** The orders service, as the transfers service asks it for an agent's latest transfer order (to suggest settings). */
export interface OrdersClient {
  /** The agent's latest paid (or pending) transfer order's delivery details; null when they have none. */
  latestTransferOrder(agent: Identity, correlationId: string): Promise<LatestTransferOrder | null>;
}

export interface LatestTransferOrder {
  /** Ten digits. */
  transferPhone: string;
  callsPerDay: number;
  /** As the agent typed it, e.g. '9am-5pm CST'. */
  transferHours: string;
  states: string[];
}

/** Answered by orders at GET /api/internal/my-latest-transfer-order (never public: no /api/internal route is forwarded). */
const LATEST_TRANSFER_ORDER_PATH = '/api/internal/my-latest-transfer-order';

const latestTransferOrderAnswer = z.object({
  order: z
    .object({
      transferPhone: z.string(),
      callsPerDay: z.number().int().positive(),
      transferHours: z.string(),
      states: z.array(z.string().regex(/^[A-Z]{2}$/)).max(100),
    })
    .nullable(),
});

export function httpOrdersClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): OrdersClient {
  return {
    async latestTransferOrder(agent, correlationId) {
      const response = await fetch(new URL(LATEST_TRANSFER_ORDER_PATH, options.baseUrl), {
        headers: { accept: 'application/json', [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'orders', agent), 'x-request-id': correlationId },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`orders answered ${response.status} for the latest transfer order: ${text.slice(0, 500)}`);
      const answer = latestTransferOrderAnswer.safeParse(JSON.parse(text));
      if (!answer.success) throw new Error(`orders' answer is not a latest transfer order: ${answer.error.message}`);
      return answer.data.order;
    },
  };
}
