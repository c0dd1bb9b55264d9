/*
 * Who is asking, as services' domains see it. The gateway signs it and services verify it in
 * http/identity.ts; the domain only reads it, so it lives outside the HTTP room.
 */

/**
 * Who the gateway says is asking. A visitor without a session is forwarded too (public
 * pages such as checkouts call internal services), with `userId: null`.
 */
export interface Identity {
  userId: string | null;
  username: string | null;
  isAdmin: boolean;
  /**
   * An admin viewing this user's dashboard (view-as, docs/adr/0014): the gateway already refuses
   * every write, and a service refuses them again (requireForwardedIdentity).
   */
  readOnly?: true;
  /**
   * The client's address as the gateway saw it (behind TRUST_PROXY): a service believes no
   * X-Forwarded-For of its own, since only this header is signed.
   */
  clientIp?: string;
}

export const ANONYMOUS: Identity = { userId: null, username: null, isAdmin: false };

/** The admin acting on an admin route, as the audit log names them (bus/admin-audit.ts). */
export interface ActingAdmin {
  userId: string;
  username: string;
}
