import { createPool, pingDatabase, runMigrations, waitForMigrations, type Pool } from '../db/index';
import type { ReadinessCheck } from '../http/app';
import type { ShutdownStack } from '../lifecycle';
import type { Logger } from '../log';
import { createBus, type Bus } from './connection';
import { startOutboxRelay } from './relay';
import { assertRetention, startRetention } from './retention';

/** The entries of a service's config (baseEnv's) that its database and bus are opened with. */
export interface ServiceConnectionConfig {
  /** development and test: the local broker's one user passes the publisher check (docs/adr/0039). */
  NODE_ENV?: 'development' | 'test' | 'production';
  DATABASE_URL: string;
  /** Overrides the service's own pool size (`poolSize`) when set. */
  DATABASE_POOL_SIZE?: number | undefined;
  /** Given: the service migrates its schema at start with it (development, tests); docs/adr/0043. */
  MIGRATION_DATABASE_URL?: string | undefined;
  AMQP_URL: string;
  /** Set by tests so a run's exchanges and queues stay apart; unset in production. */
  BUS_NAMESPACE?: string | undefined;
  /** Bus retention (baseEnv's defaults when a caller's config has none). */
  OUTBOX_SENT_RETENTION_HOURS?: number;
  PROCESSED_EVENTS_RETENTION_DAYS?: number;
}

/** A service's bus, named after the service in RabbitMQ's UI, in BUS_NAMESPACE when one is set. */
export function createServiceBus(config: Omit<ServiceConnectionConfig, 'DATABASE_URL' | 'MIGRATION_DATABASE_URL'>, log: Logger, connectionName: string): Bus {
  return createBus({
    url: config.AMQP_URL,
    log,
    connectionName,
    // Unset counts as production: the check is relaxed only where NODE_ENV says so.
    developmentBroker: config.NODE_ENV === 'development' || config.NODE_ENV === 'test',
    ...(config.BUS_NAMESPACE ? { namespace: config.BUS_NAMESPACE } : {}),
  });
}

/**
 * What every service opens first: its schema migrated, a pool on it, its bus, and the relay
 * that moves its outbox to the bus (the relay waits for the broker itself, so the service
 * takes work while the broker is away). Each closer goes on `stops`, so a service that fails
 * to start further on closes them again; `readiness` holds the /readyz checks of both.
 */
export async function openDatabaseAndBus(options: {
  config: ServiceConnectionConfig;
  log: Logger;
  stops: ShutdownStack;
  schema: string;
  migrationsDir: string;
  /** The service's name, shown on its broker connection. */
  connectionName: string;
  /** Connections in the pool when DATABASE_POOL_SIZE is unset; createPool's default when not given. */
  poolSize?: number;
}): Promise<{ pool: Pool; bus: Bus; readiness: ReadinessCheck[] }> {
  const { config, log, stops, schema } = options;
  const retention = {
    OUTBOX_SENT_RETENTION_HOURS: config.OUTBOX_SENT_RETENTION_HOURS ?? 24,
    PROCESSED_EVENTS_RETENTION_DAYS: config.PROCESSED_EVENTS_RETENTION_DAYS ?? 7,
  };
  assertRetention(retention);
  // Least privilege (docs/adr/0043): the service works as its schema's app role, which may not
  // change the schema; the migration step does, as the schema's owner. Only where it is given
  // MIGRATION_DATABASE_URL (development, tests) does the service run that step itself.
  if (config.MIGRATION_DATABASE_URL) {
    await runMigrations({ databaseUrl: config.MIGRATION_DATABASE_URL, schema, dir: options.migrationsDir, log, roles: {} });
  } else {
    await waitForMigrations({ databaseUrl: config.DATABASE_URL, schema, dir: options.migrationsDir, log });
  }
  const pool = createPool(config.DATABASE_URL, schema, config.DATABASE_POOL_SIZE ?? options.poolSize, log, { asAppRole: true });
  stops.push('postgres', () => pool.end());
  const bus = createServiceBus(config, log, options.connectionName);
  stops.push('rabbitmq', () => bus.close());
  const relay = startOutboxRelay({ pool, databaseUrl: config.DATABASE_URL, schema, bus, log });
  stops.push('outbox relay', () => relay.stop());
  const pruning = startRetention({ pool, settings: retention, log, schema });
  stops.push('bus retention', () => pruning.stop());
  return {
    pool,
    bus,
    readiness: [
      ['postgres', () => pingDatabase(pool)],
      // Without the broker, writes still commit with their events in the outbox, which the
      // relay sends once it is back: the service stays in rotation, reported as degraded.
      ['rabbitmq', () => bus.ping(), 'degrades'],
    ],
  };
}
