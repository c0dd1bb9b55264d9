import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Envelope, type MessageData } from '@warmline/contracts';
import { freePort, waitFor } from '@warmline/platform/testing/index';
import { EMAIL_QUEUE } from '../src/events/consumers';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed } from './worker-fixture';

/**
 * The notifications worker against the real PostgreSQL and RabbitMQ: email.send commands are
 * published onto the (namespaced) commands exchange exactly as the outbox relay does.
 */

type EmailSend = MessageData<'email.send'>;

const bed = notificationsTestBed();
const startWorker = bed.startWorker;
const emailLog = bed.emailLog;

function emailCommand(data: Partial<EmailSend> = {}): Envelope<EmailSend> {
  return {
    id: randomUUID(),
    type: 'email.send',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'notifications-test',
    correlationId: randomUUID(),
    data: {
      to: 'agent@example.com',
      subject: 'Reset your WarmLine password',
      text: 'Open this link to choose a new password: http://localhost:3000/reset-password?token=abc',
      html: '<p>Open <a href="http://localhost:3000/reset-password?token=abc">this link</a>.</p>',
      template: 'password-reset',
      ...data,
    },
  };
}

describe('notifications worker', () => {
  it('when an email.send command arrives without SMTP_URL, then exactly one .eml file holds the recipient, subject, text and html parts', async () => {
    const worker = await startWorker();
    const command = emailCommand();

    await worker.send(command);

    const files = await waitFor('the .eml file', async () => {
      const found = await emlFiles(worker.mailDir);
      return found.length > 0 ? found : undefined;
    });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d-]+\\.\\d{3}Z-${command.id}\\.eml$`));
    const eml = await readFile(path.join(worker.mailDir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: agent@example\.com$/m);
    expect(eml).toMatch(/^Subject: Reset your WarmLine password$/m);
    expect(eml).toMatch(/^From: WarmLine <no-reply@warmline\.local>$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(eml).toMatch(/^Content-Type: text\/plain/m);
    expect(eml).toMatch(/^Content-Type: text\/html/m);
    const body = decodeQuotedPrintable(eml);
    expect(body).toContain('Open this link to choose a new password: http://localhost:3000/reset-password?token=abc');
    expect(body).toContain('<p>Open <a href="http://localhost:3000/reset-password?token=abc">this link</a>.</p>');

    const rows = await waitFor('the email_log row with its location', async () => {
      const found = await emailLog(command.id);
      return found[0]?.location ? found : undefined;
    });
    expect(rows).toEqual([
      {
        command_id: command.id,
        recipient: 'agent@example.com',
        subject: 'Reset your WarmLine password',
        template: 'password-reset',
        transport: 'file',
        location: path.join(worker.mailDir, files[0]!),
      },
    ]);
  });

  it('when the same command is delivered twice, then one e-mail is written and one email_log row exists', async () => {
    const worker = await startWorker();
    const command = emailCommand({ to: 'twice@example.com' });

    await worker.send(command);
    await waitFor('the first .eml file', async () => (await emlFiles(worker.mailDir)).length === 1);
    await worker.send(command);
    // Wait until the consumer has finished the second delivery as a duplicate: a delivery still
    // waiting for a handler when the worker stops is left unacknowledged (redelivered later), so
    // an empty queue alone did not mean it was done.
    await waitFor('the second delivery handled as a duplicate', async () => {
      const metrics = await (await fetch(`${worker.url}/metrics`)).text();
      return /warmline_consumer_messages_total\{[^}]*outcome="duplicate"[^}]*\} [1-9]/.test(metrics);
    });
    await worker.stop();

    expect(await worker.messagesIn(EMAIL_QUEUE)).toBe(0);
    expect(await worker.messagesIn(`${EMAIL_QUEUE}.retry`)).toBe(0);
    expect(await worker.messagesIn(`${EMAIL_QUEUE}.dlq`)).toBe(0);
    expect(await emlFiles(worker.mailDir)).toHaveLength(1);
    expect(await emailLog(command.id)).toHaveLength(1);
  });

  it('when the SMTP server refuses connections, then the command is retried and ends in notifications.email.dlq with nothing logged as sent', async () => {
    const closedPort = await freePort();
    const worker = await startWorker(
      { SMTP_URL: `smtp://127.0.0.1:${closedPort}` },
      { maxAttempts: 3, retryDelaysMs: [50] },
    );
    const command = emailCommand({ to: 'nobody@example.com' });

    await worker.send(command);

    await waitFor('the command in the DLQ', async () => (await worker.messagesIn(`${EMAIL_QUEUE}.dlq`)) === 1, {
      timeoutMs: 20_000,
    });
    const channel = await bed.broker.createChannel();
    try {
      const dead = await channel.get(`${worker.namespace}.${EMAIL_QUEUE}.dlq`, { noAck: true });
      expect(dead).not.toBe(false);
      if (dead === false) return;
      expect((JSON.parse(dead.content.toString('utf8')) as Envelope).id).toBe(command.id);
      // Three deliveries failed: the first and two retries.
      expect(dead.properties.headers?.['warmline-attempts']).toBe(3);
      expect(String(dead.properties.headers?.['warmline-error'])).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await channel.close();
    }
    expect(await emailLog(command.id)).toEqual([]);
    expect(await emlFiles(worker.mailDir)).toEqual([]);
  });

  it('when asked for health, then it answers /healthz and /readyz, and refuses /api requests without a forwarded identity', async () => {
    const worker = await startWorker();

    const health = await fetch(`${worker.url}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${worker.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', degraded: [], checks: { postgres: 'ok', rabbitmq: 'ok' } });
    const api = await fetch(`${worker.url}/api/emails`);
    expect(api.status).toBe(401);
  });
});
