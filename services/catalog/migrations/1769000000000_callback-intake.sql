-- Up Migration
-- Issue 22: a suppressed phone never becomes (or stays) an available callback opportunity, and a
-- phone has at most one open opportunity (docs/adr/0026).

-- suppressed: withdrawn when its phone went on the suppression list, or the record of a vendor
-- call that came in for a listed phone (no opportunity was made; the admin sees why).
ALTER TABLE callback_opportunities DROP CONSTRAINT callback_opportunities_status_check;
ALTER TABLE callback_opportunities ADD CONSTRAINT callback_opportunities_status_check
  CHECK (status IN ('available', 'assigned', 'contacted', 'expired', 'suppressed'));
ALTER TABLE callback_opportunities ADD COLUMN suppressed_at timestamptz;
ALTER TABLE callback_opportunities ADD CONSTRAINT callback_opportunities_suppressed_at_check
  CHECK ((status = 'suppressed') = (suppressed_at IS NOT NULL));

-- A phone's open opportunity, and whom it went to in the last 30 days.
CREATE INDEX callback_opportunities_phone_idx ON callback_opportunities (phone, created_at DESC);

-- Opportunities made before their phone was suppressed leave the market now.
UPDATE callback_opportunities o SET status = 'suppressed', suppressed_at = GREATEST(s.created_at, o.created_at)
  FROM lead_suppressions s
 WHERE s.phone = o.phone AND o.status = 'available';

-- Down Migration
UPDATE callback_opportunities SET status = 'expired' WHERE status = 'suppressed';
DROP INDEX callback_opportunities_phone_idx;
ALTER TABLE callback_opportunities DROP CONSTRAINT callback_opportunities_suppressed_at_check;
ALTER TABLE callback_opportunities DROP COLUMN suppressed_at;
ALTER TABLE callback_opportunities DROP CONSTRAINT callback_opportunities_status_check;
ALTER TABLE callback_opportunities ADD CONSTRAINT callback_opportunities_status_check
  CHECK (status IN ('available', 'assigned', 'contacted', 'expired'));
