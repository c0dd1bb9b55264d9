import type { SiteConfig } from '../src/lib/site-config';

/** The site's settings as the gateway serves them, with the business on Chicago's clock. */
export const TEST_SITE: SiteConfig = {
  supportPhone: '(555) 010-0199',
  supportEmail: 'support@warmline.local',
  ringcloudSupportEmail: 'support@ringcloud.local',
  testimonial: { name: 'Sarah Mitchell', title: 'Agency Owner', quote: 'Great.' },
  bookingUrl: null,
  businessTimeZone: 'America/Chicago',
};
