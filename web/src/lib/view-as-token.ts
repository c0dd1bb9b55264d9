import { VIEW_AS_PARAM } from '@warmline/contracts/view-as-names';

/**
 * The view-as grant of THIS tab (docs/adr/0014-view-as.md). The admin's "Go to Dashboard" opens
 * `/dashboard?viewAs=<token>`; the token is taken from the address once, removed from it (so it
 * is not in history, bookmarks or a shared link) and kept in sessionStorage, which belongs to
 * this tab alone: the admin's other tabs never send it and stay the admin's.
 */

const TOKEN_KEY = 'warmline.viewAs';
const ENDED_KEY = 'warmline.viewAs.ended';

export type ViewAsState = 'none' | 'viewing' | 'ended';

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null; // storage disabled: no viewing in this tab
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // see read()
  }
  for (const listener of listeners) listener();
}

/** Call once at start, before any API request: moves a token from the address into this tab's storage. */
export function captureViewAsToken(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get(VIEW_AS_PARAM);
  if (token === null) return;
  url.searchParams.delete(VIEW_AS_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  if (!token) return;
  write(ENDED_KEY, null);
  write(TOKEN_KEY, token);
}

/** The token to send as X-View-As, or null when this tab is not viewing. */
export function viewAsToken(): string | null {
  return read(TOKEN_KEY);
}

/** The server said the grant has ended (expired, ended elsewhere, the admin logged out). */
export function markViewAsEnded(): void {
  if (read(TOKEN_KEY) && !read(ENDED_KEY)) write(ENDED_KEY, '1');
}

/** Leaves viewing in this tab for good: requests are the session's own again. */
export function forgetViewAs(): void {
  write(ENDED_KEY, null);
  write(TOKEN_KEY, null);
}

export function viewAsState(): ViewAsState {
  if (!read(TOKEN_KEY)) return 'none';
  return read(ENDED_KEY) ? 'ended' : 'viewing';
}

export function subscribeViewAs(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
