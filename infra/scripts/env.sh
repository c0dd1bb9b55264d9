#!/usr/bin/env bash
# Local development environment.
#   infra/scripts/env.sh            writes var/local.env on first use (random secrets and
#                                   passwords) and prints its path
#   infra/scripts/env.sh CMD ARGS   the same, then runs CMD with those variables exported;
#                                   a variable already set in the shell wins over the file
set -euo pipefail
cd "$(dirname "$0")/../.."
ENV_FILE="${WARMLINE_ENV_FILE:-var/local.env}"

random_hex() { # $1 = bytes
  if command -v openssl >/dev/null 2>&1; then openssl rand -hex "$1"
  else node -e "process.stdout.write(require('node:crypto').randomBytes($1).toString('hex'))"; fi
}

if [[ ! -f "$ENV_FILE" ]]; then
  mkdir -p "$(dirname "$ENV_FILE")"
  umask 077
  cat >"$ENV_FILE" <<ENV
# Written by infra/scripts/env.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) for local development.
# Kept between runs; variables set in your shell override these. Delete it for new secrets
# (and reset the database, whose admin keeps the password it was created with).
SESSION_SECRET=$(random_hex 32)
ADMIN_USERNAME=admin
ADMIN_PASSWORD=$(random_hex 9)
DEMO_AGENT_PASSWORD=$(random_hex 9)
# The demo voice-AI vendor's key: make seed registers it, npm run simulate:vendor calls with it.
DEMO_VENDOR_KEY=wlv_$(random_hex 24)
# Test payments (Stripe's test card numbers) for the local demo, which runs in development.
# docker-compose runs in production, where orders also needs ALLOW_TEST_PAYMENTS=true for
# the sandbox: never written here; set it yourself on purpose, or set STRIPE_SECRET_KEY,
# STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET and PAYMENT_PROVIDER=stripe for real ones.
PAYMENT_PROVIDER=sandbox
ENV
  echo "env: wrote $ENV_FILE with new secrets and demo passwords" >&2
fi

# docker-compose's infrastructure credentials (PostgreSQL's superuser and one role per schema,
# Redis's operator and gateway users, one RabbitMQ user each, MinIO's root user and one user per
# file-storing service; docs/adr/0043). `make start` sets the roles' passwords too (make migrate),
# which local PostgreSQL's trust ignores. Added to a file written before they existed; existing
# values stay.
COMPOSE_SECRETS=(POSTGRES_PASSWORD REDIS_PASSWORD RABBITMQ_ADMIN_PASSWORD RABBITMQ_GATEWAY_PASSWORD
  RABBITMQ_CATALOG_PASSWORD RABBITMQ_IMPORTER_PASSWORD RABBITMQ_PARTNERS_PASSWORD RABBITMQ_INGESTION_PASSWORD RABBITMQ_TRANSFERS_PASSWORD RABBITMQ_ORDERS_PASSWORD
  RABBITMQ_NOTIFICATIONS_PASSWORD RABBITMQ_ANALYST_PASSWORD MINIO_ROOT_USER MINIO_ROOT_PASSWORD
  POSTGRES_GATEWAY_PASSWORD POSTGRES_CATALOG_PASSWORD POSTGRES_PARTNERS_PASSWORD POSTGRES_INGESTION_PASSWORD
  POSTGRES_TRANSFERS_PASSWORD POSTGRES_ORDERS_PASSWORD POSTGRES_NOTIFICATIONS_PASSWORD REDIS_GATEWAY_PASSWORD
  MINIO_CATALOG_SECRET_KEY MINIO_IMPORTER_SECRET_KEY MINIO_PARTNERS_SECRET_KEY)
missing=()
for key in "${COMPOSE_SECRETS[@]}"; do
  grep -q "^$key=" "$ENV_FILE" || missing+=("$key")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  {
    echo "# docker-compose's PostgreSQL, Redis, RabbitMQ and MinIO credentials (added $(date -u +%Y-%m-%dT%H:%M:%SZ))."
    for key in "${missing[@]}"; do
      # MinIO's console login: a name to type; the password stays random.
      if [[ "$key" == MINIO_ROOT_USER ]]; then echo "$key=warmline"; else echo "$key=$(random_hex 24)"; fi
    done
  } >>"$ENV_FILE"
  echo "env: added ${missing[*]} to $ENV_FILE" >&2
fi

# Identity keys (docs/adr/0042): the gateway's Ed25519 pair, each calling service's own key and
# the public keys of those services. Locally every process reads them all; in production each
# service gets only its own private key. Added to a file written before they existed (which had
# IDENTITY_SECRET, no longer read); existing values stay, public keys follow their private ones.
identity_keys=$(node -e '
const { createPrivateKey, createPublicKey, generateKeyPairSync } = require("node:crypto");
const text = require("node:fs").readFileSync(process.argv[1], "utf8");
const has = (name) => new RegExp(`^${name}=.+`, "m").test(text);
const valueOf = (name) => text.match(new RegExp(`^${name}=(.*)$`, "m"))?.[1].trim();
const der = (key, type) => key.export({ format: "der", type }).toString("base64");
const publicOf = (priv) => der(createPublicKey(createPrivateKey({ key: Buffer.from(priv, "base64"), format: "der", type: "pkcs8" })), "spki");
const lines = [];
let gateway = valueOf("IDENTITY_PRIVATE_KEY");
if (!gateway) {
  gateway = der(generateKeyPairSync("ed25519").privateKey, "pkcs8");
  lines.push(`IDENTITY_PRIVATE_KEY=${gateway}`);
}
if (!has("IDENTITY_PUBLIC_KEY")) lines.push(`IDENTITY_PUBLIC_KEY=${publicOf(gateway)}`);
const callers = [];
for (const service of ["catalog", "orders", "transfers"]) {
  const name = `${service.toUpperCase()}_SERVICE_KEY`;
  let key = valueOf(name);
  if (!key) {
    key = der(generateKeyPairSync("ed25519").privateKey, "pkcs8");
    lines.push(`${name}=${key}`);
  }
  callers.push(`${service}:${publicOf(key)}`);
}
if (!has("SERVICE_PUBLIC_KEYS")) lines.push(`SERVICE_PUBLIC_KEYS=${callers.join(",")}`);
process.stdout.write(lines.join("\n"));
' "$ENV_FILE")
if [[ -n "$identity_keys" ]]; then
  {
    echo "# Identity keys: the gateway's, and each calling service's own (added $(date -u +%Y-%m-%dT%H:%M:%SZ); docs/adr/0042)."
    echo "$identity_keys"
  } >>"$ENV_FILE"
  echo "env: added $(echo "$identity_keys" | cut -d= -f1 | tr '\n' ' ')to $ENV_FILE" >&2
fi

# The demo vendor's key (issue 23), added to a file written before it existed.
if ! grep -q '^DEMO_VENDOR_KEY=' "$ENV_FILE"; then
  {
    echo "# The demo voice-AI vendor's key: make seed registers it, npm run simulate:vendor calls with it (added $(date -u +%Y-%m-%dT%H:%M:%SZ))."
    echo "DEMO_VENDOR_KEY=wlv_$(random_hex 24)"
  } >>"$ENV_FILE"
  echo "env: added DEMO_VENDOR_KEY to $ENV_FILE" >&2
fi

[[ $# -eq 0 ]] && { echo "$ENV_FILE"; exit 0; }

while IFS= read -r line || [[ -n "$line" ]]; do
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
  key="${line%%=*}"
  value="${line#*=}"
  [[ "$key" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
  [[ -z "${!key+set}" ]] && export "$key=$value"
done <"$ENV_FILE"

exec "$@"
