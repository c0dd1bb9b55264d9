import type { TransferStatus } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform/db/index';

/**
 * What the consent evidence pack (issue 24 §4) reads of a routed transfer: the vendor's request
 * and outcome as routing and the outcome stored them, the lot (and so the paid order) a charge
 * took, and the phone's line in this service's copy of the suppression list. `agentId` binds
 * the query to the agent asking (My Transfers); an admin's gives none.
 */
export interface TransferEvidenceRow {
  id: string;
  agentId: string;
  agentName: string;
  vendorName: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  leadType: string | null;
  status: TransferStatus;
  routedAt: Date;
  answeredAt: Date | null;
  durationSeconds: number | null;
  transcript: string | null;
  recordingUrl: string | null;
  disposition: string | null;
  chargedCents: number | null;
  settledAt: Date | null;
  /** The paid order whose lot the charge took, when it came from an order. */
  orderId: string | null;
  /** Since when the phone is on the suppression list (this service's copy), null when it is not. */
  suppressedSince: Date | null;
}

export async function transferEvidence(db: Queryable, id: string, agentId: string | null): Promise<TransferEvidenceRow | null> {
  const { rows } = await db.query<TransferEvidenceRow>(
    `SELECT t.id, t.agent_id AS "agentId", a.display_name AS "agentName", k.name AS "vendorName", t.first_name AS "firstName",
            t.last_name AS "lastName", t.phone, t.state, t.lead_type AS "leadType", t.status, t.routed_at AS "routedAt",
            t.answered_at AS "answeredAt", t.duration_seconds AS "durationSeconds", t.transcript, t.recording_url AS "recordingUrl",
            t.disposition, t.charged_cents AS "chargedCents", t.settled_at AS "settledAt", l.order_id AS "orderId",
            CASE WHEN s.suppressed THEN s.changed_at END AS "suppressedSince"
       FROM transfers t
       JOIN agents a ON a.user_id = t.agent_id
       LEFT JOIN vendor_keys k ON k.id = t.vendor_key_id
       LEFT JOIN credit_lots l ON l.id = t.lot_id
       LEFT JOIN suppressed_phones s ON s.phone = t.phone
      WHERE t.id = $1 AND ($2::uuid IS NULL OR t.agent_id = $2::uuid)`,
    [id, agentId],
  );
  return rows[0] ?? null;
}
