-- Up Migration
-- The agent's side of the books (issue 12, My Orders).
-- The last four digits of the card that paid, for the buyer's receipt; nothing else of the card
-- is ever kept. Null when the provider did not say (or before this column existed).
ALTER TABLE package_orders ADD COLUMN card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$');

-- The second brand's one-time checkout tokens that linked an order to the account their survey
-- created: a token id is here at most once, so a token links one order and then nothing.
CREATE TABLE checkout_token_uses (
  token_id uuid PRIMARY KEY,
  -- The account the token was signed for (a gateway user; no foreign key across schemas).
  user_id uuid NOT NULL,
  order_id uuid NOT NULL UNIQUE REFERENCES package_orders (id),
  used_at timestamptz NOT NULL DEFAULT now()
);

-- My Orders reads an agent's orders newest first.
CREATE INDEX package_orders_buyer_created_idx ON package_orders (buyer_user_id, created_at DESC) WHERE buyer_user_id IS NOT NULL;

-- Down Migration
DROP INDEX package_orders_buyer_created_idx;
DROP TABLE checkout_token_uses;
ALTER TABLE package_orders DROP COLUMN card_last4;
