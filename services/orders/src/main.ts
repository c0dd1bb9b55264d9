import { runService } from '@warmline/platform/lifecycle';
import { ordersEnv } from './config';
import { startOrders } from './service';

// A payment configuration that cannot work is a ConfigError: told in one line, like a bad variable.
await runService('orders', ordersEnv, startOrders);
