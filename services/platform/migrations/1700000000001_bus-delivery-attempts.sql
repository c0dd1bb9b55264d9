-- Up Migration
-- Starts of messages that came back unacknowledged (their consumer died or lost its channel
-- mid-handler). The broker cannot tell a message that kills its process from one that was
-- merely in flight when something else did, so the consumer counts the handler runs it began
-- and never finished, and dead-letters a message after too many (platform/bus/consumer.ts).
CREATE TABLE delivery_attempts (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  starts integer NOT NULL DEFAULT 1,
  last_started_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX delivery_attempts_last_started_idx ON delivery_attempts (last_started_at);

-- Retention prunes these by age (platform/bus/retention.ts).
CREATE INDEX processed_events_processed_at_idx ON processed_events (processed_at);
CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL;

-- Down Migration
DROP INDEX outbox_published_at_idx;
DROP INDEX processed_events_processed_at_idx;
DROP TABLE delivery_attempts;
