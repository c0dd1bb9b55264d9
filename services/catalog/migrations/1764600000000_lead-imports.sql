-- Up Migration
-- Issue 13: aged-lead imports from vendors' CSV files, structured consent on every lead,
-- withdrawn leads (an import undone, a phone that opted out) and the suppression list.

-- Consent as a buyer needs it (TCPA evidence): the certificate (TrustedForm/Jornaya URL or id),
-- when the prospect consented and from which address. The free-form `consent` jsonb stays for
-- what older sources sent; its consentedAt becomes consent_time where it is a date.
ALTER TABLE aged_leads
  ADD COLUMN consent_certificate text CHECK (length(consent_certificate) <= 500),
  ADD COLUMN consent_time timestamptz,
  ADD COLUMN consent_ip inet,
  -- The import that brought the lead (NULL: the demo seed, the JSON API before imports).
  ADD COLUMN import_id uuid;
UPDATE aged_leads SET consent_time = (consent->>'consentedAt')::timestamptz
 WHERE consent ? 'consentedAt' AND consent->>'consentedAt' ~ '^\d{4}-\d{2}-\d{2}T';

-- The duplicate rule (same phone, same form-fill day) and the suppression list look leads up
-- by phone; Undo finds an import's leads.
CREATE INDEX aged_leads_phone_idx ON aged_leads (phone, form_fill_time);
CREATE INDEX aged_leads_import_idx ON aged_leads (import_id) WHERE import_id IS NOT NULL;

-- A withdrawn lead leaves aged_leads (so the market, its indexes and the stock counts stay as
-- they are) and is kept here. A lead held by a buyer's unpaid order may be withdrawn: when that
-- order is paid, the lead is undelivered and refunded like one sold elsewhere, so a reservation
-- item no longer needs its lead to exist.
ALTER TABLE lead_reservation_items DROP CONSTRAINT lead_reservation_items_lead_id_fkey;
CREATE TABLE withdrawn_leads (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  phone text NOT NULL,
  email text,
  state text NOT NULL,
  zip text,
  form_fill_time timestamptz NOT NULL,
  source text NOT NULL,
  consent jsonb NOT NULL,
  consent_certificate text,
  consent_time timestamptz,
  consent_ip inet,
  import_id uuid,
  created_at timestamptz NOT NULL,
  withdrawn_at timestamptz NOT NULL,
  withdrawn_reason text NOT NULL CHECK (withdrawn_reason IN ('import-undone', 'suppressed'))
);
CREATE INDEX withdrawn_leads_import_idx ON withdrawn_leads (import_id) WHERE import_id IS NOT NULL;

-- One import of a CSV file. The file lives in the BlobStore under file_key until 30 days after
-- the import ends; the job, its counts and its row errors stay.
--   queued → running → done | failed | cancelled   (running again after a worker restart)
CREATE TABLE lead_imports (
  id uuid PRIMARY KEY,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  file_name text NOT NULL,
  file_key text NOT NULL,
  file_bytes bigint NOT NULL CHECK (file_bytes > 0),
  file_sha256 text NOT NULL,
  -- Data lines counted while the file was uploaded (a quoted line break may make it a little high).
  rows_total integer NOT NULL CHECK (rows_total >= 0),
  -- Said once at upload, e.g. that Age Range and Price columns are ignored.
  notice text,
  started_by_user_id uuid NOT NULL,
  started_by_name text NOT NULL,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  -- Progress as of the last committed batch: a restarted worker goes on from rows_read.
  rows_read integer NOT NULL DEFAULT 0,
  rows_imported integer NOT NULL DEFAULT 0,
  rows_rejected integer NOT NULL DEFAULT 0,
  rows_duplicate integer NOT NULL DEFAULT 0,
  bytes_read bigint NOT NULL DEFAULT 0,
  error text,
  cancel_requested_at timestamptz,
  undone_at timestamptz,
  undone_by_user_id uuid,
  rows_withdrawn integer,
  file_deleted_at timestamptz,
  CHECK ((status IN ('done', 'failed', 'cancelled')) = (finished_at IS NOT NULL))
);
CREATE INDEX lead_imports_recent_idx ON lead_imports (created_at DESC, id DESC);
CREATE INDEX lead_imports_file_expiry_idx ON lead_imports (finished_at) WHERE file_deleted_at IS NULL AND finished_at IS NOT NULL;

-- Every refused row with the reason, one row per problem (a row may have several).
CREATE TABLE lead_import_errors (
  import_id uuid NOT NULL REFERENCES lead_imports (id),
  row_number integer NOT NULL,
  column_name text NOT NULL,
  message text NOT NULL,
  seq smallint NOT NULL,
  PRIMARY KEY (import_id, row_number, seq)
);

-- Phones that opted out: never sold, never imported again.
CREATE TABLE lead_suppressions (
  phone text PRIMARY KEY CHECK (phone ~ '^[2-9][0-9]{9}$'),
  reason text NOT NULL CHECK (btrim(reason) <> '' AND length(reason) <= 500),
  created_by_user_id uuid NOT NULL,
  created_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE lead_suppressions;
DROP TABLE lead_import_errors;
DROP TABLE lead_imports;
DROP TABLE withdrawn_leads;
DROP INDEX aged_leads_import_idx;
DROP INDEX aged_leads_phone_idx;
ALTER TABLE aged_leads DROP COLUMN import_id, DROP COLUMN consent_ip, DROP COLUMN consent_time, DROP COLUMN consent_certificate;
