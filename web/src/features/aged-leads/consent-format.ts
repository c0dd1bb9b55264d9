import { usDate } from '../../lib/us-date';

/**
 * How the market and My Leads word a lead's consent. Pure, so the wording is tested without a
 * browser.
 */

/** The market badge's '06/03/2026' from '2026-06-03': the day as the catalog dated it (UTC), in any time zone. */
export function formatConsentDate(isoDate: string): string {
  return usDate(`${isoDate}T00:00:00Z`, 'UTC');
}

/**
 * The certificate as a link only when it is an https URL: a vendor writes what it likes there,
 * and a javascript: or http: address must never become something a buyer clicks.
 */
export function certificateUrl(certificate: string): URL | null {
  try {
    const url = new URL(certificate);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** When the prospect consented, to the second and with the buyer's time zone: it is evidence. */
export function formatConsentTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
    timeZone,
  });
}
