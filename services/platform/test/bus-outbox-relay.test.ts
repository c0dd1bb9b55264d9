import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_EXCHANGE } from '@warmline/contracts';
import { createBus, enqueue, outboxRowsOf, startConsumer, startOutboxRelay, subscribe, type Bus } from '../src/bus/index';
import { afterCommit, withTransaction } from '../src/db/index';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startTcpProxy, type TcpProxy } from '../src/testing/tcp-proxy';
import { countDeliveries, startBusFixture, type BusFixture } from './bus-fixture';

let f: BusFixture;
let proxy: TcpProxy;
let bus: Bus;
let relay: { stop(): Promise<void> };
let received: Map<string, number>;

beforeAll(async () => {
  f = await startBusFixture();
  const broker = new URL(TEST_AMQP_URL);
  proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
  const throughProxy = new URL(TEST_AMQP_URL);
  throughProxy.hostname = '127.0.0.1';
  throughProxy.port = String(proxy.port);
  bus = createBus({ developmentBroker: true, url: throughProxy.toString(), log: f.log, connectionName: 'bus-outbox-relay-test',
    namespace: f.namespace,
    // No consumer queue declared at connect, so a command can find nobody bound to receive it.
    topology: { queues: [] },
    allowQueuesOutsideTopology: true,
  });
  await bus.ready();

  // An analyst-style tap, on the test's own direct connection, counts what arrives.
  received = await countDeliveries(f, 'user.deleted');

  relay = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
});

afterAll(async () => {
  await relay?.stop();
  await bus?.close();
  await proxy?.close();
  await f?.cleanup();
});

async function writeUserDeleted(): Promise<string> {
  const envelope = await withTransaction(f.pool, (tx) =>
    enqueue(tx, {
      type: 'user.deleted',
      data: { userId: randomUUID(), deletedBy: randomUUID() },
      correlationId: randomUUID(),
      source: 'bus-test',
    }),
  );
  return envelope.id;
}

describe('outbox relay', () => {
  it('when an event is written, then it is published and its outbox row is stamped', async () => {
    const id = await writeUserDeleted();

    await waitFor('the event to arrive', () => received.has(id));
    // The broker may deliver before the relay has stored the confirm: wait for the stamp.
    const publishedAt = await waitFor('the outbox row to be stamped', async () => {
      const { rows } = await f.pool.query<{ published_at: Date | null }>('SELECT published_at FROM outbox WHERE id = $1', [id]);
      return rows[0]?.published_at;
    });
    expect(publishedAt).toBeInstanceOf(Date);
  });

  it('when RabbitMQ is unreachable while events are written, then every event is delivered once it returns', async () => {
    proxy.cut();
    await waitFor('the bus to notice the broker is gone', async () => {
      try {
        await bus.ping();
        return false;
      } catch {
        return true;
      }
    });

    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await writeUserDeleted());

    const unpublished = await f.pool.query(
      'SELECT count(*) AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NULL',
      [ids],
    );
    expect(unpublished.rows[0].n).toBe(50);
    expect(ids.filter((id) => received.has(id))).toEqual([]);

    await proxy.restore();

    await waitFor('all 50 events to arrive after the broker returns', () => ids.every((id) => received.has(id)), {
      timeoutMs: 30_000,
    });
    await waitFor('every outbox row to be stamped published', async () => {
      const { rows } = await f.pool.query('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
      return rows[0].n === 0;
    });
    await bus.ping();
  });

  it('when two relays drain the same outbox, then each event is published exactly once', async () => {
    const second = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log });
    try {
      const ids = await Promise.all(Array.from({ length: 200 }, () => writeUserDeleted()));

      await waitFor('every outbox row to be stamped published', async () => {
        const { rows } = await f.pool.query('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
        return rows[0].n === 0;
      });
      // A duplicate would have been queued before its row was stamped; a marker published now
      // queues behind any such copy, so once it arrives every copy has arrived too.
      const marker = randomUUID();
      f.channel.publish(f.name(EVENTS_EXCHANGE), 'user.deleted', Buffer.from('{}'), { messageId: marker });
      await waitFor('the marker to arrive', () => received.has(marker));

      expect(ids.filter((id) => received.get(id) !== 1)).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('when a command is written while no queue is bound to receive it, then it waits in the outbox and reaches the worker once the queue exists', async () => {
    const command = await withTransaction(f.pool, (tx) =>
      enqueue(tx, {
        type: 'email.send',
        data: { to: 'agent@example.com', subject: 'Reset your password', text: 'link', template: 'password-reset' },
        correlationId: randomUUID(),
        source: 'bus-test',
      }),
    );
    const row = await waitFor('the relay to find the command unroutable', async () => {
      const { rows } = await f.pool.query('SELECT attempts, last_error, published_at FROM outbox WHERE id = $1', [command.id]);
      return rows[0].attempts > 0 ? rows[0] : undefined;
    });
    expect(row.published_at).toBeNull();
    expect(row.last_error).toMatch(/unroutable/);

    const sent: string[] = [];
    f.consumerQueues.add('relay-mailer');
    const worker = await startConsumer({
      bus,
      pool: f.pool,
      queue: 'relay-mailer',
      subscriptions: [subscribe('email.send', async (data, ctx) => void sent.push(`${ctx.envelope.id} ${data.subject}`))],
      log: f.log,
    });
    try {
      await waitFor('the worker to receive the command', () => sent.length > 0, { timeoutMs: 15_000 });
      expect(sent).toEqual([`${command.id} Reset your password`]);
    } finally {
      await worker.stop();
    }
  });

  it('when the relay loses its LISTEN connection, then it reconnects and is woken by new events again', async () => {
    // Only NOTIFY can wake this relay: its sweep is an hour away.
    await relay.stop();
    const listening = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log, sweepMs: 3_600_000 });
    const listenerPid = async () => {
      const { rows } = await f.pool.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`,
        [`outbox-listener ${f.schema}`],
      );
      return rows[0]?.pid as number | undefined;
    };
    try {
      const first = await waitFor('the relay to listen', listenerPid);
      await f.pool.query('SELECT pg_terminate_backend($1)', [first]);
      await waitFor('the relay to listen again', async () => {
        const pid = await listenerPid();
        return pid !== undefined && pid !== first;
      });

      const id = await writeFromElsewhere();

      await waitFor('the event to arrive', () => received.has(id));
    } finally {
      await listening.stop();
    }
  });

  it('when a row is written in the process that runs the relay, then its transaction sends no NOTIFY and the relay still publishes it at once', async () => {
    // The sweep is an hour away: only the in-process wake can deliver within the wait.
    await relay.stop();
    const inProcess = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log, sweepMs: 3_600_000 });
    const listener = new pg.Client({ connectionString: f.db.url });
    const notified: string[] = [];
    listener.on('notification', (n) => void (n.payload === f.schema && notified.push(n.channel)));
    await listener.connect();
    try {
      await listener.query('LISTEN warmline_outbox');
      const ids = await Promise.all(Array.from({ length: 5 }, () => writeUserDeleted()));

      await waitFor('the events to arrive', () => ids.every((id) => received.has(id)), { timeoutMs: 1_500 });
      // A row from elsewhere still NOTIFYs, so this listener would have heard ours by now.
      const other = await writeFromElsewhere();
      await waitFor('the NOTIFY of the row written elsewhere', () => notified.length > 0);
      await waitFor('the row written elsewhere to arrive', () => received.has(other));
      expect(notified).toEqual(['warmline_outbox']);
    } finally {
      await listener.end();
      await inProcess.stop();
    }
  });

  describe('woken by its writers\' commits (docs/adr/0055)', () => {
    // The sweep is an hour away and these rows NOTIFY nobody: only the commit can wake the relay.
    let woken: { stop(): Promise<void> };
    beforeAll(async () => {
      await relay.stop();
      woken = startOutboxRelay({ pool: f.pool, databaseUrl: f.db.url, schema: f.schema, bus, log: f.log, sweepMs: 3_600_000 });
    });
    afterAll(async () => {
      await woken.stop();
    });

    it('when a transaction holds its row past the time the relay would poll for it, then the row is published as the transaction commits', async () => {
      const id = await withTransaction(f.pool, async (tx) => {
        const envelope = await enqueue(tx, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' });
        // Longer than the relay keeps polling for an uncommitted row of its process (HOT_MS).
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        return envelope.id;
      });
      expect(received.has(id)).toBe(false);

      await waitFor('the event to arrive after its commit', () => received.has(id), { timeoutMs: 1_500 });
    });

    it('when a transaction that wrote a row rolls back, then nothing is published and its commit hooks are gone', async () => {
      let written: string | undefined;
      let client: pg.PoolClient | undefined;
      await expect(
        withTransaction(f.pool, async (tx) => {
          client = tx;
          written = (await enqueue(tx, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' })).id;
          throw new Error('changed its mind');
        }),
      ).rejects.toThrow('changed its mind');

      expect(afterCommit(client!, () => undefined)).toBe(false);
      const after = await writeUserDeleted();
      await waitFor('the next event to arrive', () => received.has(after), { timeoutMs: 1_500 });
      expect(received.has(written!)).toBe(false);
      const { rows } = await f.pool.query('SELECT 1 FROM outbox WHERE id = $1', [written]);
      expect(rows).toHaveLength(0);
    });

    it('when a row is written on the pool, with no transaction around it, then it is published at once', async () => {
      const envelope = await enqueue(f.pool, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' });

      await waitFor('the event to arrive', () => received.has(envelope.id), { timeoutMs: 1_500 });
    });

    it('when a service writes outbox rows in its own statement, then the relay publishes them when told they committed, and not before', async () => {
      const rows = outboxRowsOf([{ type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' }]);
      expect(rows.inProcessWake).toBe(true);
      // As the vendor webhook's SQL function writes them: with the in-process wake, so no NOTIFY.
      await f.pool.query(
        `INSERT INTO outbox (id, exchange, routing_key, envelope)
         SELECT r.* FROM (SELECT set_config('warmline.outbox_wake', 'in-process', true)) AS wake,
                unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[]) AS r`,
        [rows.ids, rows.exchanges, rows.routingKeys, rows.envelopes],
      );
      const id = rows.ids[0]!;
      // Nothing else is written meanwhile (any drain would take this row too).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(received.has(id)).toBe(false);

      rows.committed();
      await waitFor('the event to arrive once told', () => received.has(id), { timeoutMs: 1_500 });
    });

    it('when a caller sends BEGIN and COMMIT itself, then the relay polls for its row and publishes it after the commit', async () => {
      const client = await f.pool.connect();
      try {
        await client.query('BEGIN');
        expect(afterCommit(client, () => undefined)).toBe(false);
        const envelope = await enqueue(client, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(received.has(envelope.id)).toBe(false);
        await client.query('COMMIT');

        await waitFor('the event to arrive', () => received.has(envelope.id), { timeoutMs: 1_500 });
      } finally {
        client.release();
      }
    });

    it('when a handler writes a row and its batch commits later than the relay would poll, then the row is published at the commit', async () => {
      const queue = f.name('relay-commit-wake');
      f.consumerQueues.add('relay-commit-wake');
      const written: string[] = [];
      const consumer = await startConsumer({
        bus,
        pool: f.pool,
        queue,
        log: f.log,
        batch: { size: 10 },
        subscriptions: [
          subscribe('password_reset.completed', async (_data, { db }) => {
            written.push((await enqueue(db, { type: 'user.deleted', data: { userId: randomUUID(), deletedBy: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' })).id);
            await new Promise((resolve) => setTimeout(resolve, 2_500));
          }),
        ],
      });
      try {
        await enqueue(f.pool, { type: 'password_reset.completed', data: { userId: randomUUID() }, correlationId: randomUUID(), source: 'bus-test' });
        await waitFor('the handler to write its row', () => written.length === 1, { timeoutMs: 5_000 });

        await waitFor('the handler\'s event to arrive after its batch commits', () => received.has(written[0]!), { timeoutMs: 4_500 });
      } finally {
        await consumer.stop();
      }
    });
  });
});

/** A row written as psql or a process without a relay would: a plain INSERT, which NOTIFYs. */
async function writeFromElsewhere(): Promise<string> {
  const id = randomUUID();
  const envelope = { id, type: 'user.deleted', version: 1, occurredAt: new Date().toISOString(), source: 'bus-test', correlationId: randomUUID(), data: { userId: randomUUID(), deletedBy: randomUUID() } };
  await f.pool.query('INSERT INTO outbox (id, exchange, routing_key, envelope) VALUES ($1, $2, $3, $4)', [id, EVENTS_EXCHANGE, 'user.deleted', JSON.stringify(envelope)]);
  return id;
}
