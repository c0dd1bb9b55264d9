-- Up Migration
-- A package bought from a checkout (the four flat-rate checkouts, high volume, and the second
-- brand's). Prices are copied from the contracts pricing table at order time, in cents, so a
-- later price change never rewrites what a buyer was charged.
CREATE TABLE package_orders (
  id uuid PRIMARY KEY,
  tier text NOT NULL CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud')),
  -- The second brand sells three products under one tier.
  lead_type text CHECK (lead_type IN ('Live Transfers', 'Call-Backs', 'Aged Leads')),
  age_range text CHECK (age_range IN ('30-60', '60-90', '90-180')),
  count integer NOT NULL CHECK (count > 0),
  unit_price_cents integer NOT NULL CHECK (unit_price_cents > 0),
  amount_cents integer NOT NULL CHECK (amount_cents = count * unit_price_cents),
  currency text NOT NULL DEFAULT 'usd' CHECK (currency = 'usd'),
  description text NOT NULL,
  -- pending: not paid yet; failed: the last attempt was declined (still payable); paid: final.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed')),
  -- Null when an anonymous visitor bought from a public checkout.
  buyer_user_id uuid,
  billing_name text,
  billing_email text,
  billing_phone text,
  -- The buyer's retry key: the same key gives back the same order.
  idempotency_key uuid UNIQUE,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
  provider_intent_id text UNIQUE,
  failure_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX package_orders_created_at_idx ON package_orders (created_at DESC);
CREATE INDEX package_orders_buyer_idx ON package_orders (buyer_user_id) WHERE buyer_user_id IS NOT NULL;

-- The provider's payment intent of an order (one per order). For the sandbox the orders
-- service is the provider; for Stripe this mirrors Stripe's intent. The client secret is
-- kept so a retried checkout gets the same one back; it lets its holder pay, nothing more.
CREATE TABLE payment_intents (
  id text PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
  order_id uuid NOT NULL UNIQUE REFERENCES package_orders (id),
  client_secret text NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'usd',
  status text NOT NULL DEFAULT 'requires_payment_method'
    CHECK (status IN ('requires_payment_method', 'succeeded')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Provider events already handled (Stripe's ids are 'evt_…', not uuids, so the platform's
-- processed_events does not fit). The row commits with the event's effects.
CREATE TABLE webhook_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

-- Down Migration
DROP TABLE webhook_events;
DROP TABLE payment_intents;
DROP TABLE package_orders;
