-- Up Migration
-- Requests an agent sends from the dashboard's Insurance Recruiting view ('Contact Recruiting
-- Team'): what the agency needs and how many agents, with the contact to answer. The gateway
-- keeps them beside the survey answers (it owns users and the sales contact) and e-mails the
-- recruiting team in the same transaction. Deleting the account keeps the request.
CREATE TABLE recruiting_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  agency_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  needs text NOT NULL CHECK (length(needs) BETWEEN 1 AND 2000),
  agents_needed integer NOT NULL CHECK (agents_needed > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recruiting_requests_created_at_idx ON recruiting_requests (created_at DESC);

-- Down Migration
DROP TABLE recruiting_requests;
