# Sourced by backup.sh and restore.sh (which define fail): checks the S3 settings and sets the mc
# alias `warmline` in a throwaway configuration, so the keys are never written to the operator's
# ~/.mc. Afterwards, run `mc --config-dir "$MC_CONFIG_DIR" … warmline/$S3_BUCKET`.
s3_alias() {
  for name in S3_BUCKET S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY; do
    [[ -n "${!name:-}" ]] || fail "set $name (BLOB_STORE=s3)"
  done
  command -v mc >/dev/null || fail "mc (MinIO's client) is needed for BLOB_STORE=s3"
  MC_CONFIG_DIR="$(mktemp -d)"
  trap 'rm -rf "$MC_CONFIG_DIR"' EXIT
  mc --config-dir "$MC_CONFIG_DIR" --quiet alias set warmline "${S3_ENDPOINT:-https://s3.amazonaws.com}" \
    "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY" >/dev/null
}
