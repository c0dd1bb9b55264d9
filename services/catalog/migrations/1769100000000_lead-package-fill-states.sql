-- Up Migration
-- Issue 22: a RingCloud Aged Leads package is filled only from the states its buyer chose.
-- The states it was filled from; NULL: every state (an order that named none, or filled before).
ALTER TABLE lead_package_fills ADD COLUMN states text[];

-- Down Migration
ALTER TABLE lead_package_fills DROP COLUMN states;
