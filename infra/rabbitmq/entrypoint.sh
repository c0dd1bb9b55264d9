#!/usr/bin/env bash
# docker-compose's RabbitMQ entrypoint. Writes the broker definitions (users, their
# permissions, the vhost) from infra/rabbitmq/definitions.json with every ${RABBITMQ_*_PASSWORD}
# placeholder replaced by that variable, then runs its arguments (the image's own entrypoint).
# rabbitmq.conf loads the result at every boot (load_definitions), so a changed password takes
# effect at the next restart. The plain passwords stay in the container (mode 600, owned by
# the broker); RabbitMQ stores only their salted hashes.
#
#   WARMLINE_DEFINITIONS_TEMPLATE  default /etc/warmline/definitions.json
#   WARMLINE_DEFINITIONS_FILE      default /etc/rabbitmq/warmline-definitions.json
set -euo pipefail
template="${WARMLINE_DEFINITIONS_TEMPLATE:-/etc/warmline/definitions.json}"
out="${WARMLINE_DEFINITIONS_FILE:-/etc/rabbitmq/warmline-definitions.json}"

definitions="$(cat "$template")"
for var in $(grep -oE '\$\{[A-Z0-9_]+\}' "$template" | tr -d '${}' | sort -u); do
  value="${!var:-}"
  if [[ -z "$value" ]]; then
    echo "rabbitmq: $var is not set; docker-compose passes it from the environment (make env writes one)" >&2
    exit 78
  fi
  # Each password also goes into a service's AMQP_URL, unescaped, and into JSON here.
  if [[ ! "$value" =~ ^[A-Za-z0-9._~-]{16,}$ ]]; then
    echo "rabbitmq: $var must be at least 16 characters, only letters, digits and . _ ~ - (it goes into a URL)" >&2
    exit 78
  fi
  definitions="${definitions//"\${$var}"/$value}"
done

umask 077
printf '%s\n' "$definitions" >"$out.tmp"
if [[ "$(id -u)" == 0 ]] && id rabbitmq >/dev/null 2>&1; then chown rabbitmq:rabbitmq "$out.tmp"; fi
mv -f "$out.tmp" "$out"

exec "$@"
