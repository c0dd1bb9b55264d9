import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations, type Pool } from '@warmline/platform';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { US_STATE_CODES } from '@warmline/contracts/us-states';
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

  it('when demo leads are made, then about nine in ten carry a whole consent record (certificate, a time seconds after the form fill, a documentation address) and the rest none', async () => {
    const { rows } = await pool.query<{
      total: number;
      whole: number;
      none: number;
      partial: number;
      bad_certificate: number;
      bad_time: number;
      bad_address: number;
      v6: number;
      certificates: number;
    }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE consent_certificate IS NOT NULL AND consent_time IS NOT NULL AND consent_ip IS NOT NULL)::int AS whole,
              count(*) FILTER (WHERE consent_certificate IS NULL AND consent_time IS NULL AND consent_ip IS NULL AND consent = '{}')::int AS none,
              count(*) FILTER (WHERE num_nulls(consent_certificate, consent_time, consent_ip) IN (1, 2))::int AS partial,
              count(*) FILTER (WHERE consent_certificate !~ '^https://cert\.trustedform\.com/[0-9a-f]{40}$')::int AS bad_certificate,
              count(*) FILTER (WHERE consent_time NOT BETWEEN form_fill_time + interval '1 second' AND form_fill_time + interval '1 minute')::int AS bad_time,
              count(*) FILTER (WHERE NOT (consent_ip << ANY(ARRAY['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32']::inet[])))::int AS bad_address,
              count(*) FILTER (WHERE family(consent_ip) = 6)::int AS v6,
              count(DISTINCT consent_certificate)::int AS certificates
         FROM aged_leads`,
    );
    const r = rows[0]!;

    expect(r.whole + r.none).toBe(r.total);
    expect(r.partial).toBe(0);
    expect(r.none / r.total).toBeGreaterThan(0.05);
    expect(r.none / r.total).toBeLessThan(0.15);
    expect([r.bad_certificate, r.bad_time, r.bad_address]).toEqual([0, 0, 0]);
    expect(r.v6).toBeGreaterThan(0);
    expect(r.v6).toBeLessThan(r.whole);
    expect(r.certificates).toBe(r.whole);
  });

  it('when leads are loaded in bulk, then the indexes come back and the per-day stock matches the leads', async () => {
    const indexes = () =>
      pool
        .query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE schemaname = 'catalog' AND tablename = 'aged_leads' ORDER BY indexname")
        .then((r) => r.rows.map((row) => row.indexdef));
    const before = await countListableLeads(pool);
    const indexesBefore = await indexes();

    await bulkLoadDemoLeads(pool, 4000);

    expect(await countListableLeads(pool)).toBeGreaterThan(before + 2000);
    // Each index as it was (the market's, the phone and import lookups, the primary key).
    expect(indexesBefore.length).toBeGreaterThanOrEqual(6);
    expect(await indexes()).toEqual(indexesBefore);
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
