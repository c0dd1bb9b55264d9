import { z } from 'zod';
import { baseEnv, privateKeyEnv } from '@warmline/platform/config';
import { vendorKeyCacheEnv } from '@warmline/platform/db/vendor-key-cache';
import { businessTimezoneSchema } from '@warmline/contracts';

export const transfersEnv = {
  ...baseEnv,
  TRANSFERS_PORT: z.coerce.number().int().min(0).max(65535).default(3107),
  /** The transfers service's own Ed25519 key, for its calls to orders, the catalog and the gateway (docs/adr/0042). */
  TRANSFERS_SERVICE_KEY: privateKeyEnv,
  /** The gateway's internal listener, which owns users: an agent's name, e-mail and survey answers. */
  GATEWAY_INTERNAL_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('http://127.0.0.1:3100'),
  /** The orders service: an agent's latest transfer order, to suggest delivery settings. */
  ORDERS_URL: z.url().default('http://127.0.0.1:3102'),
  /** The catalog service: the national DNC registry's check of an agent's transfers (issue 24). */
  CATALOG_URL: z.url().default('http://127.0.0.1:3101'),
  /** The business's clock for the admin's days (the Transfers tab, revenue per day). */
  BUSINESS_TIMEZONE: businessTimezoneSchema,
  /** How long a vendor key's copy found active is believed (docs/adr/0051). */
  ...vendorKeyCacheEnv,
};

export type TransfersConfig = z.infer<z.ZodObject<typeof transfersEnv>>;
