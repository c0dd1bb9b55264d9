-- Up Migration
-- Deleting a user is a soft delete (issue 12): the account is disabled and leaves every list,
-- its username and e-mail are free for a new sign-up, while its survey answers and what other
-- services hold (orders, purchased leads, payments — with the buyer's name and e-mail as they
-- were at purchase) stay in the books. Uniqueness therefore holds among live accounts only.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
DROP INDEX users_username_lower_key;
DROP INDEX users_email_lower_key;
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username)) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email)) WHERE deleted_at IS NULL;

-- Down Migration
DROP INDEX users_username_lower_key;
DROP INDEX users_email_lower_key;
DELETE FROM users WHERE deleted_at IS NOT NULL;
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
ALTER TABLE users DROP COLUMN deleted_at;
