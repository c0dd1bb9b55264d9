-- Up Migration
-- Issue 23 (docs/adr/0031): the transfers service keeps a copy of each vendor key's SHA-256,
-- sent as vendor_key.mirror in the transaction that creates or revokes the key. Keys created
-- before have no copy yet: mirrored_at is NULL until the service's start-up sends theirs once.
ALTER TABLE vendor_keys ADD COLUMN mirrored_at timestamptz;
CREATE INDEX vendor_keys_unmirrored_idx ON vendor_keys (created_at) WHERE mirrored_at IS NULL;

-- Down Migration
DROP INDEX vendor_keys_unmirrored_idx;
ALTER TABLE vendor_keys DROP COLUMN mirrored_at;
