import { AppError } from '@warmline/platform/errors';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
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
 * `GET {GATEWAY_URL}/internal/users/:id` with this service's own credential (docs/adr/0042):
 * the gateway answers the services it lists for that route.
 */
export function httpUsersClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): UsersClient {
  return {
    async buyerProfile(buyer, correlationId) {
      if (!buyer.userId) throw new AppError('Unauthorized', 'Not authenticated', 401);
      const url = new URL(`/internal/users/${encodeURIComponent(buyer.userId)}`, options.baseUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: {
            accept: 'application/json',
            [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'gateway'),
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
