import { dncCheckOf } from '@warmline/contracts/dnc-registry';
import { unlessOptedOut } from '@warmline/contracts/do-not-call';
import { registryChecksOf, type RegistryCheck } from '../../suppressions/db/read-models/registry-checks';
import { utcDay } from '../../db/utc-days';
import { prospectCallingHours, RINGCLOUD_PRICING, type EventData, type MyCallback, type MyCallbacks } from '@warmline/contracts';
import type { PaidCallBacksOrder } from '@warmline/contracts/callbacks';
import { withTransaction, type PoolClient } from '@warmline/platform/db/index';
import { notFound } from '@warmline/platform/errors';
import type { Logger } from '@warmline/platform/log';
import type { GatewayClient } from '../../clients/gateway-client';
import type { OrdersClient } from '../../clients/orders-client';
import {
  creditBalance,
  creditedOrderIds,
  findCallbackBalance,
  hasCredit,
  lockCallBacksOrder,
  lockCallbackCredit,
  recordCredit,
  recordRefundBeforeCredit,
  recordTakenBack,
  refundedBeforeCredit,
  saveStates,
  takeBack,
  type CallbackCreditRow,
} from '../db/callback-balances';
import { callbacksOfAgent, markContacted, type AgentCallbackRow } from '../db/callback-opportunities';
import { inReadSnapshot } from '../../db/snapshot';
import { attemptsSince, recentAttemptsOfAgent, type RecentAttempts } from '../db/call-attempts';
import { capWindowStart } from './call-attempts';
import { assignAvailableCallbacks } from './callback-assignment';
import type { CallbackContext } from './callbacks';

/**
 * The agents' side of call-backs (issue 15): a paid Call-Backs order credits its buyer's
 * balance, the agent's states say where they take call-backs, and My Call-backs lists what
 * was delivered to them. A refund of the order takes its refunded call-backs back.
 */

export interface Agent {
  userId: string;
  username: string | null;
}

/**
 * What crediting an order needs to know, as both `payment.succeeded` and `order.claimed` say it:
 * the one credits the buyer who paid logged in, the other the account that claimed an order
 * paid without one (ADR 0022). Either way it is the same credit, once per order.
 */
type CallBacksOrderFacts = Pick<
  EventData<'payment.succeeded'>,
  'orderId' | 'kind' | 'tier' | 'leadType' | 'description' | 'count' | 'amountCents' | 'buyerUserId'
>;

/** An order that buys call-backs: WarmLine's Call-Backs (the dashboard's) or the second brand's Call-Backs package. */
function isCallBacksOrder(order: CallBacksOrderFacts): boolean {
  if (order.kind !== 'package') return false;
  if (order.tier === 'callbacks') return true;
  if (order.tier !== 'ringcloud') return false;
  // Events written before leadType travelled name the product in the description.
  return order.leadType !== undefined ? order.leadType === 'Call-Backs' : /^RingCloud Call-Backs/.test(order.description);
}

/**
 * Where an agent starts taking call-backs: the states of their latest survey (from the gateway),
 * or, when it named none, those of their latest transfer order (from orders). Throws when the
 * gateway cannot say; an orders outage only costs the fallback (logged).
 */
async function startingStates(
  deps: { log: Logger; gateway: GatewayClient; orders: OrdersClient },
  agent: Agent,
  correlationId: string,
): Promise<{ states: string[]; hasAccount: boolean }> {
  const profile = await deps.gateway.userContact(agent.userId, correlationId);
  if (!profile) return { states: [], hasAccount: false };
  const surveyStates = profile.workingStates ?? [];
  if (surveyStates.length > 0) return { states: surveyStates, hasAccount: true };
  try {
    const transferStates = await deps.orders.latestTransferStates({ userId: agent.userId, username: agent.username, isAdmin: false }, correlationId);
    return { states: [...transferStates].sort(), hasAccount: true };
  } catch (err) {
    deps.log.warn({ err, userId: agent.userId }, "orders did not say the agent's latest transfer order's states; the agent starts with none");
    return { states: [], hasAccount: true };
  }
}

/**
 * Credits the buyer `count` call-backs, once per order, whether the order says its buyer when it
 * is paid (`payment.succeeded`) or later when it is claimed (`order.claimed`). The first credit
 * of an agent starts them in the states of their latest survey or transfer order
 * (startingStates); then whatever is available in those states is assigned. An order paid
 * without an account waits for its claim.
 */
export async function creditCallBacksOrder(
  db: PoolClient,
  deps: { log: Logger; clock: () => Date; gateway: GatewayClient; orders: OrdersClient },
  order: CallBacksOrderFacts,
  correlationId: string,
): Promise<void> {
  if (!isCallBacksOrder(order)) return;
  const log = deps.log.child({ orderId: order.orderId });
  await lockCallBacksOrder(db, order.orderId);
  if (!order.buyerUserId) {
    // Its claim may have been heard first (a retried payment.succeeded): then it is credited.
    if (await hasCredit(db, order.orderId)) {
      log.info('the Call-Backs order paid without an account was claimed and credited before');
      return;
    }
    log.warn(
      { count: order.count },
      'a Call-Backs order was paid without an account (anonymous checkout): no balance to credit yet; its call-backs are credited when the buyer claims the order (order.claimed)',
    );
    return;
  }
  const at = deps.clock();
  const userId = order.buyerUserId;
  const credit = { orderId: order.orderId, userId, count: order.count, amountCents: order.amountCents };
  if (!(await recordCredit(db, { ...credit, at }))) {
    log.info('the Call-Backs order credited its buyer before');
    return;
  }
  let statesIfNew: string[] = [];
  if (!(await findCallbackBalance(db, userId))) {
    // A failure throws: the payment is retried by the bus, and the credit with it.
    const start = await startingStates(deps, { userId, username: null }, correlationId);
    if (!start.hasAccount) log.warn({ userId }, 'the buyer of Call-Backs has no account any more; credited without states');
    statesIfNew = start.states;
  }
  const balance = await creditBalance(db, { userId, count: order.count, at, statesIfNew });
  log.info({ userId, credited: order.count, balance: balance.balance, states: balance.states }, 'call-backs credited');
  // Refunded before the credit (a retried payment.succeeded, or an order refunded before its
  // claim): given back at once.
  const refundedTotalCents = await refundedBeforeCredit(db, order.orderId);
  if (refundedTotalCents > 0) await takeBackRefunded(db, { log, clock: deps.clock }, { ...credit, takenBack: 0, keptDelivered: 0 }, refundedTotalCents);
  await assignAvailableCallbacks(db, deps, correlationId);
}

/**
 * How many of an order's call-backs its refunds so far pay for: whole call-backs at the order's
 * own price (what it cost over how many it bought), never more than it bought. Orders credited
 * before their amount was stored were sold at the list price.
 */
function callBacksRefunded(credit: CallbackCreditRow, refundedTotalCents: number): number {
  const amountCents = credit.amountCents ?? credit.count * RINGCLOUD_PRICING.perUnit['Call-Backs'].unitPriceCents;
  if (amountCents <= 0) return 0;
  return Math.min(credit.count, Math.floor((refundedTotalCents * credit.count) / amountCents));
}

/**
 * Takes back what the refunded total covers beyond what earlier refunds took (the credit row is
 * locked): from the balance as far as it goes, never below zero; the rest were delivered already
 * and stay with the agent, recorded and logged for operations.
 */
async function takeBackRefunded(
  db: PoolClient,
  deps: { log: Logger; clock: () => Date },
  credit: CallbackCreditRow,
  refundedTotalCents: number,
): Promise<void> {
  const due = callBacksRefunded(credit, refundedTotalCents) - credit.takenBack - credit.keptDelivered;
  const log = deps.log.child({ orderId: credit.orderId, userId: credit.userId });
  if (due <= 0) {
    log.info({ refundedTotalCents }, 'the refund takes back no more call-backs than earlier refunds did');
    return;
  }
  const balance = await findCallbackBalance(db, credit.userId, { forUpdate: true });
  const takenBack = Math.min(due, balance?.balance ?? 0);
  const keptDelivered = due - takenBack;
  const after = takenBack > 0 ? await takeBack(db, credit.userId, takenBack, deps.clock()) : balance;
  await recordTakenBack(db, credit.orderId, { takenBack, keptDelivered });
  if (keptDelivered > 0) {
    log.warn(
      { refundedTotalCents, refunded: due, takenBack, keptDelivered },
      'refunded call-backs were delivered already and cannot be taken back: the agent keeps them though the money was refunded',
    );
  }
  log.info({ refundedTotalCents, takenBack, balance: after?.balance ?? 0 }, 'refunded call-backs taken back');
}

/**
 * payment.refunded: a refunded Call-Backs order gives back the call-backs its refunded total
 * covers (ADR 0020). Any other order credited nobody and changes no balance; its refund is kept
 * in case it is a Call-Backs order whose payment has not reached us yet.
 */
export async function takeBackRefundedCallBacks(
  db: PoolClient,
  deps: { log: Logger; clock: () => Date },
  refund: EventData<'payment.refunded'>,
): Promise<void> {
  await lockCallBacksOrder(db, refund.orderId);
  const credit = await lockCallbackCredit(db, refund.orderId);
  if (!credit) {
    await recordRefundBeforeCredit(db, { orderId: refund.orderId, refundedTotalCents: refund.refundedTotalCents, at: new Date(refund.refundedAt) });
    return;
  }
  await takeBackRefunded(db, deps, credit, refund.refundedTotalCents);
}

/**
 * `recent`: the agent's calls logged on it in the last 24 hours (issue 24 §3), counted by the
 * 3-in-24-hours rule; `checks`: the DNC registry's answers for the page's phones.
 */
function myCallbackView(row: AgentCallbackRow, now: Date, recent: RecentAttempts | null, checks: Map<string, RegistryCheck>): MyCallback {
  return {
    id: row.id,
    fullName: `${row.firstName} ${row.lastName}`,
    phone: row.phone,
    state: row.state ?? '',
    callbackTime: row.callbackTime?.toISOString() ?? null,
    transcript: row.transcript,
    callOutcome: row.callOutcome,
    leadQuality: row.leadQuality,
    interestLevel: row.interestLevel,
    status: row.status === 'contacted' ? 'contacted' : 'assigned',
    assignedAt: (row.assignedAt ?? row.createdAt).toISOString(),
    optedOutAt: row.optedOutAt?.toISOString() ?? null,
    dnc: dncCheckOf(checks.get(row.phone) ?? { checkedOn: null, onRegistry: false }, utcDay(now)),
    ...unlessOptedOut(prospectCallingHours(row.state, row.phone, now, recent?.count ?? 0), row.optedOutAt),
    attemptsLast24h: recent?.count ?? 0,
    lastAttemptAt: recent?.last.toISOString() ?? null,
  };
}

/**
 * My Call-backs. An agent who never had a balance nor chose states is shown the states they
 * will start with (their survey's, else their latest transfer order's); if nobody can say, none.
 */
export async function myCallbacks(ctx: CallbackContext, agent: Agent, correlationId: string): Promise<MyCallbacks> {
  // Orders first, then one snapshot of ours: an order orders calls paid is then either in the
  // balance read or among the pending, never in neither (a credit landing between two reads).
  const paid = await paidCallBacksOrders(ctx, agent, correlationId);
  const now = ctx.clock();
  const { balance, callbacks, credited, attempts } = await inReadSnapshot(ctx.pool, async (db) => ({
    balance: await findCallbackBalance(db, agent.userId),
    callbacks: await callbacksOfAgent(db, agent.userId),
    attempts: await recentAttemptsOfAgent(db, agent.userId, capWindowStart(now)),
    credited: await creditedOrderIds(db, paid.map((o) => o.orderId)),
  }));
  const checks = await registryChecksOf(ctx.pool, callbacks.map((c) => c.phone));
  let states = balance?.states ?? [];
  if (!balance) {
    try {
      states = (await startingStates(ctx, agent, correlationId)).states;
    } catch (err) {
      ctx.log.warn({ err }, "the gateway did not say the agent's survey states; none shown");
    }
  }
  return {
    balance: balance?.balance ?? 0,
    pending: paid.filter((o) => !credited.has(o.orderId)),
    states: [...states].sort(),
    callbacks: callbacks.map((row) => myCallbackView(row, now, attempts.get(row.id) ?? null, checks)),
  };
}

/**
 * The agent's paid Call-Backs orders, as orders knows them (issue 22: paid a moment ago, the
 * credit follows when the payment's event reaches us). Orders being away only costs that hint.
 */
async function paidCallBacksOrders(ctx: CallbackContext, agent: Agent, correlationId: string): Promise<PaidCallBacksOrder[]> {
  try {
    return await ctx.orders.paidCallBacksOrders({ userId: agent.userId, username: agent.username, isAdmin: false }, correlationId);
  } catch (err) {
    ctx.log.warn({ err, userId: agent.userId }, "orders did not say the agent's paid Call-Backs orders; none shown as on their way");
    return [];
  }
}

/** The agent called the prospect. Only their own call-backs: any other id is not found. */
export async function markMyCallbackContacted(ctx: CallbackContext, agent: Agent, id: string): Promise<MyCallback> {
  const now = ctx.clock();
  const row = await markContacted(ctx.pool, id, agent.userId, now);
  if (!row) throw notFound('Call-back not found');
  return myCallbackView(row, now, await attemptsSince(ctx.pool, id, agent.userId, capWindowStart(now)), await registryChecksOf(ctx.pool, [row.phone]));
}

/** The agent chooses their states; what is available in them now is assigned at once. */
export async function setMyCallbackStates(ctx: CallbackContext, agent: Agent, states: string[], correlationId: string): Promise<MyCallbacks> {
  await withTransaction(ctx.pool, async (db) => {
    await saveStates(db, agent.userId, states, ctx.clock());
    await assignAvailableCallbacks(db, ctx, correlationId);
  });
  return myCallbacks(ctx, agent, correlationId);
}
