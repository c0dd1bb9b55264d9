#!/usr/bin/env bash
# `make start`'s last step: every process of infra/services.json under one supervisor
# (concurrently) with prefixed logs. Ctrl-C (or SIGTERM to this script) stops them all.
# A service that dies unexpectedly (a non-zero exit) is restarted after a pause and the others
# keep running: services ride out PostgreSQL, Redis and RabbitMQ outages by themselves, so a
# death is a bug, and taking the whole system down for it would turn one failure into many.
# The restart is not capped: a service that keeps dying keeps saying why in the log above.
# Expects the environment from infra/scripts/env.sh (the Makefile runs us through it).
set -euo pipefail
cd "$(dirname "$0")/../.."

# "<name> <entry>" per process; the entry is services/<name>/src/main.ts unless it names another
# (the importer runs services/catalog/src/importer-main.ts).
# Each process connects as its schema's app role (docs/adr/0043; infra/scripts/services.ts
# entryDatabaseUrl): make migrate, as the superuser, created the roles; local PostgreSQL trusts
# loopback, so no password unless POSTGRES_<SCHEMA>_PASSWORD is set.
mapfile -t LINES < <(node -e '
  const base = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/warmline";
  for (const s of require("./infra/services.json").services) {
    const schema = s.schemaOf ?? s.name;
    const url = new URL(base);
    url.username = `warmline_${schema}`;
    url.password = process.env[`POSTGRES_${schema.toUpperCase()}_PASSWORD`] ?? "";
    // nodeOptions last: an empty field in the middle would vanish in `read` (tab is IFS whitespace).
    console.log([s.name, s.entry ?? `services/${s.name}/src/main.ts`, url.toString(), s.nodeOptions ?? ""].join("\t"));
  }')
NAMES=()
COMMANDS=()
for line in "${LINES[@]}"; do
  IFS=$'\t' read -r name entry database_url node_options <<<"$line"
  # A mistyped entry would otherwise be restarted every 3 s for ever.
  [[ -f "$entry" ]] || { echo "start: $name's entry $entry (infra/services.json) does not exist" >&2; exit 1; }
  NAMES+=("$name")
  # node with tsx's loader, one process per service: the tsx command runs the service in a child
  # of its own and exits 143 on SIGTERM, which the supervisor takes for a crash and restarts.
  # nodeOptions (the importer's heap bounds) go to that process only.
  COMMANDS+=("DATABASE_URL='$database_url' ${node_options:+NODE_OPTIONS='$node_options' }exec node --import tsx $entry")
done
NAME_LIST="$(IFS=,; echo "${NAMES[*]}")"

# The catalog stores uploaded files and the importer reads them back: with the local store both
# must name the same directory, so make it absolute here rather than relative to each process.
export BLOB_DIR="${BLOB_DIR:-$PWD/var/blobs}"

PORT="${GATEWAY_PORT:-3000}"
URL="http://localhost:$PORT"

node_modules/.bin/concurrently \
  --names "$NAME_LIST" --prefix-colors auto --prefix "[{name}]" --pad-prefix \
  --restart-tries -1 --restart-after 3000 --kill-signal SIGTERM \
  "${COMMANDS[@]}" &
SUPERVISOR=$!

# Ctrl-C reaches every process of the terminal's group; from a script or `kill`, pass it on.
STOPPING=
trap 'STOPPING=1; kill -TERM "$SUPERVISOR" 2>/dev/null || true' INT TERM

announce() {
  local deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null "$URL/healthz" 2>/dev/null; do
    kill -0 "$SUPERVISOR" 2>/dev/null || return 0
    if ((SECONDS >= deadline)); then
      echo "start: $URL/healthz did not answer within 120 s; see the logs above." >&2
      return 0
    fi
    sleep 1
  done
  cat <<MSG

  WarmLine is up at $URL

  Demo logins (from var/local.env unless set in your shell):
    admin       ${ADMIN_USERNAME:-<ADMIN_USERNAME not set>} / ${ADMIN_PASSWORD:-<ADMIN_PASSWORD not set>}
    demo agent  ${DEMO_AGENT_USERNAME:-demo.agent} / ${DEMO_AGENT_PASSWORD:-<DEMO_AGENT_PASSWORD not set>}
    vendor key  ${DEMO_VENDOR_KEY:-<DEMO_VENDOR_KEY not set>}

  Live transfers to the demo agent's My Transfers, as the vendor would send them:
    npm run simulate:vendor -- --calls 20

  Ctrl-C stops every service.

MSG
}
announce &
ANNOUNCER=$!

set +e
wait "$SUPERVISOR"
STATUS=$?
# A signal interrupts `wait`; wait again for the services to finish shutting down.
while kill -0 "$SUPERVISOR" 2>/dev/null; do wait "$SUPERVISOR"; STATUS=$?; done
kill "$ANNOUNCER" 2>/dev/null
wait "$ANNOUNCER" 2>/dev/null
# Stopped on request (Ctrl-C, SIGTERM): that is a clean end, whatever the children's codes.
[[ -n "$STOPPING" ]] && exit 0
exit "$STATUS"
