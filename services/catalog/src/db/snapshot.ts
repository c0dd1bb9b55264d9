import { withTransaction, type Pool, type PoolClient } from '@warmline/platform/db/index';

/**
 * Runs several reads on one consistent snapshot (REPEATABLE READ, READ ONLY): a page and the
 * counts it was positioned with never see a sale that happened between them.
 */
export function inReadSnapshot<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, work, { isolation: 'repeatable read', readOnly: true });
}
