import { loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { onShutdown } from '@warmline/platform/lifecycle';
import { catalogEnv } from './config';
import { startCatalog } from './service';

const config = loadConfig('catalog', catalogEnv);
const log = createLogger('catalog', config.LOG_LEVEL);
try {
  const running = await startCatalog(config, log);
  onShutdown(log, [['catalog', running.stop]]);
} catch (err) {
  log.fatal({ err }, 'catalog failed to start');
  process.exit(1);
}
