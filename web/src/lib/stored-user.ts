import type { PublicUser } from '@warmline/contracts/accounts';

/** Local storage key of the logged-in user (spec §3). The session cookie stays the authority. */
const STORED_USER_KEY = 'user';

export function storeUser(user: PublicUser): void {
  try {
    localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage may be full or disabled (private mode); the session still works without it.
  }
}

export function forgetStoredUser(): void {
  try {
    localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // see storeUser
  }
}
