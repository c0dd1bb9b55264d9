import { ConfigError, loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { onShutdown } from '@warmline/platform/lifecycle';
import { ordersEnv } from './config';
import { startOrders } from './service';

const config = loadConfig('orders', ordersEnv);
const log = createLogger('orders', config.LOG_LEVEL);
try {
  const running = await startOrders(config, log);
  onShutdown(log, [['orders', running.stop]]);
} catch (err) {
  if (err instanceof ConfigError) {
    // A payment configuration that cannot work: one line, like any other bad variable.
    process.stderr.write(`orders: ${err.message}\n`);
    process.exit(78);
  }
  log.fatal({ err }, 'orders failed to start');
  process.exit(1);
}
