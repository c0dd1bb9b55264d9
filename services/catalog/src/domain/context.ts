import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { OrdersClient } from '../clients/orders-client';

/** What the use cases of the catalog service work with. */
export interface CatalogContext {
  pool: Pool;
  log: Logger;
  /** The time of "now" for ages, prices and reservations (tests move it forward). */
  clock: () => Date;
  orders: OrdersClient;
}

/** The `source` of every message this service states. */
export const SOURCE = 'catalog';
