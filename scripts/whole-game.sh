#!/bin/bash
# Backward extension of whole games against sampling: the longest game of each cell in the
# records file (C=4, V=8 and V=13, natural and optimized, by tricks) is searched backwards from
# every one of its positions (`bataille records extend --whole-game`), and the deals found are
# appended to the records file when they are longer. One line per cell goes to
# results/records/whole-game.csv: the start, the game found, the gain, the CPU seconds, and the
# deals the sampling run that found the start had played (the command in its row).
#
# Usage: scripts/whole-game.sh [BUDGET]   (ancestors searched from each position; default 10^5)
set -euo pipefail
BUDGET=${1:-100000}
BIN=${BIN:-target/release/bataille}
RECORDS=results/records.csv
OUT=results/records/whole-game.csv
mkdir -p results/records
[[ -f $OUT ]] || echo "colours,values,method,start_tricks,found_tricks,gain_tricks,budget,cpu_s,positions_searched,start_found_by" >"$OUT"
for v in 8 13; do
    for m in natural optimized; do
        # The longest game of the cell by tricks (the first row of that length).
        row=$(awk -F, -v v="$v" -v m="$m" 'NR > 1 && $1 == 4 && $2 == v && $3 == m && $4 == "tricks" && $5 + 0 > best { best = $5 + 0; line = $0 } END { print line }' "$RECORDS")
        [[ -n $row ]] || continue
        start_tricks=$(echo "$row" | cut -d, -f5)
        deal=$(echo "$row" | awk -F'"' '{ print $2 }')
        found_by=$(echo "$row" | awk -F'"' '{ print $3 }' | cut -d, -f3 | cut -c1-120)
        log=$(mktemp)
        /usr/bin/time -f "%U %S" -o "$log.time" "$BIN" records extend "$deal" -m "$m" \
            --whole-game --budget "$BUDGET" --records "$RECORDS" >"$log" 2>/dev/null
        cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.time")
        found=$(awk '/^by tricks:/ { for (i = 1; i <= NF; i++) if ($i == "tricks,") { print $(i - 1); exit } }' "$log")
        found=${found:-$start_tricks}
        positions=$(awk '/^searched:/ { print $2 }' "$log")
        echo "4,$v,$m,$start_tricks,$found,$((found - start_tricks)),$BUDGET,$cpu,$positions,\"$found_by\"" >>"$OUT"
        echo "C=4 V=$v $m: $start_tricks -> $found tricks in $cpu CPU s"
        rm -f "$log" "$log.time"
    done
done
