import { describe, expect, it } from 'vitest';
import {
  allMessageTypes,
  brokerManifest,
  carriesSecret,
  consumersOf,
  isCommand,
  isEvent,
  queueOf,
  retiredQueues,
} from '../src/index';

describe('the broker manifest', () => {
  it('when a command is sent, then exactly one queue receives it (commands are published mandatory and must never come back)', () => {
    const commands = allMessageTypes().filter(isCommand);
    expect(commands.length).toBeGreaterThan(0);
    for (const type of commands) expect({ type, queues: consumersOf(type).map((q) => q.queue) }).toEqual({ type, queues: [expect.any(String)] });
  });

  it('when a queue is listed, then it binds only known message types and is named after the process that consumes it', () => {
    const names = brokerManifest.queues.map((q) => q.queue);
    expect(new Set(names).size).toBe(names.length);
    for (const q of brokerManifest.queues) {
      expect(q.queue.startsWith(`${q.consumer}.`)).toBe(true);
      expect(q.messages.length).toBeGreaterThan(0);
      for (const type of q.messages) expect(isEvent(type) || isCommand(type)).toBe(true);
    }
  });

  it('when a message type exists, then the manifest says who publishes it', () => {
    for (const type of allMessageTypes()) expect({ type, publishers: brokerManifest.publishers[type]?.length ?? 0 }).toEqual({ type, publishers: expect.any(Number) });
    for (const type of allMessageTypes()) expect(brokerManifest.publishers[type]!.length).toBeGreaterThan(0);
  });

  it('when a message holds a secret, then it is a command, never an event that analysts could tap', () => {
    for (const type of allMessageTypes().filter(isEvent)) expect(carriesSecret(type, { secret: true })).toBe(false);
    expect(carriesSecret('email.password_reset', {})).toBe(true);
    expect(carriesSecret('email.send', { secret: true })).toBe(true);
    expect(carriesSecret('email.send', {})).toBe(false);
  });

  it('when a queue is retired, then no current queue has its name', () => {
    const current = new Set(brokerManifest.queues.map((q) => q.queue));
    for (const r of retiredQueues) expect(current.has(r.queue)).toBe(false);
  });
});

describe("a service's queue read from the manifest", () => {
  it('when a service names a queue the manifest gives it, then it gets the name', () => {
    expect(queueOf('orders', 'orders.lead-sales')).toBe('orders.lead-sales');
    expect(queueOf('importer', 'importer.dnc-registry')).toBe('importer.dnc-registry');
  });

  it("when a service names a queue the manifest does not have, or another service's, then it fails naming both", () => {
    expect(() => queueOf('orders', 'orders.lead-sale')).toThrow('orders.lead-sale is not a queue of the broker manifest');
    expect(() => queueOf('catalog', 'orders.lead-sales')).toThrow('orders.lead-sales is consumed by orders, not catalog, in the broker manifest');
  });
});
