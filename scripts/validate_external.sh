#!/usr/bin/env bash
# Validates packs against docs/pack.schema.json with two independent
# validators from npm, as client authors would: ajv (JSON packs, strict
# mode, draft 2020-12) and taplo (TOML packs); and checks every pattern of
# the schema with recheck, a ReDoS checker, so that no pack can stall a
# client's validator. Every pack given must pass;
# every pack in tests/data/schema-reject must be refused by the schema and
# by `pushcrate check` alike, and every pack in tests/data/schema-accept
# accepted by both.
#
# Usage: scripts/validate_external.sh PACK...   (.toml or .json)
set -euo pipefail
cd "$(dirname "$0")/.."

tools=target/npm
if [ ! -x "$tools/node_modules/.bin/ajv" ] || [ ! -x "$tools/node_modules/.bin/taplo" ] \
  || [ ! -d "$tools/node_modules/recheck" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --silent ajv-cli@5.0.0 @taplo/cli@0.7.0 recheck@4.5.0 >/dev/null
fi
ajv="$tools/node_modules/.bin/ajv"
taplo="$tools/node_modules/.bin/taplo"
schema="$PWD/docs/pack.schema.json"
bin=target/ci/pushcrate

# Exit 0 when the schema accepts the pack, else non-zero.
schema_accepts() {
  case "$1" in
    *.json) "$ajv" validate --spec=draft2020 --strict=true -s "$schema" -d "$1" >/dev/null 2>&1 ;;
    *) "$taplo" lint --schema "file://$schema" "$1" >/dev/null 2>&1 ;;
  esac
}

# The schema itself must load in strict mode, and no pattern of it may
# backtrack super-linearly.
"$ajv" compile --spec=draft2020 --strict=true -s "$schema" >/dev/null
NODE_PATH="$tools/node_modules" node scripts/check_patterns.js "$schema"

passed=0
failed=0
for pack in "$@"; do
  if schema_accepts "$pack"; then
    passed=$((passed + 1))
  else
    echo "schema refused a valid pack: $pack"
    failed=$((failed + 1))
  fi
done
for pack in tests/data/schema-accept/*; do
  if schema_accepts "$pack" && "$bin" check "$pack" >/dev/null 2>&1; then
    passed=$((passed + 1))
  else
    echo "schema or check refused a pack both must accept: $pack"
    failed=$((failed + 1))
  fi
done
for pack in tests/data/schema-reject/*; do
  schema=accepted
  check=accepted
  schema_accepts "$pack" || schema=refused
  "$bin" check "$pack" >/dev/null 2>&1 || check=refused
  if [ "$schema" = refused ] && [ "$check" = refused ]; then
    passed=$((passed + 1))
  else
    echo "verdicts differ or a broken pack passed: $pack (schema $schema, check $check)"
    failed=$((failed + 1))
  fi
done
echo "schema: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
