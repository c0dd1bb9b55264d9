-- Up Migration
-- Issue 22: the audit log is filtered by action (and lists the actions it holds for the filter's
-- choices), newest first within it.
CREATE INDEX audit_log_action_at_idx ON audit_log (action, at DESC);

-- Down Migration
DROP INDEX IF EXISTS audit_log_action_at_idx;
