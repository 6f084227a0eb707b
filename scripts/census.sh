#!/bin/bash
# The census of every loop of a deck among all its positions (`bataille cycles census`), in
# shards run one after the other, each resumable from the checkpoint committed beside it: a
# later session (or another machine) continues where the last one stopped by rerunning the
# same command from a checkout of the repository.
#
# Usage: scripts/census.sh C V METHOD [SHARDS]      run (or continue) every shard, then merge
#        scripts/census.sh C V METHOD status         the shards' progress and CPU time
#   SHARDS   how many shards (default 8; fixed once a run has started: it is in the layout)
# Environment: BIN (default target/release/bataille: copied to target/census-bin/ and run from
# there, so that a rebuild does not touch the running binary), THREADS (default 0: one per
# core).
# Stop: Ctrl-C, or SIGTERM to this script: the running shard saves its checkpoint and stops.
#
# Layout under results/cycles/cCvV-METHOD/:
#   checkpoints/shard-KK.ckpt   the state of a shard under way (removed when it is done)
#   shards/shard-KK/            the output directory of a finished shard
#   cpu.csv                     one line per run of a shard: shard, start, end, CPU seconds
#                               (user + sys, from /usr/bin/time), exit status, commit
#   merged/                     the whole census, merged from the shards' state.txt:
#                               cycles.csv, summary.csv, state.txt, metadata.csv
set -euo pipefail
# shellcheck source=scripts/timed-run.sh
source "$(dirname "$0")/timed-run.sh"
C=${1:?usage: scripts/census.sh C V METHOD [SHARDS|status]}
V=${2:?usage: scripts/census.sh C V METHOD [SHARDS|status]}
METHOD=${3:?usage: scripts/census.sh C V METHOD [SHARDS|status]}
ARG=${4:-}
case $METHOD in
natural | optimized) ;;
*) echo "unknown method $METHOD (natural or optimized)" >&2; exit 2 ;;
esac
DIR=results/cycles/c${C}v${V}-$METHOD
THREADS=${THREADS:-0}
if [[ -f $DIR/shards.txt ]]; then
    SHARDS=$(cat "$DIR/shards.txt")
else
    SHARDS=${ARG:-8}
    [[ $ARG == status ]] && SHARDS=8
fi

status() {
    echo "| shard | state | CPU time | commits |"
    echo "| --- | --- | --- | --- |"
    for k in $(seq 1 "$SHARDS"); do
        kk=$(printf %02d "$k")
        ckpt=$DIR/checkpoints/shard-$kk.ckpt
        # (A shard stopped by a signal writes its partial state.txt too: done is without its
        # checkpoint.)
        if [[ -f $DIR/shards/shard-$kk/state.txt && ! -f $ckpt ]]; then
            state=done
        elif [[ -f $ckpt ]]; then
            state=$(awk '$1 == "units" { printf "%d units done", $4 }' "$ckpt")
        else
            state="not started"
        fi
        cpu= commits=
        if [[ -f $DIR/cpu.csv ]]; then
            cpu=$(awk -F, -v k="$k" '$1 == k && $4 != "" { t += $4 } END { printf "%.0f s", t }' "$DIR/cpu.csv")
            commits=$(awk -F, -v k="$k" '$1 == k { print $6 }' "$DIR/cpu.csv" | sort -u | paste -sd' ')
        fi
        echo "| $k | $state | ${cpu:-0 s} | ${commits:--} |"
    done
}

if [[ $ARG == status ]]; then status; exit 0; fi
mkdir -p "$DIR/checkpoints" "$DIR/shards"
echo "$SHARDS" >"$DIR/shards.txt"
[[ -f $DIR/cpu.csv ]] || echo "shard,start,end,cpu_s,exit,commit" >"$DIR/cpu.csv"
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# A tree with uncommitted changes ran code of no commit: say so.
[[ -z $(git status --porcelain -- crates 2>/dev/null) ]] || COMMIT=$COMMIT-dirty
mkdir -p target/census-bin
cp "${BIN:-target/release/bataille}" target/census-bin/bataille
BIN=target/census-bin/bataille

for k in $(seq 1 "$SHARDS"); do
    kk=$(printf %02d "$k")
    out=$DIR/shards/shard-$kk ckpt=$DIR/checkpoints/shard-$kk.ckpt
    if [[ -f $out/state.txt && ! -f $ckpt ]]; then
        echo "== shard $k/$SHARDS: done"
        continue
    fi
    # A stop asked since the last shard: no further shard.
    ((stop_requested == 0)) || exit 130
    resume=()
    [[ -f $ckpt ]] && resume=(--resume)
    echo "== shard $k/$SHARDS ($(date -u +%FT%TZ)) ${resume[*]}"
    start=$(date -u +%FT%TZ)
    times=$(mktemp)
    timed_run "$times" "$BIN" cycles census -c "$C" -v "$V" -m "$METHOD" \
        --shard "$k/$SHARDS" --threads "$THREADS" --checkpoint "$ckpt" "${resume[@]}" \
        --out "$out"
    status=$run_status
    cpu=$(timed_cpu "$times")
    rm -f "$times"
    echo "$k,$start,$(date -u +%FT%TZ),$cpu,$status,$COMMIT" >>"$DIR/cpu.csv"
    [[ $status -eq 0 ]] || exit "$status"
    rm -f "$ckpt"
done
# A stop that came as the last shard ended: no merge.
((stop_requested == 0)) || exit 130
states=()
for k in $(seq 1 "$SHARDS"); do states+=("$DIR/shards/shard-$(printf %02d "$k")/state.txt"); done
"$BIN" cycles census -c "$C" -v "$V" -m "$METHOD" --merge "${states[@]}" --out "$DIR/merged" \
    --replace
