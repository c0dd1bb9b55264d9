-- Up Migration
-- Refunds (issue 12): money given back on a paid order, whole or in part — by an admin, by the
-- system (a paid transfer order cancelled, leads sold elsewhere before a late payment) or in the
-- payment provider's own dashboard. Each refund is a row; the order keeps the running total, which
-- can never exceed what was paid. A refunded amount never counts as revenue.
CREATE TABLE refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES package_orders (id),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  initiated_by text NOT NULL CHECK (initiated_by IN ('admin', 'system', 'provider')),
  -- The admin who asked for it (a gateway user id), when an admin did.
  actor_id uuid,
  -- The provider's refund ('re_…'): one of ours is never counted again when the provider reports it.
  provider_refund_id text NOT NULL UNIQUE,
  -- Asking twice with the same key refunds once.
  idempotency_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_order_idx ON refunds (order_id, created_at);
CREATE INDEX refunds_created_at_idx ON refunds (created_at);

ALTER TABLE package_orders ADD COLUMN refunded_cents integer NOT NULL DEFAULT 0;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_refund_within_paid
  CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents AND (refunded_cents = 0 OR status = 'paid'));

-- Down Migration
ALTER TABLE package_orders DROP CONSTRAINT package_orders_refund_within_paid;
ALTER TABLE package_orders DROP COLUMN refunded_cents;
DROP TABLE refunds;
