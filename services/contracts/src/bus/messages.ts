import type { z } from 'zod';
import { accountEvents, accountCommands } from './messages/accounts';
import { orderEvents, orderCommands } from './messages/orders';
import { catalogEvents, catalogCommands } from './messages/catalog';
import { partnerEvents, partnerCommands } from './messages/partners';
import { transferEvents, transferCommands } from './messages/transfers';

/**
 * The registry of every event (published on `warmline.events`, routing key = type) and
 * command (sent on `warmline.commands`, routing key = type). Each entry is versioned; a
 * consumer parses `data` with the schema of the version it receives.
 *
 * Events are past-tense facts with thin payloads: ids and the business facts analysts count
 * (amounts, counts, states, product, status), never names, e-mails, usernames or phone numbers
 * (those stay with their owner; test/thin-events.test.ts holds every event to it), and never
 * passwords, tokens or card data.
 *
 * Commands are imperatives to one worker. The `email.*` commands carry what one kind of e-mail
 * needs to reach and address a person and the facts it shows; the notifications worker writes
 * every body. Commands may carry secrets (a reset link), which is why they never go to the
 * events exchange that analysts tap.
 */
export type { AccountSecurityChange } from './messages/accounts';
export type { LeadOrderLead } from './messages/orders';

export const events = {
  ...accountEvents,
  ...orderEvents,
  ...catalogEvents,
  ...partnerEvents,
  ...transferEvents,
} as const;

export const commands = {
  ...accountCommands,
  ...orderCommands,
  ...catalogCommands,
  ...partnerCommands,
  ...transferCommands,
} as const;

export type EventType = keyof typeof events;
export type CommandType = keyof typeof commands;
export type MessageType = EventType | CommandType;

type Latest<T> = T extends { 1: infer S } ? S : never;
export type EventData<T extends EventType> = z.infer<Latest<(typeof events)[T]>>;
export type CommandData<T extends CommandType> = z.infer<Latest<(typeof commands)[T]>>;
export type MessageData<T extends MessageType> = T extends EventType
  ? EventData<T>
  : T extends CommandType
    ? CommandData<T>
    : never;

export const EVENTS_EXCHANGE = 'warmline.events';
export const COMMANDS_EXCHANGE = 'warmline.commands';

export function isCommand(type: string): type is CommandType {
  return Object.hasOwn(commands, type);
}

export function isEvent(type: string): type is EventType {
  return Object.hasOwn(events, type);
}

/** The zod schema for a message type and version, or undefined when unknown. */
export function messageSchema(type: string, version: number): z.ZodType | undefined {
  const table: Record<string, Record<number, z.ZodType>> = { ...events, ...commands };
  return table[type]?.[version];
}

/** The exchange a message type is routed through. */
export function exchangeFor(type: MessageType): string {
  return isCommand(type) ? COMMANDS_EXCHANGE : EVENTS_EXCHANGE;
}
