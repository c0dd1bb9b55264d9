-- Up Migration
-- Issue 22: a buyer cancels an unpaid purchase in My Orders; its leads are released at once and
-- it can no longer be paid (a payment the provider still reports is refunded in full).
--   held | released | expired → cancelled (by the buyer) → paid only if the provider took money
--   anyway, then nothing is delivered and all of it is owed back.
ALTER TABLE lead_reservations DROP CONSTRAINT lead_reservations_status_check;
ALTER TABLE lead_reservations ADD CONSTRAINT lead_reservations_status_check
  CHECK (status IN ('held', 'paid', 'released', 'expired', 'cancelled'));
ALTER TABLE lead_reservations ADD COLUMN cancelled_at timestamptz;

-- Down Migration
ALTER TABLE lead_reservations DROP COLUMN cancelled_at;
UPDATE lead_reservations SET status = 'released' WHERE status = 'cancelled';
ALTER TABLE lead_reservations DROP CONSTRAINT lead_reservations_status_check;
ALTER TABLE lead_reservations ADD CONSTRAINT lead_reservations_status_check
  CHECK (status IN ('held', 'paid', 'released', 'expired'));
