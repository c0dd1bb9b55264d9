-- Up Migration
-- Issue 22.
-- WarmLine's own Call-Backs (the dashboard's Buy Call-backs), a package of tier 'callbacks':
-- no longer sold as the second brand's 'ringcloud' package.
ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'callbacks', 'aged-leads', 'live-transfers'));
-- The states a RingCloud Aged Leads package is filled from (the buyer's choice at the checkout;
-- NULL: none given, every state), and how many of its leads the catalog delivered once it
-- settled the package (NULL until then), so the thank-you page and My Orders can say so.
ALTER TABLE package_orders ADD COLUMN states text[];
ALTER TABLE package_orders ADD COLUMN leads_delivered integer CHECK (leads_delivered BETWEEN 0 AND count);
-- An unpaid aged-lead purchase the buyer cancelled in My Orders: it can no longer be paid (a
-- payment the provider still reports is refunded in full by the catalog's settlement).
ALTER TABLE package_orders ADD COLUMN cancelled_at timestamptz;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_cancelled_lead_only CHECK (cancelled_at IS NULL OR kind = 'lead');

-- Down Migration
ALTER TABLE package_orders DROP CONSTRAINT package_orders_cancelled_lead_only;
ALTER TABLE package_orders DROP COLUMN cancelled_at;
ALTER TABLE package_orders DROP COLUMN leads_delivered;
ALTER TABLE package_orders DROP COLUMN states;
ALTER TABLE package_orders DROP CONSTRAINT package_orders_tier_check;
ALTER TABLE package_orders ADD CONSTRAINT package_orders_tier_check
  CHECK (tier IN ('special', 'premium', 'enterprise', 'ultimate', 'high-volume', 'ringcloud', 'aged-leads', 'live-transfers'));
