import { z } from 'zod';
import { SERVICE_CALL_HEADER, signServiceCall, type ServiceSigner } from '@warmline/platform/http/identity';
import { type Identity } from '@warmline/platform/identity';

/**
 * The catalog, as the transfers service asks it for the national DNC registry's check of the
 * phones an agent sees (issue 24): the registry is the catalog's, and this service may not read
 * its tables.
 */
export interface CatalogClient {
  /** The registry's answer for each of up to 100 ten-digit phones, asked as `agent`. */
  registryChecks(agent: Identity, phones: string[], correlationId: string): Promise<Map<string, { checkedOn: string | null; onRegistry: boolean }>>;
}

/** Answered by the catalog (never public: no /api/internal route is forwarded by the gateway). */
const REGISTRY_CHECKS_PATH = '/api/internal/dnc-registry/checks';

const checksAnswer = z.object({
  checks: z.record(z.string(), z.object({ checkedOn: z.string().nullable(), onRegistry: z.boolean() })),
});

export function httpCatalogClient(options: { baseUrl: string; signer: ServiceSigner; timeoutMs?: number }): CatalogClient {
  return {
    async registryChecks(agent, phones, correlationId) {
      if (phones.length === 0) return new Map();
      const response = await fetch(new URL(REGISTRY_CHECKS_PATH, options.baseUrl), {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          [SERVICE_CALL_HEADER]: signServiceCall(options.signer, 'catalog', agent),
          'x-request-id': correlationId,
        },
        body: JSON.stringify({ phones }),
        // My Transfers waits for this: a slow catalog costs the badge, not the page.
        signal: AbortSignal.timeout(options.timeoutMs ?? 2_000),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`catalog answered ${response.status} for registry checks: ${text.slice(0, 500)}`);
      const answer = checksAnswer.safeParse(JSON.parse(text));
      if (!answer.success) throw new Error(`the catalog's answer is not registry checks: ${answer.error.message}`);
      return new Map(Object.entries(answer.data.checks));
    },
  };
}
