import { loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { onShutdown } from '@warmline/platform/lifecycle';
import { notificationsEnv } from './config';
import { startNotifications } from './service';

const config = loadConfig('notifications', notificationsEnv);
const log = createLogger('notifications', config.LOG_LEVEL);
try {
  const running = await startNotifications(config, log);
  onShutdown(log, [['notifications', running.stop]]);
} catch (err) {
  log.fatal({ err }, 'notifications failed to start');
  process.exit(1);
}
