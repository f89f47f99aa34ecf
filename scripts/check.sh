#!/usr/bin/env bash
# The project's whole check, as CI runs it: formatting, lints with warnings
# denied, every test (optimised, with debug assertions on), the docs, and
# every shipped, generated and exported pack validated against the JSON
# Schema by three independent validators (Python's jsonschema, ajv, taplo),
# which must also refuse, as `pushcrate check` does, a set of broken packs;
# and the sharding recipes of docs/sharding.md.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all --check
cargo clippy --workspace --all-targets --profile ci -- -D warnings
cargo test --workspace --profile ci
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --profile ci

# Packs as a client author would check them: Python's tomllib + jsonschema.
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q jsonschema
out=target/validate
mkdir -p "$out"
bin=target/ci/pushcrate
cargo build --profile ci --bin pushcrate
for style in open corridors rooms maze; do
  for symmetry in rot180 mirror none; do
    "$bin" generate --count 3 --style "$style" --symmetry "$symmetry" --seed 7 --out "$out/gen-$style-$symmetry.toml" 2>/dev/null
  done
done
"$bin" generate --count 20 --seed 1 --symmetry rot180 --out "$out/gen.toml" 2>/dev/null
"$bin" export "$out/gen.toml" --format json --out "$out/gen.json"
"$bin" export mazes/default.toml --with-analysis --out "$out/default-derived.toml"
"$bin" export mazes/default.toml --with-analysis --format json --out "$out/default-derived.json"
# What each bundled level is expected to be, except its balance verdict
# (`--balance`, about 15 minutes for both packs: docs/analysis.md).
"$bin" analyze --verify mazes/*.toml
# The conformance suite as committed (tests/data/conformance, which the
# tests check the generator still writes), checked against the engine by the
# sample client.
rm -rf target/conformance
"$bin" conformance --out target/conformance 2>/dev/null
python3 scripts/conformance_client.py tests/data/conformance "$bin"

python3 scripts/validate_packs.py mazes/*.toml "$out"/*.toml "$out"/*.json target/conformance/packs/*.json
# The same packs with ajv (strict, draft 2020-12) and taplo, from npm.
scripts/validate_external.sh mazes/*.toml "$out"/*.toml "$out"/*.json target/conformance/packs/*.json
# The recipes of docs/sharding.md: the workflow and the manifest against
# their schemas, and the Slurm script run task by task and merged.
scripts/check_recipes.sh
