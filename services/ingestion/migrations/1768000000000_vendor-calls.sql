-- Up Migration
-- The ingestion service (issue 15, docs/adr/0019): voice-AI vendors' keys (hashed) and every
-- call they post to POST /api/callbacks/brightcall, with the columns its repeat rules look at.

CREATE TABLE vendor_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- SHA-256 of the key's text (hex): the key itself is shown once and never stored.
  key_hash text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  -- The key's first characters (prefix and 4 more), so an admin can tell keys apart.
  key_hint text NOT NULL CHECK (length(key_hint) <= 20),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by_id uuid,
  created_by text CHECK (length(created_by) <= 200),
  -- Touched at most once a minute per process (src/domain/vendor-keys.ts), never once per call:
  -- a busy vendor's calls must not queue on this one row.
  last_used_at timestamptz,
  revoked_at timestamptz
);

CREATE INDEX vendor_keys_created_idx ON vendor_keys (created_at DESC, id DESC);

CREATE TABLE vendor_calls (
  id uuid PRIMARY KEY,
  vendor_key_id uuid NOT NULL REFERENCES vendor_keys (id),
  -- The Idempotency-Key header the vendor sent, if any.
  idempotency_key text CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  -- 10 US digits.
  phone text NOT NULL CHECK (phone ~ '^\d{10}$'),
  transcript text NOT NULL CHECK (length(transcript) BETWEEN 1 AND 20000),
  call_outcome text CHECK (length(call_outcome) <= 50),
  state text CHECK (length(state) <= 50),
  callback_time timestamptz,
  agent_id text CHECK (length(agent_id) <= 100),
  lead_quality text CHECK (length(lead_quality) <= 50),
  interest_level text CHECK (length(interest_level) <= 50),
  disposition text NOT NULL CHECK (disposition IN ('opportunity', 'suppress', 'stored')),
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The repeat rules (docs/adr/0019). The first two hold as invariants here, so two concurrent
-- repeats can never both be stored; the third (a time window) is kept by an advisory lock per
-- vendor and phone taken before the look-up, and served by the last index.
CREATE UNIQUE INDEX vendor_calls_idempotency_key_idx ON vendor_calls (vendor_key_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX vendor_calls_phone_callback_time_idx ON vendor_calls (vendor_key_id, phone, callback_time)
  WHERE callback_time IS NOT NULL;
-- Also what the admin's list counts a key's calls received with (its leading column).
CREATE INDEX vendor_calls_phone_received_idx ON vendor_calls (vendor_key_id, phone, received_at DESC);

-- Down Migration
DROP TABLE vendor_calls;
DROP TABLE vendor_keys;
