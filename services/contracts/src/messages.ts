import { z } from 'zod';

/**
 * The registry of every event (published on `warmline.events`, routing key = type) and
 * command (sent on `warmline.commands`, routing key = type). Each entry is versioned; a
 * consumer parses `data` with the schema of the version it receives.
 *
 * Events are past-tense facts with thin payloads and never carry passwords, tokens or card
 * data. Commands may carry secrets (a reset link), which is why they never go to the events
 * exchange that analysts tap.
 */

export const accountRegisteredV1 = z.object({
  userId: z.uuid(),
  username: z.string(),
  email: z.email(),
  role: z.string(),
});

export const userDeletedV1 = z.object({ userId: z.uuid(), deletedBy: z.uuid() });

export const userPriceChangedV1 = z.object({
  userId: z.uuid(),
  liveTransferPrice: z.string(),
  changedBy: z.uuid(),
});

export const passwordResetCompletedV1 = z.object({ userId: z.uuid() });

export const emailSendV1 = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  /** A short name of the message kind, for the e-mail log (e.g. 'password-reset'). */
  template: z.string().min(1),
});

export const events = {
  'account.registered': { 1: accountRegisteredV1 },
  'user.deleted': { 1: userDeletedV1 },
  'user.price_changed': { 1: userPriceChangedV1 },
  'password_reset.completed': { 1: passwordResetCompletedV1 },
} as const;

export const commands = {
  'email.send': { 1: emailSendV1 },
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
