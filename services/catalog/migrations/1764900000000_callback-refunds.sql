-- Up Migration
-- Issue 15 (leftover): a refunded Call-Backs order gives its call-backs back (docs/adr/0020).

-- What the order cost, so its call-backs are refunded at its own price per call-back; NULL on
-- orders credited before it was stored (their price is the RingCloud Call-Backs list price).
ALTER TABLE callback_credits ADD COLUMN amount_cents integer CHECK (amount_cents >= 0);
-- Of the order's refunded call-backs: those taken off the balance, and those that could not be
-- because they had been delivered already (the balance was at zero). Together they are what the
-- refunds heard so far cover, so a redelivered or older refund takes back nothing more.
ALTER TABLE callback_credits ADD COLUMN taken_back integer NOT NULL DEFAULT 0 CHECK (taken_back >= 0);
ALTER TABLE callback_credits ADD COLUMN kept_delivered integer NOT NULL DEFAULT 0 CHECK (kept_delivered >= 0);
ALTER TABLE callback_credits ADD CONSTRAINT callback_credits_refunded_within_count CHECK (taken_back + kept_delivered <= count);

-- A refund heard of an order that had credited nobody (yet): its payment.succeeded may still be
-- on its way (retried), and its credit then gives back what the refund covers. Refunds of other
-- orders (lead and transfer orders) rest here too, unused: ids and cents only.
CREATE TABLE refunds_before_credit (
  order_id uuid PRIMARY KEY,
  refunded_total_cents integer NOT NULL CHECK (refunded_total_cents > 0),
  refunded_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE refunds_before_credit;
ALTER TABLE callback_credits DROP CONSTRAINT callback_credits_refunded_within_count;
ALTER TABLE callback_credits DROP COLUMN kept_delivered;
ALTER TABLE callback_credits DROP COLUMN taken_back;
ALTER TABLE callback_credits DROP COLUMN amount_cents;
