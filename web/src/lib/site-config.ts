import { useQuery } from '@tanstack/react-query';
import type { SiteConfigResponse } from '@warmline/contracts/site-config';
import { apiRequest } from './api';

/**
 * The site's contact details, testimonial and booking widget (`GET /api/site-config`, the
 * gateway's configuration). Shared by every public page that shows a phone or e-mail.
 *
 * The gateway also writes them into every page it serves (`<script id="site-config">`, see
 * services/gateway/src/edge/spa.ts): read from there, a prerendered page hydrates with exactly
 * the settings its markup shows, and no request is made.
 */
export const siteConfigKeys = {
  all: ['site-config'] as const,
};

export type SiteConfig = SiteConfigResponse;

function isSiteConfig(value: unknown): value is SiteConfig {
  if (typeof value !== 'object' || value === null) return false;
  const site = value as Partial<Record<keyof SiteConfig, unknown>>;
  const testimonial = site.testimonial as Partial<Record<keyof SiteConfig['testimonial'], unknown>> | null | undefined;
  return (
    typeof site.supportPhone === 'string' &&
    typeof site.supportEmail === 'string' &&
    (site.bookingUrl === null || typeof site.bookingUrl === 'string') &&
    typeof testimonial?.name === 'string' &&
    typeof testimonial.title === 'string' &&
    typeof testimonial.quote === 'string'
  );
}

/** The settings the page was served with, if the gateway wrote them (not under `vite dev`). */
export function servedSiteConfig(): SiteConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById('site-config')?.textContent;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isSiteConfig(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A phone number as a `tel:` link dials it; the gateway fills prerendered links by the same rule. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function useSiteConfig() {
  return useQuery({
    queryKey: siteConfigKeys.all,
    queryFn: ({ signal }) => apiRequest<SiteConfig>('/api/site-config', { signal }),
    initialData: servedSiteConfig,
  });
}
