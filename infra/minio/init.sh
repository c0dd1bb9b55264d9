#!/bin/sh
# docker-compose's minio-init (docs/adr/0043): the bucket, then one MinIO user per service that
# stores files, each with the policy of its prefixes (infra/minio/<service>-policy.json):
#   catalog   lead-imports/ and dnc-registry/: store, read, remove
#   importer  the same prefixes: read and remove the files it has loaded, never store
#   partners  partner-documents/: store, read, remove
# Idempotent: run at every `docker compose up`; a changed secret or policy is applied again.
set -eu
here="$(dirname "$0")"
mc alias set warmline http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null
mc mb --ignore-existing warmline/warmline-files
for service in catalog importer partners; do
  var="MINIO_$(echo "$service" | tr '[:lower:]' '[:upper:]')_SECRET_KEY"
  secret="$(printenv "$var")"
  mc admin policy create warmline "warmline-$service" "$here/$service-policy.json"
  mc admin user add warmline "warmline-$service" "$secret"
  # Attaching a policy the user already has is an error to mc: detach first (a no-op the first time).
  mc admin policy detach warmline "warmline-$service" --user "warmline-$service" >/dev/null 2>&1 || true
  mc admin policy attach warmline "warmline-$service" --user "warmline-$service"
done
echo "minio-init: bucket warmline-files and users warmline-catalog, warmline-importer, warmline-partners ready"
