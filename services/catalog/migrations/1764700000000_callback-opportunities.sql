-- Up Migration
-- Issue 15: callback opportunities (from a vendor's calls, the CSV upload and the manual form),
-- the agents' balances of paid call-backs, and the orders that credited them.

--   available → assigned → contacted;  available → expired (not assigned within 72 h)
CREATE TABLE callback_opportunities (
  id uuid PRIMARY KEY,
  -- The vendor call it came from: one opportunity per call, however often the command arrives.
  callback_id uuid UNIQUE,
  vendor_key_id uuid,
  vendor_name text CHECK (length(vendor_name) <= 100),
  source text NOT NULL CHECK (source IN ('vendor', 'csv', 'manual')),
  first_name text NOT NULL CHECK (btrim(first_name) <> '' AND length(first_name) <= 100),
  last_name text NOT NULL CHECK (btrim(last_name) <> '' AND length(last_name) <= 100),
  phone text NOT NULL CHECK (phone ~ '^[2-9][0-9]{9}$'),
  -- NULL: neither the vendor nor the area code said; it waits for an admin to give it one.
  state text CHECK (state ~ '^[A-Z]{2}$'),
  price_cents integer NOT NULL CHECK (price_cents >= 0),
  transcript text CHECK (length(transcript) <= 20000),
  callback_time timestamptz,
  call_outcome text CHECK (length(call_outcome) <= 50),
  agent_id text CHECK (length(agent_id) <= 100),
  lead_quality text CHECK (length(lead_quality) <= 50),
  interest_level text CHECK (length(interest_level) <= 50),
  status text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'assigned', 'contacted', 'expired')),
  assigned_user_id uuid,
  assigned_at timestamptz,
  assigned_by text CHECK (assigned_by IN ('automatic', 'admin')),
  contacted_at timestamptz,
  -- Callback time (or creation) + 72 h: after it an unassigned opportunity expires.
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK ((status IN ('assigned', 'contacted')) = (assigned_user_id IS NOT NULL AND state IS NOT NULL))
);
-- The admin list (newest first, by status, state, source) and the assignment's oldest-first pass.
CREATE INDEX callback_opportunities_created_idx ON callback_opportunities (created_at DESC, id DESC);
CREATE INDEX callback_opportunities_available_idx ON callback_opportunities (created_at, id) WHERE status = 'available';
CREATE INDEX callback_opportunities_agent_idx ON callback_opportunities (assigned_user_id, assigned_at DESC) WHERE assigned_user_id IS NOT NULL;

-- An agent's call-backs paid for and not yet delivered, and the states they take them in.
CREATE TABLE callback_balances (
  user_id uuid PRIMARY KEY,
  balance integer NOT NULL CHECK (balance >= 0),
  states text[] NOT NULL DEFAULT '{}' CHECK (array_position(states, NULL) IS NULL),
  -- Since when the balance has been above zero: the oldest is served first. NULL at zero.
  waiting_since timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX callback_balances_waiting_idx ON callback_balances (waiting_since, user_id) WHERE balance > 0;

-- Each paid Call-Backs order credits its buyer once, however often payment.succeeded arrives.
CREATE TABLE callback_credits (
  order_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  credited_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE callback_credits;
DROP TABLE callback_balances;
DROP TABLE callback_opportunities;
