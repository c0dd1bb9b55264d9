/** `make migrate`: runs every service's migrations against DATABASE_URL. */
import { baseEnv, loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { migrateAll } from './migrations';

const config = loadConfig('migrate', { DATABASE_URL: baseEnv.DATABASE_URL, LOG_LEVEL: baseEnv.LOG_LEVEL });
const log = createLogger('migrate', config.LOG_LEVEL);
try {
  const done = await migrateAll(config.DATABASE_URL, log);
  log.info({ schemas: done.map((m) => m.schema) }, 'migrations done');
} catch (err) {
  log.fatal({ err }, 'migrations failed');
  process.exit(1);
}
