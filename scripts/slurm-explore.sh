#!/bin/bash
# Exhaustive C=4 V=5 natural search spread over a SLURM job array: each array task runs one
# shard on one node, with a checkpoint so that a pre-empted task resumes where it stopped.
# When every task is done, combine the shards on any machine:
#
#   bataille merge results/c4v5/shard-* --out results/c4v5/all
#
# Submit with: sbatch scripts/slurm-explore.sh
#SBATCH --job-name=bataille-c4v5
#SBATCH --array=1-64
#SBATCH --cpus-per-task=16
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --output=results/c4v5/slurm-%A_%a.log

set -euo pipefail
SHARDS=64   # keep equal to the size of --array
K=${SLURM_ARRAY_TASK_ID}
OUT=results/c4v5/shard-${K}
CKPT=results/c4v5/shard-${K}.ckpt
mkdir -p results/c4v5

# A requeued task continues from its checkpoint; a fresh one starts it.
RESUME=()
if [[ -f "$CKPT" ]]; then RESUME=(--resume); fi

srun bataille explore --colours 4 --values 5 --method natural --exhaustive \
    --shard "${K}/${SHARDS}" --threads "${SLURM_CPUS_PER_TASK}" \
    --checkpoint "$CKPT" --checkpoint-every 300 "${RESUME[@]}" --out "$OUT"
