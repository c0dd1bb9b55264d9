#!/usr/bin/env bash
# Backs WarmLine up: the whole database (every service's schema, pg_dump's custom format), the
# roles it names (without passwords) and every stored file (the S3 bucket through `mc mirror`, or
# the local store's directory).
#   backup.sh [PARENT_DIR]   writes PARENT_DIR/<UTC time>/ (default $BACKUP_DIR, else var/backups)
#                            and prints that directory
# Environment: DATABASE_URL (a role that reads every schema: the superuser or the owner of all);
# BLOB_STORE=s3 with S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (needs mc), or
# BLOB_STORE=local with BLOB_DIR. Under docker-compose: `docker compose run --rm backup`.
# The directory holds database.dump, tables.txt (each table's rows and checksum in the dump's
# snapshot), roles.sql, blobs/ and SHA256SUMS, which restore.sh checks.
set -euo pipefail
# shellcheck source=infra/backup/s3-alias.sh
source "$(dirname "${BASH_SOURCE[0]}")/s3-alias.sh"

fail() { echo "backup: $*" >&2; exit 1; }
[[ -n "${DATABASE_URL:-}" ]] || fail "set DATABASE_URL to the database to back up"
parent="${1:-${BACKUP_DIR:-var/backups}}"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
dest="$parent/$stamp"
partial="$dest.partial"
[[ -e "$dest" ]] && fail "$dest already exists"

# People's names and phone numbers: readable by the owner only. A failed run leaves only
# <time>.partial, which restore.sh never takes.
umask 077
mkdir -p "$partial/blobs"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
psql_() { psql --no-psqlrc --no-password -X -q -tA --dbname="$DATABASE_URL" "$@"; }

# One snapshot for the dump and its checksums (tables.txt): a session holds it open while
# pg_dump and the checksum queries read it, so writes meanwhile change neither.
coproc SNAPSHOT { psql_ -v ON_ERROR_STOP=1; }
# Bash unsets SNAPSHOT and SNAPSHOT_PID once the coprocess exits, which it may do before the
# wait below: keep copies.
snapshot_pid="$SNAPSHOT_PID" snapshot_in="${SNAPSHOT[1]}" snapshot_out="${SNAPSHOT[0]}"
echo "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_export_snapshot();" >&"$snapshot_in"
read -r -t 30 -u "$snapshot_out" snapshot || fail "cannot open a snapshot of the database"
pg_dump --format=custom --no-password --snapshot="$snapshot" --file="$partial/database.dump" --dbname="$DATABASE_URL"
psql_ -v ON_ERROR_STOP=1 -c "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" -c "SET TRANSACTION SNAPSHOT '$snapshot'" \
  -f "$here/tables.sql" -c "COMMIT" >"$partial/tables.txt"
echo "COMMIT;" >&"$snapshot_in"
exec {snapshot_in}>&-
wait "$snapshot_pid" 2>/dev/null || true
# Roles live in the cluster, not the database: a restore into a new server needs them first.
pg_dumpall --roles-only --no-role-passwords --no-password --dbname="$DATABASE_URL" >"$partial/roles.sql"

case "${BLOB_STORE:-local}" in
  s3)
    s3_alias
    mc --config-dir "$MC_CONFIG_DIR" --quiet mirror "warmline/$S3_BUCKET" "$partial/blobs" >/dev/null
    ;;
  local)
    dir="${BLOB_DIR:-var/blobs}"
    if [[ -d "$dir" ]]; then cp -a "$dir/." "$partial/blobs/"; fi
    ;;
  *) fail "BLOB_STORE must be s3 or local" ;;
esac

(cd "$partial" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 -r sha256sum >SHA256SUMS)
mv "$partial" "$dest"
echo "$dest"
