#!/usr/bin/env bash
# Checks a catalogue of levels as a Slurm job array: task K of N checks
# shard K/N and writes reports/balance-K.json. Submit it, then merge when
# every task has finished:
#
#   job=$(sbatch --parsable docs/examples/slurm-array.sh)
#   sbatch --dependency=afterany:"$job" --wrap \
#     'pushcrate merge reports/balance-*.json > reports/balance.txt'
#
# Keep --array=1-N and SHARDS equal (docs/sharding.md).
#SBATCH --job-name=pushcrate-catalogue
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=reports/slurm-%A-%a.log
set -euo pipefail

PACK=${PACK:-levels/catalogue.toml}
SHARDS=${SHARDS:-8}
SEED=${SEED:-1}
K=${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array=1-$SHARDS}

mkdir -p reports
# Written beside its name and moved into place, so that a merge never reads
# a report cut short.
pushcrate selfplay "$PACK" --all --seed "$SEED" --threads "${SLURM_CPUS_PER_TASK:-0}" \
  --shard "$K/$SHARDS" > "reports/balance-$K.json.part"
mv "reports/balance-$K.json.part" "reports/balance-$K.json"
