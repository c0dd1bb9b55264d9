-- Up Migration
-- A buyer disputed a payment with their bank (Stripe's charge.dispute.created, issue 12): the
-- order is flagged so the team sees it in All Orders and answers the bank before the deadline.
-- The disputed money is not counted as refunded: Stripe takes it back only if the dispute is lost.
ALTER TABLE package_orders
  ADD COLUMN disputed_at timestamptz,
  ADD COLUMN dispute_id text UNIQUE,
  ADD COLUMN dispute_reason text,
  ADD COLUMN disputed_cents integer CHECK (disputed_cents >= 0);

-- Down Migration
ALTER TABLE package_orders
  DROP COLUMN disputed_cents,
  DROP COLUMN dispute_reason,
  DROP COLUMN dispute_id,
  DROP COLUMN disputed_at;
