-- Up Migration
-- The aged-lead inventory (spec §3): every lead the site sells, and what happened to it.
-- A lead's age, age range and price are not stored: they follow from form_fill_time at the
-- moment of each request. Listed = unsold, aged 30..180 whole days, not held by another buyer.
CREATE TABLE aged_leads (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (btrim(name) <> ''),
  -- Ten digits of a US number (no +1, no punctuation); the first three are the area code.
  phone text NOT NULL CHECK (phone ~ '^[2-9][0-9]{9}$'),
  email text,
  -- Upper-case code from the contracts' US_STATE_CODES.
  state text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
  area_code text GENERATED ALWAYS AS (left(phone, 3)) STORED,
  -- Every 5-digit run of the phone: a 5-digit filter term (a zip code) matches through these.
  phone_fives text[] GENERATED ALWAYS AS (ARRAY[
    substr(phone, 1, 5), substr(phone, 2, 5), substr(phone, 3, 5),
    substr(phone, 4, 5), substr(phone, 5, 5), substr(phone, 6, 5)]) STORED,
  form_fill_time timestamptz NOT NULL,
  source text NOT NULL,
  -- The consent record exactly as the lead source sent it (TCPA evidence for the buyer).
  consent jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A reservation: the lead is kept for one buyer's pending order until held_until.
  held_by_order_id uuid,
  held_by_user_id uuid,
  held_until timestamptz,
  -- The sale: who bought it, in which order, when, and at what price and age range.
  sold_to_user_id uuid,
  sold_order_id uuid,
  sold_at timestamptz,
  sold_price_cents integer CHECK (sold_price_cents > 0),
  sold_age_range text CHECK (sold_age_range IN ('30-60', '60-90', '90-180')),
  CONSTRAINT aged_leads_hold_complete CHECK (
    (held_by_order_id IS NULL) = (held_until IS NULL) AND (held_by_user_id IS NULL) = (held_until IS NULL)),
  CONSTRAINT aged_leads_sale_complete CHECK (
    (sold_to_user_id IS NULL) = (sold_at IS NULL) AND (sold_order_id IS NULL) = (sold_at IS NULL)
    AND (sold_price_cents IS NULL) = (sold_at IS NULL) AND (sold_age_range IS NULL) = (sold_at IS NULL)),
  CONSTRAINT aged_leads_sold_is_not_held CHECK (sold_at IS NULL OR held_until IS NULL)
) WITH (fillfactor = 90); -- room for reservation updates to stay on their page

-- The market's indexes cover unsold leads only: a sold lead leaves them for good, so they do
-- not grow with sales history. Newest first, id as the tie-breaker, everywhere.
-- Unfiltered listing (index-only: the state and area code ride along for the filter's check).
CREATE INDEX aged_leads_market_idx ON aged_leads (form_fill_time DESC, id DESC)
  INCLUDE (state, area_code) WHERE sold_at IS NULL;
-- One ordered run per state / per area code, so a filter reads only leads that match it.
CREATE INDEX aged_leads_market_state_idx ON aged_leads (state, form_fill_time DESC, id DESC) WHERE sold_at IS NULL;
CREATE INDEX aged_leads_market_area_code_idx ON aged_leads (area_code, form_fill_time DESC, id DESC) WHERE sold_at IS NULL;
CREATE INDEX aged_leads_market_phone_idx ON aged_leads USING gin (phone_fives) WHERE sold_at IS NULL;
-- My Leads: one buyer's purchases, newest first.
CREATE INDEX aged_leads_buyer_idx ON aged_leads (sold_to_user_id, sold_at DESC, id DESC) WHERE sold_at IS NOT NULL;

-- A lead is sold once: once sold, nothing may change who bought it, when, or for how much.
CREATE FUNCTION aged_leads_sold_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sold_to_user_id IS DISTINCT FROM OLD.sold_to_user_id
     OR NEW.sold_order_id IS DISTINCT FROM OLD.sold_order_id
     OR NEW.sold_at IS DISTINCT FROM OLD.sold_at
     OR NEW.sold_price_cents IS DISTINCT FROM OLD.sold_price_cents THEN
    RAISE EXCEPTION 'aged lead % is already sold', OLD.id USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER aged_leads_sold_once BEFORE UPDATE ON aged_leads
  FOR EACH ROW WHEN (OLD.sold_at IS NOT NULL) EXECUTE FUNCTION aged_leads_sold_once();

-- Unsold leads per UTC day of form fill, state and area code. The market adds these up to
-- count a filter's total and to find where page N starts, instead of counting rows (a
-- million-lead count takes far longer than a page should). Kept by the triggers below, in the
-- same transaction as every insert, sale and delete, so it is never out of step.
CREATE TABLE lead_stock (
  fill_day date NOT NULL,
  state text NOT NULL,
  area_code text NOT NULL,
  -- No CHECK (leads >= 0): a decrement arrives as an upsert of a negative delta, and
  -- PostgreSQL checks the proposed row before it finds the conflict it will update instead.
  leads integer NOT NULL,
  PRIMARY KEY (fill_day, state, area_code)
);
CREATE INDEX lead_stock_state_idx ON lead_stock (state, fill_day) INCLUDE (leads);
CREATE INDEX lead_stock_area_code_idx ON lead_stock (area_code, fill_day) INCLUDE (leads);

-- Statement-level with transition tables: one upsert per statement, however many rows (the
-- million-lead generator inserts thousands per statement). Rows are applied in key order so
-- concurrent statements lock stock rows in the same order.
CREATE FUNCTION lead_stock_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, count(*)
      FROM new_rows WHERE sold_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, -count(*)
      FROM old_rows WHERE sold_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  ELSE
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT fill_day, state, area_code, sum(delta)
      FROM (SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, 1 AS delta
              FROM new_rows WHERE sold_at IS NULL
            UNION ALL
            SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, -1
              FROM old_rows WHERE sold_at IS NULL) AS changes
     GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER aged_leads_stock_insert AFTER INSERT ON aged_leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_stock_apply();
CREATE TRIGGER aged_leads_stock_update AFTER UPDATE ON aged_leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_stock_apply();
CREATE TRIGGER aged_leads_stock_delete AFTER DELETE ON aged_leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_stock_apply();

-- A bulk purchase: all its leads held for one buyer until expires_at, under the id of the
-- lead order the orders service takes the payment for.
--   held → paid (payment.succeeded) | released (payment.failed, or the payment could not be
--   opened) | expired (15 minutes unpaid). A late payment.succeeded still sells what it can.
CREATE TABLE lead_reservations (
  order_id uuid PRIMARY KEY,
  buyer_user_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'paid', 'released', 'expired')),
  lead_count integer NOT NULL CHECK (lead_count > 0),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  closed_at timestamptz,
  close_reason text,
  CHECK ((status = 'held') = (closed_at IS NULL))
);
CREATE INDEX lead_reservations_held_idx ON lead_reservations (expires_at) WHERE status = 'held';
CREATE INDEX lead_reservations_buyer_idx ON lead_reservations (buyer_user_id, created_at DESC);

-- The leads of a reservation at the price and age range they were priced at. `outcome` is set
-- when the order is paid: sold, or undelivered (someone else bought it after the reservation
-- ended) — undelivered leads are owed back to the buyer (leads.purchased refundDueCents).
CREATE TABLE lead_reservation_items (
  order_id uuid NOT NULL REFERENCES lead_reservations (order_id),
  lead_id uuid NOT NULL REFERENCES aged_leads (id),
  age_range text NOT NULL CHECK (age_range IN ('30-60', '60-90', '90-180')),
  price_cents integer NOT NULL CHECK (price_cents > 0),
  outcome text CHECK (outcome IN ('sold', 'undelivered')),
  PRIMARY KEY (order_id, lead_id)
);
CREATE INDEX lead_reservation_items_lead_idx ON lead_reservation_items (lead_id);

-- Down Migration
DROP TABLE lead_reservation_items;
DROP TABLE lead_reservations;
DROP TRIGGER aged_leads_stock_delete ON aged_leads;
DROP TRIGGER aged_leads_stock_update ON aged_leads;
DROP TRIGGER aged_leads_stock_insert ON aged_leads;
DROP FUNCTION lead_stock_apply();
DROP TABLE lead_stock;
DROP TRIGGER aged_leads_sold_once ON aged_leads;
DROP FUNCTION aged_leads_sold_once();
DROP TABLE aged_leads;
