import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, MessageData } from '@warmline/contracts';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { proxyFor, readyz, type ProxiedDependency } from '@warmline/platform/testing/outage';
import { EMAIL_QUEUE } from '../src/events/consumers';
import { notificationsTestBed } from './worker-fixture';

/**
 * ARCHITECTURE §5, Faults: a worker started while the broker is unreachable does not wait for
 * it (nor exit): it serves health and readiness at once, reports the broker degraded, and
 * consumes as soon as the broker comes.
 */

const CEILING = { timeoutMs: 30_000, intervalMs: 100 };
const bed = notificationsTestBed();
let broker: ProxiedDependency;

beforeAll(async () => {
  broker = await proxyFor(TEST_AMQP_URL);
});

afterAll(async () => {
  await broker?.proxy.close();
});

function emailCommand(): Envelope<MessageData<'email.send'>> {
  return {
    id: randomUUID(),
    type: 'email.send',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'notifications-test',
    correlationId: randomUUID(),
    data: {
      to: 'late-broker@example.com',
      subject: 'Sent once the broker came',
      text: 'Hello.',
      html: '<p>Hello.</p>',
      template: 'test',
    },
  };
}

describe('the notifications worker started without a broker', () => {
  it('when the broker is unreachable at start, then it serves HTTP reporting rabbitmq degraded, and consumes once the broker comes', async () => {
    broker.proxy.cut();
    const worker = await bed.startWorker({ AMQP_URL: broker.url });

    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    const degraded = await readyz(worker.url);
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ status: 'ready', degraded: ['rabbitmq'] });

    await broker.proxy.restore();
    await waitFor('a consumer on the e-mail queue', async () => {
      const channel = await bed.broker.createChannel();
      // Until the worker declares it, the queue is missing: the broker closes the channel (404).
      channel.on('error', () => undefined);
      try {
        return (await channel.checkQueue(`${worker.namespace}.${EMAIL_QUEUE}`)).consumerCount > 0;
      } finally {
        await channel.close().catch(() => undefined);
      }
    }, CEILING);
    expect(await readyz(worker.url)).toMatchObject({ status: 200, body: { degraded: [] } });

    const command = emailCommand();
    await worker.send(command);
    const sent = await waitFor('the e-mail logged as sent', async () => {
      const rows = await bed.emailLog(command.id);
      return rows.length > 0 ? rows : undefined;
    }, CEILING);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ recipient: 'late-broker@example.com' });
  }, 90_000);
});
