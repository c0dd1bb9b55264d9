import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';

/** What the use cases of the ingestion service work with. */
export interface IngestionContext {
  pool: Pool;
  log: Logger;
  /** "Now" for calls and keys (tests may fix it). */
  clock: () => Date;
}

/** The `source` of every message this service states. */
export const SOURCE = 'ingestion';
