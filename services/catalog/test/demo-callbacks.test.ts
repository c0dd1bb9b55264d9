import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations, type Pool } from '@warmline/platform';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { CATALOG_MIGRATIONS_DIR, CATALOG_SCHEMA } from '../src/service';
import { seedDemoCallbackOpportunities } from '../src/demo-callbacks';

/** The demo callback opportunities of `make seed`. */

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('wl_catalog_cbseed');
  await runMigrations({ databaseUrl: db.url, schema: CATALOG_SCHEMA, dir: CATALOG_MIGRATIONS_DIR });
  pool = createPool(db.url, CATALOG_SCHEMA);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('demo callback opportunities', () => {
  it('when the seed runs twice, then one of each source (and one waiting for a state) exists once', async () => {
    const first = await seedDemoCallbackOpportunities(pool);
    const again = await seedDemoCallbackOpportunities(pool);

    expect(first.added).toBe(4);
    expect(again.added).toBe(0);
    const { rows } = await pool.query<{ source: string; waiting: boolean }>(
      "SELECT source, state IS NULL AS waiting FROM callback_opportunities WHERE status = 'available' ORDER BY id",
    );
    expect(rows).toEqual([
      { source: 'vendor', waiting: false },
      { source: 'vendor', waiting: true },
      { source: 'csv', waiting: false },
      { source: 'manual', waiting: false },
    ]);
  });
});
