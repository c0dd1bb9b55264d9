import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations, type Pool } from '@warmline/platform';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { US_STATE_CODES } from '@warmline/contracts/catalog';
import { CATALOG_MIGRATIONS_DIR, CATALOG_SCHEMA } from '../src/service';
import { bulkLoadDemoLeads, countListableLeads, DEMO_LEAD_BATCH, seedDemoLeads } from '../src/demo-leads';

/** The demo inventory of `make start` and the generator behind `npm run seed:leads`. */

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase('wl_catalog_seed');
  await runMigrations({ databaseUrl: db.url, schema: CATALOG_SCHEMA, dir: CATALOG_MIGRATIONS_DIR });
  pool = createPool(db.url, CATALOG_SCHEMA);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('demo leads', () => {
  it('when make start seeds, then a few thousand leads across states and ages appear, and seeding again adds none', async () => {
    const first = await seedDemoLeads(pool);
    const again = await seedDemoLeads(pool);

    expect(first.added).toBe(DEMO_LEAD_BATCH);
    expect(first.listable).toBeGreaterThan(1000);
    expect(again).toEqual({ added: 0, listable: first.listable });
    const { rows } = await pool.query<{ states: number; too_young: number; too_old: number; ranges: number }>(
      `SELECT count(DISTINCT state)::int AS states,
              count(*) FILTER (WHERE form_fill_time > now() - interval '30 days')::int AS too_young,
              count(*) FILTER (WHERE form_fill_time <= now() - interval '181 days')::int AS too_old,
              count(DISTINCT width_bucket(extract(epoch FROM now() - form_fill_time) / 86400, ARRAY[30, 61, 91, 181]))::int AS ranges
         FROM aged_leads`,
    );
    expect(rows[0]?.states).toBeGreaterThan(40);
    expect(rows[0]?.too_young).toBeGreaterThan(0);
    expect(rows[0]?.too_old).toBeGreaterThan(0);
    expect(rows[0]?.ranges).toBe(5);
    const { rows: bad } = await pool.query('SELECT state FROM aged_leads WHERE NOT (state = ANY($1::text[]))', [[...US_STATE_CODES]]);
    expect(bad).toEqual([]);
    // Every demo lead has a zip code, so the zip filter has something to find.
    const { rows: zips } = await pool.query<{ missing: number; distinct: number }>(
      "SELECT count(*) FILTER (WHERE zip IS NULL OR zip !~ '^[0-9]{5}$')::int AS missing, count(DISTINCT zip)::int AS distinct FROM aged_leads",
    );
    expect(zips[0]?.missing).toBe(0);
    expect(zips[0]?.distinct).toBeGreaterThan(500);
  });

  it('when leads are loaded in bulk, then the indexes come back and the per-day stock matches the leads', async () => {
    const before = await countListableLeads(pool);

    await bulkLoadDemoLeads(pool, 4000);

    expect(await countListableLeads(pool)).toBeGreaterThan(before + 2000);
    const { rows: indexes } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'catalog' AND tablename = 'aged_leads'",
    );
    expect(indexes[0]?.n).toBe(6);
    const { rows } = await pool.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM (
         SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, count(*)::int AS n
           FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2, 3) AS actual
       FULL JOIN lead_stock s USING (fill_day, state, area_code)
      WHERE actual.n IS DISTINCT FROM s.leads`,
    );
    expect(rows[0]?.bad).toBe(0);
    const { rows: daily } = await pool.query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM (SELECT fill_day, sum(leads)::int AS n FROM lead_stock GROUP BY 1) AS s
       FULL JOIN lead_stock_daily d USING (fill_day) WHERE s.n IS DISTINCT FROM d.leads`,
    );
    expect(daily[0]?.bad).toBe(0);
  });
});
