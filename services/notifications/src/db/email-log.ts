import { type Pool, type Queryable } from '@warmline/platform/db/index';

export type MailTransportKind = 'smtp' | 'file';

export interface EmailLogEntry {
  commandId: string;
  recipient: string;
  subject: string;
  template: string;
  transport: MailTransportKind;
}

/**
 * What claiming a command found: 'claimed' (send it now), 'sent' (sent before), or 'sending'
 * (an earlier attempt claimed it and never recorded the outcome: it may have gone out).
 */
type Claim = 'claimed' | 'sent' | 'sending';

/**
 * Claims the command id with a 'sending' row. Run on its own connection, outside the
 * consumer's transaction, so the claim is committed before the message goes out (docs/adr/0041).
 */
export async function claimEmail(db: Queryable, entry: EmailLogEntry): Promise<Claim> {
  const result = await db.query<{ state: 'sending' | 'sent'; claimed: boolean }>(
    `WITH claim AS (
       INSERT INTO email_log (command_id, recipient, subject, template, transport, state)
       VALUES ($1, $2, $3, $4, $5, 'sending')
       ON CONFLICT (command_id) DO NOTHING
       RETURNING state)
     SELECT state, true AS claimed FROM claim
     UNION ALL
     SELECT state, false FROM email_log WHERE command_id = $1 AND NOT EXISTS (SELECT 1 FROM claim)`,
    [entry.commandId, entry.recipient, entry.subject, entry.template, entry.transport],
  );
  const row = result.rows[0];
  // No row at all: the other claim was released between the insert and the read; try again later.
  if (!row) throw new Error(`email_log claim of ${entry.commandId} changed while claiming; retrying`);
  return row.claimed ? 'claimed' : row.state;
}

/** Gives a claim back when the send failed, so the retry may send. */
export async function releaseEmail(db: Queryable, commandId: string): Promise<void> {
  await db.query(`DELETE FROM email_log WHERE command_id = $1 AND state = 'sending'`, [commandId]);
}

/** Marks the e-mail sent; in the consumer's transaction, so it commits with the message's ack record. */
export async function recordDelivery(db: Queryable, commandId: string, location: string): Promise<void> {
  await db.query(`UPDATE email_log SET location = $2, sent_at = now(), state = 'sent' WHERE command_id = $1`, [commandId, location]);
}

/** Deletes the log's rows older than `retentionDays`; how many went. */
export async function pruneEmailLog(pool: Pool, retentionDays: number): Promise<number> {
  const deleted = await pool.query("DELETE FROM email_log WHERE sent_at < now() - $1::int * interval '1 day'", [retentionDays]);
  return deleted.rowCount ?? 0;
}
