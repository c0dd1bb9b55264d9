import type { DisputeReason, DisputeStatus, HoursRange, TransferStatus } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';
import { TRANSFER_COLUMNS, TRANSFER_FROM, type TransferRow } from './my-transfers';

/** A transfer as a dispute of it is decided: what happened, and what the agent had set then. */
export interface DisputedTransfer {
  id: string;
  agentId: string;
  routedAt: Date;
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  status: TransferStatus;
  chargedCents: number | null;
  /** Null on rows routed before routing kept them: then the current settings decide. */
  agentStates: string[] | null;
  agentHours: HoursRange[] | null;
  agentTimeZone: string | null;
  disputeId: string | null;
}

/** The transfer, locked; null when it is not this agent's (or does not exist). */
export async function lockAgentTransfer(db: Queryable, transferId: string, agentId: string): Promise<DisputedTransfer | null> {
  const { rows } = await db.query<DisputedTransfer>(
    `SELECT t.id, t.agent_id AS "agentId", t.routed_at AS "routedAt", t.first_name AS "firstName", t.last_name AS "lastName",
            t.phone, t.state, t.status, t.charged_cents AS "chargedCents", t.agent_states AS "agentStates",
            t.agent_hours AS "agentHours", t.agent_time_zone AS "agentTimeZone",
            (SELECT d.id FROM transfer_disputes d WHERE d.transfer_id = t.id) AS "disputeId"
       FROM transfers t WHERE t.id = $1 AND t.agent_id = $2 FOR UPDATE`,
    [transferId, agentId],
  );
  return rows[0] ?? null;
}

/** Whether the same phone was transferred to the same agent in the `days` before `before`. */
export async function earlierTransferOfPhone(db: Queryable, t: { id: string; agentId: string; phone: string; routedAt: Date }, days: number): Promise<Date | null> {
  const { rows } = await db.query<{ routedAt: Date }>(
    `SELECT routed_at AS "routedAt" FROM transfers
      WHERE agent_id = $1 AND phone = $2 AND id <> $3 AND routed_at <= $4 AND routed_at >= $4 - make_interval(days => $5)
      ORDER BY routed_at DESC LIMIT 1`,
    [t.agentId, t.phone, t.id, t.routedAt, days],
  );
  return rows[0]?.routedAt ?? null;
}

export async function insertDispute(
  db: Queryable,
  dispute: { id: string; transferId: string; agentId: string; reason: DisputeReason; note: string | null; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO transfer_disputes (id, transfer_id, agent_id, reason, note, opened_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (transfer_id) DO NOTHING`,
    [dispute.id, dispute.transferId, dispute.agentId, dispute.reason, dispute.note, dispute.at],
  );
  return rowCount === 1;
}

/** Decides a pending dispute; false when it was decided before. */
export async function decideDispute(
  db: Queryable,
  decision: { id: string; status: Exclude<DisputeStatus, 'pending'>; by: 'automatic' | 'admin'; byUserId: string | null; reason: string | null; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE transfer_disputes SET status = $2, decided_by = $3, decided_by_user_id = $4, decision_reason = $5, decided_at = $6
      WHERE id = $1 AND status = 'pending'`,
    [decision.id, decision.status, decision.by, decision.byUserId, decision.reason, decision.at],
  );
  return rowCount === 1;
}

export async function setTransferStatus(db: Queryable, transferId: string, status: TransferStatus): Promise<void> {
  await db.query('UPDATE transfers SET status = $2 WHERE id = $1', [transferId, status]);
}

export interface DisputeRow extends TransferRow {
  disputeId: string;
  disputeReason: DisputeReason;
  disputeStatus: DisputeStatus;
  openedAt: Date;
}

/** A dispute with its transfer (the admin's decision reads it). */
export async function findDispute(db: Queryable, disputeId: string): Promise<DisputeRow | null> {
  const { rows } = await db.query<DisputeRow>(`SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM} WHERE d.id = $1`, [disputeId]);
  return rows[0] ?? null;
}

/** The queue: by status (every one when absent), oldest first. */
export async function listDisputes(db: Queryable, status: DisputeStatus | undefined, limit: number): Promise<DisputeRow[]> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM} WHERE d.id IS NOT NULL AND ($1::text IS NULL OR d.status = $1)
      ORDER BY d.opened_at, d.id LIMIT $2`,
    [status ?? null, limit],
  );
  return rows;
}
