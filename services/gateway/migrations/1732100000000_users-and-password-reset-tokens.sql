-- Up Migration
-- Accounts of the site. Usernames and e-mails are unique regardless of case, so 'Ann' and
-- 'ann' cannot be two people; the stored spelling is the one the user chose.
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL,
  email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  agency_name text NOT NULL DEFAULT '',
  role text NOT NULL DEFAULT 'Insurance Agent' CHECK (role IN ('Insurance Agent', 'Agency Owner')),
  is_admin boolean NOT NULL DEFAULT false,
  live_transfer_price numeric(10, 2) NOT NULL DEFAULT 35.00 CHECK (live_transfer_price >= 0),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
CREATE INDEX users_created_at_idx ON users (created_at DESC);

-- Only the sha256 of a reset token is stored: a leaked table cannot be used to reset anyone.
CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);

-- Down Migration
DROP TABLE password_reset_tokens;
DROP TABLE users;
