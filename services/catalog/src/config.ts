import { z } from 'zod';
import { baseEnv } from '@warmline/platform/config';

export const catalogEnv = {
  ...baseEnv,
  CATALOG_PORT: z.coerce.number().int().min(0).max(65535).default(3101),
  /** The orders service, which takes the payment of reserved leads. */
  ORDERS_URL: z.url().default('http://127.0.0.1:3102'),
  /** The gateway's internal listener, which owns users: a buyer's e-mail for an opt-out notice. */
  GATEWAY_INTERNAL_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('http://127.0.0.1:3100'),
  /** How often unpaid reservations older than 15 minutes are released. */
  RESERVATION_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
};

export type CatalogConfig = z.infer<z.ZodObject<typeof catalogEnv>>;
