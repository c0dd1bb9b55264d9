import { z } from 'zod';
import { baseEnv } from '@warmline/platform/config';
import { vendorKeyCacheEnv } from '@warmline/platform/db/vendor-key-cache';

export const ingestionEnv = {
  ...baseEnv,
  INGESTION_PORT: z.coerce.number().int().min(0).max(65535).default(3104),
  /** Connections in the pool: each webhook call holds one for its short transaction. */
  INGESTION_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ...vendorKeyCacheEnv,
};

export type IngestionConfig = z.infer<z.ZodObject<typeof ingestionEnv>>;
