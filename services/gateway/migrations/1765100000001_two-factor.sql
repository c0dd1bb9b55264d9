-- Up Migration
-- Second factor (TOTP, RFC 6238; issue 11, ASVS 6.3.3). The shared secret is stored encrypted
-- (AES-256-GCM with TOTP_ENCRYPTION_KEY, see the gateway's config): a copy of the database
-- alone cannot produce codes. An enrolment is pending (confirmed_at null) until the user has
-- typed a first code from their app; only a confirmed one is asked for at login.
CREATE TABLE two_factor_secrets (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  confirmed_at timestamptz,
  -- The last 30-second step a code was accepted for: a code (or an earlier one) never works twice.
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten one-time recovery codes per enrolment, for a lost phone; only their sha256 is kept.
CREATE TABLE two_factor_recovery_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- Down Migration
DROP TABLE two_factor_recovery_codes;
DROP TABLE two_factor_secrets;
