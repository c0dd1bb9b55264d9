-- Up Migration
-- When the user last completed a sign-in (issue 17): the login answers whether this is the
-- first one, so the first says 'Welcome' and later ones 'Welcome back'. Accounts that existed
-- before have none recorded; their next sign-in counts as the first.
ALTER TABLE users ADD COLUMN last_login_at timestamptz;

-- Down Migration
ALTER TABLE users DROP COLUMN last_login_at;
