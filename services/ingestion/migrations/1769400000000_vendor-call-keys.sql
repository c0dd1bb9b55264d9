-- Up Migration
-- Every Idempotency-Key a vendor sent, with the call it answered and a hash of the call it came
-- with (issue 22, docs/adr/0030): the same key with the same call replays that answer, the same
-- key with a different call is a 409. A key is kept whether its call was stored or answered as a
-- repeat of an earlier call, so a key always means the one call it was first sent with.

CREATE TABLE vendor_call_keys (
  vendor_key_id uuid NOT NULL REFERENCES vendor_keys (id),
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  -- SHA-256 (hex) of the call as WarmLine read it; NULL for keys kept before this table (any call matches).
  request_hash text CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  -- The call the key's first request was answered with (stored then, or the earlier call it repeated).
  callback_id uuid NOT NULL REFERENCES vendor_calls (id),
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (vendor_key_id, idempotency_key)
);

-- Keys of calls stored before: their calls are not known as a hash, so any call with them replays.
INSERT INTO vendor_call_keys (vendor_key_id, idempotency_key, request_hash, callback_id, received_at)
SELECT vendor_key_id, idempotency_key, NULL, id, received_at FROM vendor_calls WHERE idempotency_key IS NOT NULL;

-- Down Migration
DROP TABLE vendor_call_keys;
