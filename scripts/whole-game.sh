#!/bin/bash
# Backward extension of whole games against sampling: the longest game of each cell in the
# records file (C=4, V=8 and V=13, natural and optimized, by tricks, unless cells are named) is
# searched backwards from
# every one of its positions (`bataille records extend --whole-game`), and the deals found are
# appended to the records file when they are longer. One line per cell goes to
# results/records-backward/whole-game.csv: the start, the game found, the gain, the CPU seconds, and the
# deals the sampling run that found the start had played (the command in its row).
#
# Usage: scripts/whole-game.sh [BUDGET [CELL...]]
#   BUDGET: ancestors searched from each position (default 10^5); CELL: V-METHOD, a C=4 cell
#   (e.g. 6-natural 11-optimized; default 8-natural 8-optimized 13-natural 13-optimized).
# A cell whose row is already in whole-game.csv for the same start and budget is skipped, so an
# interrupted run continues with the cells it had not done; once a cell has found a longer
# game, running the script again extends that new game (a new start, a new row).
set -euo pipefail
# shellcheck source=scripts/extend-whole-game.sh
source "$(dirname "$0")/extend-whole-game.sh"
BUDGET=${1:-100000}
[[ $BUDGET =~ ^[1-9][0-9]*$ ]] || { echo "BUDGET must be a positive number, not '$BUDGET'" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
CELLS=("$@")
((${#CELLS[@]})) || CELLS=(8-natural 8-optimized 13-natural 13-optimized)
for cell in "${CELLS[@]}"; do
    [[ $cell =~ ^([2-9]|1[0-3])-(natural|optimized)$ ]] ||
        { echo "a cell is V-METHOD (V from 2 to 13, natural or optimized), not '$cell'" >&2; exit 2; }
done
BIN=${BIN:-target/release/bataille}
RECORDS=results/records.csv
OUT=results/records-backward/whole-game.csv
mkdir -p results/records-backward
[[ -f $OUT ]] || echo "colours,values,method,start_tricks,found_tricks,gain_tricks,budget,cpu_s,positions_searched,start_found_by" >"$OUT"
log=$(mktemp)
trap 'rm -f "$log" "$log.time" "$log.err"' EXIT
# The fields of the records file's longest row by tricks for C=4, V, METHOD, one a line:
# tricks, deal, command (a CSV reader: the deal and the command may be quoted).
longest() {
    awk -v v="$1" -v m="$2" '
        function fields(line, f,   n, i, c, q, cur) {
            n = 0; cur = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (q) {
                    if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 }
                    else cur = cur c
                } else if (c == "\"") q = 1
                else if (c == ",") { f[++n] = cur; cur = "" }
                else cur = cur c
            }
            f[++n] = cur
            return n
        }
        NR > 1 && fields($0, f) >= 9 && f[1] == 4 && f[2] == v && f[3] == m && f[4] == "tricks" && f[5] + 0 > best {
            best = f[5] + 0; deal = f[7]; command = f[9]
        }
        END { if (best) print best "\n" deal "\n" command }
    ' "$RECORDS"
}
for cell in "${CELLS[@]}"; do
    v=${cell%-*} m=${cell#*-}
    mapfile -t row < <(longest "$v" "$m")
    [[ ${#row[@]} -eq 3 ]] || continue
    start_tricks=${row[0]} deal=${row[1]}
    found_by=$(printf '%s' "${row[2]}" | cut -c1-120 | tr -d '"')
    if awk -F, -v v="$v" -v m="$m" -v t="$start_tricks" -v b="$BUDGET" '
        $2 == v && $3 == m && $4 == t && $7 == b { f = 1 } END { exit !f }' "$OUT"; then
        echo "C=4 V=$v $m: from $start_tricks tricks with budget $BUDGET already done; skipped"
        continue
    fi
    extend_whole "$deal" "$m" "$BUDGET" "$log"
    cpu=$(extend_cpu "$log")
    found=$(extend_found "$log")
    found=${found%,*}
    found=${found:-$start_tricks}
    positions=$(awk '/^searched:/ { print $2 }' "$log")
    echo "4,$v,$m,$start_tricks,$found,$((found - start_tricks)),$BUDGET,$cpu,$positions,\"$found_by\"" >>"$OUT"
    echo "C=4 V=$v $m: $start_tricks -> $found tricks in $cpu CPU s"
done
# A stop that came as the last run ended.
((stop_requested == 0)) || exit 130
