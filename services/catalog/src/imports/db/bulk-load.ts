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

/** Recounts lead_stock and lead_stock_daily from the leads themselves (after a load that bypassed its trigger). */
export async function rebuildLeadStock(pool: Pool): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE aged_leads IN SHARE MODE');
    await client.query('DELETE FROM lead_stock');
    await client.query('DELETE FROM lead_stock_daily');
    await client.query(
      `INSERT INTO lead_stock (fill_day, state, area_code, leads)
       SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, count(*)
         FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2, 3`,
    );
    await client.query('INSERT INTO lead_stock_daily (fill_day, leads) SELECT fill_day, sum(leads) FROM lead_stock GROUP BY 1');
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
