-- Up Migration
-- Forgot-password requests waiting to be handled behind the answer (issue 11): the request
-- writes one row whatever the address, and a background step looks the address up, makes the
-- token and queues the e-mail. So the answer's work and timing do not tell whether the address
-- has an account. A row is deleted as soon as it is handled; the address never stays here.
CREATE TABLE password_reset_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  correlation_id text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE password_reset_requests;
