import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import amqp, { type ChannelModel } from 'amqplib';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { exchangeFor, type Envelope, type MessageType } from '@warmline/contracts';
import { parseConfig } from '@warmline/platform/config';
import { createLogger } from '@warmline/platform/log';
import {
  createTestDatabase,
  requireService,
  TEST_AMQP_URL,
  TEST_KEYS,
  uniqueName,
  waitFor,
  type TestDatabase,
} from '@warmline/platform/testing/index';
import { readyz } from '@warmline/platform/testing/outage';
import { deleteBusNames } from '@warmline/platform/testing/system';
import { notificationsEnv } from '../src/config';
import { NOTIFICATIONS_QUEUES } from '../src/events/consumers';
import { startNotifications, NOTIFICATIONS_SCHEMA, type NotificationsOptions } from '../src/service';

/**
 * The notifications worker against the real PostgreSQL and RabbitMQ, for one test file: its
 * own database; per worker its own broker namespace and mail directory, removed after each
 * test. Messages are published onto the (namespaced) exchanges exactly as an outbox relay does.
 */

export interface Worker {
  url: string;
  namespace: string;
  mailDir: string;
  stop(): Promise<void>;
  /** Publishes an event or command on the exchange its type belongs to, and waits for the broker's confirm. */
  send(envelope: Envelope<unknown>): Promise<void>;
  messagesIn(queue: string): Promise<number>;
}

export interface NotificationsTestBed {
  readonly db: TestDatabase;
  readonly broker: ChannelModel;
  startWorker(env?: Record<string, string>, options?: NotificationsOptions): Promise<Worker>;
  /** The email_log rows of one email.send command. */
  emailLog(commandId: string): Promise<Array<Record<string, string>>>;
  /** The email_log rows sent to one address, oldest first. */
  emailsTo(recipient: string): Promise<Array<Record<string, string>>>;
}

/** Registers the file's hooks (database and broker connection for the file, workers per test). */
export function notificationsTestBed(): NotificationsTestBed {
  let db: TestDatabase | undefined;
  let broker: ChannelModel | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    await requireService('RabbitMQ', TEST_AMQP_URL);
    db = await createTestDatabase('wl_notifications');
    broker = await amqp.connect(TEST_AMQP_URL);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  afterAll(async () => {
    await broker?.close();
    await db?.drop();
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready (did beforeAll fail?)`);
    return value;
  };

  return {
    get db() {
      return need(db, 'the test database');
    },
    get broker() {
      return need(broker, 'the broker connection');
    },

    async startWorker(env = {}, options = {}) {
      const namespace = uniqueName('t').toLowerCase();
      const mailDir = await mkdtemp(path.join(os.tmpdir(), 'wl-mail-'));
      const config = parseConfig(notificationsEnv, {
        DATABASE_URL: need(db, 'the test database').url,
        MIGRATION_DATABASE_URL: need(db, 'the test database').url,
        AMQP_URL: TEST_AMQP_URL,
        ...TEST_KEYS,
        BUS_NAMESPACE: namespace,
        NOTIFICATIONS_PORT: '0',
        MAIL_DIR: mailDir,
        ...env,
      });
      const running = await startNotifications(config, createLogger('notifications', 'silent'), options);
      // The worker starts without waiting for the broker; the exchanges exist once it reports
      // no degraded dependency, and a test publishes only then. (A test that gives its own
      // AMQP_URL, say a proxy it cuts, waits for what it needs itself.)
      if (env.AMQP_URL === undefined) {
        await waitFor('the worker to reach RabbitMQ', async () => {
          const answer = await readyz(running.url);
          return answer.status === 200 && answer.body.degraded?.length === 0;
        });
      }
      const stop = running.stop;
      const name = (base: string) => `${namespace}.${base}`;
      const channel = await need(broker, 'the broker connection').createConfirmChannel();
      cleanups.push(async () => {
        await stop();
        await channel.close();
        await deleteBusNames(namespace, NOTIFICATIONS_QUEUES);
        await rm(mailDir, { recursive: true, force: true });
      });
      return {
        url: running.url,
        namespace,
        mailDir,
        stop,
        async send(envelope) {
          channel.publish(name(exchangeFor(envelope.type as MessageType)), envelope.type, Buffer.from(JSON.stringify(envelope)), {
            persistent: true,
            contentType: 'application/json',
            messageId: envelope.id,
          });
          await channel.waitForConfirms();
        },
        async messagesIn(queue) {
          return (await channel.checkQueue(name(queue))).messageCount;
        },
      };
    },

    emailLog: (commandId) => queryEmailLog('command_id = $1', [commandId]),
    emailsTo: (recipient) => queryEmailLog('recipient = $1', [recipient]),
  };

  async function queryEmailLog(where: string, params: unknown[]): Promise<Array<Record<string, string>>> {
    const client = new pg.Client({ connectionString: need(db, 'the test database').url });
    await client.connect();
    try {
      const result = await client.query(
        `SELECT command_id, recipient, subject, template, transport, location FROM ${NOTIFICATIONS_SCHEMA}.email_log WHERE (${where}) AND state = 'sent' ORDER BY sent_at, command_id`,
        params,
      );
      return result.rows as Array<Record<string, string>>;
    } finally {
      await client.end();
    }
  }
}

export { decodeQuotedPrintable, emlFiles } from '@warmline/platform/testing/mail';
