import type { Pool, PoolClient } from '@warmline/platform/db/index';

/**
 * Runs several reads on one consistent snapshot (REPEATABLE READ, READ ONLY): a page and the
 * counts it was positioned with never see a sale that happened between them.
 */
export async function inReadSnapshot<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
