import { withTransaction, type Pool, type Queryable } from '@warmline/platform/db/index';

export type MailTransportKind = 'smtp' | 'file';

export interface EmailLogEntry {
  commandId: string;
  recipient: string;
  subject: string;
  template: string;
  transport: MailTransportKind;
}

/**
 * Claims the command id. Returns false when a row already exists: the command was sent
 * before and must not be sent again. Inside the consumer's transaction the primary key also
 * makes a concurrent redelivery wait for this one to commit or roll back.
 */
export async function claimEmail(db: Queryable, entry: EmailLogEntry): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO email_log (command_id, recipient, subject, template, transport)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (command_id) DO NOTHING`,
    [entry.commandId, entry.recipient, entry.subject, entry.template, entry.transport],
  );
  return result.rowCount === 1;
}

export async function recordDelivery(db: Queryable, commandId: string, location: string): Promise<void> {
  await db.query('UPDATE email_log SET location = $2, sent_at = now() WHERE command_id = $1', [commandId, location]);
}

/**
 * Deletes the log's rows older than `retentionDays`, unless another worker is pruning right now
 * (an advisory lock) or the log was pruned less than `periodMs` ago: once per period however
 * many replicas run. How many rows went, or null when it was not this worker's turn.
 */
export async function pruneEmailLog(pool: Pool, settings: { retentionDays: number; periodMs: number }): Promise<number | null> {
  return withTransaction(pool, async (db) => {
    const lock = await db.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock(hashtextextended('notifications:email-log-pruning', 0)) AS ok");
    if (!lock.rows[0]?.ok) return null;
    const last = await db.query('SELECT 1 FROM email_log_pruning WHERE last_pruned_at > now() - $1::int * interval \'1 millisecond\'', [settings.periodMs]);
    if (last.rowCount) return null;
    const deleted = await db.query("DELETE FROM email_log WHERE sent_at < now() - $1::int * interval '1 day'", [settings.retentionDays]);
    await db.query(
      `INSERT INTO email_log_pruning (only_row, last_pruned_at) VALUES (true, now())
       ON CONFLICT (only_row) DO UPDATE SET last_pruned_at = excluded.last_pruned_at`,
    );
    return deleted.rowCount ?? 0;
  });
}
