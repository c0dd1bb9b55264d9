import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { VendorKeyCache } from '@warmline/platform/db/vendor-key-cache';
import type { ActiveVendorKey } from '../db/vendor-keys';

/** What the use cases of the ingestion service work with. */
export interface IngestionContext {
  pool: Pool;
  log: Logger;
  /** "Now" for calls and keys (tests may fix it). */
  clock: () => Date;
  /** Keys recently found active (docs/adr/0051). */
  vendorKeys: VendorKeyCache<ActiveVendorKey>;
}

/** The `source` of every message this service states. */
export const SOURCE = 'ingestion';
