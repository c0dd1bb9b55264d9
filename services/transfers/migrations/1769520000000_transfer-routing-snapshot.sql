-- Up Migration
-- What the agent had set when a transfer was routed (issue 23 §6, docs/adr/0032): a dispute of
-- 'wrong state' or 'out of my hours' is decided from the settings at routing time, not from
-- whatever the agent changed since. Filled by routing; null on rows routed before it was kept
-- (then the agent's current settings decide).
ALTER TABLE transfers
  ADD COLUMN agent_states text[],
  ADD COLUMN agent_hours jsonb,
  ADD COLUMN agent_time_zone text;

-- The admin's dispute queue and revenue read disputes by their transfer's agent.
CREATE INDEX transfer_disputes_agent ON transfer_disputes (agent_id, opened_at DESC);

-- Down Migration
DROP INDEX transfer_disputes_agent;
ALTER TABLE transfers DROP COLUMN agent_states, DROP COLUMN agent_hours, DROP COLUMN agent_time_zone;
