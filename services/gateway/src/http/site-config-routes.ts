import type { Router } from 'express';
import type { SiteConfigResponse } from '@warmline/contracts/site-config';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import type { GatewayConfig } from '../config';
import { sessionAsker } from '../edge/access';

/** What the public pages show from configuration, built once at start (it changes only with the config). */
export function siteConfigOf(config: GatewayConfig): SiteConfigResponse {
  return {
    supportPhone: config.SUPPORT_PHONE,
    supportEmail: config.SUPPORT_EMAIL,
    ringcloudSupportEmail: config.RINGCLOUD_SUPPORT_EMAIL,
    testimonial: { name: config.TESTIMONIAL_NAME, quote: config.TESTIMONIAL_QUOTE, title: config.TESTIMONIAL_TITLE },
    bookingUrl: config.BOOKING_URL ?? null,
    businessTimeZone: config.BUSINESS_TIMEZONE,
  };
}

/**
 * `GET /api/site-config`: public, no session needed (the landing page asks before anyone logs
 * in). `/api/config` is the orders service's payment configuration; this is the site's own.
 */
export function siteConfigRoutes(config: GatewayConfig): Router {
  const answer = siteConfigOf(config);
  return manifestRoutes('gateway', sessionAsker).on('GET /api/site-config', ({ res }) => {
    // Shared caches may keep it briefly; a config change shows within five minutes.
    res.setHeader('Cache-Control', 'public, max-age=300');
    return answer;
  }).router;
}
