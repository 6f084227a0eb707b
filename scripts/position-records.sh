#!/bin/bash
# Record deals from the 52-card position hunt: the longest games of the hunt start from
# positions of every split, not from deals, but a long game passes through deals (26/26
# positions) and deals lead into its positions. `bataille records extend POSITION --whole-game`
# searches backwards from every position of such a game and keeps the longest deal found; this
# script does it for the longest games of the finished shards of a hunt
# (results/cycles/hunt-52/RUN, their records.csv: the 10 longest by tricks and by cards, merged)
# and appends the deals to the records file. One line per game goes to
# results/records-backward/from-positions.csv: the run, the shards it had, the game's length, the deal
# found, the budget and the CPU seconds. A game already there with the same budget is skipped,
# so an interrupted run continues, and a later one (more shards) does only the new games.
#
# Usage: scripts/position-records.sh [RUN] [BUDGET]   (RUN: natural-uniform by default;
#   BUDGET: ancestors searched from each position of a game, default 10^4)
set -euo pipefail
RUN=${1:-natural-uniform}
BUDGET=${2:-10000}
[[ $BUDGET =~ ^[1-9][0-9]*$ ]] || { echo "BUDGET must be a positive number, not '$BUDGET'" >&2; exit 2; }
BIN=${BIN:-target/release/bataille}
RECORDS=${RECORDS:-results/records.csv}
HUNT=results/cycles/hunt-52/$RUN
OUT=results/records-backward/from-positions.csv
[[ -d $HUNT ]] || { echo "no hunt $HUNT (natural-uniform, optimized-uniform, ...)" >&2; exit 2; }
METHOD=${RUN%%-*}
parts=()
for d in "$HUNT"/shard-*/; do
    d=${d%/}
    [[ -f $d/summary.csv && ! -f $d.ckpt ]] && parts+=("$d")
done
((${#parts[@]} > 0)) || { echo "no finished shard in $HUNT" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$BIN" merge "${parts[@]}" --partial --out "$work/merged" >/dev/null
mkdir -p results/records-backward
[[ -f $OUT ]] || echo "run,shards,position_tricks,position_cards,found_tricks,found_cards,budget,cpu_s,position,deal" >"$OUT"
# The distinct positions of the merged top games (by tricks, then by cards), in that order.
mapfile -t games < <(awk -F'"' 'NR > 1 && !seen[$2]++ { print $2 }' "$work/merged/records.csv")
for p in "${games[@]}"; do
    if awk -F'"' -v p="$p" -v b=",$BUDGET," 'index($1, b) && $2 == p { f = 1 } END { exit !f }' "$OUT"; then
        echo "$p: done with budget $BUDGET; skipped"
        continue
    fi
    log=$work/log
    if ! /usr/bin/time -f "%U %S" -o "$log.time" "$BIN" records extend "$p" -m "$METHOD" \
        --whole-game --budget "$BUDGET" --records "$RECORDS" >"$log" 2>"$log.err"; then
        echo "records extend failed on $p:" >&2
        cat "$log.err" >&2
        exit 2
    fi
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.time")
    game=$(awk '/^game:/ { print $(NF - 3) "," $(NF - 1) }' "$log")
    found=$(awk '/^by tricks:/ { for (i = 1; i <= NF; i++) if ($i == "tricks,") { print $(i - 1) "," $(i + 1); exit } }' "$log")
    deal=$(awk -F': ' '/^by tricks:/ { sub(/^by tricks: +/, ""); sub(/: [0-9]+ tricks.*/, ""); print; exit }' "$log")
    echo "$RUN,${#parts[@]},$game,${found:-,},$BUDGET,$cpu,\"$p\",\"$deal\"" >>"$OUT"
    echo "$p: game ${game%,*} tricks -> deal ${found%,*} tricks ($cpu CPU s)"
done
