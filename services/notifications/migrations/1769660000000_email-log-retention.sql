-- Up Migration
-- email_log is kept for EMAIL_LOG_RETENTION_DAYS only (issue 25): who was e-mailed what is
-- personal data, and the log is needed only as long as a command can be redelivered.
CREATE INDEX email_log_sent_at_idx ON email_log (sent_at);

-- When the log was last pruned: a worker prunes only once the period has passed since, so two
-- replicas prune once per period between them (an advisory lock lets one in at a time).
CREATE TABLE email_log_pruning (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  last_pruned_at timestamptz NOT NULL
);

-- Subjects no longer name prospects; the rows written before say only what the new ones say.
UPDATE email_log SET subject = regexp_replace(subject, '^New call-back: .* \(([^()]*)\)$', 'New call-back (\1)')
  WHERE template = 'callback-assigned';
UPDATE email_log SET subject = regexp_replace(subject, '^(Your transfer dispute was (accepted|refused)):.*$', '\1')
  WHERE template = 'transfer-dispute-decided';

-- Down Migration
DROP TABLE email_log_pruning;
DROP INDEX email_log_sent_at_idx;
