-- Up Migration
-- A NOTIFY takes a database-wide lock from before its transaction's commit until after it,
-- so writers that NOTIFY commit one at a time (no group commit: ~4x fewer commits a second
-- with 8 writers, docs/adr/0021). A writer whose own process runs the outbox relay wakes it
-- in-process instead (enqueue sets warmline.outbox_wake for its transaction); any other
-- writer (psql, a process without a relay) still NOTIFYs.
CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('warmline.outbox_wake', true) IS DISTINCT FROM 'in-process' THEN
    PERFORM pg_notify('warmline_outbox', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END $$;

-- Down Migration
CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('warmline_outbox', TG_TABLE_SCHEMA);
  RETURN NULL;
END $$;
