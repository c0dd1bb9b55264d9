import { createLogger, loadConfig, onShutdown } from '@warmline/platform';
import { gatewayEnv } from './config';
import { startGateway } from './service';

const config = loadConfig('gateway', gatewayEnv);
const log = createLogger('gateway', config.LOG_LEVEL);

try {
  const gateway = await startGateway(config, { log });
  onShutdown(log, [['gateway', () => gateway.stop()]]);
} catch (err) {
  log.fatal({ err }, 'gateway failed to start');
  process.exit(1);
}
