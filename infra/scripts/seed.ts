/**
 * `make seed`: the demo accounts of `make start` — an admin (ADMIN_USERNAME/ADMIN_PASSWORD)
 * and a demo agent (DEMO_AGENT_USERNAME, default demo.agent / DEMO_AGENT_PASSWORD). Existing
 * demo accounts get these passwords again, so the printed logins always work. Also a few
 * thousand demo aged leads for the market (topped up when fewer than 1000 are listable), and a
 * few demo callback opportunities (added once). Run after `make migrate`.
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

const config = loadConfig('seed', {
  DATABASE_URL: baseEnv.DATABASE_URL,
  LOG_LEVEL: baseEnv.LOG_LEVEL,
  ADMIN_USERNAME: z.string().min(1),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().default('admin@warmline.local')),
  DEMO_AGENT_USERNAME: z.string().min(1).default('demo.agent'),
  DEMO_AGENT_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
});
const log = createLogger('seed', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, GATEWAY_SCHEMA);
const catalogPool = createPool(config.DATABASE_URL, CATALOG_SCHEMA);
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
  if (outcome.admin === 'reset' || outcome.agent === 'reset') {
    log.info('a demo account that already existed got the password from var/local.env again');
  }
} catch (err) {
  log.fatal({ err }, 'seeding failed');
  process.exitCode = 1;
} finally {
  await pool.end();
  await catalogPool.end();
}
