import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { BlobStore } from '@warmline/platform/blob-store/index';
import type { OrdersClient } from '../clients/orders-client';

/** What the use cases of the catalog service work with. */
export interface CatalogContext {
  pool: Pool;
  log: Logger;
  /** The time of "now" for ages, prices and reservations (tests move it forward). */
  clock: () => Date;
  orders: OrdersClient;
}

/** What the aged-lead imports and the admin's lead API work with besides (issue 13). */
export interface LeadImportContext extends CatalogContext {
  /** Where import files are kept. */
  blobs: BlobStore;
  /** Form-fill days and the duplicate rule are counted in this zone. */
  timeZone: string;
  /** The largest import file accepted, in bytes. */
  maxImportBytes: number;
}

/** The `source` of every message this service states. */
export const SOURCE = 'catalog';
