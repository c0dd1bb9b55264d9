import { z } from 'zod';
import { baseEnv } from '@warmline/platform/config';
import { blobStoreEnv } from '@warmline/platform/blob-store/index';

export const partnersEnv = {
  ...baseEnv,
  ...blobStoreEnv,
  PARTNERS_PORT: z.coerce.number().int().min(0).max(65535).default(3103),
};

export type PartnersConfig = z.infer<z.ZodObject<typeof partnersEnv>>;
