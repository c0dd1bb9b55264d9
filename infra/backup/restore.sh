#!/usr/bin/env bash
# Restores a backup.sh directory: the database into an existing EMPTY database, the files into
# the store the environment names.
#   restore.sh BACKUP_DIR
# Environment: DATABASE_URL (the empty target database; a role that may create every schema
# and its objects, e.g. the superuser); RESTORE_ROLES=true first creates the backup's roles
# (a new server; roles that exist are left as they are, without passwords for new ones);
# BLOB_STORE=s3 with S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (needs mc;
# the bucket is created if missing), or BLOB_STORE=local with BLOB_DIR.
# Refuses a target database that already holds tables: restoring over live data mixes two
# histories. README, docker-compose section: stop the services, recreate the database, restore.
set -euo pipefail
# shellcheck source=infra/backup/s3-alias.sh
source "$(dirname "${BASH_SOURCE[0]}")/s3-alias.sh"

fail() { echo "restore: $*" >&2; exit 1; }
src="${1:-}"
[[ -n "$src" && -f "$src/database.dump" ]] || fail "usage: restore.sh BACKUP_DIR (a directory backup.sh wrote, with database.dump)"
[[ -n "${DATABASE_URL:-}" ]] || fail "set DATABASE_URL to the empty database to restore into"

# A damaged or half-copied backup stops here, before anything is written.
(cd "$src" && sha256sum --quiet --check SHA256SUMS) || fail "$src does not match its SHA256SUMS"

tables="$(psql --no-psqlrc --no-password -X -tA --dbname="$DATABASE_URL" -c "
  SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
    AND n.nspname NOT LIKE 'pg\_%'")"
[[ "$tables" == 0 ]] || fail "the target database already holds $tables tables; restore into an empty one"

if [[ "${RESTORE_ROLES:-false}" == true ]]; then
  # CREATE ROLE fails for a role that exists; that one is kept as it is.
  psql --no-psqlrc --no-password -X -q --dbname="$DATABASE_URL" -v ON_ERROR_STOP=0 -f "$src/roles.sql" >/dev/null 2>&1 || true
fi

pg_restore --exit-on-error --single-transaction --no-password --dbname="$DATABASE_URL" "$src/database.dump"

# Every table's rows and checksum, every sequence's position, as they were in the dump's snapshot.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
restored="$(psql --no-psqlrc --no-password -X -q -tA -v ON_ERROR_STOP=1 --dbname="$DATABASE_URL" -f "$here/tables.sql")"
if ! differences="$(diff <(cat "$src/tables.txt") <(printf '%s\n' "$restored"))"; then
  fail "the restored database differs from the backup: $(grep '^[<>]' <<<"$differences" | cut -c3- | cut -d'|' -f1 | sort -u | paste -sd, -)"
fi

case "${BLOB_STORE:-local}" in
  s3)
    s3_alias
    mc --config-dir "$MC_CONFIG_DIR" --quiet mb --ignore-existing "warmline/$S3_BUCKET" >/dev/null
    mc --config-dir "$MC_CONFIG_DIR" --quiet mirror --overwrite "$src/blobs" "warmline/$S3_BUCKET" >/dev/null
    ;;
  local)
    dir="${BLOB_DIR:-var/blobs}"
    mkdir -p "$dir"
    cp -a "$src/blobs/." "$dir/"
    ;;
  *) fail "BLOB_STORE must be s3 or local" ;;
esac
echo "restore: $src restored: $(grep -c . "$src/tables.txt") tables and sequences match, $(grep -c ' \./blobs/' "$src/SHA256SUMS" || true) files"
