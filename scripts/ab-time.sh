#!/bin/bash
# Times two `bataille` binaries on the same search, alternating A B A B ..., and prints each
# one's median CPU time (user + sys, from /usr/bin/time) and deals per CPU-second, then checks
# that both wrote the same files (every output file but metadata.csv, byte for byte).
#
# Usage: scripts/ab-time.sh ROUNDS BIN_A BIN_B ARGS...
#   ARGS: a bataille command line without --out, e.g.
#   scripts/ab-time.sh 5 target/release/bataille /tmp/old/bataille \
#       hunt -c 4 -v 5 -m natural --exhaustive --shard 1/10000 --threads 1
set -euo pipefail
ROUNDS=${1:?usage: scripts/ab-time.sh ROUNDS BIN_A BIN_B ARGS...}
A=${2:?binary A}
B=${3:?binary B}
shift 3
CMD=("$@")
[[ $ROUNDS -ge 1 ]] || { echo "ROUNDS must be at least 1" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() { # label binary round
    local out=$TMP/$1-$3
    /usr/bin/time -f "%U %S" -o "$TMP/time" "$2" "${CMD[@]}" --out "$out" >/dev/null 2>&1 ||
        { echo "$2 failed" >&2; exit 1; }
    awk '{ printf "%.2f\n", $1 + $2 }' "$TMP/time" >>"$TMP/$1.cpu"
}
for ((r = 1; r <= ROUNDS; r++)); do
    run a "$A" "$r"
    run b "$B" "$r"
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
deals=$(awk -F, '$1 == "deals_played" { print $2 }' "$TMP/a-1/metadata.csv")
ma=$(median "$TMP/a.cpu")
mb=$(median "$TMP/b.cpu")
echo "A $A: CPU $(paste -sd' ' "$TMP/a.cpu") s, median $ma s, $(awk -v d="$deals" -v t="$ma" 'BEGIN { printf "%.2f", d / t / 1e6 }') M deals per CPU-second"
echo "B $B: CPU $(paste -sd' ' "$TMP/b.cpu") s, median $mb s, $(awk -v d="$deals" -v t="$mb" 'BEGIN { printf "%.2f", d / t / 1e6 }') M deals per CPU-second"
echo "B / A: $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", b / a }')x"
same=yes
for f in "$TMP/a-1"/*; do
    name=$(basename "$f")
    [[ $name == metadata.csv ]] && continue
    cmp -s "$f" "$TMP/b-1/$name" || { echo "differs: $name"; same=no; }
done
echo "outputs byte-identical (all but metadata.csv): $same"
[[ $same == yes ]]
