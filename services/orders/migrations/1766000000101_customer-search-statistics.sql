-- Up Migration
-- Statistics on the customer search's expressions (the same as its indexes'), so the planner
-- knows how many orders a text matches: a word found in many of them is read by walking the
-- newest orders instead of rechecking every match from the trigram index; a rare text still
-- comes from the trigram index. The partial indexes' own statistics do not serve: PostgreSQL
-- ignores those of partial indexes.
CREATE STATISTICS package_orders_customer_text_stats
  ON (coalesce(billing_name, '') || E'\n' || billing_email) FROM package_orders;
CREATE STATISTICS package_orders_customer_phone_stats
  ON (regexp_replace(coalesce(billing_phone, ''), '\D', '', 'g')) FROM package_orders;
-- 1,000 buckets rather than 100: a text in no bucket is then estimated at 0.1% of the rows, not
-- 1%, which would make a rare phone number walk the whole table looking for 50 matches.
ALTER STATISTICS package_orders_customer_text_stats SET STATISTICS 1000;
ALTER STATISTICS package_orders_customer_phone_stats SET STATISTICS 1000;
ANALYZE package_orders;

-- Down Migration
DROP STATISTICS package_orders_customer_phone_stats;
DROP STATISTICS package_orders_customer_text_stats;
