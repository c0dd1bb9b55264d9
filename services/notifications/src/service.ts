import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@warmline/platform/log';
import { createHttpApp, serve } from '@warmline/platform/http/app';
import { identityCheck } from '@warmline/platform/http/identity';
import { openDatabaseAndBus, startConsumer } from '@warmline/platform/bus/index';
import { startPeriodicTask } from '@warmline/platform/bus/periodic-task';
import { createPool } from '@warmline/platform/db/index';
import { ShutdownStack } from '@warmline/platform/lifecycle';
import { resolveMailTransport, ringcloudMailFrom, type NotificationsConfig } from './config';
import { createMailer } from './domain/mailer';
import { pruneEmailLog } from './db/email-log';
import { consumers } from './events/consumers';

export const NOTIFICATIONS_SCHEMA = 'notifications';
const EMAIL_CLAIM_CONNECTIONS = 2;
/** How often the e-mail log is pruned of rows past EMAIL_LOG_RETENTION_DAYS. */
const EMAIL_LOG_PRUNE_PERIOD_MS = 3_600_000;
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
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
  // Before any connection: a production worker that would not deliver mail does not start.
  const transport = resolveMailTransport(config);
  const stops = new ShutdownStack(log, 'notifications');
  try {
    // Events become email.send commands in this schema's outbox (one send per command).
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: NOTIFICATIONS_SCHEMA,
      migrationsDir: NOTIFICATIONS_MIGRATIONS_DIR,
      connectionName: 'notifications',
    });
    const mailer = createMailer({
      ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
      // Each brand's e-mails come from its own sender (issue 17 item 7).
      from: { WarmLine: config.MAIL_FROM, RingCloud: ringcloudMailFrom(config) },
      mailDir: config.MAIL_DIR,
    });
    stops.push('mailer', async () => mailer.close());
    // Claims commit on their own connections before each send (docs/adr/0041); two are
    // plenty for one short INSERT per e-mail, and they count in the connection budget.
    const emailClaims = createPool(config.DATABASE_URL, NOTIFICATIONS_SCHEMA, EMAIL_CLAIM_CONNECTIONS, log, { asAppRole: true });
    stops.push('e-mail claims', () => emailClaims.end());
    // Once per hour across the workers' replicas (docs/adr/0040).
    const emailLogRetention = startPeriodicTask({
      pool,
      log,
      schema: NOTIFICATIONS_SCHEMA,
      task: 'email-log-retention',
      everyMs: EMAIL_LOG_PRUNE_PERIOD_MS,
      run: async () => ({ deleted: await pruneEmailLog(pool, config.EMAIL_LOG_RETENTION_DAYS) }),
    });
    stops.push('e-mail log retention', () => emailLogRetention.stop());
    log.info(
      transport === 'smtp' ? { transport } : { transport, mailDir: path.resolve(config.MAIL_DIR) },
      'e-mail transport chosen',
    );

    // No waiting for the broker: each consumer attaches once it connects (the worker reports
    // itself degraded on /readyz until then).
    const teams = { salesTeamEmail: config.SALES_TEAM_EMAIL, operationsEmail: config.OPERATIONS_EMAIL, partnersTeamEmail: config.PARTNERS_TEAM_EMAIL, supportEmail: config.SUPPORT_EMAIL, ringcloudSupportEmail: config.RINGCLOUD_SUPPORT_EMAIL };
    for (const { queue, subscriptions, batch } of consumers({ mailer, emailClaims, ...teams, publicUrl: config.PUBLIC_URL })) {
      const consumer = await startConsumer({
        bus,
        pool,
        queue,
        subscriptions,
        log,
        ...(batch ? { batch } : {}),
        ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
        ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
      });
      stops.push(`consumer ${queue}`, () => consumer.stop());
    }

    const app = createHttpApp({
      service: 'notifications',
      log,
      identity: identityCheck(config, 'notifications'),
      readiness,
      metrics: bus.metrics.registry,
      mount: () => {},
    });
    const url = await serve(app, config.NOTIFICATIONS_PORT, stops, config.INTERNAL_HOST);
    log.info({ url }, 'notifications worker started');
    return { url, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
