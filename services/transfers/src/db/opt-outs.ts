import type { Queryable } from '@warmline/platform/db/index';

/**
 * Who holds a phone that opted out (issue 24): the agents it was transferred to, and which of
 * their transfers. Each agent is told once per opt-out (opt_out_notices).
 */

/** The agents who received a transfer of the phone, each once. */
export async function agentsWithTransfersOf(db: Queryable, phone: string): Promise<string[]> {
  const { rows } = await db.query<{ agent_id: string }>('SELECT DISTINCT agent_id FROM transfers WHERE phone = $1 ORDER BY 1', [phone]);
  return rows.map((r) => r.agent_id);
}

export interface HeldTransfer {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
  routedAt: Date;
}

/** One agent's transfers of the phone, newest first (at most 100: what one notice lists). */
export async function transfersOfAgentWithPhone(db: Queryable, agentId: string, phone: string): Promise<HeldTransfer[]> {
  const { rows } = await db.query<HeldTransfer>(
    `SELECT id, first_name AS "firstName", last_name AS "lastName", phone, routed_at AS "routedAt"
       FROM transfers WHERE agent_id = $1 AND phone = $2 ORDER BY routed_at DESC, id DESC LIMIT 100`,
    [agentId, phone],
  );
  return rows;
}

/** Records that the agent is being told of this opt-out; false when they were already. */
export async function claimOptOutNotice(db: Queryable, notice: { agentId: string; phone: string; suppressedAt: Date; at: Date }): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO opt_out_notices (agent_id, phone, suppressed_at, noticed_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [notice.agentId, notice.phone, notice.suppressedAt, notice.at],
  );
  return (rowCount ?? 0) > 0;
}

/** The vendor's name for a key (the suppression list names who asked). */
export async function vendorNameOf(db: Queryable, vendorKeyId: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM vendor_keys WHERE id = $1', [vendorKeyId]);
  return rows[0]?.name ?? null;
}
