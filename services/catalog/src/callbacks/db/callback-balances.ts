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

/**
 * Holds the order's call-backs still until the transaction ends: its credit and its refunds are
 * handled one after another, so a refund committed first is seen by the credit and the other way
 * round (a row lock cannot do it: a refund may arrive before the credit's row exists).
 */
export async function lockCallBacksOrder(db: Queryable, orderId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`catalog:callback-order:${orderId}`]);
}

/** Records that an order credited its buyer; false when it did before (a redelivered payment). */
export async function recordCredit(
  db: Queryable,
  credit: { orderId: string; userId: string; count: number; amountCents: number; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO callback_credits (order_id, user_id, count, amount_cents, credited_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (order_id) DO NOTHING',
    [credit.orderId, credit.userId, credit.count, credit.amountCents, credit.at],
  );
  return rowCount === 1;
}

/** Whether the order has credited anyone (by its payment or its claim). */
export async function hasCredit(db: Queryable, orderId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM callback_credits WHERE order_id = $1', [orderId]);
  return rows.length === 1;
}

/** Which of these orders have credited anyone already. */
export async function creditedOrderIds(db: Queryable, orderIds: string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const { rows } = await db.query<{ order_id: string }>('SELECT order_id FROM callback_credits WHERE order_id = ANY($1::uuid[])', [orderIds]);
  return new Set(rows.map((r) => r.order_id));
}

/** What a paid order credited, and how many of its call-backs refunds have covered so far. */
export interface CallbackCreditRow {
  orderId: string;
  userId: string;
  count: number;
  /** Null on orders credited before the amount was stored. */
  amountCents: number | null;
  takenBack: number;
  keptDelivered: number;
}

export async function lockCallbackCredit(db: Queryable, orderId: string): Promise<CallbackCreditRow | null> {
  const { rows } = await db.query<CallbackCreditRow>(
    `SELECT order_id AS "orderId", user_id AS "userId", count, amount_cents AS "amountCents",
            taken_back AS "takenBack", kept_delivered AS "keptDelivered"
       FROM callback_credits WHERE order_id = $1 FOR UPDATE`,
    [orderId],
  );
  return rows[0] ?? null;
}

/** Adds to what refunds of the order have covered: taken off the balance, or delivered already. */
export async function recordTakenBack(db: Queryable, orderId: string, counts: { takenBack: number; keptDelivered: number }): Promise<void> {
  await db.query('UPDATE callback_credits SET taken_back = taken_back + $2, kept_delivered = kept_delivered + $3 WHERE order_id = $1', [
    orderId,
    counts.takenBack,
    counts.keptDelivered,
  ]);
}

/** A refund of an order that credited nobody (yet): the highest refunded total heard is kept. */
export async function recordRefundBeforeCredit(db: Queryable, refund: { orderId: string; refundedTotalCents: number; at: Date }): Promise<void> {
  await db.query(
    `INSERT INTO refunds_before_credit (order_id, refunded_total_cents, refunded_at) VALUES ($1, $2, $3)
     ON CONFLICT (order_id) DO UPDATE SET
       refunded_total_cents = GREATEST(refunds_before_credit.refunded_total_cents, EXCLUDED.refunded_total_cents),
       refunded_at = GREATEST(refunds_before_credit.refunded_at, EXCLUDED.refunded_at)`,
    [refund.orderId, refund.refundedTotalCents, refund.at],
  );
}

export async function refundedBeforeCredit(db: Queryable, orderId: string): Promise<number> {
  const { rows } = await db.query<{ cents: number }>('SELECT refunded_total_cents AS cents FROM refunds_before_credit WHERE order_id = $1', [orderId]);
  return rows[0]?.cents ?? 0;
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
export async function lockNextAgentFor(
  db: Queryable,
  opportunity: { state: string; phone: string },
  skip: readonly string[],
  receivedSince: Date,
): Promise<CallbackBalanceRow | null> {
  // Issue 22: never an agent who received the same phone since `receivedSince` (30 days).
  const { rows } = await db.query<CallbackBalanceRow>(
    `SELECT ${COLUMNS} FROM callback_balances b
      WHERE balance > 0 AND $1 = ANY (states) AND NOT (user_id = ANY ($2::uuid[]))
        AND NOT EXISTS (SELECT 1 FROM callback_opportunities o
                         WHERE o.phone = $3 AND o.assigned_user_id = b.user_id AND o.assigned_at > $4)
      ORDER BY waiting_since, user_id LIMIT 1 FOR UPDATE OF b`,
    [opportunity.state, skip, opportunity.phone, receivedSince],
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

/**
 * Refunded call-backs leave the balance: at most what it holds (the caller locked the row and
 * chose `count` no larger); at zero the agent stops waiting.
 */
export async function takeBack(db: Queryable, userId: string, count: number, at: Date): Promise<CallbackBalanceRow | null> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `UPDATE callback_balances SET balance = balance - $2, updated_at = $3,
            waiting_since = CASE WHEN balance - $2 = 0 THEN NULL ELSE waiting_since END
      WHERE user_id = $1 AND balance >= $2 RETURNING ${COLUMNS}`,
    [userId, count, at],
  );
  return rows[0] ?? null;
}

/**
 * The agents with a call-back account (they bought Call-Backs), for an admin's manual assignment
 * (issue 22): those with a balance first, largest first, then the longest waiting.
 */
export async function listCallbackAccounts(db: Queryable, limit: number): Promise<CallbackBalanceRow[]> {
  const { rows } = await db.query<CallbackBalanceRow>(
    `SELECT ${COLUMNS} FROM callback_balances ORDER BY (balance > 0) DESC, balance DESC, waiting_since NULLS LAST, user_id LIMIT $1`,
    [limit],
  );
  return rows;
}
