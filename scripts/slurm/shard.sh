#!/usr/bin/env bash
# One shard of a search submitted by scripts/slurm/submit.sh, run as an array task:
#
#   shard.sh BIN SHARDS DIR explore|hunt|bmn explore|cycles hunt|cycles census ARGS...
#   shard.sh --file BIN SHARDS DIR aligned blocks ARGS...
#   shard.sh --parts BIN PARTS DIR cycles solve|aligned solve ARGS...
#
# Shard K (the array task id) of SHARDS writes DIR/shards/shard-K and checkpoints to
# DIR/checkpoints/shard-K.ckpt. On a requeue (or a time limit, or pre-emption) SLURM sends
# SIGTERM: bataille writes its checkpoint and the partial results and stops; the task's next
# start finds the checkpoint and resumes from it. Only a shard that ran to the end gets
# DIR/checkpoints/shard-K.done, which the merge job looks for. Each start appends its CPU
# seconds to DIR/checkpoints/shard-K.cpu (start,end,cpu_s,exit). With --file the output is one
# file, DIR/shards/shard-K.csv (the catalogue of a search of aligned blocks).
#
# With --parts, task K solves part K of a SAT question's period (`--part K`) into
# DIR/shards/shard-K; the solver's files there are its checkpoint: a requeued task continues
# them (--resume), keeping what was decided. An aligned question is one such part, the whole
# question (no --part).
set -euo pipefail
parts=false file=false
if [[ ${1-} == --parts ]]; then
    parts=true
    shift
elif [[ ${1-} == --file ]]; then
    file=true
    shift
fi
bin=$1
shards=$2
dir=$3
shift 3
k=${SLURM_ARRAY_TASK_ID:?run as a job array task (sbatch --array)}
# The paths bataille is given (and writes into its metadata.csv) are DIR's own, never a
# machine's: the task runs in DIR.
cd -- "$dir"
checkpoint=checkpoints/shard-$k.ckpt
done=checkpoints/shard-$k.done
cpu=checkpoints/shard-$k.cpu
out=shards/shard-$k
! $file || out=$out.csv
# A shard that ran to the end is left as it is (a finished run resubmitted, or a whole array
# run again for the shards still missing, redoes nothing): its .done, output and checkpoint
# stay. Not a SAT part: a part undecided at its limit ends well too, and a raised --time-limit
# goes on with it (--resume keeps what was decided).
if ! $parts && [[ -f $done && -e $out ]]; then
    echo "== shard $k/$shards: complete already ($done), nothing to do"
    exit 0
fi
resume=()
how="fresh start"
if $parts && [[ -f $out/metadata.csv ]]; then
    resume=(--resume)
    how="resuming from $out"
elif ! $parts && [[ -f $checkpoint ]]; then
    resume=(--resume)
    how="resuming from $checkpoint"
fi
rm -f -- "$done"

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "== shard $k/$shards: job ${SLURM_ARRAY_JOB_ID:-?}_$k on $(hostname) at" \
    "$started, start $((${SLURM_RESTART_COUNT:-0} + 1)): $how"
# SLURM signals every process of the task (SIGTERM, then SIGKILL after KillWait). This shell
# must outlive bataille: once the batch script exits, SLURM kills what is left of the task,
# which could cut the last checkpoint short. So the shell only notes the signal (bataille has
# had it too; a second one would make it quit without its checkpoint) and waits.
signalled=false
trap 'signalled=true' TERM INT
# bataille's exit status comes through a file: a `wait` cut short by a signal, then called again
# after the process has ended, can return -1 rather than its status (bash), and a shard that had
# just ended well would then not be marked done. The subshell writes it once bataille has ended,
# whatever signals came (a handler, not an ignored signal: bataille gets its signals as sent).
exited=checkpoints/shard-$k.exit
rm -f -- "$exited"
# (The subshell inherits `set -e`: bataille's status is taken with `||`, so that a run stopped
# by a signal, which ends non-zero, still has it written.)
(
    trap : TERM INT
    ended=0
    if $parts; then
        part=(--part "$k")
        [[ $1 != aligned ]] || part=()
        "$bin" "$@" "${part[@]}" "${resume[@]}" --out "$out" || ended=$?
    else
        "$bin" "$@" --shard "$k/$shards" --threads "${SLURM_CPUS_PER_TASK:-1}" \
            --checkpoint "$checkpoint" "${resume[@]}" --out "$out" || ended=$?
    fi
    echo "$ended" >"$exited"
) &
pid=$!
while :; do
    signalled=false
    status=0
    wait "$pid" || status=$?
    # A signal ends `wait` early, before bataille does: wait again, for its exit status.
    [[ $signalled == true ]] || break
done
if [[ -s $exited ]]; then status=$(<"$exited"); fi
rm -f -- "$exited"
# The CPU seconds of this start (this shell's children: bataille, and a few short commands),
# a line per start in checkpoints/shard-K.cpu: what the shard cost, requeues included.
# (`times` in this shell, not in a pipeline's subshell, which has no children of its own.)
times >"$cpu.times"
seconds=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.1f", t }' "$cpu.times")
rm -f -- "$cpu.times"
[[ -f $cpu ]] || echo "start,end,cpu_s,exit" >"$cpu"
echo "$started,$(date -u +%Y-%m-%dT%H:%M:%SZ),$seconds,$status" >>"$cpu"
if ((status == 0)); then
    touch -- "$done"
    echo "== shard $k/$shards complete at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
else
    echo "== shard $k/$shards stopped (exit $status) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
fi
exit "$status"
