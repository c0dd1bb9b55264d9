#!/usr/bin/env bash
# Makes sure PostgreSQL (5432), Redis (6379) and RabbitMQ (5672) answer on 127.0.0.1.
# One that is installed here but stopped is started with this machine's own command and
# waited for; one that is not installed stops us with one line saying how to get it.
# Then makes sure the `warmline` database exists.
set -euo pipefail
cd "$(dirname "$0")/../.."

HOST=127.0.0.1
COMPOSE_HINT="docker compose up -d postgres redis rabbitmq"

answers() { # $1 = port
  timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null
}

wait_until_answers() { # $1 = name, $2 = port, $3 = seconds
  local deadline=$((SECONDS + $3))
  until answers "$2"; do
    if ((SECONDS >= deadline)); then
      echo "ensure-services: $1 was started but does not answer on $HOST:$2 after $3 s; see its log." >&2
      exit 1
    fi
    sleep 1
  done
}

not_installed() { # $1 = name, $2 = port
  echo "ensure-services: $1 is not running on $HOST:$2 and is not installed here; start it with: $COMPOSE_HINT" >&2
  exit 1
}

start_postgres() {
  command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]] || not_installed PostgreSQL 5432
  local version
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  # Sized like docker-compose's PostgreSQL: two replicas of every process, plus tests or a
  # chaos run beside them (README: the connection budget under docker-compose); the package's default is 100.
  pg_ctlcluster --skip-systemctl-redirect "$version" main start -o "-c max_connections=300"
}

start_redis() {
  command -v redis-server >/dev/null 2>&1 || not_installed Redis 6379
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
}

start_rabbitmq() {
  command -v rabbitmq-server >/dev/null 2>&1 || not_installed RabbitMQ 5672
  rabbitmq-server -detached
}

# A PostgreSQL of this machine's packages that was already running (started by the system with the
# package's 100 connections) is restarted once with 300, persisted with ALTER SYSTEM: tests, two
# replicas and a chaos run beside them need more than 100. One in docker or elsewhere is left as it is.
size_postgres() {
  command -v psql >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]] || return 0
  local url="postgres://postgres@$HOST:5432/postgres" current version
  current="$(psql "$url" -tAc "SHOW max_connections" 2>/dev/null)" || return 0
  [[ "$current" =~ ^[0-9]+$ ]] && (( current < 300 )) || return 0
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "ensure-services: PostgreSQL allows $current connections; restarting it with 300"
  psql "$url" -qc "ALTER SYSTEM SET max_connections = 300" || return 0
  if ! pg_ctlcluster --skip-systemctl-redirect "$version" main restart -o "-c max_connections=300"; then
    echo "ensure-services: could not restart PostgreSQL; it keeps $current connections until it restarts" >&2
  fi
  wait_until_answers PostgreSQL 5432 30
}

ensure() { # $1 = name, $2 = port, $3 = start function, $4 = seconds to wait
  if answers "$2"; then
    echo "ensure-services: $1 answers on $HOST:$2"
    return
  fi
  echo "ensure-services: $1 is stopped; starting it"
  "$3"
  wait_until_answers "$1" "$2" "$4"
  echo "ensure-services: $1 started and answers on $HOST:$2"
}

ensure PostgreSQL 5432 start_postgres 30
size_postgres
ensure Redis 6379 start_redis 15
# RabbitMQ's Erlang VM takes a while to boot (about 20 s here).
ensure RabbitMQ 5672 start_rabbitmq 90

# The development database. Tests create their own databases and do not need it.
DB_NAME=warmline
ADMIN_URL="postgres://postgres@$HOST:5432/postgres"
if command -v psql >/dev/null 2>&1; then
  if [[ "$(psql "$ADMIN_URL" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]]; then
    psql "$ADMIN_URL" -qc "CREATE DATABASE $DB_NAME" && echo "ensure-services: created database $DB_NAME"
  fi
else
  # No psql client (e.g. PostgreSQL runs in docker): the pg driver from node_modules does it.
  node --input-type=module -e "
    import pg from 'pg';
    const c = new pg.Client({ connectionString: '$ADMIN_URL' });
    await c.connect();
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = \$1', ['$DB_NAME']);
    if (r.rowCount === 0) { await c.query('CREATE DATABASE $DB_NAME'); console.log('ensure-services: created database $DB_NAME'); }
    await c.end();"
fi
