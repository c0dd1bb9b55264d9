-- Up Migration
-- The e-mail log is pruned once per period through the schema's periodic_runs, like the bus's
-- own retention (docs/adr/0040), instead of an advisory lock and a table of its own.
DROP TABLE email_log_pruning;

-- Down Migration
CREATE TABLE email_log_pruning (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  last_pruned_at timestamptz NOT NULL
);
