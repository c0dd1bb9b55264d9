import type { TransferStatus } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the transfers table for the vendor's outcome (issue 23 §4). */

/**
 * Locks the agent of a transfer this vendor key routed (the ledger's order: the agent first) and
 * answers who it is, in one round trip; null when there is none (or another key routed it).
 */
export async function lockAgentOfTransfer(db: Queryable, transferId: string, vendorKeyId: string): Promise<string | null> {
  const { rows } = await db.query<{ agentId: string }>(
    'SELECT user_id AS "agentId" FROM agents WHERE user_id = (SELECT agent_id FROM transfers WHERE id = $1 AND vendor_key_id = $2) FOR UPDATE',
    [transferId, vendorKeyId],
  );
  return rows[0]?.agentId ?? null;
}

export interface TransferForOutcome {
  status: TransferStatus;
  state: string;
  firstName: string;
  lastName: string;
  /** Ten digits. */
  phone: string;
  outcomeFingerprint: string | null;
  chargedCents: number | null;
}

/** The transfer, locked (call with its agent locked first: the ledger's order). */
export async function lockTransfer(db: Queryable, transferId: string): Promise<TransferForOutcome> {
  const { rows } = await db.query<TransferForOutcome>(
    `SELECT status, state, first_name AS "firstName", last_name AS "lastName", phone,
            outcome_fingerprint AS "outcomeFingerprint", charged_cents AS "chargedCents"
       FROM transfers WHERE id = $1 FOR UPDATE`,
    [transferId],
  );
  return rows[0]!;
}

export interface Settlement {
  status: Extract<TransferStatus, 'not_connected' | 'buffer_protected' | 'charged' | 'unbilled'>;
  connected: boolean;
  durationSeconds: number;
  answeredAt: Date | null;
  endedAt: Date | null;
  recordingUrl: string | null;
  transcript: string | null;
  disposition: string | null;
  outcomeFingerprint: string;
  chargedCents: number | null;
  lotId: string | null;
  settledAt: Date;
}

export async function settleTransfer(db: Queryable, transferId: string, s: Settlement): Promise<void> {
  await db.query(
    `UPDATE transfers SET status = $2, connected = $3, duration_seconds = $4, answered_at = $5, ended_at = $6,
            recording_url = $7, transcript = $8, disposition = $9, outcome_fingerprint = $10, charged_cents = $11,
            lot_id = $12, settled_at = $13
      WHERE id = $1`,
    [transferId, s.status, s.connected, s.durationSeconds, s.answeredAt, s.endedAt, s.recordingUrl, s.transcript, s.disposition, s.outcomeFingerprint, s.chargedCents, s.lotId, s.settledAt],
  );
}
