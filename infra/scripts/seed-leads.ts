/**
 * `npm run seed:leads -- --count 1000000`: fills the catalog with generated aged leads (for
 * benchmarks and demos), in batches of multi-row inserts, against DATABASE_URL. Migrates the
 * catalog schema first, so it also works on an empty database. Adds to what is there.
 *
 * From 50,000 leads up it loads in bulk (indexes rebuilt afterwards, two connections): run it
 * against a database the services are not busy with, such as the benchmark's.
 *
 *   --count N   how many leads to add (default 1000)
 *   --seed N    the generator's seed (default: a fixed one, so runs look alike)
 */
import { parseArgs } from 'node:util';
import { baseEnv, loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { createPool, runMigrations } from '@warmline/platform/db/index';
import { CATALOG_MIGRATIONS_DIR, CATALOG_SCHEMA } from '@warmline/catalog/service';
import { bulkLoadDemoLeads, insertDemoLeads } from '@warmline/catalog/demo-leads';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '1000' }, seed: { type: 'string' } },
  allowPositionals: false,
});
const count = Number(values.count);
if (!Number.isSafeInteger(count) || count < 1) {
  process.stderr.write('seed:leads: --count must be a whole number of 1 or more\n');
  process.exit(64);
}
const config = loadConfig('seed:leads', { DATABASE_URL: baseEnv.DATABASE_URL, LOG_LEVEL: baseEnv.LOG_LEVEL });
const log = createLogger('seed-leads', config.LOG_LEVEL);
await runMigrations({ databaseUrl: config.DATABASE_URL, schema: CATALOG_SCHEMA, dir: CATALOG_MIGRATIONS_DIR, log, roles: {} });
const pool = createPool(config.DATABASE_URL, CATALOG_SCHEMA, 3);
const started = Date.now();
let reported = 0;
try {
  const load = count >= 50_000 ? bulkLoadDemoLeads : insertDemoLeads;
  const inserted = await load(pool, count, {
    ...(values.seed ? { seed: Number(values.seed) } : { seed: Date.now() % 2 ** 31 }),
    onProgress: (n) => {
      if (n - reported >= 100_000 || n >= count) {
        reported = n;
        log.info({ inserted: n, of: count, seconds: Math.round((Date.now() - started) / 1000) }, 'leads inserted');
      }
    },
  });
  // Fresh statistics and visibility map, so the planner uses the market's indexes (index-only).
  await pool.query('VACUUM (ANALYZE) aged_leads');
  await pool.query('ANALYZE lead_stock');
  const seconds = (Date.now() - started) / 1000;
  log.info({ inserted, seconds: Math.round(seconds), perSecond: Math.round(inserted / seconds) }, 'demo leads ready');
} catch (err) {
  log.fatal({ err }, 'seeding leads failed');
  process.exitCode = 1;
} finally {
  await pool.end();
}
