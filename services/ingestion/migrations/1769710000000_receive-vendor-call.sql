-- Up Migration
-- Issue 27 (docs/adr/0051): a vendor's call in one round trip. The function takes the call's
-- advisory locks (its prospect's, its Idempotency-Key's: numbers the service computes, sorted),
-- then — in a statement of its own, so with a snapshot taken after the locks, which sees a
-- repeat that committed while this call waited — looks at the Idempotency-Key, for an earlier
-- call it repeats (docs/adr/0030 rules 2 and 3), stores the call when neither answers it and its
-- callback_time has not passed, keeps the new key with the call that answers it, and writes the
-- call's outbox rows when it stored it. Called on its own, it is one transaction; inside one
-- (outbox arrays empty, the service writes the rows itself) it is one statement of it.
-- $1 vendor key, $2 Idempotency-Key, $3 phone, $4 callback_time, $5 transcript, $6 now,
-- $7 new id, $8–$15 the call's other columns, $16 the call's hash; $17 the lock keys;
-- $18–$21 the outbox rows' id, exchange, routing key and envelope; $22 the outbox's in-process wake;
-- $23 the repeat window of rule 3.
CREATE FUNCTION receive_vendor_call(
  uuid, text, text, timestamptz, text, timestamptz,
  uuid, text, text, text, text, text, text, text, text, text,
  bigint[], uuid[], text[], text[], jsonb[], boolean, interval
) RETURNS TABLE ("storedId" uuid, "earlierId" uuid, "keyedId" uuid, "keyedHash" text, past boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  lock_key bigint;
  outcome record;
BEGIN
  FOREACH lock_key IN ARRAY $17 LOOP
    PERFORM pg_advisory_xact_lock(lock_key);
  END LOOP;
  WITH keyed AS (
    SELECT k.callback_id, k.request_hash FROM vendor_call_keys k
     WHERE $2 IS NOT NULL AND k.vendor_key_id = $1 AND k.idempotency_key = $2),
  earlier AS (
    SELECT m.id FROM (
      (SELECT c.id, 2 AS rule FROM vendor_calls c
        WHERE $4 IS NOT NULL AND c.vendor_key_id = $1 AND c.phone = $3 AND c.callback_time = $4)
      UNION ALL
      (SELECT c.id, 3 AS rule FROM vendor_calls c
        WHERE $4 IS NULL AND c.vendor_key_id = $1 AND c.phone = $3 AND c.transcript = $5
          AND c.received_at > $6 - $23
        ORDER BY c.received_at DESC LIMIT 1)
    ) m ORDER BY m.rule LIMIT 1),
  stored AS (
    INSERT INTO vendor_calls
      (id, vendor_key_id, idempotency_key, first_name, last_name, phone, transcript, call_outcome, state,
       callback_time, agent_id, lead_quality, interest_level, disposition, received_at)
    SELECT $7, $1, $2, $8, $9, $3, $5, $10, $11, $4, $12, $13, $14, $15, $6
     WHERE NOT EXISTS (SELECT 1 FROM keyed) AND NOT EXISTS (SELECT 1 FROM earlier)
       AND ($4 IS NULL OR $4 > $6)
    ON CONFLICT DO NOTHING
    RETURNING vendor_calls.id),
  answered AS (SELECT COALESCE((SELECT s.id FROM stored s), (SELECT e.id FROM earlier e)) AS id),
  kept AS (
    INSERT INTO vendor_call_keys (vendor_key_id, idempotency_key, request_hash, callback_id, received_at)
    SELECT $1, $2, $16, a.id, $6 FROM answered a
     WHERE $2 IS NOT NULL AND a.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM keyed)
    ON CONFLICT DO NOTHING)
  SELECT (SELECT s.id FROM stored s) AS stored_id,
         (SELECT e.id FROM earlier e) AS earlier_id,
         (SELECT k.callback_id FROM keyed k) AS keyed_id,
         (SELECT k.request_hash FROM keyed k) AS keyed_hash,
         ($4 IS NOT NULL AND $4 <= $6) AS past
    INTO outcome;
  -- Only a call stored now has messages to send (a statement-level trigger fires even for no rows).
  IF outcome.stored_id IS NOT NULL AND cardinality($18) > 0 THEN
    IF $22 THEN
      -- The relay of the calling process was told of the rows: the outbox trigger need not NOTIFY.
      PERFORM set_config('warmline.outbox_wake', 'in-process', true);
    END IF;
    INSERT INTO outbox (id, exchange, routing_key, envelope) SELECT * FROM unnest($18, $19, $20, $21);
  END IF;
  RETURN QUERY SELECT outcome.stored_id, outcome.earlier_id, outcome.keyed_id, outcome.keyed_hash, outcome.past;
END
$fn$;

-- Down Migration
DROP FUNCTION receive_vendor_call(
  uuid, text, text, timestamptz, text, timestamptz,
  uuid, text, text, text, text, text, text, text, text, text,
  bigint[], uuid[], text[], text[], jsonb[], boolean, interval);
