import type { Pool } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import type { PaymentProvider } from './payment-provider';

/** What the use cases of the orders service work with. */
export interface OrdersContext {
  pool: Pool;
  provider: PaymentProvider;
  log: Logger;
}

/** The `source` of every message this service states. */
export const SOURCE = 'orders';
