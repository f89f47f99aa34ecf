#!/usr/bin/env bash
# Every report of both bundled packs, written by one binary into one folder,
# so that two builds can be compared byte for byte (a restructuring must
# leave them all alike): analyze (text, JSON, --verify), export (TOML,
# JSON, with the derived tables), the JSON Schema, the conformance suite,
# and selfplay --all's full balance check in text and JSON. The two
# selfplay runs of both packs take about 25 CPU-minutes.
#
#   scripts/reports.sh OLD_BINARY /tmp/before
#   scripts/reports.sh target/release/pushcrate /tmp/after
#   diff -r /tmp/before /tmp/after
set -u
bin=$(realpath "$1")
out=$2
mkdir -p "$out"
cd "$out"
for p in default flawed; do
  "$bin" analyze "@$p" > "analyze-$p.txt" 2>&1; echo "exit $?" >> "analyze-$p.txt"
  "$bin" analyze "@$p" --format json > "analyze-$p.json" 2>&1
  "$bin" analyze --verify "@$p" > "verify-$p.txt" 2>&1
  "$bin" export "@$p" > "export-$p.toml" 2>&1
  "$bin" export "@$p" --format json > "export-$p.json" 2>&1
  "$bin" export "@$p" --with-analysis > "export-derived-$p.toml" 2>&1
  "$bin" export "@$p" --with-analysis --format json --balance 20 > "export-derived-$p.json" 2>&1
done
"$bin" schema > schema.json 2>&1
rm -rf conformance
"$bin" conformance --out conformance > conformance.txt 2>&1
for p in default flawed; do
  "$bin" selfplay --all "@$p" --format json > "selfplay-$p.json" 2> /dev/null
  "$bin" selfplay --all "@$p" > "selfplay-$p.txt" 2>&1
done
