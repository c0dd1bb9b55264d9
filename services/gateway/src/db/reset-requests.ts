import type { Queryable } from '@warmline/platform';

export interface ResetRequest {
  email: string;
  correlationId: string;
}

export async function insertResetRequest(db: Queryable, request: ResetRequest): Promise<void> {
  await db.query('INSERT INTO password_reset_requests (email, correlation_id) VALUES ($1, $2)', [
    request.email,
    request.correlationId,
  ]);
}

/**
 * Takes up to `limit` waiting requests, oldest first, deleting them in the caller's
 * transaction: they come back if it rolls back. SKIP LOCKED lets several gateways share the
 * queue without handling a request twice.
 */
export async function takeResetRequests(db: Queryable, limit: number): Promise<ResetRequest[]> {
  const { rows } = await db.query<ResetRequest>(
    `DELETE FROM password_reset_requests
     WHERE id IN (SELECT id FROM password_reset_requests ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING email, correlation_id AS "correlationId"`,
    [limit],
  );
  return rows;
}
