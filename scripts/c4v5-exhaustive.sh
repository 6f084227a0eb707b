#!/bin/bash
# The complete exhaustive C=4 V=5 hunts (all 152,770,174,200 deals up to the player swap), one
# method at a time, in 16 shards run one after the other on this machine, each resumable from
# the checkpoint committed beside it. A later session (or another machine) continues exactly
# where the last one stopped: rerun the same command from a checkout of the repository.
#
# Usage: scripts/c4v5-exhaustive.sh METHOD [K...]
#   METHOD   natural or optimized
#   K        the shards to run (default: 1 to 16, skipping those already done)
#        scripts/c4v5-exhaustive.sh METHOD status
#   prints the progress table of results/hunts/README.md (units done, CPU time, commits)
# Environment: BIN (default target/release/bataille: copied to target/c4v5-bin/ and run from
# there, so that a rebuild does not touch the running binary and metadata.csv names no
# machine path), THREADS (default 0: one per core).
# Stop: Ctrl-C, or SIGTERM to this script: the running shard saves its checkpoint and stops.
#
# Layout under results/hunts/c4v5-METHOD-exhaustive/:
#   checkpoints/shard-KK.ckpt   the state of a shard under way (removed when it is done)
#   shards/shard-KK/            the output directory of a finished shard
#   cpu.csv                     one line per run of a shard: shard, start, end, CPU seconds
#                               (user + sys, from /usr/bin/time), exit status, commit
# When all 16 are done: bataille merge results/hunts/c4v5-METHOD-exhaustive/shards/shard-*
#   --out results/hunts/c4v5-METHOD-exhaustive/merged
set -euo pipefail
# shellcheck source=scripts/timed-run.sh
source "$(dirname "$0")/timed-run.sh"
METHOD=${1:?usage: scripts/c4v5-exhaustive.sh natural|optimized [K...]}
shift
case $METHOD in
natural | optimized) ;;
*) echo "unknown method $METHOD (natural or optimized)" >&2; exit 2 ;;
esac
SHARDS=16
THREADS=${THREADS:-0}
# Looping deals kept per loop: the natural run was started with 1000 (it has no loop); the
# optimized run keeps every looping deal (tens of thousands, about 80 bytes each), so that the
# merged loops.csv lists them all and the C++ explorer's half-list count can be recomputed.
case $METHOD in
natural) KEEP=1000 ;;
optimized) KEEP=100000 ;;
esac
DIR=results/hunts/c4v5-$METHOD-exhaustive
mkdir -p "$DIR/checkpoints" "$DIR/shards"
[[ -f $DIR/cpu.csv ]] || echo "shard,start,end,cpu_s,exit,commit" >"$DIR/cpu.csv"
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

run_shard() {
    local k=$1 kk
    kk=$(printf %02d "$k")
    local out=$DIR/shards/shard-$kk ckpt=$DIR/checkpoints/shard-$kk.ckpt
    if [[ -f $out/state.txt && ! -f $ckpt ]]; then
        echo "== shard $k/$SHARDS: done"
        return 0
    fi
    # A stop asked since the last shard: no further shard.
    ((stop_requested == 0)) || exit 130
    local resume=()
    [[ -f $ckpt ]] && resume=(--resume)
    echo "== shard $k/$SHARDS ($(date -u +%FT%TZ)) ${resume[*]}"
    local start status=0 times
    start=$(date -u +%FT%TZ)
    times=$(mktemp)
    timed_run "$times" "$BIN" hunt -c 4 -v 5 -m "$METHOD" --exhaustive \
        --shard "$k/$SHARDS" --keep "$KEEP" --top 20 --threads "$THREADS" \
        --checkpoint "$ckpt" --checkpoint-every 120 "${resume[@]}" --out "$out"
    status=$run_status
    local cpu
    cpu=$(timed_cpu "$times")
    rm -f "$times"
    echo "$k,$start,$(date -u +%FT%TZ),$cpu,$status,$COMMIT" >>"$DIR/cpu.csv"
    if [[ $status -eq 0 ]]; then
        rm -f "$ckpt"
    else
        return "$status"
    fi
}

# The shard's units done, from its checkpoint's `done` line (ranges of the shard's own units).
units_done() {
    awk '$1 == "done" { for (i = 3; i <= NF; i++) { n = split($i, r, "-");
        t += (n == 2) ? r[2] - r[1] + 1 : 1 } } END { print t + 0 }' "$1"
}

status() {
    local units=2331087 k kk units_k out ckpt state cpu commits
    echo "| shard | units | state | CPU time | commits |"
    echo "| --- | --- | --- | --- | --- |"
    for k in $(seq 1 $SHARDS); do
        kk=$(printf %02d "$k")
        units_k=$(((units - k) / SHARDS + 1))
        out=$DIR/shards/shard-$kk
        ckpt=$DIR/checkpoints/shard-$kk.ckpt
        if [[ -f $out/state.txt && ! -f $ckpt ]]; then
            state="done"
        elif [[ -f $ckpt ]]; then
            state="$(units_done "$ckpt") done ($(awk -v d="$(units_done "$ckpt")" -v u="$units_k" \
                'BEGIN { printf "%.1f%%", 100 * d / u }'))"
        else
            state="not started"
        fi
        cpu=$(awk -F, -v k="$k" '$1 == k && $4 != "" { t += $4 } END { printf "%.0f s", t }' "$DIR/cpu.csv")
        commits=$(awk -F, -v k="$k" '$1 == k { print $6 }' "$DIR/cpu.csv" | sort -u | paste -sd' ')
        echo "| $k | $units_k | $state | $cpu | ${commits:--} |"
    done
}

if [[ ${1:-} == status ]]; then status; exit 0; fi
mkdir -p target/c4v5-bin
cp "${BIN:-target/release/bataille}" target/c4v5-bin/bataille
BIN=target/c4v5-bin/bataille
if [[ $# -eq 0 ]]; then set -- $(seq 1 $SHARDS); fi
for k in "$@"; do run_shard "$k"; done
# A stop that came as the last shard ended.
((stop_requested == 0)) || exit 130
