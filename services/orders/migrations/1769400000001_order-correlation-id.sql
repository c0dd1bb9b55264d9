-- Up Migration
-- The purchase's correlation id (issue 22 item 18, docs/adr/0030): the id of the request that
-- created the order, which order.created carries; the payment events of the order carry it too,
-- so an analyst follows one purchase by one id. NULL for orders created before: their payment
-- events keep the id of the request that reported the payment.
ALTER TABLE package_orders ADD COLUMN correlation_id text CHECK (length(correlation_id) BETWEEN 1 AND 128);

-- Down Migration
ALTER TABLE package_orders DROP COLUMN correlation_id;
