#!/bin/bash
# The 52-card hunt in position space: loops looked for among positions of every split of the
# C=4 V=13 deck (natural stacking, or METHOD=optimized), not only among deals. One run of
# POSITIONS positions is cut into SHARDS shards (`--shard K/SHARDS`), each an ordinary resumable output directory with its
# checkpoint beside it while it runs, so that the run goes on over many sessions and machines:
# the script plays the shards in order, skips the finished ones and resumes the one it was
# stopped in. `merge` of every shard gives the files of the whole run.
#
# Usage: scripts/position-hunt-52.sh SAMPLER [MAX_SHARDS]    play (or continue) up to
#                                                           MAX_SHARDS more shards (default all)
#        scripts/position-hunt-52.sh SAMPLER status         shards done, positions, loops
#        scripts/position-hunt-52.sh SAMPLER merge          merge the finished shards
#   SAMPLER: uniform (1e11 positions in 100 shards) or insert (cards of new values inserted
#   into the known loops of smaller decks, results/cycles/seeds/c4-natural-known.txt: 1e10
#   positions in 10 shards). Environment: BIN (default target/release/bataille, copied to
#   target/hunt52-bin/METHOD-SAMPLER/), THREADS (default 0: every core), METHOD (natural,
#   the default, or optimized: the same shards and seed under
#   results/cycles/hunt-52/optimized-SAMPLER/).
#
# Layout under results/cycles/hunt-52/METHOD-SAMPLER/:
#   shard-KKK/        the shard's output directory (summary.csv, cycles.csv, loops.csv, ...)
#   shard-KKK.ckpt    its checkpoint while it runs (committed with the rest, so that a fresh
#                     clone resumes it)
#   cpu.csv           one line per shard segment: shard, start, end, CPU s, exit, commit; a
#                     segment that died with its machine (SIGKILL, power, a session's end) is
#                     `K,start,,,lost,commit`: its checkpoint kept the work, its CPU time is
#                     not known
#   running           the segment under way (`K,start,commit`), committed with the checkpoint:
#                     the next run that finds it with no run holding the lock writes its lost row
set -euo pipefail
# shellcheck source=scripts/timed-run.sh
source "$(dirname "$0")/timed-run.sh"
SAMPLER=${1:?usage: scripts/position-hunt-52.sh uniform|insert [MAX_SHARDS|status|merge]}
ACTION=${2:-all}
METHOD=${METHOD:-natural}
SEED=1
case $METHOD in
natural | optimized) ;;
*) echo "unknown METHOD $METHOD (natural or optimized)" >&2; exit 2 ;;
esac
case $SAMPLER in
uniform) POSITIONS=100000000000 SHARDS=100 EXTRA=() ;;
insert)
    POSITIONS=10000000000 SHARDS=10
    EXTRA=(--seeds results/cycles/seeds/c4-natural-known.txt)
    [[ $METHOD == natural ]] || { echo "the insert seeds are natural loops: METHOD=natural only" >&2; exit 2; }
    ;;
*) echo "unknown sampler $SAMPLER (uniform or insert)" >&2; exit 2 ;;
esac
RUN=$METHOD-$SAMPLER
DIR=results/cycles/hunt-52/$RUN
name() { printf 'shard-%03d' "$1"; }

if [[ $ACTION == status ]]; then
    done=0 positions=0 looping=0 finished=
    for ((k = 1; k <= SHARDS; k++)); do
        out=$DIR/$(name "$k")
        [[ -f $out/summary.csv && ! -f $out.ckpt ]] || continue
        done=$((done + 1)) finished="$finished $k"
        positions=$((positions + $(awk -F, '$1 == "deals" { print $2 }' "$out/summary.csv")))
        looping=$((looping + $(awk -F, '$1 == "looping_deals" { print $2 }' "$out/summary.csv")))
    done
    # The CPU of the finished shards' segments (a shard under way is counted once finished).
    cpu=0
    [[ -f $DIR/cpu.csv ]] &&
        cpu=$(LC_ALL=C awk -F, -v finished="$finished" '
            BEGIN { n = split(finished, f, " "); for (i = 1; i <= n; i++) done[f[i]] = 1 }
            NR > 1 && ($1 in done) && ($5 == 0 || $5 == 130) { t += $4 } END { printf "%.0f", t }' "$DIR/cpu.csv")
    echo "$RUN: $done of $SHARDS shards done, $positions positions, $looping looping, $cpu CPU s"
    exit 0
fi
if [[ $ACTION == merge ]]; then
    parts=()
    for ((k = 1; k <= SHARDS; k++)); do
        out=$DIR/$(name "$k")
        [[ -f $out/summary.csv && ! -f $out.ckpt ]] && parts+=("$out")
    done
    exec "${BIN:-target/release/bataille}" merge "${parts[@]}" --partial --out "$DIR/merged" --replace
fi

[[ $ACTION == all || $ACTION =~ ^[1-9][0-9]*$ ]] || {
    echo "MAX_SHARDS must be a positive number of shards, not '$ACTION' (or status, merge)" >&2
    exit 2
}
[[ ${THREADS:-0} =~ ^[0-9]+$ ]] || { echo "THREADS must be a number (0: every core), not '$THREADS'" >&2; exit 2; }
max=$([[ $ACTION == all ]] && echo "$SHARDS" || echo "$ACTION")
mkdir -p "$DIR"
[[ -f $DIR/cpu.csv ]] || echo "shard,start,end,cpu_s,exit,commit" >"$DIR/cpu.csv"
# One run at a time (the lock goes with its process, whatever kills it); a segment left marked
# running was then lost with its machine.
exec 9>"$DIR/.script.lock"
flock -n 9 || { echo "another run of $RUN is under way (it holds $DIR/.script.lock)" >&2; exit 2; }
if [[ -s $DIR/running ]]; then
    IFS=, read -r k start commit <"$DIR/running"
    # (Unless the segment's own row was written just before the machine went.)
    if ! grep -q "^$k,$start," "$DIR/cpu.csv"; then
        echo "$k,$start,,,lost,$commit" >>"$DIR/cpu.csv"
        echo "shard $k: its segment started $start was lost with its machine (cpu.csv row written)"
    fi
fi
rm -f "$DIR/running"
# A copy of its own for each run, so that a rebuild (or another run's copy) does not change
# the binary under a run; put in place by a rename, never written while another process runs it.
mkdir -p "target/hunt52-bin/$RUN"
cp "${BIN:-target/release/bataille}" "target/hunt52-bin/$RUN/bataille.tmp"
mv "target/hunt52-bin/$RUN/bataille.tmp" "target/hunt52-bin/$RUN/bataille"
BIN=target/hunt52-bin/$RUN/bataille
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git status --porcelain -- crates 2>/dev/null) ]] || COMMIT=$COMMIT-dirty
played=0
for ((k = 1; k <= SHARDS && played < max; k++)); do
    out=$DIR/$(name "$k") ckpt=$DIR/$(name "$k").ckpt
    if [[ -f $out/summary.csv && ! -f $ckpt ]]; then continue; fi
    # A stop asked since the last shard (or as it ended): no further shard.
    ((stop_requested == 0)) || exit 130
    resume=()
    [[ -f $ckpt ]] && resume=(--resume)
    echo "== shard $k/$SHARDS ($(date -u +%FT%TZ)) ${resume[*]}"
    start=$(date -u +%FT%TZ)
    echo "$k,$start,$COMMIT" >"$DIR/running"
    times=$(mktemp)
    timed_run "$times" "$BIN" cycles hunt -c 4 -v 13 -m "$METHOD" \
        --sampler "$SAMPLER" "${EXTRA[@]}" --random "$POSITIONS" --seed $SEED \
        --shard "$k/$SHARDS" --threads "${THREADS:-0}" --checkpoint "$ckpt" "${resume[@]}" \
        --out "$out" --replace
    status=$run_status
    cpu=$(timed_cpu "$times")
    rm -f "$times"
    echo "$k,$start,$(date -u +%FT%TZ),$cpu,$status,$COMMIT" >>"$DIR/cpu.csv"
    rm -f "$DIR/running"
    [[ $status -eq 0 ]] || exit "$status"
    rm -f "$ckpt"
    played=$((played + 1))
done
((stop_requested == 0)) || exit 130
