import type { Pool } from '@warmline/platform/db/index';
import type { VendorKeyCache } from '@warmline/platform/db/vendor-key-cache';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient } from '../clients/gateway-client';
import type { OrdersClient } from '../clients/orders-client';
import type { CatalogClient } from '../clients/catalog-client';

/** What the use cases of the transfers service work with. */
export interface TransfersContext {
  pool: Pool;
  log: Logger;
  /** "Now" for routing, reservations, hours, caps and the dispute window (tests move it). */
  clock: () => Date;
  /** The business's zone: the admin's days. */
  businessTimeZone: string;
  gateway: GatewayClient;
  orders: OrdersClient;
  /** Issue 24: the national DNC registry's checks (My Transfers shows them when the catalog answers). */
  catalog?: CatalogClient;
  /** The vendor keys' copies recently found active (docs/adr/0051); a revocation's copy evicts them. */
  vendorKeys: VendorKeyCache<{ id: string }>;
}

/** The `source` of every message this service states. */
export const SOURCE = 'transfers';
