import { COMMANDS_EXCHANGE, EVENTS_EXCHANGE, commands, events, type MessageType } from './messages';

/**
 * The broker manifest (ARCHITECTURE §3): every exchange, every consumer queue and what it is
 * bound to, and for every event and command who publishes it. The migration step declares all
 * of it and every process asserts it at connect (platform/bus/topology.ts, docs/adr/0038), so an
 * event published before its consumer has ever run waits in that consumer's queue; the broker
 * users' topic permissions and the consumers' publisher check come from `publishers`
 * (docs/adr/0039); the AsyncAPI document names producers and consumers from it; a test holds
 * the services' subscriptions and outbox writers to it.
 *
 * Per consumer queue Q the platform also declares Q.retry (failed messages wait out their
 * backoff there) and Q.dlq (messages that failed every attempt). Messages no queue is bound
 * to go through the events exchange's alternate exchange into UNROUTED_QUEUE, never nowhere.
 */

/**
 * The processes that publish or consume; each is a folder of services/, except the importer:
 * the catalog's second entry point (services/catalog/src/importer-main.ts), with the catalog's
 * schema and outbox.
 */
export type BusParticipant = 'gateway' | 'catalog' | 'importer' | 'orders' | 'partners' | 'ingestion' | 'notifications' | 'transfers';

export interface ConsumerQueueManifest {
  /** The queue name without a namespace, e.g. 'notifications.email'. */
  queue: string;
  /** The process that consumes it (and only that one). */
  consumer: BusParticipant;
  /** The message types bound to it: events by topic, commands by direct routing key. */
  messages: readonly MessageType[];
  /** Why the queue exists, for operators and the AsyncAPI document. */
  purpose: string;
}

/**
 * Where events no queue is bound to land (the events exchange's alternate exchange). Commands
 * are published `mandatory` instead: one nobody can receive stays in its outbox.
 */
export const UNROUTED_EXCHANGE = 'warmline.unrouted';
export const UNROUTED_QUEUE = 'warmline.unrouted';

export const consumerQueues = [
  {
    queue: 'catalog.lead-payments',
    consumer: 'catalog',
    messages: ['payment.succeeded', 'payment.failed', 'payment.refunded', 'order.claimed'],
    purpose:
      "Marks reserved aged leads sold when their lead order is paid, releases them when the payment fails; fills a paid RingCloud Aged Leads package from stock; credits a paid RingCloud Call-Backs order's buyer with its call-backs (or, paid without an account, the account that claims it) and takes back those its refunds pay back.",
  },
  {
    queue: 'notifications.email-requests',
    consumer: 'notifications',
    messages: [
      'email.password_reset',
      'email.welcome',
      'email.account_security',
      'email.survey_sales_notice',
      'email.recruiting_request',
      'email.order_paid',
      'email.transfer_order_paid',
      'email.transfer_order_status',
      'email.refund_issued',
      'email.leads_receipt',
      'email.dispute_opened',
      'email.lead_opt_out',
      'email.partner_application_received',
      'email.partner_application_notice',
      'email.partner_status_changed',
      'email.callback_assigned',
      'email.transfer_dispute_decided',
    ],
    purpose: 'Writes the body of every e-mail a service asks for and queues each as one email.send (the one place e-mails are written).',
  },
  {
    queue: 'orders.lead-sales',
    consumer: 'orders',
    messages: ['lead_order.settle', 'lead_package.settle', 'lead_return.refund'],
    purpose:
      'Refunds the leads of a late-paid lead order that were sold to someone else meanwhile, and what the catalog could not deliver of a RingCloud Aged Leads package; sends the receipt listing the leads bought.',
  },
  {
    queue: 'importer.lead-imports',
    consumer: 'importer',
    messages: ['import.run'],
    purpose: 'Runs aged-lead CSV imports one at a time: streams the stored file, validates each row, loads the good ones with COPY.',
  },
  {
    queue: 'importer.dnc-registry',
    consumer: 'importer',
    messages: ['dnc_registry.load'],
    purpose: 'Loads uploaded national do-not-call registry files one at a time: streams the stored file into a staging table with COPY, then replaces the registry of its area codes in one transaction.',
  },
  {
    queue: 'catalog.lead-suppressions',
    consumer: 'catalog',
    messages: ['lead_suppression.notify_buyer'],
    purpose: "Tells each buyer of a suppressed phone's leads to stop contacting it: reads the buyer's e-mail from the gateway and asks for email.lead_opt_out.",
  },
  {
    queue: 'catalog.callbacks',
    consumer: 'catalog',
    messages: ['callback_opportunity.create', 'lead_suppression.add'],
    purpose: "Turns the vendor calls the ingestion service received into callback opportunities (and assigns them to agents with a balance), or puts a do-not-call prospect's phone on the suppression list (a vendor call's or a live transfer's 'dnc' outcome).",
  },
  {
    queue: 'transfers.payments',
    consumer: 'transfers',
    messages: ['payment.succeeded', 'order.claimed', 'payment.refunded', 'user.deleted'],
    purpose:
      "Credits an agent's transfer ledger with each paid live-transfer package or transfer order (an anonymous one when its buyer claims it), takes back the unused transfers a refund pays back, and stops routing to a deleted account.",
  },
  {
    queue: 'transfers.mirrors',
    consumer: 'transfers',
    messages: ['vendor_key.mirror', 'suppression.mirror', 'transfer_opt_out.notify_agent'],
    purpose:
      "Keeps the transfers service's copies of the vendor keys (their SHA-256, created and revoked) and of the suppression list, so routing checks both in its own database without asking ingestion or the catalog; tells each agent who received a transfer of a phone that opted out to stop calling it (their e-mail from the gateway, then email.lead_opt_out).",
  },
  {
    queue: 'gateway.audit',
    consumer: 'gateway',
    messages: ['audit.record'],
    purpose: "Stores the admin actions other services report in the gateway's one audit log.",
  },
  {
    queue: 'notifications.email',
    consumer: 'notifications',
    messages: ['email.send'],
    purpose: 'Sends each rendered e-mail once (email_log).',
  },
] as const satisfies readonly ConsumerQueueManifest[];

/**
 * Queues an earlier release consumed and this one does not, with what they were bound to. The
 * broker migration unbinds them, so they stop filling, and deletes them once empty; one that
 * still holds messages is kept (and logged) for an operator to look at with `npm run dlq`.
 */
export const retiredQueues = [
  { queue: 'notifications.payment-emails', messages: ['payment.succeeded'], retiredBecause: 'receipts come from email.order_paid commands' },
  { queue: 'notifications.transfer-order-emails', messages: ['transfer_order.paid'], retiredBecause: 'confirmations come from email.transfer_order_paid commands' },
] as const satisfies ReadonlyArray<{ queue: string; messages: readonly MessageType[]; retiredBecause: string }>;

/** Who writes each message type to its outbox. */
export const publishers: Record<MessageType, readonly BusParticipant[]> = {
  'account.registered': ['gateway'],
  'survey.submitted': ['gateway'],
  'user.deleted': ['gateway'],
  'user.price_changed': ['gateway'],
  'password_reset.completed': ['gateway'],
  'order.created': ['orders'],
  'payment.succeeded': ['orders'],
  'payment.failed': ['orders'],
  'order.claimed': ['orders'],
  'leads.purchased': ['catalog'],
  'transfer_order.paid': ['orders'],
  'email.send': ['notifications'],
  'email.password_reset': ['gateway'],
  'email.welcome': ['gateway'],
  'email.account_security': ['gateway'],
  'email.survey_sales_notice': ['gateway'],
  'email.recruiting_request': ['gateway'],
  'email.order_paid': ['orders'],
  'email.transfer_order_paid': ['orders'],
  'payment.refunded': ['orders'],
  'email.transfer_order_status': ['orders'],
  'email.refund_issued': ['orders'],
  'email.leads_receipt': ['orders'],
  'email.dispute_opened': ['orders'],
  'lead_order.settle': ['catalog'],
  'lead_package.settle': ['catalog'],
  'audit.record': ['catalog', 'orders', 'partners', 'ingestion', 'transfers'],
  'import.progress': ['importer', 'catalog'],
  'leads.imported': ['importer', 'catalog'],
  'leads.withdrawn': ['catalog'],
  'import.run': ['catalog'],
  'dnc_registry.load': ['catalog'],
  'email.lead_opt_out': ['catalog', 'transfers'],
  'partner.applied': ['partners'],
  'partner.status_changed': ['partners'],
  'email.partner_application_received': ['partners'],
  'email.partner_application_notice': ['partners'],
  'email.partner_status_changed': ['partners'],
  'lead_suppression.notify_buyer': ['catalog'],
  'callback.received': ['ingestion'],
  'callback.assigned': ['catalog'],
  'callback_opportunity.create': ['ingestion'],
  'lead_suppression.add': ['ingestion', 'transfers'],
  'email.callback_assigned': ['catalog'],
  'transfer.routed': ['transfers'],
  'transfer.completed': ['transfers'],
  'transfer_dispute.decided': ['transfers'],
  'vendor_key.mirror': ['ingestion'],
  'suppression.mirror': ['catalog'],
  'transfer_opt_out.notify_agent': ['transfers'],
  'email.transfer_dispute_decided': ['transfers'],
  'lead_return.refund': ['catalog'],
};

/**
 * The importer writes to the catalog's outbox and runs a relay on it beside the catalog's, so
 * either may publish a row the other wrote: for publishing, the two are one.
 */
const SHARED_OUTBOX: Partial<Record<BusParticipant, BusParticipant>> = { importer: 'catalog' };
const outboxOwner = (p: BusParticipant) => SHARED_OUTBOX[p] ?? p;

function isParticipant(name: string): name is BusParticipant {
  return Object.values(publishers).some((list) => list.includes(name as BusParticipant));
}

/**
 * Whether the broker user `user` may publish `type` (docs/adr/0039). Each process connects as
 * the broker user named after it (infra/rabbitmq/definitions.json), so the user is the
 * participant; RabbitMQ checks a message's user_id against its connection's user.
 */
export function mayPublish(user: string, type: MessageType): boolean {
  if (!isParticipant(user)) return false;
  return publishers[type].some((p) => outboxOwner(p) === outboxOwner(user));
}

/**
 * RabbitMQ topic permissions from the manifest: each participant's user may write to the
 * events and commands exchanges only the routing keys (= message types) it publishes, and read
 * every key. `name` applies a namespace (none in production).
 */
export function topicPermissions(name: (base: string) => string = (base) => base): Array<{ user: BusParticipant; vhost: string; exchange: string; write: string; read: string }> {
  const participants = [...new Set(Object.values(publishers).flat())].sort();
  return participants.flatMap((user) =>
    [EVENTS_EXCHANGE, COMMANDS_EXCHANGE].map((exchange) => {
      const types = (Object.keys(publishers) as MessageType[]).filter((t) => (exchange === EVENTS_EXCHANGE) === t in events && mayPublish(user, t)).sort();
      // RabbitMQ matches the regex anywhere in the key: anchor it. '^$' matches no routing key.
      const write = types.length === 0 ? '^$' : `^(${types.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
      return { user, vhost: '/', exchange: name(exchange), write, read: '.*' };
    }),
  );
}

/**
 * Whether a message holds a secret (a password-reset link). The relay empties such a row's
 * data as soon as the broker has confirmed it, and the consumer dead-letters it without its
 * data, so the secret is readable only while the message is on its way.
 */
export function carriesSecret(type: MessageType, data: unknown): boolean {
  if (type === 'email.password_reset') return true;
  if (type === 'email.send') return (data as { secret?: unknown } | null)?.secret === true;
  return false;
}

export interface BrokerManifest {
  exchanges: ReadonlyArray<{ name: string; type: 'topic' | 'direct' | 'fanout'; purpose: string }>;
  queues: readonly ConsumerQueueManifest[];
  retiredQueues: ReadonlyArray<{ queue: string; messages: readonly MessageType[] }>;
  publishers: Record<MessageType, readonly BusParticipant[]>;
}

export const brokerManifest: BrokerManifest = {
  exchanges: [
    { name: EVENTS_EXCHANGE, type: 'topic', purpose: 'Events, routing key = type; analysts bind their own queues here.' },
    { name: COMMANDS_EXCHANGE, type: 'direct', purpose: 'Commands (may carry secrets), routing key = type; never tapped.' },
    { name: UNROUTED_EXCHANGE, type: 'fanout', purpose: `Alternate exchange of warmline.events: an event no queue is bound to lands in ${UNROUTED_QUEUE}.` },
  ],
  queues: consumerQueues,
  retiredQueues,
  publishers,
};

/** The queues a message type is delivered to. */
export function consumersOf(type: MessageType): ConsumerQueueManifest[] {
  return consumerQueues.filter((q) => (q.messages as readonly string[]).includes(type));
}

/** Every message type the registry knows, events first. */
export function allMessageTypes(): MessageType[] {
  return [...(Object.keys(events) as MessageType[]), ...(Object.keys(commands) as MessageType[])];
}

/**
 * A consumer's queue as the manifest names it: `queueOf('orders', 'orders.lead-sales')`. A name the
 * manifest does not give that consumer fails when the service loads, not when a message is lost.
 */
export function queueOf(consumer: BusParticipant, queue: string): string {
  const entry = consumerQueues.find((q) => q.queue === queue);
  if (!entry) throw new Error(`${queue} is not a queue of the broker manifest`);
  if (entry.consumer !== consumer) throw new Error(`${queue} is consumed by ${entry.consumer}, not ${consumer}, in the broker manifest`);
  return entry.queue;
}
