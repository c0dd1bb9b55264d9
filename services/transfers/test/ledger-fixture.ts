import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { EVENTS_EXCHANGE, type Envelope, type EventData } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, withTransaction, type Identity, type Pool } from '@warmline/platform';
import { TEST_AMQP_URL, waitFor } from '@warmline/platform/testing/index';
import { agentIdentity, callService, type Answer, type CallOptions } from '@warmline/platform/testing/calls';
import { outboxEnvelopes, startTestSystem } from '@warmline/platform/testing/system';
import { readyz } from '@warmline/platform/testing/outage';
import { transfersEnv } from '../src/config';
import { startTransfers, TRANSFERS_SCHEMA } from '../src/service';
import { TRANSFER_MIRRORS_QUEUE, TRANSFER_PAYMENTS_QUEUE } from '../src/events/consumers';
import type { AgentProfile, GatewayClient } from '../src/clients/gateway-client';
import type { LatestTransferOrder, OrdersClient } from '../src/clients/orders-client';
import { chargeOneTransfer, lockAgent } from '../src/db/ledger';
import { localTime } from '../src/domain/hours';

/**
 * The transfers service in-process on a free port for one test file (issue 23, the ledger side):
 * a fresh database, a broker namespace its payment consumer listens on, a clock to move, and
 * stand-ins for the gateway and orders (HTTP clients of other services) whose answers a test sets
 * or makes fail. Events reach it the real way, over RabbitMQ.
 */
export interface LedgerFixture {
  pool: Pool;
  now(): Date;
  /** Sets the service's clock. */
  setNow(at: Date): void;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** What the gateway says about a user (absent: 404, i.e. null); `gatewayDown` makes it fail. */
  profiles: Map<string, AgentProfile>;
  latestOrders: Map<string, LatestTransferOrder>;
  outages: { gateway: boolean; orders: boolean };
  /** Publishes an event as its producer's relay would, and waits until the payment consumer has handled it. */
  publish(envelope: Envelope<unknown>): Promise<void>;
  outbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  cleanup(): Promise<void>;
}

export const agent = agentIdentity;

export function adminIdentity(): Identity {
  return { ...agentIdentity('admin'), isAdmin: true };
}

export function profileOf(overrides: Partial<AgentProfile> = {}): AgentProfile {
  return {
    email: `agent-${randomUUID().slice(0, 8)}@example.com`,
    firstName: 'Avery',
    lastName: 'Agent',
    phone: '(512) 555-0100',
    workingStates: [],
    surveyTimeZone: null,
    callsPerDay: null,
    ...overrides,
  };
}

export async function startLedgerFixture(start: Date = new Date()): Promise<LedgerFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_ledger', queues: [TRANSFER_PAYMENTS_QUEUE, TRANSFER_MIRRORS_QUEUE] });
  const { namespace, stops } = system;
  try {
    let now = start;
    const profiles = new Map<string, AgentProfile>();
    const latestOrders = new Map<string, LatestTransferOrder>();
    const outages = { gateway: false, orders: false };
    const gateway: GatewayClient = {
      async agentProfile(userId) {
        if (outages.gateway) throw new Error('connect ECONNREFUSED (the gateway stand-in is down)');
        return profiles.get(userId) ?? null;
      },
    };
    const orders: OrdersClient = {
      async latestTransferOrder(agentIdentityOf) {
        if (outages.orders) throw new Error('connect ECONNREFUSED (the orders stand-in is down)');
        return latestOrders.get(String(agentIdentityOf.userId)) ?? null;
      },
    };
    const config = parseConfig(transfersEnv, { ...system.env, TRANSFERS_PORT: '0', BUSINESS_TIMEZONE: 'America/Chicago' });
    const service = await startTransfers(config, createLogger('transfers', process.env.TRANSFERS_TEST_LOG ?? 'silent'), { clock: () => now, gateway, orders });
    stops.push('transfers', service.stop);
    await waitFor('the transfers service to reach RabbitMQ', async () => {
      const answer = await readyz(service.url);
      return answer.status === 200 && answer.body.degraded?.length === 0;
    });
    const pool = createPool(system.db.url, TRANSFERS_SCHEMA);
    stops.push('pool', () => pool.end());
    const connection = await amqp.connect(TEST_AMQP_URL);
    stops.push('broker connection', () => connection.close());
    const channel = await connection.createConfirmChannel();
    return {
      pool,
      now: () => now,
      setNow(at) {
        now = at;
      },
      call: (method, path, options) => callService(service.url, method, path, options),
      profiles,
      latestOrders,
      outages,
      async publish(envelope) {
        await new Promise<void>((resolve, reject) => {
          channel.publish(
            `${namespace}.${EVENTS_EXCHANGE}`,
            envelope.type,
            Buffer.from(JSON.stringify(envelope)),
            { persistent: true, contentType: 'application/json', messageId: envelope.id },
            (err: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
          );
        });
        await waitFor(`${envelope.type} ${envelope.id} handled`, async () => {
          const { rows } = await pool.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [TRANSFER_PAYMENTS_QUEUE, envelope.id]);
          return rows.length === 1;
        });
      },
      outbox: (type) => outboxEnvelopes(pool, type),
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

/** A message as its producer's relay would publish it (a fresh id every call). */
export function envelope<T>(type: string, data: T, source = 'orders'): Envelope<T> {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), source, correlationId: randomUUID(), data };
}

type OrderFacts = Omit<EventData<'payment.succeeded'>, 'provider' | 'paymentIntentId' | 'paidAt'>;

/** A Premium package of `count` transfers at $37.00 (overrides make other kinds). */
export function orderFacts(buyerUserId: string | null, overrides: Partial<OrderFacts> = {}): OrderFacts {
  const count = overrides.count ?? 10;
  const unitPriceCents = overrides.unitPriceCents ?? 3700;
  return {
    orderId: randomUUID(),
    kind: 'package',
    tier: 'premium',
    count,
    unitPriceCents,
    amountCents: count * unitPriceCents,
    currency: 'usd',
    description: `Premium Volume Package: ${count} transfers × $37.00`,
    buyerUserId,
    ...overrides,
  };
}

export function paid(order: OrderFacts, paidAt = new Date()): Envelope<EventData<'payment.succeeded'>> {
  return envelope('payment.succeeded', { ...order, provider: 'sandbox', paymentIntentId: `pi_${randomUUID()}`, paidAt: paidAt.toISOString() });
}

export function claimed(order: OrderFacts, buyerUserId: string, claimedAt = new Date()): Envelope<EventData<'order.claimed'>> {
  return envelope('order.claimed', { ...order, buyerUserId, claimedAt: claimedAt.toISOString() });
}

export function refunded(orderId: string, refundedTotalCents: number, amountCents = refundedTotalCents): Envelope<EventData<'payment.refunded'>> {
  return envelope('payment.refunded', {
    orderId,
    amountCents,
    refundedTotalCents,
    currency: 'usd',
    initiatedBy: 'admin',
    refundedAt: new Date().toISOString(),
  });
}

/** The agent's balance row and their lots' remaining sum. */
export async function balanceOf(pool: Pool, agentId: string): Promise<number> {
  const { rows } = await pool.query<{ balance: number }>('SELECT balance FROM agents WHERE user_id = $1', [agentId]);
  return rows[0]?.balance ?? 0;
}

let phoneSerial = 0;

/**
 * A transfer row as routing and the vendor's outcome leave it (written directly: routing is
 * another helper's part). `charge` charges it from the ledger as the outcome does.
 */
export async function insertTransfer(
  pool: Pool,
  t: {
    agentId: string;
    routedAt: Date;
    state?: string;
    phone?: string;
    status?: string;
    agentStates?: string[] | null;
    agentHours?: unknown;
    agentTimeZone?: string | null;
    agentDate?: string;
  },
): Promise<string> {
  const id = randomUUID();
  phoneSerial += 1;
  await pool.query(
    `INSERT INTO transfers (id, vendor_key_id, call_id, agent_id, first_name, last_name, phone, state, status, routed_at, expires_at,
                            agent_date, connected, duration_seconds, agent_states, agent_hours, agent_time_zone, settled_at)
     VALUES ($1, $2, $3, $4, 'Maria', 'Lopez', $5, $6, $7, $8, $8::timestamptz + interval '60 seconds', $9, true, 300, $10, $11, $12, $8)`,
    [
      id,
      randomUUID(),
      `call-${id}`,
      t.agentId,
      t.phone ?? `512555${String(1000 + phoneSerial).slice(-4)}`,
      t.state ?? 'TX',
      t.status ?? 'routed',
      t.routedAt,
      t.agentDate ?? localTime(t.routedAt, t.agentTimeZone ?? 'America/Chicago').date,
      t.agentStates === undefined ? ['TX'] : t.agentStates,
      t.agentHours === undefined ? JSON.stringify(MON_FRI_9_TO_5) : t.agentHours === null ? null : JSON.stringify(t.agentHours),
      t.agentTimeZone === undefined ? 'America/Chicago' : t.agentTimeZone,
    ],
  );
  return id;
}

export const MON_FRI_9_TO_5 = ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, from: '09:00', to: '17:00' }));

/** Charges a routed transfer one transfer from the ledger, as the vendor's outcome past the buffer does. */
export async function chargeTransfer(pool: Pool, agentId: string, transferId: string, at = new Date()): Promise<number | null> {
  return withTransaction(pool, async (db) => {
    await lockAgent(db, agentId);
    const charged = await chargeOneTransfer(db, { agentId, transferId, cause: 'Transfer to Maria L.', at });
    await db.query(`UPDATE transfers SET status = $2, charged_cents = $3, lot_id = $4, settled_at = $5 WHERE id = $1`, [
      transferId,
      charged ? 'charged' : 'unbilled',
      charged?.unitCents ?? null,
      charged?.lotId ?? null,
      at,
    ]);
    return charged?.unitCents ?? null;
  });
}
