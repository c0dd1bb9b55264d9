-- Up Migration
-- Issue 13: the second brand's (RingCloud) Aged Leads packages, filled from stock when paid.
-- One row per order, written in the transaction that sells its leads (they carry
-- sold_order_id = order_id), so an order is filled once however often its payment is heard of.
CREATE TABLE lead_package_fills (
  order_id uuid PRIMARY KEY,
  -- NULL: the order had no account to sell to; nothing was delivered and all of it is refunded.
  buyer_user_id uuid,
  age_range text NOT NULL CHECK (age_range IN ('30-60', '60-90', '90-180')),
  -- What the buyer paid per lead (the package's price, not the market's).
  price_cents integer NOT NULL CHECK (price_cents > 0),
  leads_ordered integer NOT NULL CHECK (leads_ordered > 0),
  leads_delivered integer NOT NULL CHECK (leads_delivered BETWEEN 0 AND leads_ordered),
  -- What orders is asked to give back for the leads not delivered.
  refund_due_cents integer NOT NULL CHECK (refund_due_cents >= 0),
  filled_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE lead_package_fills;
