import { randomUUID } from 'node:crypto';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * The transfer ledger (issue 23 §1): credit lots (transfers at one unit price), ledger entries
 * (every movement with its cause) and agents.balance (their sum, kept in the same transaction).
 *
 * Locking: every writer locks the agent's row first (`lockAgent`), then the lots. Routing,
 * charging, crediting and taking back for one agent therefore run one after another, and two
 * agents never wait for each other. All functions here run inside the caller's transaction.
 */

export type LedgerKind = 'order_credit' | 'charge' | 'refund_takeback' | 'dispute_credit' | 'adjustment';
export type LotSource = 'order' | 'dispute' | 'adjustment';

/** Makes sure the agent has a row (a credit may arrive before any settings). */
export async function ensureAgent(db: Queryable, agentId: string): Promise<void> {
  await db.query('INSERT INTO agents (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [agentId]);
}

/** Locks the agent's row for the rest of the transaction; false when there is none. */
export async function lockAgent(db: Queryable, agentId: string): Promise<{ balance: number } | null> {
  const { rows } = await db.query<{ balance: number }>('SELECT balance FROM agents WHERE user_id = $1 FOR UPDATE', [agentId]);
  return rows[0] ?? null;
}

export interface NewLot {
  agentId: string;
  source: LotSource;
  /** The paid order (one lot per order: a repeated credit of it changes nothing). */
  orderId: string | null;
  description: string;
  unitCents: number;
  paidCents: number;
  transfers: number;
  at: Date;
  /** The ledger row's kind, words and cause (order id, dispute id, adjustment id). */
  kind: Extract<LedgerKind, 'order_credit' | 'dispute_credit' | 'adjustment'>;
  cause: string;
  causeId: string;
  transferId?: string | null;
  actorId?: string | null;
}

/**
 * Credits a lot and writes its ledger row; null when this order (or cause) was credited before,
 * so a repeated or reordered event never credits twice. Call with the agent locked.
 */
export async function creditLot(db: Queryable, lot: NewLot): Promise<{ lotId: string } | null> {
  if (lot.transfers <= 0) throw new Error(`a credit of ${lot.transfers} transfers`);
  const lotId = randomUUID();
  const { rowCount } = await db.query(
    `INSERT INTO credit_lots (id, agent_id, source, order_id, description, unit_cents, paid_cents, credited, remaining, credited_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $8, $9
     WHERE NOT EXISTS (SELECT 1 FROM ledger_entries WHERE kind = $10 AND cause_id = $11)
     ON CONFLICT (order_id) DO NOTHING`,
    [lotId, lot.agentId, lot.source, lot.orderId, lot.description, lot.unitCents, lot.paidCents, lot.transfers, lot.at, lot.kind, lot.causeId],
  );
  if (!rowCount) return null;
  await writeEntry(db, {
    agentId: lot.agentId,
    lotId,
    kind: lot.kind,
    transfers: lot.transfers,
    unitCents: lot.unitCents,
    cause: lot.cause,
    causeId: lot.causeId,
    transferId: lot.transferId ?? null,
    actorId: lot.actorId ?? null,
    at: lot.at,
  });
  return { lotId };
}

/**
 * Charges one transfer from the agent's oldest lot with some left; null when nothing is left
 * (the balance never goes below zero). A transfer is charged once: a second call for the same
 * transfer returns null. Call with the agent locked.
 */
export async function chargeOneTransfer(
  db: Queryable,
  charge: { agentId: string; transferId: string; cause: string; at: Date },
): Promise<{ lotId: string; unitCents: number } | null> {
  // One round trip (issue 27: the vendor's calls in as few as fit): the oldest lot with some left
  // gives one transfer unless this transfer was charged before, its ledger row and the balance follow.
  const { rows } = await db.query<{ lotId: string; unitCents: number }>(
    `WITH lot AS (
       UPDATE credit_lots SET remaining = remaining - 1
        WHERE id = (SELECT id FROM credit_lots WHERE agent_id = $1 AND remaining > 0 ORDER BY credited_at, id LIMIT 1 FOR UPDATE)
          AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE kind = 'charge' AND cause_id = $2::text)
       RETURNING id, unit_cents),
     entry AS (
       INSERT INTO ledger_entries (agent_id, lot_id, kind, transfers, unit_cents, cause, cause_id, transfer_id, actor_id, at)
       SELECT $1, lot.id, 'charge', -1, lot.unit_cents, $3, $2::text, $2::uuid, NULL, $4 FROM lot),
     balance AS (UPDATE agents SET balance = balance - 1, updated_at = $4 WHERE user_id = $1 AND EXISTS (SELECT 1 FROM lot))
     SELECT id AS "lotId", unit_cents AS "unitCents" FROM lot`,
    [charge.agentId, charge.transferId, charge.cause, charge.at],
  );
  return rows[0] ?? null;
}

/**
 * Takes back up to `transfers` unused transfers of one lot (a refund of its order); returns how
 * many were taken (never more than it has left). `causeId` makes a repeat write nothing.
 */
export async function takeBackFromLot(
  db: Queryable,
  take: { lotId: string; transfers: number; kind: Extract<LedgerKind, 'refund_takeback' | 'adjustment'>; cause: string; causeId: string; actorId?: string | null; at: Date },
): Promise<number> {
  if (take.transfers <= 0) return 0;
  const { rows: before } = await db.query('SELECT 1 FROM ledger_entries WHERE kind = $1 AND cause_id = $2 AND lot_id = $3 LIMIT 1', [take.kind, take.causeId, take.lotId]);
  if (before.length) return 0;
  const { rows } = await db.query<{ agentId: string; unitCents: number; taken: number }>(
    `WITH lot AS (SELECT id, remaining FROM credit_lots WHERE id = $1 FOR UPDATE)
     UPDATE credit_lots c SET remaining = c.remaining - LEAST(lot.remaining, $2),
       taken_back = c.taken_back + CASE WHEN $3 = 'refund_takeback' THEN LEAST(lot.remaining, $2) ELSE 0 END
     FROM lot WHERE c.id = lot.id AND lot.remaining > 0
     RETURNING c.agent_id AS "agentId", c.unit_cents AS "unitCents", LEAST(lot.remaining, $2)::int AS taken`,
    [take.lotId, take.transfers, take.kind],
  );
  const taken = rows[0];
  if (!taken || taken.taken === 0) return 0;
  await writeEntry(db, {
    agentId: taken.agentId,
    lotId: take.lotId,
    kind: take.kind,
    transfers: -taken.taken,
    unitCents: taken.unitCents,
    cause: take.cause,
    causeId: take.causeId,
    transferId: null,
    actorId: take.actorId ?? null,
    at: take.at,
  });
  return taken.taken;
}

/** The agent's lots with transfers left, oldest (next charged) first. */
export async function openLots(db: Queryable, agentId: string): Promise<Array<{ id: string; unitCents: number; remaining: number; source: LotSource; creditedAt: Date }>> {
  const { rows } = await db.query<{ id: string; unitCents: number; remaining: number; source: LotSource; creditedAt: Date }>(
    `SELECT id, unit_cents AS "unitCents", remaining, source, credited_at AS "creditedAt"
     FROM credit_lots WHERE agent_id = $1 AND remaining > 0 ORDER BY credited_at, id`,
    [agentId],
  );
  return rows;
}

/**
 * Agents whose balance is not the sum of their ledger rows, or whose lots' remaining do not
 * add up to it (chaos and the tests check that this is always empty).
 */
export async function ledgerMismatches(db: Queryable): Promise<Array<{ agentId: string; balance: number; entries: number; lots: number }>> {
  const { rows } = await db.query<{ agentId: string; balance: number; entries: number; lots: number }>(
    `SELECT a.user_id AS "agentId", a.balance,
            COALESCE((SELECT sum(transfers) FROM ledger_entries e WHERE e.agent_id = a.user_id), 0)::int AS entries,
            COALESCE((SELECT sum(remaining) FROM credit_lots l WHERE l.agent_id = a.user_id), 0)::int AS lots
     FROM agents a`,
  );
  return rows.filter((r) => r.balance !== r.entries || r.balance !== r.lots);
}

async function writeEntry(
  db: Queryable,
  entry: { agentId: string; lotId: string; kind: LedgerKind; transfers: number; unitCents: number; cause: string; causeId: string; transferId: string | null; actorId: string | null; at: Date },
): Promise<void> {
  // The row and the balance it moves in one statement: they never differ, and it is one round trip.
  await db.query(
    `WITH entry AS (
       INSERT INTO ledger_entries (agent_id, lot_id, kind, transfers, unit_cents, cause, cause_id, transfer_id, actor_id, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10))
     UPDATE agents SET balance = balance + $4, updated_at = $10 WHERE user_id = $1`,
    [entry.agentId, entry.lotId, entry.kind, entry.transfers, entry.unitCents, entry.cause, entry.causeId, entry.transferId, entry.actorId, entry.at],
  );
}
