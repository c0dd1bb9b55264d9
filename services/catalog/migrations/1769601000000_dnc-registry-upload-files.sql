-- Up Migration
-- Issue 24: a registry upload's stored file (the importer streams it from the BlobStore), its
-- size and how much of it has been read (the admin's progress bar), and who uploaded it by name.
ALTER TABLE dnc_registry_uploads
  ADD COLUMN file_key text NOT NULL CHECK (length(file_key) <= 300),
  ADD COLUMN file_bytes bigint NOT NULL DEFAULT 0,
  ADD COLUMN bytes_read bigint NOT NULL DEFAULT 0,
  ADD COLUMN created_by_name text NOT NULL DEFAULT '' CHECK (length(created_by_name) <= 200);
-- The importer's scan for work.
CREATE INDEX dnc_registry_uploads_unfinished_idx ON dnc_registry_uploads (created_at) WHERE finished_at IS NULL;

-- Down Migration
DROP INDEX dnc_registry_uploads_unfinished_idx;
ALTER TABLE dnc_registry_uploads DROP COLUMN created_by_name, DROP COLUMN bytes_read, DROP COLUMN file_bytes, DROP COLUMN file_key;
