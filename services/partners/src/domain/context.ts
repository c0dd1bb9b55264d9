import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { BlobStore } from '@warmline/platform/blob-store/index';

/** What the use cases of the partners service work with. */
export interface PartnersContext {
  pool: Pool;
  log: Logger;
  /** "Now" for applications and status changes (tests may fix it). */
  clock: () => Date;
  /** Where the applications' documents are kept. */
  blobs: BlobStore;
}

/** The `source` of every message this service states. */
export const SOURCE = 'partners';
