#!/bin/bash
# How the two formulas of `bataille cycles solve` grow with the deck (chapter:
# docs/results-sat.md): C=4 natural, V = 5 to 13, one period each, in tricks (the trick
# formula) and in cards per player (`--cards`, the stream formula). Each run is an ordinary
# output directory under results/sat/scaling/, continued with --resume when it exists.
#
# Usage: scripts/sat-scaling.sh         run (or continue) every cell
#        scripts/sat-scaling.sh table   the table of the book
# Environment: BIN (default target/release/bataille), LIMIT (seconds per cell, default 300),
#   VALUES (default "5 6 7 8 9 10 11 12 13").
set -euo pipefail
BIN=${BIN:-target/release/bataille}
LIMIT=${LIMIT:-300}
VALUES=${VALUES:-5 6 7 8 9 10 11 12 13}
BASE=results/sat/scaling
# unit:period
CELLS=(tricks:3 cards:12 cards:16)

table() {
    echo "| V | cards | period | verdict | variables | clauses | solver s | proof MB |"
    echo "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |"
    for v in $VALUES; do
        for cell in "${CELLS[@]}"; do
            local unit=${cell%%:*} p=${cell#*:} dir=$BASE/c4v$v-natural-${cell%%:*}-${cell#*:}
            [[ -f $dir/instances.csv ]] || continue
            awk -F, -v v="$v" -v unit="$unit" -v p="$p" 'NR == 2 {
                printf "| %d | %d | %d %s | %s | %d | %d | %.1f | %.1f |\n", v, 4 * v, p, unit, $3, $5, $6, $8, $10 / 1e6 }' "$dir/instances.csv"
        done
    done
}

[[ ${1:-} == table ]] && { table; exit 0; }
for v in $VALUES; do
    for cell in "${CELLS[@]}"; do
        unit=${cell%%:*} p=${cell#*:}
        out=$BASE/c4v$v-natural-$unit-$p
        flags=()
        [[ $unit == cards ]] && flags=(--cards)
        resume=()
        [[ -f $out/instances.csv ]] && resume=(--resume)
        echo "== C=4 V=$v, $p $unit"
        "$BIN" cycles solve -c 4 -v "$v" --period "$p" "${flags[@]}" --time-limit "$LIMIT" \
            --out "$out" "${resume[@]}"
    done
done
