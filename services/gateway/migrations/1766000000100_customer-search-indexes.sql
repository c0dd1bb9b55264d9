-- Up Migration
-- The admin's customer search (issue 12) must answer within 50 ms at 100,000 users and as many
-- survey responses: "contains" matches are read from trigram (pg_trgm) GIN indexes, exact ones
-- from btree indexes. The indexed expressions are exactly those of src/db/customer-search.ts
-- (PostgreSQL uses an expression index only for the same expression):
--   search text: first_name || ' ' || last_name || E'\n' || agency_name || E'\n' || email || E'\n' || username
--   phone digits: regexp_replace(phone, '\D', '', 'g')
-- Services migrate their schemas at the same time against one database and the extension is
-- the database's: the lock makes the second CREATE EXTENSION see the first's instead of failing.
SELECT pg_advisory_xact_lock(hashtext('warmline:create-extension:pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX users_search_text_trgm_idx ON users
  USING gin ((first_name || ' ' || last_name || E'\n' || agency_name || E'\n' || email || E'\n' || username) public.gin_trgm_ops)
  WHERE deleted_at IS NULL;
CREATE INDEX users_phone_digits_trgm_idx ON users
  USING gin ((regexp_replace(phone, '\D', '', 'g')) public.gin_trgm_ops) WHERE deleted_at IS NULL;
CREATE INDEX users_phone_digits_idx ON users ((regexp_replace(phone, '\D', '', 'g'))) WHERE deleted_at IS NULL;

CREATE INDEX survey_responses_search_text_trgm_idx ON survey_responses
  USING gin ((first_name || ' ' || last_name || E'\n' || agency_name || E'\n' || email || E'\n' || username) public.gin_trgm_ops);
CREATE INDEX survey_responses_phone_digits_trgm_idx ON survey_responses
  USING gin ((regexp_replace(phone, '\D', '', 'g')) public.gin_trgm_ops);
CREATE INDEX survey_responses_phone_digits_idx ON survey_responses ((regexp_replace(phone, '\D', '', 'g')));
CREATE INDEX survey_responses_email_lower_idx ON survey_responses (lower(email));
CREATE INDEX survey_responses_username_lower_idx ON survey_responses (lower(username));
CREATE INDEX survey_responses_created_at_idx ON survey_responses (created_at DESC);

-- Down Migration
-- pg_trgm stays: another service's indexes may use it.
DROP INDEX survey_responses_created_at_idx;
DROP INDEX survey_responses_username_lower_idx;
DROP INDEX survey_responses_email_lower_idx;
DROP INDEX survey_responses_phone_digits_idx;
DROP INDEX survey_responses_phone_digits_trgm_idx;
DROP INDEX survey_responses_search_text_trgm_idx;
DROP INDEX users_phone_digits_idx;
DROP INDEX users_phone_digits_trgm_idx;
DROP INDEX users_search_text_trgm_idx;
