-- Up Migration
-- Live transfers delivered and billed (issue 23, docs/adr/0031).

-- An agent as routing knows them: delivery settings, the balance and the rotation's clock.
CREATE TABLE agents (
  user_id uuid PRIMARY KEY,
  -- First and last name, shown to the vendor as agent_name (copied from the gateway when known).
  display_name text NOT NULL DEFAULT '',
  transfer_phone text,
  states text[] NOT NULL DEFAULT '{}',
  time_zone text,
  -- [{ day: 'mon', from: '09:00', to: '17:00' }, ...] in time_zone.
  hours jsonb NOT NULL DEFAULT '[]',
  daily_cap integer CHECK (daily_cap > 0),
  at_once integer NOT NULL DEFAULT 1 CHECK (at_once > 0),
  paused boolean NOT NULL DEFAULT false,
  settings_saved_at timestamptz,
  -- The account was deleted: never routed to again (its ledger stays).
  deleted_at timestamptz,
  -- The sum of the agent's ledger_entries.transfers, kept in the same transaction as each row.
  balance integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  -- When the agent last received a transfer: the longest-waiting eligible agent gets the next.
  last_routed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agents_routable ON agents USING gin (states) WHERE balance > 0 AND NOT paused AND deleted_at IS NULL;

-- Transfers bought (or given) at one unit price; charges take the oldest lot with some left.
CREATE TABLE credit_lots (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (user_id),
  source text NOT NULL CHECK (source IN ('order', 'dispute', 'adjustment')),
  -- The paid order it came from (one lot per order), null for disputes and adjustments.
  order_id uuid UNIQUE,
  -- What the order was, in words ('Premium Volume Package: 60 transfers × $37.00').
  description text NOT NULL,
  unit_cents integer NOT NULL CHECK (unit_cents >= 0),
  -- What was paid for the lot (0 for a dispute credit or an adjustment).
  paid_cents integer NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  credited integer NOT NULL CHECK (credited > 0),
  remaining integer NOT NULL CHECK (remaining >= 0 AND remaining <= credited),
  -- Unused transfers a refund took back (what was delivered stays delivered).
  taken_back integer NOT NULL DEFAULT 0 CHECK (taken_back >= 0),
  credited_at timestamptz NOT NULL
);
CREATE INDEX credit_lots_open ON credit_lots (agent_id, credited_at, id) WHERE remaining > 0;

-- Every movement of an agent's balance, with its cause. The balance is their sum.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (user_id),
  lot_id uuid REFERENCES credit_lots (id),
  kind text NOT NULL CHECK (kind IN ('order_credit', 'charge', 'refund_takeback', 'dispute_credit', 'adjustment')),
  transfers integer NOT NULL CHECK (transfers <> 0),
  unit_cents integer NOT NULL CHECK (unit_cents >= 0),
  -- In words, for the agent and the admin: 'Paid order', 'Transfer to Maria L.', the admin's reason.
  cause text NOT NULL,
  -- What caused it (order, transfer, refund, dispute or adjustment id): a repeated event writes nothing twice.
  cause_id text NOT NULL,
  transfer_id uuid,
  actor_id uuid,
  at timestamptz NOT NULL,
  UNIQUE (kind, cause_id, lot_id)
);
CREATE INDEX ledger_entries_agent ON ledger_entries (agent_id, at, id);

-- A paid live-transfer order without a buyer yet (a public checkout): credited when claimed.
CREATE TABLE unclaimed_orders (
  order_id uuid PRIMARY KEY,
  description text NOT NULL,
  count integer NOT NULL,
  unit_cents integer NOT NULL,
  paid_cents integer NOT NULL,
  paid_at timestamptz NOT NULL
);

-- Refunds of live-transfer orders: the refunded total per order, whatever arrived first.
CREATE TABLE order_refunds (
  order_id uuid PRIMARY KEY,
  refunded_total_cents integer NOT NULL CHECK (refunded_total_cents > 0),
  updated_at timestamptz NOT NULL
);

-- The vendor keys ingestion creates (their SHA-256 only), mirrored by vendor_key.mirror.
CREATE TABLE vendor_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

-- The catalog's suppression list, mirrored by suppression.mirror: routing never sends these.
CREATE TABLE suppressed_phones (
  phone text PRIMARY KEY,
  suppressed boolean NOT NULL,
  changed_at timestamptz NOT NULL
);

-- One routed transfer: the vendor's call sent to one agent.
CREATE TABLE transfers (
  id uuid PRIMARY KEY,
  vendor_key_id uuid NOT NULL,
  call_id text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents (user_id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text NOT NULL,
  state text NOT NULL,
  lead_type text,
  status text NOT NULL DEFAULT 'routed'
    CHECK (status IN ('routed', 'not_connected', 'buffer_protected', 'charged', 'unbilled', 'disputed', 'credited')),
  routed_at timestamptz NOT NULL,
  -- The agent's slot is held until then, unless the outcome came first.
  expires_at timestamptz NOT NULL,
  -- The agent's own date when routed (their zone): the daily cap counts these.
  agent_date date NOT NULL,
  connected boolean,
  duration_seconds integer,
  answered_at timestamptz,
  ended_at timestamptz,
  recording_url text,
  transcript text,
  disposition text,
  -- The settled outcome as the vendor sent it: a repeat answers the same, a different one is 409.
  outcome_fingerprint text,
  charged_cents integer,
  lot_id uuid REFERENCES credit_lots (id),
  settled_at timestamptz,
  UNIQUE (vendor_key_id, call_id)
);
CREATE INDEX transfers_agent_routed ON transfers (agent_id, routed_at DESC);
CREATE INDEX transfers_in_flight ON transfers (agent_id, expires_at) WHERE status = 'routed';
CREATE INDEX transfers_agent_day ON transfers (agent_id, agent_date);
CREATE INDEX transfers_phone ON transfers (phone, routed_at);
CREATE INDEX transfers_routed_at ON transfers (routed_at DESC);

-- A call the vendor asked about and no agent got: a repeat of its call_id answers the same.
CREATE TABLE route_refusals (
  vendor_key_id uuid NOT NULL,
  call_id text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('no_agent_available', 'outside_calling_hours', 'suppressed')),
  phone text NOT NULL,
  state text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (vendor_key_id, call_id)
);
CREATE INDEX route_refusals_at ON route_refusals (at);

-- An agent's dispute of a charged transfer; one per transfer.
CREATE TABLE transfer_disputes (
  id uuid PRIMARY KEY,
  transfer_id uuid NOT NULL UNIQUE REFERENCES transfers (id),
  agent_id uuid NOT NULL REFERENCES agents (user_id),
  reason text NOT NULL CHECK (reason IN ('wrong_state', 'out_of_hours', 'duplicate', 'wrong_number', 'not_shopping', 'call_dropped')),
  note text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'refused')),
  decided_by text CHECK (decided_by IN ('automatic', 'admin')),
  decided_by_user_id uuid,
  decision_reason text,
  opened_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE INDEX transfer_disputes_status ON transfer_disputes (status, opened_at);

-- Down Migration
DROP TABLE transfer_disputes;
DROP TABLE route_refusals;
DROP TABLE transfers;
DROP TABLE suppressed_phones;
DROP TABLE vendor_keys;
DROP TABLE order_refunds;
DROP TABLE unclaimed_orders;
DROP TABLE ledger_entries;
DROP TABLE credit_lots;
DROP TABLE agents;
