import { customerSearchAnswerSchema } from '@warmline/contracts';
import type { KeyObject } from 'node:crypto';
import { IDENTITY_HEADER, signIdentity } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';
import type { SearchSource } from '../domain/customer-search';

/**
 * Another service's part of the customer search: `GET /internal/search?q=` with the admin's
 * identity, signed for that service. An answer that is not the contract's shape counts as a failed source (left
 * out and named as partial), never as the gateway's 500.
 */
export function internalSearchSource(options: { name: string; baseUrl: string; identityKey: KeyObject; admin: Identity; correlationId: string }): SearchSource {
  return {
    name: options.name,
    async search(text, signal, limit) {
      const url = new URL('/internal/search', options.baseUrl);
      url.searchParams.set('q', text);
      url.searchParams.set('limit', String(limit));
      const response = await fetch(url, {
        headers: { [IDENTITY_HEADER]: signIdentity(options.identityKey, options.name, options.admin), 'x-request-id': options.correlationId },
        signal,
      });
      if (!response.ok) throw new Error(`${options.name} answered ${response.status} to /internal/search`);
      return customerSearchAnswerSchema.parse(await response.json());
    },
  };
}
