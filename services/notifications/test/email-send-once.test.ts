import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, MessageData } from '@warmline/contracts';
import { createPool, runMigrations, withTransaction, type Pool } from '@warmline/platform/db/index';
import { createLogger } from '@warmline/platform/log';
import { createTestDatabase, type TestDatabase } from '@warmline/platform/testing/index';
import { createMailer, type Mailer } from '../src/domain/mailer';
import { sendEmailHandler } from '../src/events/send-email';
import { NOTIFICATIONS_MIGRATIONS_DIR, NOTIFICATIONS_SCHEMA } from '../src/service';

/**
 * email.send against the real PostgreSQL when a run stops between the send and the commit of
 * the consumer's transaction (docs/adr/0041). The crash is the transaction rolling back after
 * the send, as a killed process's does; the redelivery is the handler run again.
 */

let db: TestDatabase;
let pool: Pool;
let claims: Pool;
const log = createLogger('email-send-once-test', 'silent');

beforeAll(async () => {
  db = await createTestDatabase('wl_email_once');
  await runMigrations({ databaseUrl: db.url, schema: NOTIFICATIONS_SCHEMA, dir: NOTIFICATIONS_MIGRATIONS_DIR });
  pool = createPool(db.url, NOTIFICATIONS_SCHEMA, 4);
  claims = createPool(db.url, NOTIFICATIONS_SCHEMA, 2);
}, 60_000);

afterAll(async () => {
  await claims?.end();
  await pool?.end();
  await db?.drop();
});

function countingMailer(failures = 0): Mailer & { sent: string[] } {
  let toFail = failures;
  const sent: string[] = [];
  return {
    transport: 'file',
    sent,
    async send(message) {
      if (toFail > 0) {
        toFail -= 1;
        throw new Error('SMTP refused');
      }
      sent.push(message.id);
      return { transport: 'file', location: `/tmp/${message.id}.eml` };
    },
    // As SMTP: whether an unrecorded claim's message went out cannot be told.
    deliveryOf: () => Promise.resolve('unknown'),
    close: () => undefined,
  };
}

function command(): Envelope<MessageData<'email.send'>> {
  return {
    id: randomUUID(),
    type: 'email.send',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'notifications-test',
    correlationId: randomUUID(),
    data: { to: 'agent@example.com', subject: 'Your order is paid', text: 'Thank you.', template: 'payment-receipt' },
  };
}

/** One run of the handler in a consumer-like transaction; `crashBeforeCommit` rolls it back after the handler. */
async function deliver(handler: ReturnType<typeof sendEmailHandler>, envelope: Envelope<MessageData<'email.send'>>, crashBeforeCommit = false) {
  await withTransaction(pool, async (tx) => {
    await handler(envelope.data, { envelope, db: tx, log });
    if (crashBeforeCommit) throw new Error('the process died before COMMIT');
  }).catch((err: unknown) => {
    if (!(err instanceof Error && err.message === 'the process died before COMMIT')) throw err;
  });
}

async function logRows(commandId: string) {
  const { rows } = await pool.query<{ state: string }>('SELECT state FROM email_log WHERE command_id = $1', [commandId]);
  return rows.map((r) => r.state);
}

describe('an e-mail and a crash between its send and the commit', () => {
  it('when the run dies after the send and before its commit, and the command is delivered again, then exactly one e-mail went out', async () => {
    const mailer = countingMailer();
    const handler = sendEmailHandler(mailer, claims);
    const envelope = command();
    await deliver(handler, envelope, true);
    expect(mailer.sent).toEqual([envelope.id]);
    await deliver(handler, envelope);
    await deliver(handler, envelope);
    expect(mailer.sent).toEqual([envelope.id]);
    expect(await logRows(envelope.id)).toEqual(['sending']);
  });

  it('when the send fails, then the claim is given back and the retry sends it once', async () => {
    const mailer = countingMailer(1);
    const handler = sendEmailHandler(mailer, claims);
    const envelope = command();
    await expect(deliver(handler, envelope)).rejects.toThrow('SMTP refused');
    expect(await logRows(envelope.id)).toEqual([]);
    await deliver(handler, envelope);
    await deliver(handler, envelope);
    expect(mailer.sent).toEqual([envelope.id]);
    expect(await logRows(envelope.id)).toEqual(['sent']);
  });
});

describe('the file mailer and a run that stopped with its claim unrecorded', () => {
  const from = { WarmLine: 'WarmLine <hello@warmline.local>', RingCloud: 'RingCloud <hello@ringcloud.local>' };
  let mailDir: string;
  beforeAll(async () => {
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'wl-email-once-'));
  });
  afterAll(async () => {
    await rm(mailDir, { recursive: true, force: true });
  });
  const emlsOf = async (id: string) => (await readdir(mailDir)).filter((name) => name.includes(id));

  it('when the run died after writing the e-mail and before its commit, then the redelivery records it sent and writes no second copy', async () => {
    const handler = sendEmailHandler(createMailer({ from, mailDir }), claims);
    const envelope = command();
    await deliver(handler, envelope, true);
    expect(await logRows(envelope.id)).toEqual(['sending']);

    await deliver(handler, envelope);

    expect(await emlsOf(envelope.id)).toHaveLength(1);
    expect(await logRows(envelope.id)).toEqual(['sent']);
  });

  it('when the run died before its e-mail was whole on disk, then the redelivery sends it', async () => {
    const mailer = createMailer({ from, mailDir });
    const envelope = command();
    // The claim committed, then the process died mid-write: only a partial file is left.
    const dying = sendEmailHandler({ ...mailer, send: () => Promise.reject(new Error('killed mid-write')) }, claims);
    await withTransaction(pool, (tx) => dying(envelope.data, { envelope, db: tx, log })).catch(() => undefined);
    await claimedAsAnEarlierRunLeftIt(envelope);
    await writeFile(path.join(mailDir, `2026-11-28T10-14-19.518Z-${envelope.id}.eml.part`), '');

    await deliver(sendEmailHandler(mailer, claims), envelope);

    const written = (await emlsOf(envelope.id)).filter((name) => name.endsWith('.eml'));
    expect(written).toHaveLength(1);
    expect(await readFile(path.join(mailDir, written[0]!), 'utf8')).toContain('Your order is paid');
    expect(await logRows(envelope.id)).toEqual(['sent']);
  });
});

/** A claim ('sending') as a run that died after claiming leaves it: the failed send above gave it back. */
async function claimedAsAnEarlierRunLeftIt(envelope: Envelope<MessageData<'email.send'>>) {
  await claims.query(
    `INSERT INTO email_log (command_id, recipient, subject, template, transport, state) VALUES ($1, $2, $3, $4, 'file', 'sending')`,
    [envelope.id, envelope.data.to, envelope.data.subject, envelope.data.template],
  );
}
