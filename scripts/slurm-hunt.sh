#!/bin/bash
# Exhaustive C=4 V=5 hunt (all 152,770,174,200 deals up to the player swap) spread over a SLURM
# job array: each array task runs one shard on one node, with a checkpoint, so that a
# pre-empted or requeued task resumes where it stopped. Every deal that loops is kept
# (loops.csv), grouped by cycle; cycles.csv flags the aligned ones.
#
# Submit (METHOD is natural or optimized; the shard count is the array size):
#
#   METHOD=natural   sbatch --array=1-64 scripts/slurm-hunt.sh
#   METHOD=optimized sbatch --array=1-64 scripts/slurm-hunt.sh
#
# When every task is done, combine the shards on any machine:
#
#   bataille merge results/hunts/c4v5-natural/shard-* --out results/hunts/c4v5-natural/all
#
# The same on one workstation, no scheduler (16 cores: about 5 hours for natural, see the
# README), resumable after Ctrl-C or a reboot by adding --resume:
#
#   bataille hunt -c 4 -v 5 -m natural --exhaustive --checkpoint c4v5-natural.ckpt \
#       --checkpoint-every 300 --out results/hunts/c4v5-natural/all
#SBATCH --job-name=bataille-hunt-c4v5
#SBATCH --array=1-64
#SBATCH --cpus-per-task=16
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --export=ALL
#SBATCH --output=slurm-hunt-%A_%a.log

set -euo pipefail
METHOD=${METHOD:-natural}
SHARDS=${SLURM_ARRAY_TASK_COUNT:?run as a job array: sbatch --array=1-N}
K=${SLURM_ARRAY_TASK_ID}
DIR=results/hunts/c4v5-${METHOD}
OUT=${DIR}/shard-${K}
CKPT=${DIR}/shard-${K}.ckpt
mkdir -p "$DIR"

# A requeued task continues from its checkpoint; a fresh one starts it.
RESUME=()
if [[ -f "$CKPT" ]]; then RESUME=(--resume); fi

srun bataille hunt --colours 4 --values 5 --method "$METHOD" --exhaustive \
    --shard "${K}/${SHARDS}" --threads "${SLURM_CPUS_PER_TASK}" \
    --checkpoint "$CKPT" --checkpoint-every 300 "${RESUME[@]}" --out "$OUT"
