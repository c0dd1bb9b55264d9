-- Up Migration
-- Issue 24 item 5 (ADR 0034): lead returns. One return per lead (lead_id is unique), by its
-- buyer, with a reason; decided at once by the records (automatic) or by an admin. An accepted
-- return marks the lead returned_at: it stays sold to its buyer (so nothing lists or sells it
-- again) and leaves My Leads' active list. The refund of its price is orders' (lead_return.refund);
-- refunded_at/refunded_cents are filled from orders' payment.refunded carrying the return's key.
CREATE TABLE lead_returns (
  id uuid PRIMARY KEY,
  lead_id uuid NOT NULL UNIQUE REFERENCES aged_leads (id),
  buyer_user_id uuid NOT NULL,
  buyer_username text NOT NULL CHECK (length(buyer_username) <= 200),
  order_id uuid NOT NULL,
  price_cents integer NOT NULL CHECK (price_cents > 0),
  reason text NOT NULL CHECK (reason IN ('disconnected', 'wrong_number', 'duplicate', 'dnc_registry', 'opted_out', 'not_the_person', 'bad_data')),
  note text CHECK (length(note) <= 1000),
  -- For the reasons the records can prove: whether they did when it was asked (NULL for the others).
  records_back_it boolean,
  status text NOT NULL CHECK (status IN ('pending', 'accepted', 'refused')),
  automatic boolean NOT NULL DEFAULT false,
  requested_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by_user_id uuid,
  decided_by_username text CHECK (length(decided_by_username) <= 200),
  decision_reason text CHECK (length(decision_reason) <= 500),
  refunded_at timestamptz,
  refunded_cents integer CHECK (refunded_cents > 0),
  CONSTRAINT lead_returns_decided CHECK ((status = 'pending') = (decided_at IS NULL)),
  CONSTRAINT lead_returns_refused_with_reason CHECK (status <> 'refused' OR decision_reason IS NOT NULL),
  CONSTRAINT lead_returns_refund_of_accepted CHECK (refunded_at IS NULL OR status = 'accepted')
);
CREATE INDEX lead_returns_status_idx ON lead_returns (status, requested_at);
CREATE INDEX lead_returns_buyer_idx ON lead_returns (buyer_user_id, requested_at);

ALTER TABLE aged_leads
  ADD COLUMN returned_at timestamptz,
  ADD CONSTRAINT aged_leads_returned_is_sold CHECK (returned_at IS NULL OR sold_at IS NOT NULL);

-- A returned lead stays its buyer's for good: never unsold, never sold to anyone else.
CREATE FUNCTION aged_leads_returned_stays_sold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.returned_at IS NOT NULL AND (NEW.returned_at IS NULL OR NEW.sold_to_user_id IS DISTINCT FROM OLD.sold_to_user_id
      OR NEW.sold_order_id IS DISTINCT FROM OLD.sold_order_id) THEN
    RAISE EXCEPTION 'aged lead % was returned and can never be sold again', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER aged_leads_returned_stays_sold BEFORE UPDATE ON aged_leads
  FOR EACH ROW WHEN (OLD.returned_at IS NOT NULL) EXECUTE FUNCTION aged_leads_returned_stays_sold();

-- Down Migration
DROP TRIGGER aged_leads_returned_stays_sold ON aged_leads;
DROP FUNCTION aged_leads_returned_stays_sold();
ALTER TABLE aged_leads DROP CONSTRAINT aged_leads_returned_is_sold, DROP COLUMN returned_at;
DROP TABLE lead_returns;
