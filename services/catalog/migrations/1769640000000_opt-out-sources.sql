-- Up Migration
-- Issue 24: every opt-out keeps where it came from: an admin's entry, the vendor's call (a
-- call-back's or a transfer's `dnc` outcome), or an uploaded list. Vendor calls were written with
-- the nil user id (domain/suppressions.ts VENDOR_CALL_SUPPRESSOR); every other row was an admin's.
ALTER TABLE lead_suppressions
  ADD COLUMN source text NOT NULL DEFAULT 'admin' CHECK (source IN ('admin', 'vendor', 'import'));
UPDATE lead_suppressions SET source = 'vendor' WHERE created_by_user_id = '00000000-0000-0000-0000-000000000000';

-- Down Migration
ALTER TABLE lead_suppressions DROP COLUMN source;
