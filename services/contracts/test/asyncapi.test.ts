import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { buildAsyncApiDocument, renderAsyncApi } from '../src/docs/asyncapi';
import { brokerManifest, consumersOf } from '../src/bus/broker-manifest';
import { envelopeSchema } from '../src/bus/envelope';
import { commandExamples, eventExamples } from '../src/bus/message-examples';
import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, commands, events, messageSchema, type MessageType } from '../src/bus/messages';

/** Issue 16: the AsyncAPI document is valid, and names an example, a producer and the consumers of every message. */

interface Operation {
  action: 'send' | 'receive';
  channel: { $ref: string };
  messages?: Array<{ $ref: string }>;
}
interface Message {
  name: string;
  examples?: Array<{ payload: { type: string; version: number; data: unknown } }>;
}
interface Channel {
  address: string;
  messages: Record<string, unknown>;
  bindings: { amqp: { is: string; exchange?: { name: string }; queue?: { name: string } } };
}
const document = buildAsyncApiDocument() as {
  asyncapi: string;
  channels: Record<string, Channel>;
  operations: Record<string, Operation>;
  components: { messages: Record<string, Message> };
};
const eventTypes = Object.keys(events) as MessageType[];
const commandTypes = Object.keys(commands) as MessageType[];
const examples: Record<string, unknown> = { ...eventExamples, ...commandExamples };

describe('the AsyncAPI document (issue 16)', () => {
  it('when validated by @asyncapi/parser, then it has no error and no warning', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(renderAsyncApi());
    const problems = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning);
    expect(problems.map((d) => `${d.code} ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    expect(parsed).toBeDefined();
    // The parser's own model sees every message type as a channel.
    expect(parsed!.channels().all().length).toBe(eventTypes.length + commandTypes.length + brokerManifest.queues.length);
  });

  it('when an example is written, then it passes its message schema (events and commands alike)', () => {
    expect(Object.keys(eventExamples).sort()).toEqual([...eventTypes].sort());
    expect(Object.keys(commandExamples).sort()).toEqual([...commandTypes].sort());
    for (const [type, data] of Object.entries(examples)) {
      const result = messageSchema(type, 1)!.safeParse(data);
      expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), type).toEqual([]);
    }
  });

  it('when a message is listed, then it carries an example envelope of its own type whose data passes the schema', () => {
    for (const type of [...eventTypes, ...commandTypes]) {
      const message = document.components.messages[`${type}.v1`];
      expect(message?.name, type).toBe(type);
      const payload = message!.examples?.[0]?.payload;
      expect(envelopeSchema.safeParse(payload).success, type).toBe(true);
      expect(payload!.type).toBe(type);
      expect(messageSchema(type, payload!.version)!.safeParse(payload!.data).success, type).toBe(true);
    }
  });

  it('when an event or command is listed, then it is on its exchange and has a producer from the manifest', () => {
    for (const type of [...eventTypes, ...commandTypes]) {
      const channel = document.channels[type]!;
      expect(channel.bindings.amqp.exchange?.name, type).toBe(eventTypes.includes(type) ? EVENTS_EXCHANGE : COMMANDS_EXCHANGE);
      const senders = Object.entries(document.operations)
        .filter(([, op]) => op.action === 'send' && op.channel.$ref === `#/channels/${type}`)
        .map(([id]) => id.split('.send.')[0]);
      expect(senders.length, `${type} has no producer`).toBeGreaterThan(0);
      expect(senders.sort(), type).toEqual([...brokerManifest.publishers[type]].sort());
    }
  });

  it("when a message has consumers in the manifest, then each consumer queue's receive operation lists it", () => {
    for (const type of [...eventTypes, ...commandTypes]) {
      for (const q of consumersOf(type)) {
        const op = document.operations[`${q.queue}.receive`];
        expect(op?.action, q.queue).toBe('receive');
        expect(document.channels[op!.channel.$ref.replace('#/channels/', '')]!.bindings.amqp.queue?.name).toBe(q.queue);
        expect(op!.messages!.map((m) => m.$ref.split('/').at(-1)), q.queue).toContain(`${type}.v1`);
      }
    }
    expect(Object.values(document.operations).filter((op) => op.action === 'receive')).toHaveLength(brokerManifest.queues.length);
  });
});
