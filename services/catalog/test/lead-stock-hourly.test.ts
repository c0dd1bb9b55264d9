import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedLead } from '@warmline/contracts';
import type { MarketLead } from '@warmline/contracts/catalog';
import { withTransaction } from '@warmline/platform/db/index';
import type { NewAgedLead } from '../src/db/leads';
import { loadLeadBatch } from '../src/imports/db/lead-batch-load';
import { rebuildLeadStock, setStockTriggerEnabled } from '../src/imports/db/bulk-load';
import { agent, phoneIn, startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The hourly stock (docs/adr/0054): per UTC hour and state, and per hour, kept by the same
 * statement trigger as the per-day stock through imports, sales, holds, returns and deletes,
 * and recounted by the bulk loads; and the market, which reads it for the two days the window
 * cuts and for where a page starts within its day, still lists exactly the listed leads.
 */

let fx: CatalogFixture;
const viewer = agent('hourly-viewer');
const otherBuyer = agent('hourly-other');
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  fx = await startCatalogFixture();
}, 60_000);

afterAll(async () => {
  await fx?.cleanup();
});

/** Rows of each stock table that differ from the unsold leads counted row by row (0 each when right). */
async function stockMismatches(): Promise<Record<string, number>> {
  const { rows } = await fx.pool.query<Record<string, number>>(
    `WITH unsold AS (SELECT form_fill_time, state, area_code FROM aged_leads WHERE sold_at IS NULL)
     SELECT
       (SELECT count(*) FROM (SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, count(*)::int AS n FROM unsold GROUP BY 1, 2, 3) a
          FULL JOIN (SELECT * FROM lead_stock WHERE leads <> 0) s USING (fill_day, state, area_code) WHERE a.n IS DISTINCT FROM s.leads)::int AS by_day,
       (SELECT count(*) FROM (SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, count(*)::int AS n FROM unsold GROUP BY 1) a
          FULL JOIN (SELECT * FROM lead_stock_daily WHERE leads <> 0) s USING (fill_day) WHERE a.n IS DISTINCT FROM s.leads)::int AS daily,
       (SELECT count(*) FROM (SELECT state, date_trunc('hour', form_fill_time, 'UTC') AS fill_hour, count(*)::int AS n FROM unsold GROUP BY 1, 2) a
          FULL JOIN (SELECT * FROM lead_stock_state_hourly WHERE leads <> 0) s USING (state, fill_hour) WHERE a.n IS DISTINCT FROM s.leads)::int AS state_hourly,
       (SELECT count(*) FROM (SELECT date_trunc('hour', form_fill_time, 'UTC') AS fill_hour, count(*)::int AS n FROM unsold GROUP BY 1) a
          FULL JOIN (SELECT * FROM lead_stock_hourly WHERE leads <> 0) s USING (fill_hour) WHERE a.n IS DISTINCT FROM s.leads)::int AS hourly`,
  );
  return rows[0]!;
}

const RIGHT = { by_day: 0, daily: 0, state_hourly: 0, hourly: 0 };

async function hourlyTotal(): Promise<number> {
  const { rows } = await fx.pool.query<{ n: number }>('SELECT coalesce(sum(leads), 0)::int AS n FROM lead_stock_hourly');
  return rows[0]!.n;
}

const STATES = ['TX', 'CA', 'NY', 'GA', 'FL', 'WA'] as const;

/** `n` leads spread over the hours of one day of age (`ageDays`), a few minutes off each hour's edges. */
function crowdedDay(ageDays: number, n: number, offset = 0): Array<Partial<NewAgedLead> & { ageDays: number; ageHours: number }> {
  return Array.from({ length: n }, (_, i) => {
    const state = STATES[(i + offset) % STATES.length]!;
    return { ageDays, ageHours: 0.1 + ((i * 7) % 238) / 10, state, phone: phoneIn(state === 'CA' ? '415' : '512'), zip: i % 40 === 3 ? '75201' : null };
  });
}

describe('the hourly stock', () => {
  it('when leads are inserted, imported, held, sold, returned and deleted, then the hourly counts stay equal to the unsold leads', async () => {
    const inserted = await fx.addLeads(crowdedDay(70, 120));
    expect(await stockMismatches()).toEqual(RIGHT);

    // An import batch (COPY straight into aged_leads).
    const at = fx.now().getTime() - 75 * DAY_MS;
    const batch = Array.from({ length: 40 }, (_, i): { rowNumber: number; lead: ImportedLead } => ({
      rowNumber: i + 2,
      lead: {
        name: 'Pat Doe',
        phone: `512${randomInt(2_000_000, 9_999_999)}`,
        email: null,
        state: STATES[i % STATES.length]!,
        zip: null,
        formFillTime: new Date(at - i * 37 * 60_000),
        source: 'vendor-test',
        consentCertificate: null,
        consentTime: null,
        consentIp: null,
      },
    }));
    const hourlyBefore = await hourlyTotal();
    const outcome = await withTransaction(fx.pool, (client) => loadLeadBatch(client, batch, { importId: null, timeZone: fx.config.BUSINESS_TIMEZONE }));
    expect(await hourlyTotal()).toBe(hourlyBefore + outcome.insertedRows.length);
    expect(await stockMismatches()).toEqual(RIGHT);

    // A hold changes nothing the stock counts; a sale takes the leads out; a return leaves them sold.
    const held = inserted.slice(0, 5).map((l) => l.id);
    await fx.pool.query(
      `UPDATE aged_leads SET held_by_order_id = gen_random_uuid(), held_by_user_id = $2, held_until = now() + interval '15 minutes' WHERE id = ANY($1::uuid[])`,
      [held, otherBuyer.userId],
    );
    const sold = inserted.slice(5, 20).map((l) => l.id);
    await fx.pool.query(
      `UPDATE aged_leads SET sold_to_user_id = $2, sold_order_id = gen_random_uuid(), sold_at = now(), sold_price_cents = 250, sold_age_range = '60-90'
        WHERE id = ANY($1::uuid[])`,
      [sold, otherBuyer.userId],
    );
    expect(await stockMismatches()).toEqual(RIGHT);
    await fx.pool.query('UPDATE aged_leads SET returned_at = now() WHERE id = ANY($1::uuid[])', [sold.slice(0, 3)]);
    // A lead whose form-fill time moves to another hour (a correction) moves between hours.
    await fx.pool.query("UPDATE aged_leads SET form_fill_time = form_fill_time - interval '3 hours' WHERE id = $1", [inserted[30]!.id]);
    await fx.pool.query('DELETE FROM aged_leads WHERE id = ANY($1::uuid[])', [inserted.slice(40, 50).map((l) => l.id)]);
    expect(await stockMismatches()).toEqual(RIGHT);
  });

  it('when a bulk load bypasses the trigger, then rebuildLeadStock recounts the hourly stock too', async () => {
    await setStockTriggerEnabled(fx.pool, false);
    try {
      await fx.addLeads(crowdedDay(90, 60));
    } finally {
      await setStockTriggerEnabled(fx.pool, true);
    }
    const behind = await stockMismatches();
    expect(behind.hourly).toBeGreaterThan(0);
    expect(behind.state_hourly).toBeGreaterThan(0);

    await rebuildLeadStock(fx.pool);

    expect(await stockMismatches()).toEqual(RIGHT);
  });
});

describe('the market on the hourly stock', () => {
  let listed: NewAgedLead[] = [];

  beforeAll(async () => {
    await fx.pool.query('DELETE FROM aged_leads');
    // Crowded days where the pages start mid-day: the two days the window cuts (30 and 180
    // days old, whole hours on either side of the cut) and one inside; a few elsewhere.
    const specs = [...crowdedDay(30, 260), ...crowdedDay(180, 200, 1), ...crowdedDay(100, 300, 2), ...crowdedDay(29, 20), ...crowdedDay(181, 20)];
    for (let d = 31; d < 180; d += 13) specs.push({ ageDays: d, ageHours: 5, state: 'TX', phone: phoneIn('512'), zip: null });
    const inventory = await fx.addLeads(specs);
    const now = fx.now().getTime();
    // Some held by another buyer (hidden from the viewer), some sold.
    const heldIds = inventory.filter((_, i) => i % 17 === 4).map((l) => l.id);
    const heldOrder = randomUUID();
    await fx.pool.query(
      `INSERT INTO lead_reservations (order_id, buyer_user_id, lead_count, amount_cents, created_at, expires_at)
       VALUES ($1, $2, $3, 100, now(), now() + interval '15 minutes')`,
      [heldOrder, otherBuyer.userId, heldIds.length],
    );
    await fx.pool.query(
      `INSERT INTO lead_reservation_items (order_id, lead_id, age_range, price_cents) SELECT $1, id, '30-60', 250 FROM unnest($2::uuid[]) AS id`,
      [heldOrder, heldIds],
    );
    await fx.pool.query(
      `UPDATE aged_leads SET held_by_order_id = $1, held_by_user_id = $2, held_until = now() + interval '15 minutes' WHERE id = ANY($3::uuid[])`,
      [heldOrder, otherBuyer.userId, heldIds],
    );
    const soldIds = inventory.filter((_, i) => i % 13 === 6 && i % 17 !== 4).map((l) => l.id);
    await fx.pool.query(
      `UPDATE aged_leads SET sold_to_user_id = $2, sold_order_id = gen_random_uuid(), sold_at = now(), sold_price_cents = 250, sold_age_range = '30-60'
        WHERE id = ANY($1::uuid[])`,
      [soldIds, otherBuyer.userId],
    );
    const hidden = new Set([...heldIds, ...soldIds]);
    listed = inventory
      .filter((l) => {
        const age = Math.floor((now - l.formFillTime.getTime()) / DAY_MS);
        return age >= 30 && age <= 180 && !hidden.has(l.id);
      })
      .sort((a, b) => b.formFillTime.getTime() - a.formFillTime.getTime() || (a.id < b.id ? 1 : -1));
    // The crowded days do start pages mid-day, hours in.
    expect(listed.length).toBeGreaterThan(600);
    expect(Math.abs(listed[0]!.formFillTime.getTime() - listed[49]!.formFillTime.getTime())).toBeGreaterThan(2 * HOUR_MS);
  });

  async function everyPage(filter: string): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    for (let page = 1; page < 40; page += 1) {
      const answer = await fx.call('GET', `/api/aged-leads?page=${page}&filter=${encodeURIComponent(filter)}`, { identity: viewer });
      expect(answer.status).toBe(200);
      totals.push(Number(answer.body.total));
      const leads = answer.body.leads as MarketLead[];
      if (leads.length === 0) break;
      ids.push(...leads.map((l) => l.id));
    }
    return { ids, totals };
  }

  it.each([
    ['', () => true],
    ['CA,TX', (l: NewAgedLead) => l.state === 'CA' || l.state === 'TX'],
    // States and a zip code: the zip-only leads are counted per hour too.
    ['GA,75201', (l: NewAgedLead) => l.state === 'GA' || l.zip === '75201'],
    // 'a' names more states than are walked one by one: one walk of the market index.
    ['a', (l: NewAgedLead) => l.state.includes('A')],
    // An area code: the day's start, as before.
    ['tx,415', (l: NewAgedLead) => l.state === 'TX' || l.phone.startsWith('415')],
  ])("when a buyer pages through filter '%s', then every listed lead comes once, newest first, with the same total on every page", async (filter, matches) => {
    const expected = listed.filter(matches).map((l) => l.id);
    const { ids, totals } = await everyPage(filter);

    expect(ids).toEqual(expected);
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });
});
