-- Up Migration
-- Test Campaigns (issue 12): a campaign is a salesperson's referral page, created by an admin.
-- Who created it (NULL for the seeded ones); users are only ever soft-deleted, so the link stays.
ALTER TABLE salespeople ADD COLUMN created_by uuid REFERENCES users (id);

-- Down Migration
ALTER TABLE salespeople DROP COLUMN created_by;
