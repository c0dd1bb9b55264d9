/**
 * `GET /api/site-config` (gateway, public): the site's contact details and the landing page's
 * testimonial and booking widget, which differ per deployment and so come from configuration
 * rather than the SPA's code (spec §1: phone, e-mail and the named agent are shown on the page).
 */
export interface Testimonial {
  /** The agent quoted, e.g. 'Sarah Mitchell'. */
  name: string;
  quote: string;
  /** Who the agent is, e.g. 'Agency Owner, Mitchell Insurance Group'. */
  title: string;
}

export interface SiteConfigResponse {
  supportPhone: string;
  supportEmail: string;
  /**
   * The second brand's support address (RINGCLOUD_SUPPORT_EMAIL): its success page shows the one
   * its receipts and welcome e-mails name.
   */
  ringcloudSupportEmail: string;
  testimonial: Testimonial;
  /** The external booking widget's address; null when none is configured (the page offers a plain link then). */
  bookingUrl: string | null;
  /**
   * BUSINESS_TIMEZONE (contracts/business-time.ts), e.g. 'America/Chicago': the admin screens show
   * every time on the business's clock, named (issue 22). Absent from older gateways (then UTC).
   */
  businessTimeZone?: string;
}
