#!/usr/bin/env bash
# Checks the recipes of docs/sharding.md, as far as can be done offline:
# the GitHub Actions workflow against the workflow schema (action-validator),
# the Kubernetes manifest against the API's schemas (kubernetes-models), and
# the Slurm script by running its array tasks here, with the shell standing
# in for sbatch, and merging their reports into the single run's report.
#
# Usage: scripts/check_recipes.sh   (after `cargo build --profile ci`)
set -euo pipefail
cd "$(dirname "$0")/.."

tools=target/npm-recipes
if [ ! -x "$tools/node_modules/.bin/action-validator" ] || [ ! -d "$tools/node_modules/kubernetes-models" ] \
  || [ ! -d "$tools/node_modules/yaml" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --silent \
    @action-validator/cli@0.6.0 kubernetes-models@5.1.0 yaml@2.9.1 >/dev/null
fi

workflow=docs/examples/github-actions-shards.yml
if ! said=$("$tools/node_modules/.bin/action-validator" "$workflow" 2>&1); then
  echo "$said" >&2
  exit 1
fi
echo "$workflow: valid"
node scripts/check_k8s.mjs "$tools/node_modules" docs/examples/kubernetes-indexed-job.yaml

# The Slurm array, task by task, on the levels of the flawed pack that the
# solver decides (no games: seconds), in 3 shards.
bash -n docs/examples/slurm-array.sh
bin="$PWD/target/ci/pushcrate"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - mazes/flawed.toml "$work/levels.toml" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
head, *levels = text.split("\n[[level]]")
kept = [level for level in levels if '"decided:1"' in level]
assert len(kept) >= 3, "the flawed pack has fewer decided levels than shards"
open(sys.argv[2], "w", encoding="utf-8").write(head + "".join("\n[[level]]" + level for level in kept))
PY
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/pushcrate"
for k in 1 2 3; do
  (cd "$work" && PATH="$work/bin:$PATH" PACK=levels.toml SHARDS=3 SLURM_ARRAY_TASK_ID=$k \
    bash "$OLDPWD/docs/examples/slurm-array.sh")
done
"$bin" merge "$work"/reports/balance-*.json --format json > "$work/merged.json"
(cd "$work" && "$bin" selfplay levels.toml --all --seed 1 --format json) > "$work/whole.json"
cmp "$work/merged.json" "$work/whole.json"
echo "docs/examples/slurm-array.sh: 3 array tasks merge to the single run's report"
