import type { Queryable } from '@warmline/platform/db/index';

/** An agent's call-backs paid for and not yet delivered, and the states they take them in (issue 15). */
interface CallbackBalanceRow {
  userId: string;
  balance: number;
  states: string[];
  waitingSince: Date | null;
}

const COLUMNS = 'user_id AS "userId", balance, states, waiting_since AS "waitingSince"';

export async function findCallbackBalance(db: Queryable, userId: string, options: { forUpdate?: boolean } = {}): Promise<CallbackBalanceRow | null> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `SELECT ${COLUMNS} FROM callback_balances WHERE user_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0] ?? null;
}

/** Records that an order credited its buyer; false when it did before (a redelivered payment). */
export async function recordCredit(db: Queryable, credit: { orderId: string; userId: string; count: number; at: Date }): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO callback_credits (order_id, user_id, count, credited_at) VALUES ($1, $2, $3, $4) ON CONFLICT (order_id) DO NOTHING',
    [credit.orderId, credit.userId, credit.count, credit.at],
  );
  return rowCount === 1;
}

/**
 * Adds to the balance (a new agent starts with `statesIfNew`); an agent who had none left starts
 * waiting now, one who still had some keeps their place in the queue.
 */
export async function creditBalance(
  db: Queryable,
  credit: { userId: string; count: number; at: Date; statesIfNew: string[] },
): Promise<CallbackBalanceRow> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `INSERT INTO callback_balances (user_id, balance, states, waiting_since, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (user_id) DO UPDATE SET
       balance = callback_balances.balance + EXCLUDED.balance,
       waiting_since = CASE WHEN callback_balances.balance > 0 THEN callback_balances.waiting_since ELSE EXCLUDED.waiting_since END,
       updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [credit.userId, credit.count, credit.statesIfNew, credit.at],
  );
  return rows[0]!;
}

/** The agent's states, chosen by them (an agent without a balance gets a row at zero). */
export async function saveStates(db: Queryable, userId: string, states: string[], at: Date): Promise<CallbackBalanceRow> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `INSERT INTO callback_balances (user_id, balance, states, waiting_since, updated_at) VALUES ($1, 0, $2, NULL, $3)
     ON CONFLICT (user_id) DO UPDATE SET states = EXCLUDED.states, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [userId, states, at],
  );
  return rows[0]!;
}

/**
 * The agent who waits longest with a balance and takes call-backs in `state`, row-locked
 * (the caller holds the assignment lock, so no one else is choosing meanwhile).
 */
export async function lockNextAgentFor(db: Queryable, state: string, skip: readonly string[]): Promise<CallbackBalanceRow | null> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `SELECT ${COLUMNS} FROM callback_balances
      WHERE balance > 0 AND $1 = ANY (states) AND NOT (user_id = ANY ($2::uuid[]))
      ORDER BY waiting_since, user_id LIMIT 1 FOR UPDATE`,
    [state, skip],
  );
  return rows[0] ?? null;
}

/** One call-back delivered: the balance goes down by one (never below zero); null when it had none. */
export async function takeOne(db: Queryable, userId: string, at: Date): Promise<CallbackBalanceRow | null> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `UPDATE callback_balances SET balance = balance - 1, updated_at = $2,
            waiting_since = CASE WHEN balance - 1 = 0 THEN NULL ELSE waiting_since END
      WHERE user_id = $1 AND balance > 0 RETURNING ${COLUMNS}`,
    [userId, at],
  );
  return rows[0] ?? null;
}
