#!/usr/bin/env bash
# The restore drill: proves a backup of DATABASE_URL restores. It backs the database and its
# files up (backup.sh), restores them into a scratch database on the same server and a scratch
# directory (restore.sh, which checks every table's rows and checksum and every sequence against
# the backup's snapshot), checks every restored file against the backup's SHA-256, then drops
# the scratch database and directory. The live database and bucket are only read.
#   drill.sh                 prints one line: what was checked
# Environment: as backup.sh (DATABASE_URL, BLOB_STORE, ...); the role must be allowed to create
# databases. DRILL_DATABASE names the scratch database (default warmline_drill_<time>_<pid>);
# DRILL_KEEP_BACKUP=<dir> keeps the backup there instead of a temporary directory.
# services/platform/test/ops-backup.test.ts runs it in `make test` against a scratch database.
set -euo pipefail

fail() { echo "drill: $*" >&2; exit 1; }
[[ -n "${DATABASE_URL:-}" ]] || fail "set DATABASE_URL to the database to back up"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="${DRILL_DATABASE:-warmline_drill_$(date -u +%Y%m%d%H%M%S)_$$}"
[[ "$scratch" =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || fail "DRILL_DATABASE must be a plain lower-case name"

# The scratch database's URL: DATABASE_URL with its database name replaced (query kept).
base="${DATABASE_URL%%\?*}"
query=""
[[ "$DATABASE_URL" == *\?* ]] && query="?${DATABASE_URL#*\?}"
scratch_url="${base%/*}/$scratch$query"
psql_() { psql --no-psqlrc --no-password -X -q -tA -v ON_ERROR_STOP=1 --dbname="$DATABASE_URL" "$@"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/warmline-drill.XXXXXX")"
created=false
cleanup() {
  if [[ "$created" == true ]]; then psql_ -c "DROP DATABASE IF EXISTS $scratch WITH (FORCE)" || echo "drill: could not drop $scratch" >&2; fi
  rm -rf "$work"
}
trap cleanup EXIT

backup="$("$here/backup.sh" "${DRILL_KEEP_BACKUP:-$work/backups}")"
psql_ -c "CREATE DATABASE $scratch"
created=true
# Files go to a scratch directory, never back into the live bucket.
DATABASE_URL="$scratch_url" BLOB_STORE=local BLOB_DIR="$work/restored-files" RESTORE_ROLES=false \
  "$here/restore.sh" "$backup" >/dev/null

# Every file of the backup, restored with the same bytes (and nothing more).
expected="$(grep ' \./blobs/' "$backup/SHA256SUMS" | sed 's# \./blobs/# ./#' || true)"
actual="$(cd "$work/restored-files" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)"
[[ "$expected" == "$actual" ]] || fail "the restored files differ from the backup's"

tables="$(grep -c . "$backup/tables.txt")"
rows="$(awk -F'|' '$3 != "t" && $3 != "f" { n += $2 } END { print n + 0 }' "$backup/tables.txt")"
files="$(grep -c . <<<"$expected" || true)"
[[ -n "$expected" ]] || files=0
echo "drill: restored $backup into $scratch: $tables tables and sequences, $rows rows and $files files match; dropping $scratch"
