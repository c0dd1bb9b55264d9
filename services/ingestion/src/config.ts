import { z } from 'zod';
import { baseEnv } from '@warmline/platform/config';

export const ingestionEnv = {
  ...baseEnv,
  INGESTION_PORT: z.coerce.number().int().min(0).max(65535).default(3104),
  /** Connections in the pool: each webhook call holds one for its short transaction. */
  INGESTION_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How long a vendor key found active is believed without looking again (docs/adr/0051): the
   * bound on a revocation reaching a process that missed its announcement. 0: every call looks.
   */
  VENDOR_KEY_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
};

export type IngestionConfig = z.infer<z.ZodObject<typeof ingestionEnv>>;
