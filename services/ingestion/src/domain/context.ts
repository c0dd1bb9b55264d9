import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { VendorKeyCache } from './vendor-key-cache';

/** What the use cases of the ingestion service work with. */
export interface IngestionContext {
  pool: Pool;
  log: Logger;
  /** "Now" for calls and keys (tests may fix it). */
  clock: () => Date;
  /** Keys recently found active (docs/adr/0051). */
  vendorKeys: VendorKeyCache;
}

/** The `source` of every message this service states. */
export const SOURCE = 'ingestion';
