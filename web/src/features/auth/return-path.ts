/**
 * Where sign-in returns to (the notification e-mail links to /dashboard?view=my-callbacks; a
 * signed-out agent who opens it goes through /login and should land there, not on the default
 * view). The page asked for travels in /login's `next` parameter, which anyone can write into a
 * link, so it is taken only when it is a path of this site: never another origin.
 */
export const RETURN_PARAM = 'next';

/** Pages where coming back after sign-in makes no sense (a loop, or a form for the signed-out). */
const NOT_RETURNED_TO = new Set(['/login', '/forgot-password', '/reset-password']);

/** An origin no real page has, to resolve the path against and see whether it stays on it. */
const PROBE_ORIGIN = 'https://warmline.invalid';

/**
 * The same-site path (with its query and hash) to return to after sign-in, or null when `raw` is
 * absent or could lead anywhere else: an absolute URL, a scheme-relative `//host`, a backslash
 * (browsers read `/\host` as `//host`), control characters, or anything not starting with one `/`.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  if (NOT_RETURNED_TO.has(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /login, carrying the page asked for (when it is one worth coming back to). */
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  const wanted = safeReturnPath(`${location.pathname}${location.search}${location.hash}`);
  return wanted ? `/login?${new URLSearchParams({ [RETURN_PARAM]: wanted }).toString()}` : '/login';
}
