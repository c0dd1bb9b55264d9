import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/index';

/**
 * `make seed` for live transfers (issue 23 §9): the demo agent gets a paid Premium package and
 * delivery settings, and DEMO_VENDOR_KEY is the demo vendor's key in ingestion and in the
 * transfers service's mirror, so `make start` and `npm run simulate:vendor` show a living My
 * Transfers. Seeding again changes nothing; a new key text replaces the old one in both.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const KEY = 'wlv_seed-test-key-0123456789abcdefghijkl';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let db: TestDatabase;
let client: pg.Client;

function script(name: string, env: Record<string, string> = {}) {
  const result = spawnSync(TSX, [`infra/scripts/${name}`], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'seed-test-admin-pw',
      DEMO_AGENT_PASSWORD: 'seed-test-agent-pw',
      DEMO_VENDOR_KEY: KEY,
      ...env,
    },
  });
  expect(result.stderr + result.stdout).not.toMatch(/"level":(50|60)/);
  expect(result.status).toBe(0);
}

async function snapshot() {
  const q = async (sql: string) => (await client.query(sql)).rows as Array<Record<string, unknown>>;
  return {
    agents: await q(`SELECT a.display_name, a.transfer_phone, a.states, a.time_zone, a.hours, a.daily_cap, a.at_once, a.paused, a.balance
                       FROM transfers.agents a JOIN gateway.users u ON u.id = a.user_id WHERE u.username = 'demo.agent'`),
    lots: await q('SELECT source, order_id::text, unit_cents, paid_cents, credited, remaining FROM transfers.credit_lots'),
    entries: await q('SELECT kind, transfers, unit_cents, cause_id FROM transfers.ledger_entries'),
    mirror: await q('SELECT id::text, name, key_hash, revoked_at FROM transfers.vendor_keys'),
    ingestion: await q('SELECT id::text, name, key_hash, key_hint, revoked_at FROM ingestion.vendor_keys'),
  };
}

beforeAll(async () => {
  db = await createTestDatabase('wl_ops_seed_transfers');
  script('migrate.ts');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

describe('make seed: live transfers', () => {
  it('when seeded, then the demo agent has a paid Premium package and settings, and the demo key is the vendor\'s in both services; seeding again changes nothing', async () => {
    script('seed.ts');
    const first = await snapshot();
    expect(first.agents).toEqual([
      {
        display_name: 'Demo Agent',
        transfer_phone: '5125550143',
        states: ['FL', 'GA', 'IL', 'TX'],
        time_zone: 'America/Chicago',
        hours: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, from: '08:00', to: '20:00' })),
        daily_cap: 50,
        at_once: 1,
        paused: false,
        balance: 100,
      },
    ]);
    expect(first.lots).toEqual([expect.objectContaining({ source: 'order', unit_cents: 3700, paid_cents: 370_000, credited: 100, remaining: 100 })]);
    expect(first.entries).toEqual([expect.objectContaining({ kind: 'order_credit', transfers: 100, unit_cents: 3700 })]);
    expect(first.ingestion).toEqual([expect.objectContaining({ key_hash: sha256(KEY), key_hint: KEY.slice(0, 8), revoked_at: null })]);
    expect(first.mirror).toEqual([expect.objectContaining({ id: first.ingestion[0]!.id, key_hash: sha256(KEY), revoked_at: null })]);

    script('seed.ts');
    expect(await snapshot()).toEqual(first);
  });

  it('when the agent saved settings of their own and the key text changed, then a re-seed keeps their settings and moves both key rows to the new text', async () => {
    await client.query("UPDATE transfers.agents SET states = '{NY}', paused = true");
    script('seed.ts', { DEMO_VENDOR_KEY: `${KEY}-new` });
    const after = await snapshot();
    expect(after.agents[0]).toEqual(expect.objectContaining({ states: ['NY'], paused: true, balance: 100 }));
    expect(after.ingestion.map((k) => k.key_hash)).toEqual([sha256(`${KEY}-new`)]);
    expect(after.mirror.map((k) => k.key_hash)).toEqual([sha256(`${KEY}-new`)]);
  });
});
