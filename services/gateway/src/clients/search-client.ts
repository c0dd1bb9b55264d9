import type { CustomerSearchResult } from '@warmline/contracts';
import { IDENTITY_HEADER, signIdentity, type Identity } from '@warmline/platform/http/identity';
import type { SearchSource } from '../domain/customer-search';

/**
 * Another service's part of the customer search: `GET /internal/search?q=` with the admin's
 * signed identity. The partners service will be one more of these.
 */
export function internalSearchSource(options: { name: string; baseUrl: string; identitySecret: string; admin: Identity; correlationId: string }): SearchSource {
  return {
    name: options.name,
    async search(text, signal) {
      const url = new URL('/internal/search', options.baseUrl);
      url.searchParams.set('q', text);
      const response = await fetch(url, {
        headers: { [IDENTITY_HEADER]: signIdentity(options.identitySecret, options.admin), 'x-request-id': options.correlationId },
        signal,
      });
      if (!response.ok) throw new Error(`${options.name} answered ${response.status} to /internal/search`);
      return (await response.json()) as CustomerSearchResult[];
    },
  };
}
