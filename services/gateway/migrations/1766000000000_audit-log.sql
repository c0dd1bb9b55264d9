-- Up Migration
-- The audit log (issue 12): every admin action — prices, passwords, deletions, view-as, campaign
-- changes here; transfer statuses, refunds and what later services report through `audit.record`
-- commands — with who, when, what and the values before and after. One list, never edited: a
-- trigger refuses UPDATE and DELETE, so not even a bug in the gateway can rewrite history.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  at timestamptz NOT NULL,
  actor_id uuid NOT NULL,
  actor_username text NOT NULL,
  action text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  subject_label text,
  before jsonb,
  after jsonb,
  reason text,
  -- The service that did it; for a reported action, the command's message id (stored once).
  source text NOT NULL,
  message_id uuid UNIQUE,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_type, subject_id);

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();

-- Down Migration
DROP TABLE audit_log;
DROP FUNCTION audit_log_is_append_only();
