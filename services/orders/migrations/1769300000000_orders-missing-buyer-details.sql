-- Up Migration
-- Issue 22: orders bought from an account keep the account's name, e-mail and phone as billing
-- details. The orders service fills in those that have none (older aged-lead orders, or a
-- purchase made while the gateway was away); this partial index finds them without a scan.
CREATE INDEX package_orders_missing_buyer_details_idx ON package_orders (created_at)
  WHERE buyer_user_id IS NOT NULL AND billing_email IS NULL AND kind <> 'transfer';

-- Down Migration
DROP INDEX IF EXISTS package_orders_missing_buyer_details_idx;
