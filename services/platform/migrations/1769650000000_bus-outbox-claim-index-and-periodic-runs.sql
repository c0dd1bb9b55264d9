-- Up Migration
-- The relay's claim (relay.ts: WHERE published_at IS NULL ORDER BY attempts > 0, created_at, id
-- LIMIT n FOR UPDATE SKIP LOCKED) read in index order and stopped after n rows, instead of
-- sorting the whole backlog on every batch (docs/adr/0040).
CREATE INDEX outbox_claim_idx ON outbox ((attempts > 0), created_at, id) WHERE published_at IS NULL;

-- One row per periodic task of this schema: the period it last ran for. A replica runs a task
-- only when it moves the row forward, so two replicas never run it in the same period.
CREATE TABLE periodic_runs (
  task text PRIMARY KEY,
  -- floor(epoch ms of the database's clock / the task's period in ms)
  period bigint NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE periodic_runs;
DROP INDEX outbox_claim_idx;
