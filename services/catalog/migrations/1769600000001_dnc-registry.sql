-- Up Migration
-- Issue 24: the national do-not-call registry, as admins upload it (ten-digit numbers, one a
-- line, delivered by area code). An upload replaces the registry for every area code it holds:
-- its numbers are the registry of those area codes as of its date, numbers of those area codes
-- it does not hold are off the registry. A phone's check is the newest upload covering its area code.
CREATE TABLE dnc_registry_uploads (
  id uuid PRIMARY KEY,
  file_name text NOT NULL CHECK (length(file_name) <= 255),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  -- The registry's date as this upload states it: the day it was uploaded (business time zone).
  registry_date date NOT NULL,
  lines_read bigint NOT NULL DEFAULT 0,
  numbers_loaded bigint NOT NULL DEFAULT 0,
  invalid_lines bigint NOT NULL DEFAULT 0,
  area_codes text[] NOT NULL DEFAULT '{}',
  error text CHECK (length(error) <= 500),
  created_by_user_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX dnc_registry_uploads_created_idx ON dnc_registry_uploads (created_at DESC, id DESC);

-- Every area code's current registry: the upload whose numbers stand for it, and that upload's date.
CREATE TABLE dnc_registry_area_codes (
  area_code text PRIMARY KEY CHECK (area_code ~ '^[2-9][0-9]{2}$'),
  upload_id uuid NOT NULL REFERENCES dnc_registry_uploads (id),
  registry_date date NOT NULL
);

-- The numbers on the registry now, each with the upload that listed it.
CREATE TABLE dnc_registry_numbers (
  phone text PRIMARY KEY CHECK (phone ~ '^[2-9][0-9]{9}$'),
  upload_id uuid NOT NULL
);

-- Down Migration
DROP TABLE dnc_registry_numbers;
DROP TABLE dnc_registry_area_codes;
DROP TABLE dnc_registry_uploads;
