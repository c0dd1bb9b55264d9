import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE } from '@warmline/contracts';
import { createBus } from '../src/bus/index';
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
