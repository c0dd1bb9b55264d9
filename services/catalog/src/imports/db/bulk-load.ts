import { withTransaction, type Pool } from '@warmline/platform/db/index';
import type { ListingWindow } from '../../market/db/listing-window';

/** Queries for loading inventory in bulk (demo seed, benchmarks) and for recounting stock. */

export interface MarketIndex {
  name: string;
  definition: string;
}

/** Drops the market's secondary indexes (not the primary key) and returns how to rebuild them. */
export async function dropMarketIndexes(pool: Pool): Promise<MarketIndex[]> {
  const { rows: indexes } = await pool.query<MarketIndex>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i WHERE i.indrelid = 'aged_leads'::regclass AND NOT i.indisprimary`,
  );
  for (const index of indexes) await pool.query(`DROP INDEX ${index.name}`);
  return indexes;
}

export async function rebuildMarketIndexes(pool: Pool, indexes: MarketIndex[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SET maintenance_work_mem = '256MB'");
    for (const index of indexes) await client.query(index.definition);
  } finally {
    client.release();
  }
}

/** Pauses (or resumes) the per-insert stock upkeep while a bulk load runs. */
export async function setStockTriggerEnabled(pool: Pool, enabled: boolean): Promise<void> {
  await pool.query(`ALTER TABLE aged_leads ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER aged_leads_stock_insert`);
}

/**
 * Recounts the stock tables (per day, state and area code; per day; per hour and state; per
 * hour) from the leads themselves, after a load that bypassed their trigger.
 */
export async function rebuildLeadStock(pool: Pool): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE aged_leads IN SHARE MODE');
    for (const table of ['lead_stock', 'lead_stock_daily', 'lead_stock_state_hourly', 'lead_stock_hourly']) {
      await client.query(`DELETE FROM ${table}`);
    }
    await client.query(
      `INSERT INTO lead_stock (fill_day, state, area_code, leads)
       SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, count(*)
         FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2, 3`,
    );
    await client.query('INSERT INTO lead_stock_daily (fill_day, leads) SELECT fill_day, sum(leads) FROM lead_stock GROUP BY 1');
    // In key order, so a state's hours of one day share a page or two (docs/adr/0054).
    await client.query(
      `INSERT INTO lead_stock_state_hourly (state, fill_hour, leads)
       SELECT state, date_trunc('hour', form_fill_time, 'UTC'), count(*)
         FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    await client.query('INSERT INTO lead_stock_hourly (fill_hour, leads) SELECT fill_hour, sum(leads) FROM lead_stock_state_hourly GROUP BY 1 ORDER BY 1');
  });
}

/** Unsold leads whose form-fill time falls in the listing window. */
export async function countUnsoldLeadsIn(pool: Pool, window: ListingWindow): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM aged_leads
      WHERE sold_at IS NULL AND form_fill_time > $1 AND form_fill_time <= $2`,
    [window.oldestExclusive, window.newest],
  );
  return rows[0]?.n ?? 0;
}
