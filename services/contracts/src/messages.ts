import { z } from 'zod';
import { orderKindSchema, paymentProviderSchema } from './orders';

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

/**
 * A survey was submitted and its account created (one of the funnels of spec §2). Thin: the
 * answers stay in the gateway; the sales notice is an e-mail command sent in the same transaction.
 */
export const surveySubmittedV1 = z.object({
  responseId: z.uuid(),
  userId: z.uuid(),
  /** 'WarmLine' or 'RingCloud'. */
  brand: z.string().min(1),
  /** The marker of the funnel: 'Survey Form', 'RingCloud', or the referring salesperson's name. */
  salesperson: z.string().min(1),
  leadType: z.string().min(1),
});

export const userDeletedV1 = z.object({ userId: z.uuid(), deletedBy: z.uuid() });

export const userPriceChangedV1 = z.object({
  userId: z.uuid(),
  liveTransferPrice: z.string(),
  changedBy: z.uuid(),
});

export const passwordResetCompletedV1 = z.object({ userId: z.uuid() });

/**
 * What every order event says about the order: enough for a receipt, a sales notice or an
 * analyst's revenue count, never card data. Amounts are integer cents.
 */
const orderFacts = {
  orderId: z.uuid(),
  kind: orderKindSchema,
  /** The package tier ('premium', 'high-volume', 'ringcloud', …); null for kinds without tiers. */
  tier: z.string().min(1).nullable(),
  count: z.number().int().positive(),
  unitPriceCents: z.number().int().nonnegative(),
  amountCents: z.number().int().nonnegative(),
  currency: z.literal('usd'),
  /** 'Premium Volume Package: 60 transfers × $37.00' */
  description: z.string().min(1),
  /** Null when an anonymous visitor bought from a public checkout. */
  buyerUserId: z.uuid().nullable(),
  /** Where the receipt goes, when the buyer gave one. */
  billingEmail: z.email().optional(),
};

export const orderCreatedV1 = z.object(orderFacts);

export const paymentSucceededV1 = z.object({
  ...orderFacts,
  provider: paymentProviderSchema,
  paymentIntentId: z.string().min(1),
  paidAt: z.iso.datetime({ offset: true }),
});

export const paymentFailedV1 = z.object({
  ...orderFacts,
  provider: paymentProviderSchema,
  paymentIntentId: z.string().min(1),
  /** The provider's reason for the buyer, e.g. 'Your card was declined.' */
  failureMessage: z.string().min(1),
  /** The provider's code, e.g. 'card_declined' / 'insufficient_funds', when it gave one. */
  failureCode: z.string().min(1).optional(),
});

/**
 * Aged leads were sold to a buyer: the catalog marked them sold after the buyer's lead order
 * was paid. Thin: ids, counts and money, never the leads' contact details. When the order was
 * paid after its reservation ended and some leads had meanwhile gone to someone else, those
 * are `undeliveredLeadIds` and `refundDueCents` is what the buyer paid for them.
 */
export const leadsPurchasedV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  leadIds: z.array(z.uuid()).max(500),
  leadCount: z.number().int().nonnegative(),
  amountCents: z.number().int().nonnegative(),
  purchasedAt: z.iso.datetime({ offset: true }),
  undeliveredLeadIds: z.array(z.uuid()).max(500),
  refundDueCents: z.number().int().nonnegative(),
});

/**
 * A call-transfer order was paid (spec §2 Buy Call Transfers): what operations need to set the
 * transfers up and the agent's confirmation needs — the states, hours, volume and the number
 * to transfer to, with the agent's contact. Published with `payment.succeeded` in the same
 * transaction; never card data.
 */
export const transferOrderPaidV1 = z.object({
  orderId: z.uuid(),
  buyerUserId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.email(),
  phone: z.string(),
  /** The phone the transfers are delivered to. */
  transferNumber: z.string().min(1),
  totalTransfers: z.number().int().positive(),
  transfersPerDay: z.number().int().positive(),
  transferHours: z.string().min(1),
  /** US state codes, e.g. ['TX', 'OK']. */
  selectedStates: z.array(z.string().length(2)).min(1),
  unitPriceCents: z.number().int().nonnegative(),
  amountCents: z.number().int().positive(),
  currency: z.literal('usd'),
  paidAt: z.iso.datetime({ offset: true }),
});

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
  'survey.submitted': { 1: surveySubmittedV1 },
  'user.deleted': { 1: userDeletedV1 },
  'user.price_changed': { 1: userPriceChangedV1 },
  'password_reset.completed': { 1: passwordResetCompletedV1 },
  'order.created': { 1: orderCreatedV1 },
  'payment.succeeded': { 1: paymentSucceededV1 },
  'payment.failed': { 1: paymentFailedV1 },
  'leads.purchased': { 1: leadsPurchasedV1 },
  'transfer_order.paid': { 1: transferOrderPaidV1 },
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
