-- Up Migration
-- Issue 11: a 5-digit filter term matched any 5-digit run of the phone, so a buyer who sees the
-- area code could slide a window over the hidden digits and read the number before paying.
-- A 5-digit term now matches the lead's zip code and nothing else; the phone's runs go.
DROP INDEX aged_leads_market_phone_idx;
ALTER TABLE aged_leads DROP COLUMN phone_fives;

-- Five digits; NULL for a lead whose source gave none (it matches no zip term).
ALTER TABLE aged_leads ADD COLUMN zip text CHECK (zip ~ '^[0-9]{5}$');
-- The market's zip lookup, unsold leads only like its other indexes.
CREATE INDEX aged_leads_market_zip_idx ON aged_leads (zip) WHERE sold_at IS NULL AND zip IS NOT NULL;

-- Down Migration
DROP INDEX aged_leads_market_zip_idx;
ALTER TABLE aged_leads DROP COLUMN zip;
ALTER TABLE aged_leads ADD COLUMN phone_fives text[] GENERATED ALWAYS AS (ARRAY[
  substr(phone, 1, 5), substr(phone, 2, 5), substr(phone, 3, 5),
  substr(phone, 4, 5), substr(phone, 5, 5), substr(phone, 6, 5)]) STORED;
CREATE INDEX aged_leads_market_phone_idx ON aged_leads USING gin (phone_fives) WHERE sold_at IS NULL;
