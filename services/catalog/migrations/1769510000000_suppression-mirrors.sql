-- Up Migration
-- Issue 23 (docs/adr/0031): the transfers service keeps a copy of the suppression list, sent as
-- suppression.mirror in the transaction that adds or removes a phone. Phones suppressed before
-- have no copy yet: mirrored_at is NULL until the service's start-up sends theirs once.
ALTER TABLE lead_suppressions ADD COLUMN mirrored_at timestamptz;
CREATE INDEX lead_suppressions_unmirrored_idx ON lead_suppressions (created_at) WHERE mirrored_at IS NULL;

-- Down Migration
DROP INDEX lead_suppressions_unmirrored_idx;
ALTER TABLE lead_suppressions DROP COLUMN mirrored_at;
