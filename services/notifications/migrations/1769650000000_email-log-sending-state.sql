-- Up Migration
-- An e-mail's claim commits on its own before the message goes out ('sending'), and becomes
-- 'sent' in the consumer's transaction: a crash between the send and that commit leaves
-- 'sending', and the redelivered command does not send again (docs/adr/0041).
ALTER TABLE email_log ADD COLUMN state text NOT NULL DEFAULT 'sent' CHECK (state IN ('sending', 'sent'));

-- Down Migration
ALTER TABLE email_log DROP COLUMN state;
