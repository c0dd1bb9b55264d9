import { z } from 'zod';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';

/**
 * The gateway, as the catalog asks it about a buyer: the gateway owns users, so a buyer's
 * e-mail and name are read there when a notice is written, never kept here.
 */
export interface GatewayClient {
  /**
   * `GET {GATEWAY_INTERNAL_URL}/internal/users/:id` with the catalog's own credential (the
   * gateway answers only the services it lists; docs/adr/0042). Null when the account no longer exists.
   */
  userContact(userId: string, correlationId: string): Promise<UserContact | null>;
}

export interface UserContact {
  email: string;
  firstName: string;
  /** Absent from an older gateway's answer. */
  lastName?: string;
  /** 2-letter codes of the working states of the user's latest survey (call-backs are delivered there). */
  workingStates?: string[];
}

/** What the catalog reads of the gateway's BuyerProfile; the rest is not its business. */
const userContactAnswer = z.object({
  email: z.string().min(1),
  firstName: z.string(),
  lastName: z.string().optional(),
  workingStates: z.array(z.string().regex(/^[A-Z]{2}$/)).max(100).optional(),
});

export function httpGatewayClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): GatewayClient {
  return {
    async userContact(userId, correlationId) {
      const url = new URL(`/internal/users/${encodeURIComponent(userId)}`, options.baseUrl);
      // A failed call throws: the caller is a consumer, whose message is retried with backoff.
      const response = await fetch(url, {
        headers: {
          accept: 'application/json',
          [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'gateway'),
          'x-request-id': correlationId,
        },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
      const text = await response.text();
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`the gateway answered ${response.status} for user ${userId}: ${text.slice(0, 500)}`);
      const answer = userContactAnswer.safeParse(JSON.parse(text));
      if (!answer.success) throw new Error(`the gateway's answer for user ${userId} is not a user profile: ${answer.error.message}`);
      return { email: answer.data.email, firstName: answer.data.firstName, lastName: answer.data.lastName ?? '', workingStates: answer.data.workingStates ?? [] };
    },
  };
}
