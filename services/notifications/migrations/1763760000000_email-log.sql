-- Up Migration
-- One row per email.send command. The row is written in the consumer's transaction before
-- the message goes out, so a redelivered command finds it and does not send twice.
CREATE TABLE email_log (
  command_id uuid PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  template text NOT NULL,
  transport text NOT NULL CHECK (transport IN ('smtp', 'file')),
  -- The SMTP message id, or the path of the .eml file.
  location text,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_log_recipient_idx ON email_log (recipient, sent_at DESC);

-- Down Migration
DROP TABLE email_log;
