#!/usr/bin/env bash
# The project's whole check, as CI runs it: formatting, lints with warnings
# denied, every test (optimised, with debug assertions on) and the docs.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --check
cargo clippy --all-targets --profile ci -- -D warnings
cargo test --profile ci
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --profile ci
