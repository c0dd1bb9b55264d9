import type { OrderBrand } from './orders';

/**
 * The two brands a buyer can meet (spec §2: the second survey is RingCloud's). RingCloud's
 * support address is used wherever a RingCloud buyer is told whom to write to: its pages and
 * its e-mails. The gateway (site-config, for its thank-you page) and the notifications service
 * both read RINGCLOUD_SUPPORT_EMAIL, with this default, so the page and the e-mail agree.
 */
export const RINGCLOUD_SUPPORT_EMAIL_DEFAULT = 'support@ringcloud.local';

/**
 * WarmLine's support address when SUPPORT_EMAIL is unset. The gateway shows SUPPORT_EMAIL on the
 * pages (the success pages too) and the notifications worker names it in the receipts, so both
 * read the same variable with this same default: one address on the page and in the e-mail.
 */
export const SUPPORT_EMAIL_DEFAULT = 'support@warmline.local';

/** '… · RingCloud': the browser title of a page shown under `brand`. */
export function brandedTitle(title: string, brand: OrderBrand): string {
  return `${title} · ${brand}`;
}
