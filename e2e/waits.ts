import type { Page } from 'playwright-core';
import { waitFor } from '@warmline/platform/testing/index';
import { readMails } from '@warmline/platform/testing/mail';

/**
 * The end-to-end tests' waits: one `eventually` (the platform's `waitFor`), the mail the
 * notifications worker wrote, and the browser's path. A test waits on one of these instead of
 * writing its own deadline loop, so a timeout always names what did not happen.
 */

/** The whole system runs in one process on a shared machine: a wait lasts longer than a unit test's. */
const E2E_TIMEOUT_MS = 20_000;

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Polls `probe` until it returns a truthy value and returns it; fails after the timeout naming `what`. */
export function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: WaitOptions = {},
): Promise<T> {
  return waitFor(what, probe, { timeoutMs: E2E_TIMEOUT_MS, intervalMs: 100, ...options });
}

// ---------------------------------------------------------------- mail

/** Every message written to the mail directory so far, decoded from quoted-printable, oldest first (the platform's reader). */
export { readMails as readMail };

/** A message to `to` (its To: line), holding every text of `containing`, and matching `pattern` (e.g. /^Subject: …$/m). */
export interface MailQuery {
  to?: string;
  containing?: string | readonly string[];
  pattern?: RegExp;
}

export type MailMatch = MailQuery | ((message: string) => boolean);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcher(match: MailMatch): (message: string) => boolean {
  if (typeof match === 'function') return match;
  const to = match.to === undefined ? undefined : new RegExp(`^To: ${escapeRegExp(match.to)}$`, 'm');
  const texts = match.containing === undefined ? [] : typeof match.containing === 'string' ? [match.containing] : match.containing;
  const pattern = match.pattern;
  return (message) => (!to || to.test(message)) && texts.every((text) => message.includes(text)) && (!pattern || pattern.test(message));
}

function described(match: MailMatch): string {
  if (typeof match === 'function') return 'an e-mail';
  const parts = [
    match.to && `to ${match.to}`,
    match.containing && `containing ${[match.containing].flat().join(', ')}`,
    match.pattern && `matching ${String(match.pattern)}`,
  ].filter(Boolean);
  return `an e-mail ${parts.join(' ')}`.trim();
}

/** The messages written so far that match, oldest first. */
export async function mailMatching(mailDir: string, match: MailMatch): Promise<string[]> {
  return (await readMails(mailDir)).filter(matcher(match));
}

/** Waits for a message that matches, and returns the first one. */
export function waitForMail(mailDir: string, match: MailMatch, options: WaitOptions & { what?: string } = {}): Promise<string> {
  return eventually(options.what ?? described(match), async () => (await mailMatching(mailDir, match))[0], options);
}

/** Waits until at least `count` messages match, and returns all that do. */
export function waitForMails(mailDir: string, match: MailMatch, count: number, options: WaitOptions & { what?: string } = {}): Promise<string[]> {
  return eventually(`${count} × ${options.what ?? described(match)}`, async () => {
    const found = await mailMatching(mailDir, match);
    return found.length >= count ? found : undefined;
  }, options);
}

// ---------------------------------------------------------------- the browser

/** Waits until the page's path (no query, no hash) is `pathname`. */
export async function waitForPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname);
}
