/**
 * `make migrate`, and the Kubernetes migration Job: runs every service's migrations against
 * DATABASE_URL, then the broker layout migration against AMQP_URL (docs/adr/0038).
 *   --broker-only    only the broker layout (AMQP_URL, BUS_NAMESPACE)
 *   --database-only  only the database schemas
 */
import { baseEnv, loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { migrateBroker } from '@warmline/platform/bus/migrate-broker';
import { migrateAll } from './migrations';

const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => a !== '--broker-only' && a !== '--database-only');
if (unknown.length > 0 || args.size > 1) {
  process.stderr.write(`usage: migrate.ts [--broker-only | --database-only] (got ${process.argv.slice(2).join(' ')})\n`);
  process.exit(64);
}
const config = loadConfig('migrate', {
  DATABASE_URL: baseEnv.DATABASE_URL,
  AMQP_URL: baseEnv.AMQP_URL,
  BUS_NAMESPACE: baseEnv.BUS_NAMESPACE,
  LOG_LEVEL: baseEnv.LOG_LEVEL,
});
const log = createLogger('migrate', config.LOG_LEVEL);
try {
  if (!args.has('--broker-only')) {
    const done = await migrateAll(config.DATABASE_URL, log);
    log.info({ schemas: done.map((m) => m.schema) }, 'migrations done');
  }
  if (!args.has('--database-only')) {
    await migrateBroker({ url: config.AMQP_URL, namespace: config.BUS_NAMESPACE, log });
    log.info({ namespace: config.BUS_NAMESPACE ?? '(none)' }, 'broker layout migrated');
  }
} catch (err) {
  log.fatal({ err }, 'migrations failed');
  process.exit(1);
}
