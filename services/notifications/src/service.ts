import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createPool, pingDatabase, runMigrations } from '@warmline/platform/db/index';
import { closeServer, createHttpApp, listen } from '@warmline/platform/http/app';
import { createBus, startConsumer, startOutboxRelay } from '@warmline/platform/bus/index';
import type { NotificationsConfig } from './config';
import { createMailer } from './domain/mailer';
import { consumers } from './events/subscriptions';

export const NOTIFICATIONS_SCHEMA = 'notifications';
export const NOTIFICATIONS_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** Retry tuning for tests; production uses the bus's defaults. */
export interface NotificationsOptions {
  /** Deliveries before a failing message goes to `<queue>.dlq`. */
  maxAttempts?: number;
  /** Wait before retry n is the n-th entry (the last one repeats). */
  retryDelaysMs?: number[];
}

export interface RunningNotifications {
  url: string;
  stop(): Promise<void>;
}

/**
 * The e-mail worker: migrates its schema, consumes email.send from `notifications.email` and
 * the events that become e-mails (each on its own queue, see events/subscriptions.ts), relays
 * the email.send commands those events produce from its outbox, and serves health, readiness
 * and metrics on NOTIFICATIONS_PORT (0 picks a free port).
 */
export async function startNotifications(
  config: NotificationsConfig,
  log: Logger = createLogger('notifications', config.LOG_LEVEL),
  options: NotificationsOptions = {},
): Promise<RunningNotifications> {
  await runMigrations({
    databaseUrl: config.DATABASE_URL,
    schema: NOTIFICATIONS_SCHEMA,
    dir: NOTIFICATIONS_MIGRATIONS_DIR,
    log,
  });
  const pool = createPool(config.DATABASE_URL, NOTIFICATIONS_SCHEMA);
  const bus = createBus({
    url: config.AMQP_URL,
    log,
    connectionName: 'notifications',
    ...(config.BUS_NAMESPACE ? { namespace: config.BUS_NAMESPACE } : {}),
  });
  const mailer = createMailer({
    ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
    from: config.MAIL_FROM,
    mailDir: config.MAIL_DIR,
  });
  log.info(
    config.SMTP_URL ? { transport: 'smtp' } : { transport: 'file', mailDir: path.resolve(config.MAIL_DIR) },
    'e-mail transport chosen',
  );

  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    // Reverse order: HTTP, then the consumer (drains in-flight sends), then connections.
    for (const close of [...stops].reverse()) {
      try {
        await close();
      } catch (err) {
        log.warn({ err }, 'error while stopping notifications');
      }
    }
  };
  try {
    stops.push(() => pool.end());
    stops.push(() => bus.close());
    stops.push(async () => mailer.close());
    // Events become email.send commands in this schema's outbox (one send per command).
    const relay = startOutboxRelay({ pool, databaseUrl: config.DATABASE_URL, schema: NOTIFICATIONS_SCHEMA, bus, log });
    stops.push(() => relay.stop());
    await bus.ready();
    for (const { queue, subscriptions } of consumers({ mailer, salesTeamEmail: config.SALES_TEAM_EMAIL, operationsEmail: config.OPERATIONS_EMAIL })) {
      const consumer = await startConsumer({
        bus,
        pool,
        queue,
        subscriptions,
        log,
        ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
        ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
      });
      stops.push(() => consumer.stop());
    }

    const app = createHttpApp({
      service: 'notifications',
      log,
      identitySecret: config.IDENTITY_SECRET,
      readiness: [
        ['postgres', () => pingDatabase(pool)],
        ['rabbitmq', () => bus.ping()],
      ],
      mount: () => {},
    });
    const server = await listen(app, config.NOTIFICATIONS_PORT);
    stops.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    log.info({ url }, 'notifications worker started');
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
