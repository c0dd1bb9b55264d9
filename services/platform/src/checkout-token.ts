import { randomUUID, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A one-time checkout token (issue 12): the second brand's survey creates an account while the
 * visitor is not logged in, and the checkout right after it is paid without a session. The
 * gateway signs this token for the new account with its Ed25519 identity key, which the orders
 * service verifies with the gateway's public key (docs/adr/0042); the orders service links the checkout's order to that account once (it records the
 * token's id) and only within a short time. An order is never linked by matching e-mail.
 *
 * The signature covers a purpose prefix, so neither a forwarded identity nor a token for another
 * purpose can pass for a checkout token, nor this for them.
 */

export const CHECKOUT_TOKEN_TTL_SECONDS = 30 * 60;

/** What a checkout token may link: today only the second brand's (RingCloud) checkout. */
export type CheckoutTokenPurpose = 'ringcloud-checkout';

export interface CheckoutTokenClaims {
  /** The token's own id: the orders service accepts each once. */
  tokenId: string;
  /** The account the survey created. */
  userId: string;
  purpose: CheckoutTokenPurpose;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const PREFIX = 'ct1';

export function signCheckoutToken(
  gatewayKey: KeyObject,
  input: { userId: string; purpose: CheckoutTokenPurpose },
  now = Date.now(),
): string {
  const claims: CheckoutTokenClaims = {
    tokenId: randomUUID(),
    userId: input.userId,
    purpose: input.purpose,
    expiresAt: Math.floor(now / 1000) + CHECKOUT_TOKEN_TTL_SECONDS,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${PREFIX}.${payload}.${sign(null, signedText(payload), gatewayKey).toString('base64url')}`;
}

/** The claims of a token for `purpose`, or null when it is malformed, forged, for another purpose or expired. */
export function verifyCheckoutToken(
  gatewayKey: KeyObject,
  token: string | undefined,
  purpose: CheckoutTokenPurpose,
  now = Date.now(),
): CheckoutTokenClaims | null {
  if (!token) return null;
  const [prefix, payload, signature, extra] = token.split('.');
  if (prefix !== PREFIX || !payload || !signature || extra !== undefined) return null;
  try {
    if (!verify(null, signedText(payload), gatewayKey, Buffer.from(signature, 'base64url'))) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CheckoutTokenClaims>;
    if (claims.purpose !== purpose) return null;
    if (typeof claims.expiresAt !== 'number' || claims.expiresAt * 1000 < now) return null;
    if (typeof claims.tokenId !== 'string' || !UUID.test(claims.tokenId)) return null;
    if (typeof claims.userId !== 'string' || !UUID.test(claims.userId)) return null;
    return { tokenId: claims.tokenId, userId: claims.userId, purpose: claims.purpose, expiresAt: claims.expiresAt };
  } catch {
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function signedText(payload: string): Buffer {
  return Buffer.from(`${PREFIX}:checkout-token:${payload}`);
}
