-- Up Migration
-- The candidates look reads only the agents who can take a prospect of this state, already in
-- rotation order (issue 27, docs/adr/0056). The partial GIN index on agents.states found the
-- state's agents scattered over nearly every page of agents and left them to be sorted by
-- last_routed_at on every decision; a row per routable agent and state, indexed by
-- (state, last_routed_at, agent_id), hands them over in order and stops at the LIMIT.
CREATE TABLE agent_rotation (
  state text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents (user_id) ON DELETE CASCADE,
  -- A copy of agents.last_routed_at, moved in the same statement (the trigger below).
  last_routed_at timestamptz,
  PRIMARY KEY (agent_id, state)
);
CREATE INDEX agent_rotation_order ON agent_rotation (state, last_routed_at ASC NULLS FIRST, agent_id);

-- Routable here means the look's cheap conditions, the ones the GIN index's predicate and the
-- look's WHERE had: a balance, not paused, not deleted, a transfer phone and a zone. The rest
-- (hours, live reservations, daily cap, repeat phone) change with the clock and are checked on
-- the rows this table hands over, as before. Written out in each place (no helper function):
-- the triggers' WHEN runs on every write to agents, a charge's too, and a function call there
-- is not inlined.
-- A new condition of this kind belongs in the triggers' WHEN, in agent_rotation_keep and in
-- ROUTABLE (src/db/routing.ts) alike.
--
-- Kept by every write to agents, whoever makes it (settings, pause, deletion, the ledger's
-- balance, routing's rotation clock, SQL run by hand), in the writer's own statement: the table
-- never disagrees with agents in any snapshot.
CREATE FUNCTION agent_rotation_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.states = NEW.states
     AND OLD.balance > 0 AND NOT OLD.paused AND OLD.deleted_at IS NULL AND OLD.transfer_phone IS NOT NULL AND OLD.time_zone IS NOT NULL
     AND NEW.balance > 0 AND NOT NEW.paused AND NEW.deleted_at IS NULL AND NEW.transfer_phone IS NOT NULL AND NEW.time_zone IS NOT NULL THEN
    -- The common case, a routed transfer: only the rotation clock moved.
    UPDATE agent_rotation SET last_routed_at = NEW.last_routed_at WHERE agent_id = NEW.user_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM agent_rotation WHERE agent_id = NEW.user_id;
  END IF;
  IF NEW.balance > 0 AND NOT NEW.paused AND NEW.deleted_at IS NULL AND NEW.transfer_phone IS NOT NULL AND NEW.time_zone IS NOT NULL THEN
    INSERT INTO agent_rotation (state, agent_id, last_routed_at)
    SELECT DISTINCT s, NEW.user_id, NEW.last_routed_at FROM unnest(NEW.states) s WHERE s IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;
-- The function runs with the schema of this migration, whatever the writer's search_path: a
-- session that names transfers.agents without the schema on its path (psql, the seed's tests)
-- still finds agent_rotation.
ALTER FUNCTION agent_rotation_keep() SET search_path FROM CURRENT;

CREATE TRIGGER agent_rotation_on_insert AFTER INSERT ON agents
  FOR EACH ROW WHEN (NEW.balance > 0 AND NOT NEW.paused AND NEW.deleted_at IS NULL AND NEW.transfer_phone IS NOT NULL AND NEW.time_zone IS NOT NULL)
  EXECUTE FUNCTION agent_rotation_keep();
-- Only when something the table holds changes: a charge that leaves a balance above zero, new
-- hours or a new name do not call the function at all.
CREATE TRIGGER agent_rotation_on_update AFTER UPDATE ON agents
  FOR EACH ROW WHEN (
    OLD.states IS DISTINCT FROM NEW.states OR OLD.last_routed_at IS DISTINCT FROM NEW.last_routed_at
    OR (OLD.balance > 0) <> (NEW.balance > 0) OR OLD.paused <> NEW.paused OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR (OLD.transfer_phone IS NULL) <> (NEW.transfer_phone IS NULL) OR (OLD.time_zone IS NULL) <> (NEW.time_zone IS NULL))
  EXECUTE FUNCTION agent_rotation_keep();

INSERT INTO agent_rotation (state, agent_id, last_routed_at)
SELECT DISTINCT s, a.user_id, a.last_routed_at FROM agents a, unnest(a.states) s
 WHERE s IS NOT NULL AND a.balance > 0 AND NOT a.paused AND a.deleted_at IS NULL AND a.transfer_phone IS NOT NULL AND a.time_zone IS NOT NULL;

-- Routing no longer reads it (the re-check under the lock reads one agent by id); without it a
-- balance change is a HOT update again (the predicate named balance).
DROP INDEX agents_routable;

-- Down Migration
CREATE INDEX agents_routable ON agents USING gin (states) WHERE balance > 0 AND NOT paused AND deleted_at IS NULL;
DROP TRIGGER agent_rotation_on_update ON agents;
DROP TRIGGER agent_rotation_on_insert ON agents;
DROP FUNCTION agent_rotation_keep();
DROP TABLE agent_rotation;
