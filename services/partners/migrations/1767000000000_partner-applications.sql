-- Up Migration
-- The partner network (issue 14, docs/adr/0018): applications from /affnetwork with the form's
-- answers, and the records of their documents (the files are in the BlobStore under blob_key).

CREATE TABLE partner_applications (
  id uuid PRIMARY KEY,
  business_name text NOT NULL CHECK (length(business_name) BETWEEN 1 AND 200),
  contact_name text NOT NULL CHECK (length(contact_name) BETWEEN 1 AND 200),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  phone text NOT NULL CHECK (length(phone) <= 30),
  -- The phone's digits as the customer search reads them: a leading US 1 of 11 digits dropped.
  phone_digits text GENERATED ALWAYS AS (
    CASE
      WHEN length(regexp_replace(phone, '\D', '', 'g')) = 11 AND left(regexp_replace(phone, '\D', '', 'g'), 1) = '1'
        THEN substr(regexp_replace(phone, '\D', '', 'g'), 2)
      ELSE regexp_replace(phone, '\D', '', 'g')
    END
  ) STORED,
  website text NOT NULL CHECK (length(website) <= 600),
  business_type text NOT NULL CHECK (length(business_type) <= 100),
  experience_years text NOT NULL CHECK (length(experience_years) <= 100),
  monthly_volume text NOT NULL CHECK (length(monthly_volume) <= 100),
  services_interested text[] NOT NULL CHECK (cardinality(services_interested) BETWEEN 1 AND 20),
  target_markets text NOT NULL CHECK (length(target_markets) <= 1000),
  business_description text NOT NULL CHECK (length(business_description) <= 5000),
  why_partner text NOT NULL CHECK (length(why_partner) <= 5000),
  -- The form refuses an application without it; kept as the applicant's word.
  agreed_to_terms boolean NOT NULL CHECK (agreed_to_terms),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  -- The sender's address (as the gateway saw it), for abuse handling.
  applicant_ip text CHECK (length(applicant_ip) <= 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The admin's list: newest first, all or one status.
CREATE INDEX partner_applications_created_idx ON partner_applications (created_at DESC, id DESC);
CREATE INDEX partner_applications_status_created_idx ON partner_applications (status, created_at DESC, id DESC);

CREATE TABLE partner_documents (
  application_id uuid NOT NULL REFERENCES partner_applications (id) ON DELETE CASCADE,
  -- 1 for file_0, 2 for file_1, …: the order they were sent in.
  position smallint NOT NULL CHECK (position BETWEEN 1 AND 5),
  -- The stored name, the download path's last segment: 'doc-1.pdf'.
  filename text NOT NULL CHECK (filename ~ '^doc-[1-5]\.[a-z]{3,4}$'),
  -- The name it was sent with (shown to the admin, given back in Content-Disposition).
  original_name text NOT NULL CHECK (length(original_name) BETWEEN 1 AND 300),
  size bigint NOT NULL CHECK (size > 0),
  -- Detected from the bytes, never the sender's claim.
  content_type text NOT NULL CHECK (length(content_type) <= 200),
  blob_key text NOT NULL UNIQUE,
  PRIMARY KEY (application_id, position),
  UNIQUE (application_id, filename)
);

-- The admin's customer search (issue 12), the partners service's part: "contains" matches from
-- trigram (pg_trgm) GIN indexes, exact ones from btree indexes. The indexed expressions are
-- exactly those of src/db/customer-search.ts (PostgreSQL uses an expression index only for the
-- same expression):
--   search text: business_name || E'\n' || contact_name || E'\n' || email
--   phone digits: phone_digits
-- The extension is the database's and services migrate at the same time: the lock (the same as
-- the gateway's and the orders service's) makes the second CREATE EXTENSION see the first's.
SELECT pg_advisory_xact_lock(hashtext('warmline:create-extension:pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX partner_applications_search_text_trgm_idx ON partner_applications
  USING gin ((business_name || E'\n' || contact_name || E'\n' || email) public.gin_trgm_ops);
CREATE INDEX partner_applications_phone_digits_trgm_idx ON partner_applications
  USING gin (phone_digits public.gin_trgm_ops);
CREATE INDEX partner_applications_phone_digits_idx ON partner_applications (phone_digits);
CREATE INDEX partner_applications_email_lower_idx ON partner_applications (lower(email));

-- Down Migration
-- pg_trgm stays: another service's indexes may use it.
DROP TABLE partner_documents;
DROP TABLE partner_applications;
