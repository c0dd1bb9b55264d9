-- Up Migration
-- Issue 24 §3: the calls an agent logs on one of their call-backs (My Call-backs). Florida,
-- Oklahoma and Maryland allow at most 3 calls to a person in 24 hours; the count of these rows
-- in the last 24 hours is what the card and its "callable now" read. A call logged outside the
-- prospect's calling hours is kept all the same (it is a record of what happened), with that fact.
CREATE TABLE callback_call_attempts (
  id uuid PRIMARY KEY,
  callback_opportunity_id uuid NOT NULL REFERENCES callback_opportunities (id) ON DELETE CASCADE,
  agent_user_id uuid NOT NULL,
  outcome text CHECK (outcome IN ('no_answer', 'voicemail', 'reached', 'busy')),
  note text CHECK (length(note) <= 500),
  at timestamptz NOT NULL,
  -- Whether the call was allowed when made: inside the hours, and under the state's cap.
  allowed_when_made boolean NOT NULL,
  outside_calling_hours boolean NOT NULL
);
CREATE INDEX callback_call_attempts_agent_at_idx ON callback_call_attempts (agent_user_id, at DESC);
CREATE INDEX callback_call_attempts_opportunity_at_idx ON callback_call_attempts (callback_opportunity_id, at DESC);

-- Down Migration
DROP TABLE callback_call_attempts;
