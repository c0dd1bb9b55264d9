-- Up Migration
-- Aged-lead purchases (issue 6) are paid through the same orders and payment intents as the
-- package checkouts, so the sandbox card form and Stripe's webhook handle them unchanged. The
-- catalog service reserves and prices the leads, then asks for a lead order here
-- (POST /api/internal/lead-orders); `kind` tells the two apart in every order event.
ALTER TABLE package_orders
  ADD COLUMN kind text NOT NULL DEFAULT 'package' CHECK (kind IN ('package', 'lead', 'transfer'));

ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'aged-leads'));
ALTER TABLE package_orders ADD CONSTRAINT package_orders_aged_leads_are_lead_orders
  CHECK ((tier = 'aged-leads') = (kind = 'lead'));

-- A lead order mixes prices (each lead is priced by its age), so its amount is the sum of its
-- lines below, not count × one unit price; unit_price_cents is the price when every lead
-- shares one age range and 0 ("varies") otherwise.
-- (package_orders_check is the original amount = count × unit price rule.)
ALTER TABLE package_orders DROP CONSTRAINT package_orders_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_amount_cents_check
  CHECK (amount_cents > 0 AND (kind = 'lead' OR amount_cents = count * unit_price_cents));
ALTER TABLE package_orders DROP CONSTRAINT package_orders_unit_price_cents_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_unit_price_cents_check
  CHECK (unit_price_cents > 0 OR (kind = 'lead' AND unit_price_cents = 0));

-- What a lead order charges for: how many leads of each age range, at the range's price
-- (copied from the contracts pricing table when the order was made).
CREATE TABLE lead_order_lines (
  order_id uuid NOT NULL REFERENCES package_orders (id),
  age_range text NOT NULL CHECK (age_range IN ('30-60', '60-90', '90-180')),
  lead_count integer NOT NULL CHECK (lead_count > 0),
  unit_price_cents integer NOT NULL CHECK (unit_price_cents > 0),
  PRIMARY KEY (order_id, age_range)
);

-- Down Migration
DROP TABLE lead_order_lines;
ALTER TABLE package_orders DROP CONSTRAINT package_orders_unit_price_cents_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_unit_price_cents_check CHECK (unit_price_cents > 0);
ALTER TABLE package_orders DROP CONSTRAINT package_orders_amount_cents_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_check CHECK (amount_cents = count * unit_price_cents);
ALTER TABLE package_orders DROP CONSTRAINT package_orders_aged_leads_are_lead_orders;
ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud'));
ALTER TABLE package_orders DROP COLUMN kind;
