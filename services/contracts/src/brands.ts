import type { OrderBrand } from './orders';

/**
 * The two brands a buyer can meet (spec §2: the second survey is RingCloud's). RingCloud's
 * support address is used wherever a RingCloud buyer is told whom to write to: its pages and
 * its e-mails. The notifications service takes it from RINGCLOUD_SUPPORT_EMAIL; the SPA has no
 * per-deployment setting for it yet (the gateway's site-config serves WarmLine's only), so it
 * shows this default.
 */
export const RINGCLOUD_SUPPORT_EMAIL_DEFAULT = 'support@ringcloud.local';

/** '… · RingCloud': the browser title of a page shown under `brand`. */
export function brandedTitle(title: string, brand: OrderBrand): string {
  return `${title} · ${brand}`;
}
