import type { Queryable } from '@warmline/platform/db/index';

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
