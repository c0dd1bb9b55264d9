/**
 * `make seed`: the demo accounts of `make start` — an admin (ADMIN_USERNAME/ADMIN_PASSWORD)
 * and a demo agent (DEMO_AGENT_USERNAME, default demo.agent / DEMO_AGENT_PASSWORD). Existing
 * demo accounts get these passwords again, so the printed logins always work. Also a few
 * thousand demo aged leads for the market (topped up when fewer than 1000 are listable), and a
 * few demo callback opportunities (added once). Live transfers (issue 23): the demo agent gets
 * a paid Premium package and delivery settings, and the demo vendor key (DEMO_VENDOR_KEY, which
 * infra/scripts/env.sh writes to var/local.env) is registered in ingestion and in the transfers
 * service's mirror, so `npm run simulate:vendor` can call as the vendor. Run after `make migrate`.
 */
import { z } from 'zod';
import { baseEnv, loadConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import { createPool } from '@warmline/platform/db/index';
import { GATEWAY_SCHEMA } from '@warmline/gateway/service';
import { seedDemoAccounts, seedDemoSalespeople, DEMO_SALESPERSON } from '@warmline/gateway/seed';
import { CATALOG_SCHEMA } from '@warmline/catalog/service';
import { seedDemoLeads } from '@warmline/catalog/demo-leads';
import { seedDemoCallbackOpportunities } from '@warmline/catalog/demo-callbacks';
import { INGESTION_SCHEMA } from '@warmline/ingestion/service';
import { TRANSFERS_SCHEMA } from '@warmline/transfers/service';
import { DEMO_VENDOR_KEY_ID, DEMO_VENDOR_NAME, demoTransferAgent, seedTransferAgent, seedVendorKeyMirror, vendorKeyHash } from '@warmline/transfers/demo-transfers';
import { VENDOR_KEY_PREFIX } from '@warmline/contracts';

const config = loadConfig('seed', {
  DATABASE_URL: baseEnv.DATABASE_URL,
  LOG_LEVEL: baseEnv.LOG_LEVEL,
  ADMIN_USERNAME: z.string().min(1),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().default('admin@warmline.local')),
  DEMO_AGENT_USERNAME: z.string().min(1).default('demo.agent'),
  DEMO_AGENT_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
  DEMO_VENDOR_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().regex(new RegExp(`^${VENDOR_KEY_PREFIX}[A-Za-z0-9_-]{24,100}$`), `must be ${VENDOR_KEY_PREFIX} and 24+ letters, digits, - or _ (make env writes one)`).optional(),
  ),
});
const log = createLogger('seed', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, GATEWAY_SCHEMA);
const catalogPool = createPool(config.DATABASE_URL, CATALOG_SCHEMA);
const transfersPool = createPool(config.DATABASE_URL, TRANSFERS_SCHEMA);
const ingestionPool = createPool(config.DATABASE_URL, INGESTION_SCHEMA);
try {
  const outcome = await seedDemoAccounts(pool, {
    admin: { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD, email: config.ADMIN_EMAIL },
    agent: {
      username: config.DEMO_AGENT_USERNAME,
      password: config.DEMO_AGENT_PASSWORD,
      email: 'demo.agent@warmline.local',
      role: 'Insurance Agent',
    },
  });
  log.info({ admin: config.ADMIN_USERNAME, agent: config.DEMO_AGENT_USERNAME, outcome }, 'demo accounts ready');
  const [salesperson] = await seedDemoSalespeople(pool);
  log.info({ referralSurvey: `/${DEMO_SALESPERSON.slug}`, outcome: salesperson }, 'demo salesperson ready');
  const leads = await seedDemoLeads(catalogPool);
  log.info(leads, 'demo aged leads ready');
  const callbacks = await seedDemoCallbackOpportunities(catalogPool);
  log.info(callbacks, 'demo callback opportunities ready');
  await seedDemoTransfers();
  if (outcome.admin === 'reset' || outcome.agent === 'reset') {
    log.info('a demo account that already existed got the password from var/local.env again');
  }
} catch (err) {
  log.fatal({ err }, 'seeding failed');
  process.exitCode = 1;
} finally {
  await pool.end();
  await catalogPool.end();
  await transfersPool.end();
  await ingestionPool.end();
}

/** The demo agent's Premium package and delivery settings, and the demo vendor's key in both services. */
async function seedDemoTransfers(): Promise<void> {
  const { rows } = await pool.query<{ id: string; name: string }>(
    "SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE username = $1",
    [config.DEMO_AGENT_USERNAME],
  );
  const agent = rows[0];
  if (!agent) throw new Error(`the demo agent ${config.DEMO_AGENT_USERNAME} was not found after seeding it`);
  const transfers = await seedTransferAgent(transfersPool, demoTransferAgent(agent.id, agent.name || config.DEMO_AGENT_USERNAME));
  log.info(transfers, 'demo agent ready for live transfers (Premium package, delivery settings)');

  const key = config.DEMO_VENDOR_KEY;
  if (!key) {
    log.warn('DEMO_VENDOR_KEY is not set: no demo vendor key (run through make seed, or create a key in Admin → Vendor keys)');
    return;
  }
  // ingestion's own table (it checks the webhook's key), then the transfers service's mirror of it.
  await ingestionPool.query(
    `INSERT INTO vendor_keys (id, name, key_hash, key_hint, created_by) VALUES ($1, $2, $3, $4, 'make seed')
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, key_hash = EXCLUDED.key_hash, key_hint = EXCLUDED.key_hint, revoked_at = NULL`,
    [DEMO_VENDOR_KEY_ID, DEMO_VENDOR_NAME, vendorKeyHash(key), key.slice(0, VENDOR_KEY_PREFIX.length + 4)],
  );
  await seedVendorKeyMirror(transfersPool, { id: DEMO_VENDOR_KEY_ID, name: DEMO_VENDOR_NAME, key });
  log.info({ vendorKey: `${key.slice(0, VENDOR_KEY_PREFIX.length + 4)}… (DEMO_VENDOR_KEY in var/local.env)` }, 'demo vendor key ready');
}
