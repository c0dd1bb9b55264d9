-- Up Migration
-- Salespeople whose referral survey lives at /{slug} (spec §2). The slug is the path segment:
-- lower-case words joined by '-'; an inactive salesperson's survey answers 404.
CREATE TABLE salespeople (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$' AND length(slug) <= 60),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per submitted survey (spec §3: step 1 without the password, step 2, the marker).
-- The account is created in the same transaction; deleting the account keeps the answers
-- for the sales team (user_id becomes NULL).
CREATE TABLE survey_responses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  funnel text NOT NULL CHECK (funnel IN ('main', 'ringcloud', 'referral')),
  brand text NOT NULL,
  -- 'Survey Form', 'RingCloud', or the referring salesperson's display name at the time.
  salesperson text NOT NULL,
  salesperson_id uuid REFERENCES salespeople (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  agency_name text NOT NULL,
  role text NOT NULL,
  phone text NOT NULL,
  email text NOT NULL,
  username text NOT NULL,
  lead_type text NOT NULL,
  working_states text NOT NULL,
  total_transfers integer CHECK (total_transfers >= 0),
  transfers_per_day integer CHECK (transfers_per_day >= 0),
  calls_per_day integer CHECK (calls_per_day >= 0),
  transfer_hours text,
  timezone text CHECK (timezone IN ('PST', 'MST', 'CST', 'EST')),
  total_callbacks integer CHECK (total_callbacks >= 0),
  callback_preference text,
  age_range text CHECK (age_range IN ('30-60', '60-90', '90-180')),
  -- Integer cents; NULL when the answers do not make a priced order (the main survey).
  total_price integer CHECK (total_price >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((funnel = 'referral') = (salesperson_id IS NOT NULL))
);
CREATE INDEX survey_responses_user_idx ON survey_responses (user_id, created_at DESC);
CREATE INDEX survey_responses_salesperson_idx ON survey_responses (salesperson_id, created_at DESC);

-- Down Migration
DROP TABLE survey_responses;
DROP TABLE salespeople;
