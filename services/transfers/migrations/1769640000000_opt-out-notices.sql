-- Up Migration
-- Issue 24: each agent who received a transfer of a phone that opted out is told once per
-- opt-out, however often the notice's command is delivered or queued.
CREATE TABLE opt_out_notices (
  agent_id uuid NOT NULL,
  phone text NOT NULL,
  suppressed_at timestamptz NOT NULL,
  noticed_at timestamptz NOT NULL,
  PRIMARY KEY (agent_id, phone, suppressed_at)
);

-- Down Migration
DROP TABLE opt_out_notices;
