import { AppError } from '@warmline/platform/errors';
import { IDENTITY_HEADER, signIdentity, type Identity } from '@warmline/platform/http/identity';
import type { BuyerProfile } from '@warmline/contracts';

/**
 * The gateway, as the orders service asks it about a buyer: the gateway owns users, so the
 * agent's name, contact and per-transfer price are read from it at order time — never kept
 * here, so an admin's price change counts from the very next order (docs/adr/0007).
 */
export interface UsersClient {
  buyerProfile(buyer: Identity, correlationId: string): Promise<BuyerProfile>;
}

/** The account service could not be asked; the agent may simply try again. */
class AccountServiceUnavailable extends AppError {
  constructor(cause: unknown) {
    super('AccountServiceUnavailable', 'The account service is unavailable, please try again shortly', 502);
    this.cause = cause;
  }
}

/**
 * `GET {GATEWAY_URL}/internal/users/:id` with the buyer's own identity, signed with the shared
 * secret exactly as the gateway signs what it forwards (docs/adr/0001): the gateway answers
 * only for that user (or an admin).
 */
export function httpUsersClient(options: { baseUrl: string; identitySecret: string; timeoutMs?: number }): UsersClient {
  return {
    async buyerProfile(buyer, correlationId) {
      if (!buyer.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
      const url = new URL(`/internal/users/${encodeURIComponent(buyer.userId)}`, options.baseUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: {
            accept: 'application/json',
            [IDENTITY_HEADER]: signIdentity(options.identitySecret, buyer),
            'x-request-id': correlationId,
          },
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new AccountServiceUnavailable(err);
      }
      const text = await response.text();
      // The account was deleted while its session was still open.
      if (response.status === 404) throw new AppError('Unauthorized', 'Your account no longer exists', 401);
      if (!response.ok) {
        throw new AccountServiceUnavailable(new Error(`gateway answered ${response.status}: ${text.slice(0, 500)}`));
      }
      return JSON.parse(text) as BuyerProfile;
    },
  };
}
