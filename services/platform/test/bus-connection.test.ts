import type { Socket } from 'node:net';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE } from '@warmline/contracts';
import { createBus } from '../src/bus/index';
import { writeFramesTogether } from '../src/bus/connection';
import { TEST_AMQP_URL, waitFor } from '../src/testing/index';
import { startTcpProxy, type TcpProxy } from '../src/testing/tcp-proxy';
import { startBusFixture, type BusFixture } from './bus-fixture';

let f: BusFixture;
let proxy: TcpProxy;
let throughProxy: string;

beforeAll(async () => {
  f = await startBusFixture();
  const broker = new URL(TEST_AMQP_URL);
  proxy = await startTcpProxy(broker.hostname, Number(broker.port) || 5672);
  const url = new URL(TEST_AMQP_URL);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  throughProxy = url.toString();
});

afterAll(async () => {
  await proxy?.close();
  await f?.cleanup();
});

describe('bus connection', () => {
  it('when RabbitMQ is unreachable at start, then the bus keeps trying and is ready once it answers', async () => {
    proxy.cut();
    const bus = createBus({ developmentBroker: true, url: throughProxy, log: f.log, connectionName: 'bus-connection-test', namespace: f.namespace });
    try {
      let ready = false;
      void bus.ready().then(() => (ready = true));
      await waitFor('a failed connection attempt', () => f.logLines.some((l) => l.msg === 'cannot connect to RabbitMQ'));
      await expect(bus.ping()).rejects.toThrow(/not connected/);
      expect(ready).toBe(false);

      await proxy.restore();

      await bus.ready();
      await bus.ping();
      // ready() promises the exchanges exist.
      await f.channel.checkExchange(f.name(EVENTS_EXCHANGE));
      await f.channel.checkExchange(f.name(COMMANDS_EXCHANGE));
    } finally {
      await bus.close();
    }
  });

  it('when a bus is closed, then it stops answering pings and closing again is harmless', async () => {
    const bus = createBus({ developmentBroker: true, url: throughProxy, log: f.log, connectionName: 'bus-connection-test', namespace: f.namespace });
    await bus.ready();

    await bus.close();
    await bus.close();

    await expect(bus.ping()).rejects.toThrow(/not connected/);
  });

  it('when a bus is closed before it ever connected, then ready() fails instead of hanging', async () => {
    proxy.cut();
    try {
      const bus = createBus({ developmentBroker: true, url: throughProxy, log: f.log, connectionName: 'bus-connection-test', namespace: f.namespace });
      await bus.close();
      await expect(bus.ready()).rejects.toThrow(/closed before it connected/);
    } finally {
      await proxy.restore();
    }
  });
});

describe('frames written together (issue 27)', () => {
  /** Publishes `count` messages in one turn of the event loop; how many writes reached the socket. */
  async function socketWritesFor(count: number, together: boolean): Promise<number> {
    const model = await amqp.connect(TEST_AMQP_URL, { noDelay: true });
    try {
      if (together) expect(writeFramesTogether(model)).toBe(true);
      const socket = (model as unknown as { connection: { stream: Socket } }).connection.stream;
      let writes = 0;
      const write = socket._write.bind(socket);
      const writev = socket._writev?.bind(socket);
      socket._write = (...args: Parameters<Socket['_write']>) => {
        writes++;
        write(...args);
      };
      if (writev) {
        socket._writev = (...args: Parameters<NonNullable<Socket['_writev']>>) => {
          writes++;
          writev(...args);
        };
      }
      const channel = await model.createConfirmChannel();
      const queue = (await channel.assertQueue('', { exclusive: true })).queue;
      writes = 0;
      for (let i = 0; i < count; i++) channel.sendToQueue(queue, Buffer.from(`{"n":${i}}`));
      await channel.waitForConfirms();
      const published = writes;
      expect((await channel.checkQueue(queue)).messageCount).toBe(count);
      return published;
    } finally {
      await model.close();
    }
  }

  it('when a batch of messages is published in one turn, then they leave in one write instead of one write each', async () => {
    const apart = await socketWritesFor(50, false);
    const together = await socketWritesFor(50, true);

    expect(apart).toBeGreaterThanOrEqual(25);
    expect(together).toBeLessThanOrEqual(3);
  });
});
