import type { Queryable } from '@warmline/platform/db/index';
import type { BillingDetails, OrderKind, OrderStatus, PackageQuote, PaymentProviderName } from '@warmline/contracts';

/** Queries of the `orders` schema (the pool's search_path points there). */

export interface PackageOrder {
  id: string;
  /** 'package' for the checkouts; 'lead' for aged-lead purchases (tier 'aged-leads'). */
  kind: OrderKind;
  tier: string;
  leadType: string | null;
  ageRange: string | null;
  count: number;
  unitPriceCents: number;
  amountCents: number;
  currency: 'usd';
  description: string;
  status: OrderStatus;
  buyerUserId: string | null;
  billingName: string | null;
  billingEmail: string | null;
  billingPhone: string | null;
  idempotencyKey: string | null;
  provider: PaymentProviderName;
  providerIntentId: string | null;
  failureMessage: string | null;
  createdAt: Date;
  paidAt: Date | null;
  /** Given back so far (refunds); never more than amountCents, and never revenue. */
  refundedCents: number;
  /** The purchase's correlation id: the request that created the order (null before issue 22). */
  correlationId?: string | null;
  /** A RingCloud Aged Leads package: the states it is filled from (null: none given, every state). */
  states: string[] | null;
  /** A RingCloud Aged Leads package: the leads the catalog delivered (null until it settled). */
  leadsDelivered: number | null;
  /** An unpaid aged-lead purchase its buyer cancelled: it can no longer be paid. */
  cancelledAt: Date | null;
}

export interface PaymentIntentRow {
  id: string;
  provider: PaymentProviderName;
  orderId: string;
  clientSecret: string;
  amountCents: number;
  status: 'requires_payment_method' | 'succeeded';
}

const ORDER_COLUMNS = `id, kind, tier, lead_type, age_range, count, unit_price_cents, amount_cents, currency, description,
  status, buyer_user_id, billing_name, billing_email, billing_phone, idempotency_key, provider,
  provider_intent_id, failure_message, created_at, paid_at, refunded_cents, correlation_id,
  states, leads_delivered, cancelled_at`;

interface OrderRecord {
  id: string;
  kind: OrderKind;
  tier: string;
  lead_type: string | null;
  age_range: string | null;
  count: number;
  unit_price_cents: number;
  amount_cents: number;
  currency: 'usd';
  description: string;
  status: OrderStatus;
  buyer_user_id: string | null;
  billing_name: string | null;
  billing_email: string | null;
  billing_phone: string | null;
  idempotency_key: string | null;
  provider: PaymentProviderName;
  provider_intent_id: string | null;
  failure_message: string | null;
  created_at: Date;
  paid_at: Date | null;
  refunded_cents: number;
  correlation_id: string | null;
  states: string[] | null;
  leads_delivered: number | null;
  cancelled_at: Date | null;
}

function toOrder(r: OrderRecord): PackageOrder {
  return {
    id: r.id,
    kind: r.kind,
    tier: r.tier,
    leadType: r.lead_type,
    ageRange: r.age_range,
    count: r.count,
    unitPriceCents: r.unit_price_cents,
    amountCents: r.amount_cents,
    currency: r.currency,
    description: r.description,
    status: r.status,
    buyerUserId: r.buyer_user_id,
    billingName: r.billing_name,
    billingEmail: r.billing_email,
    billingPhone: r.billing_phone,
    idempotencyKey: r.idempotency_key,
    provider: r.provider,
    providerIntentId: r.provider_intent_id,
    failureMessage: r.failure_message,
    createdAt: r.created_at,
    paidAt: r.paid_at,
    refundedCents: r.refunded_cents,
    correlationId: r.correlation_id,
    states: r.states,
    leadsDelivered: r.leads_delivered,
    cancelledAt: r.cancelled_at,
  };
}

/**
 * Records the purchase's correlation id on a new order, in the transaction that writes
 * order.created with it: the order's payment events carry the same id (docs/adr/0030).
 */
export async function recordOrderCorrelation(db: Queryable, orderId: string, correlationId: string): Promise<void> {
  await db.query('UPDATE package_orders SET correlation_id = $2 WHERE id = $1', [orderId, correlationId]);
}

export interface NewPackageOrder {
  id: string;
  quote: PackageQuote;
  /** A RingCloud Aged Leads package's states, as codes; null for every other order. */
  states: string[] | null;
  buyerUserId: string | null;
  billing: BillingDetails | undefined;
  idempotencyKey: string | undefined;
  provider: PaymentProviderName;
}

/**
 * Inserts a pending order; returns null when another order already holds the idempotency key
 * (the caller then reads that one).
 */
export async function insertPackageOrder(db: Queryable, o: NewPackageOrder): Promise<PackageOrder | null> {
  const { rows } = await db.query<OrderRecord>(
    `INSERT INTO package_orders (id, tier, lead_type, age_range, count, unit_price_cents, amount_cents, currency,
       description, buyer_user_id, billing_name, billing_email, billing_phone, idempotency_key, provider, states)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING ${ORDER_COLUMNS}`,
    [
      o.id,
      o.quote.tier,
      o.quote.leadType ?? null,
      o.quote.ageRange ?? null,
      o.quote.count,
      o.quote.unitPriceCents,
      o.quote.amountCents,
      o.quote.currency,
      o.quote.description,
      o.buyerUserId,
      o.billing?.name ?? null,
      o.billing?.email ?? null,
      o.billing?.phone ?? null,
      o.idempotencyKey ?? null,
      o.provider,
      o.states,
    ],
  );
  return rows[0] ? toOrder(rows[0]) : null;
}

export async function findOrderByIdempotencyKey(db: Queryable, key: string): Promise<PackageOrder | null> {
  const { rows } = await db.query<OrderRecord>(
    `SELECT ${ORDER_COLUMNS} FROM package_orders WHERE idempotency_key = $1`,
    [key],
  );
  return rows[0] ? toOrder(rows[0]) : null;
}

export async function findOrder(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PackageOrder | null> {
  const { rows } = await db.query<OrderRecord>(
    `SELECT ${ORDER_COLUMNS} FROM package_orders WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toOrder(rows[0]) : null;
}

export async function attachIntent(db: Queryable, orderId: string, intentId: string): Promise<void> {
  await db.query('UPDATE package_orders SET provider_intent_id = $2, updated_at = now() WHERE id = $1', [orderId, intentId]);
}

/** Fills in billing details the buyer gave at payment time; details already known are kept when none are given. */
export async function updateBilling(db: Queryable, orderId: string, billing: BillingDetails): Promise<void> {
  await db.query(
    `UPDATE package_orders
        SET billing_name = COALESCE($2, billing_name),
            billing_email = COALESCE($3, billing_email),
            billing_phone = COALESCE($4, billing_phone),
            updated_at = now()
      WHERE id = $1`,
    [orderId, billing.name ?? null, billing.email ?? null, billing.phone ?? null],
  );
}

/** Orders bought from an account that have no billing e-mail yet, oldest first (skipping accounts known to be gone). */
export async function ordersMissingBuyerDetails(db: Queryable, skipUserIds: string[], limit: number): Promise<Array<{ id: string; buyerUserId: string }>> {
  const { rows } = await db.query<{ id: string; buyerUserId: string }>(
    `SELECT id, buyer_user_id AS "buyerUserId" FROM package_orders
      WHERE buyer_user_id IS NOT NULL AND billing_email IS NULL AND kind <> 'transfer' AND NOT (buyer_user_id = ANY($1::uuid[]))
      ORDER BY created_at LIMIT $2`,
    [skipUserIds, limit],
  );
  return rows;
}

export async function markOrderPaid(db: Queryable, orderId: string): Promise<PackageOrder> {
  const { rows } = await db.query<OrderRecord>(
    `UPDATE package_orders SET status = 'paid', paid_at = now(), failure_message = NULL, updated_at = now()
      WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
    [orderId],
  );
  if (!rows[0]) throw new Error(`Order ${orderId} vanished while being marked paid`);
  return toOrder(rows[0]);
}

export async function markOrderFailed(db: Queryable, orderId: string, failureMessage: string): Promise<PackageOrder> {
  const { rows } = await db.query<OrderRecord>(
    `UPDATE package_orders SET status = 'failed', failure_message = $2, updated_at = now()
      WHERE id = $1 RETURNING ${ORDER_COLUMNS}`,
    [orderId, failureMessage],
  );
  if (!rows[0]) throw new Error(`Order ${orderId} vanished while being marked failed`);
  return toOrder(rows[0]);
}

/** The catalog settled a RingCloud Aged Leads package: how many of its leads were delivered. */
export async function recordLeadsDelivered(db: Queryable, orderId: string, delivered: number): Promise<void> {
  await db.query('UPDATE package_orders SET leads_delivered = $2, updated_at = now() WHERE id = $1', [orderId, delivered]);
}

/**
 * The buyer cancelled an unpaid aged-lead purchase: it can no longer be paid. A paid order is
 * left as it is (the caller has it locked and refuses it); cancelling twice keeps the first time.
 */
export async function markLeadOrderCancelled(db: Queryable, orderId: string): Promise<void> {
  await db.query(
    `UPDATE package_orders SET cancelled_at = COALESCE(cancelled_at, now()), updated_at = now()
      WHERE id = $1 AND kind = 'lead' AND status <> 'paid'`,
    [orderId],
  );
}

/* ------------------------------------------------------------ payment intents ---------- */

interface IntentRecord {
  id: string;
  provider: PaymentProviderName;
  order_id: string;
  client_secret: string;
  amount_cents: number;
  status: 'requires_payment_method' | 'succeeded';
}

const toIntent = (r: IntentRecord): PaymentIntentRow => ({
  id: r.id,
  provider: r.provider,
  orderId: r.order_id,
  clientSecret: r.client_secret,
  amountCents: r.amount_cents,
  status: r.status,
});

export async function insertPaymentIntent(
  db: Queryable,
  intent: { id: string; provider: PaymentProviderName; orderId: string; clientSecret: string; amountCents: number },
): Promise<PaymentIntentRow> {
  const { rows } = await db.query<IntentRecord>(
    `INSERT INTO payment_intents (id, provider, order_id, client_secret, amount_cents)
     VALUES ($1, $2, $3, $4, $5)
     RETURNING id, provider, order_id, client_secret, amount_cents, status`,
    [intent.id, intent.provider, intent.orderId, intent.clientSecret, intent.amountCents],
  );
  return toIntent(rows[0] as IntentRecord);
}

export async function findIntentOfOrder(db: Queryable, orderId: string): Promise<PaymentIntentRow | null> {
  const { rows } = await db.query<IntentRecord>(
    'SELECT id, provider, order_id, client_secret, amount_cents, status FROM payment_intents WHERE order_id = $1',
    [orderId],
  );
  return rows[0] ? toIntent(rows[0]) : null;
}

export async function findIntent(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentIntentRow | null> {
  const { rows } = await db.query<IntentRecord>(
    `SELECT id, provider, order_id, client_secret, amount_cents, status FROM payment_intents WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toIntent(rows[0]) : null;
}

export async function setIntentStatus(
  db: Queryable,
  id: string,
  status: PaymentIntentRow['status'],
  lastError: string | null,
): Promise<void> {
  await db.query('UPDATE payment_intents SET status = $2, last_error = $3, updated_at = now() WHERE id = $1', [id, status, lastError]);
}

/* ------------------------------------------------------------- webhook events ---------- */

/** Records a provider event; false when it was already recorded (a repeat to ignore). */
export async function recordWebhookEvent(db: Queryable, provider: PaymentProviderName, eventId: string, type: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO webhook_events (provider, event_id, type) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [provider, eventId, type],
  );
  return rowCount === 1;
}

/** Gives a paid package order nobody holds to the buyer; when it was claimed, or null when it was not this call's to claim. */
export async function claimPaidPackageOrder(db: Queryable, orderId: string, buyerUserId: string): Promise<Date | null> {
  const { rows } = await db.query<{ claimed_at: Date }>(
    `UPDATE package_orders SET buyer_user_id = $2, updated_at = now()
     WHERE id = $1 AND buyer_user_id IS NULL AND status = 'paid' AND kind = 'package'
     RETURNING updated_at AS claimed_at`,
    [orderId, buyerUserId],
  );
  return rows[0]?.claimed_at ?? null;
}
