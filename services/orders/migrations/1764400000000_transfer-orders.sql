-- Up Migration
-- Live call transfers ordered from the dashboard (issue 7). The transfer order keeps what the
-- agent asked for and what operations deliver (states, hours, volume, the number to transfer
-- to) with its own status (spec §4: pending, paid, completed, cancelled). Its payment is a
-- row of package_orders with the same id and kind 'transfer', so the sandbox card form,
-- Stripe's webhook and recordPaymentSucceeded handle it like every other order; the transfer
-- order becomes paid in that same transaction.
ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'aged-leads', 'live-transfers'));
ALTER TABLE package_orders ADD CONSTRAINT package_orders_live_transfers_are_transfer_orders
  CHECK ((tier = 'live-transfers') = (kind = 'transfer'));

CREATE TABLE transfer_orders (
  id uuid PRIMARY KEY REFERENCES package_orders (id),
  -- The agent (a gateway user; no foreign key across schemas).
  user_id uuid NOT NULL,
  -- The agent's name and contact as their account had them when ordering.
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text NOT NULL,
  email text NOT NULL,
  -- Where the transfers are delivered.
  transfer_number text NOT NULL,
  total_transfers integer NOT NULL CHECK (total_transfers > 0),
  -- The form's callsPerDay.
  transfers_per_day integer NOT NULL CHECK (transfers_per_day > 0),
  transfer_hours text NOT NULL CHECK (length(transfer_hours) BETWEEN 1 AND 200),
  selected_states text[] NOT NULL CHECK (cardinality(selected_states) > 0),
  -- The agent's own per-transfer price at order time (a later change never rewrites it).
  unit_price numeric(10, 2) NOT NULL CHECK (unit_price >= 0),
  total_price numeric(10, 2) NOT NULL CHECK (total_price > 0 AND total_price = unit_price * total_transfers),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'completed', 'cancelled')),
  lead_type text NOT NULL DEFAULT 'Live Transfers' CHECK (lead_type = 'Live Transfers'),
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  CHECK (status <> 'paid' OR paid_at IS NOT NULL)
);
CREATE INDEX transfer_orders_created_at_idx ON transfer_orders (created_at DESC, id);
CREATE INDEX transfer_orders_user_idx ON transfer_orders (user_id);

-- Down Migration
DROP TABLE transfer_orders;
ALTER TABLE package_orders DROP CONSTRAINT package_orders_live_transfers_are_transfer_orders;
ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'aged-leads'));
