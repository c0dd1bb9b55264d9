import { useQuery } from '@tanstack/react-query';
import type { SiteConfigResponse } from '@warmline/contracts/site-config';
import { apiRequest } from './api';

/**
 * The site's contact details, testimonial and booking widget (`GET /api/site-config`, the
 * gateway's configuration). Shared by every public page that shows a phone or e-mail.
 */
export const siteConfigKeys = {
  all: ['site-config'] as const,
};

export type SiteConfig = SiteConfigResponse;

export function useSiteConfig() {
  return useQuery({
    queryKey: siteConfigKeys.all,
    queryFn: ({ signal }) => apiRequest<SiteConfig>('/api/site-config', { signal }),
  });
}
