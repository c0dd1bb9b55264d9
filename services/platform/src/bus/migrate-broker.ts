import amqp from 'amqplib';
import type { Logger } from '../log';
import { MANIFEST_TOPOLOGY, migrateTopology, type Topology } from './topology';

// The migration step may start beside a broker that is still booting: try for a while.
const CONNECT_ATTEMPTS = 30;
const CONNECT_RETRY_MS = 2_000;

/**
 * The broker half of the migration step (docs/adr/0038): declares the layout of the broker
 * manifest in `namespace` (none in production) and migrates what an older release declared
 * differently. `make migrate` and the Kubernetes migration Job run it through
 * infra/scripts/migrate.ts; the test harnesses run it once per namespace they create.
 */
export async function migrateBroker(options: { url: string; namespace?: string | undefined; log: Logger; topology?: Topology }): Promise<void> {
  const { log } = options;
  const name = (base: string) => (options.namespace ? `${options.namespace}.${base}` : base);
  for (let attempt = 1; ; attempt++) {
    let connection: amqp.ChannelModel;
    try {
      connection = await amqp.connect(options.url, {
        clientProperties: { connection_name: 'warmline broker migration' },
        timeout: 10_000,
        // Moving messages is a round trip per get; Nagle would add ~40 ms to each (docs/adr/0025).
        noDelay: true,
      });
    } catch (err) {
      if (attempt >= CONNECT_ATTEMPTS) throw err;
      log.warn({ err, attempt }, 'cannot connect to RabbitMQ for the broker migration; trying again');
      await new Promise((r) => setTimeout(r, CONNECT_RETRY_MS));
      continue;
    }
    connection.on('error', (err: Error) => log.warn({ err }, 'RabbitMQ connection error during the broker migration'));
    try {
      await migrateTopology(connection, name, options.topology ?? MANIFEST_TOPOLOGY, log);
      return;
    } finally {
      await connection.close().catch(() => undefined);
    }
  }
}
