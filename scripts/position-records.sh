#!/bin/bash
# Record deals from position hunts: the longest games of `bataille cycles hunt` start from
# positions of every split, not from deals, but a long game passes through deals (positions
# of the deal split) and deals lead into its positions. `bataille records extend POSITION
# --whole-game` searches backwards from every position of such a game and keeps the longest
# deal found; this script does it for the longest games of a hunt (its records.csv: the 10
# longest by tricks and by cards; for a run in shards, those of its finished shards merged) and
# appends the deals to the records file. One line per game goes to
# results/records-backward/from-positions.csv: the run, the shards it had, the game's length,
# the deal found, the budget and the CPU seconds. A game already there with the same budget is
# skipped, so an interrupted run continues, and a later one (more shards) does only the new
# games.
#
# Usage: scripts/position-records.sh [DIR] [BUDGET]
#   DIR: a `cycles hunt` output directory, or the directory of a run in shards of
#   scripts/slurm/submit.sh (its finished shards: shards/shard-K with checkpoints/shard-K.done;
#   default results/cycles/hunt-52/natural-uniform, the 52-card position hunt); BUDGET:
#   ancestors searched from each position of a game (default 10^4).
# Environment: BIN (default target/release/bataille), RECORDS (the records file the deals are
# appended to, default results/records.csv), FROM_POSITIONS (the table of games, default
# results/records-backward/from-positions.csv).
set -euo pipefail
# shellcheck source=scripts/extend-whole-game.sh
source "$(dirname "$0")/extend-whole-game.sh"
HUNT=${1:-results/cycles/hunt-52/natural-uniform}
HUNT=${HUNT%/}
BUDGET=${2:-10000}
[[ $BUDGET =~ ^[1-9][0-9]*$ ]] || { echo "BUDGET must be a positive number, not '$BUDGET'" >&2; exit 2; }
BIN=${BIN:-target/release/bataille}
RECORDS=${RECORDS:-results/records.csv}
OUT=${FROM_POSITIONS:-results/records-backward/from-positions.csv}
[[ -d $HUNT ]] || { echo "no hunt directory $HUNT" >&2; exit 2; }
parts=()
if [[ -f $HUNT/summary.csv ]]; then
    grep -qx 'complete,true' "$HUNT/summary.csv" ||
        { echo "$HUNT is not finished (its summary.csv says complete,false): resume it first" >&2; exit 2; }
    parts=("$HUNT")
else
    # A run of scripts/slurm/submit.sh: its shards that ran to the end.
    for d in "$HUNT"/shards/shard-*/; do
        d=${d%/}
        [[ -f $d/summary.csv && -f $HUNT/checkpoints/${d##*/}.done ]] && parts+=("$d")
    done
fi
((${#parts[@]} > 0)) || { echo "no finished hunt in $HUNT" >&2; exit 2; }
# The method, from the hunt's own summary (`game,positions C=4 V=13 natural sampler=uniform`).
METHOD=$(awk -F, '$1 == "game" { split($2, w, " "); print w[4] }' "${parts[0]}/summary.csv")
[[ $METHOD == natural || $METHOD == optimized ]] || { echo "$HUNT is not a position hunt of natural or optimized stacking" >&2; exit 2; }
# The run as named in the table: its path from here, links resolved (never an absolute one),
# results/ dropped.
RUN=$(realpath -m --relative-to="$(pwd -P)" -- "$HUNT")
RUN=${RUN#results/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ((${#parts[@]} == 1)) && [[ ${parts[0]} == "$HUNT" ]]; then
    cp "$HUNT/records.csv" "$work/records.csv"
else
    "$BIN" merge "${parts[@]}" --partial --out "$work/merged" >/dev/null
    cp "$work/merged/records.csv" "$work/records.csv"
fi
mkdir -p "$(dirname "$OUT")"
[[ -f $OUT ]] || echo "run,shards,position_tricks,position_cards,found_tricks,found_cards,budget,cpu_s,position,deal" >"$OUT"
# The distinct positions of the merged top games (by tricks, then by cards), in that order.
mapfile -t games < <(awk -F'"' 'NR > 1 && !seen[$2]++ { print $2 }' "$work/records.csv")
for p in "${games[@]}"; do
    if awk -F'"' -v p="$p" -v b="$BUDGET" '{ split($1, c, ",") } c[7] == b && $2 == p { f = 1 } END { exit !f }' "$OUT"; then
        echo "$p: done with budget $BUDGET; skipped"
        continue
    fi
    log=$work/log
    extend_whole "$p" "$METHOD" "$BUDGET" "$log"
    cpu=$(extend_cpu "$log")
    game=$(awk '/^game:/ { print $(NF - 3) "," $(NF - 1) }' "$log")
    found=$(extend_found "$log")
    deal=$(awk -F': ' '/^by tricks:/ { sub(/^by tricks: +/, ""); sub(/: [0-9]+ tricks.*/, ""); print; exit }' "$log")
    echo "$RUN,${#parts[@]},$game,${found:-,},$BUDGET,$cpu,\"$p\",\"$deal\"" >>"$OUT"
    if [[ -n $found ]]; then
        echo "$p: game ${game%,*} tricks -> deal ${found%,*} tricks ($cpu CPU s)"
    else
        echo "$p: game ${game%,*} tricks -> no deal found (from a deal: none longer) ($cpu CPU s)"
    fi
done
# A stop that came as the last run ended.
((stop_requested == 0)) || exit 130
