#!/usr/bin/env bash
# Reproduces every published check and every committed result of the toolkit, in order:
#   1. the verification catalogues (bataille, beggar-my-neighbour, take-away games, and the
#      rows of results/records.csv), which fail the script if any claim fails;
#   2. the article's tables (scripts/reproduce-tables.sh: about 30 s on 2 idle cores), then the
#      book's tables of results made from the committed results (scripts/book-tables.sh);
#   3. the acceptance searches: exhaustive C=4 V=4 (about 10 s) and C=1 V=12 (about 40 s CPU);
#   4. the constructions: every Spivey V from 5 to 200 and the C=1 position census up to V=11;
#   5. with --full only: the hunts of results/hunts/ (scripts/hunts.sh, minutes) and the C=1
#      V=12 position census (about 10 minutes and 780 MB).
# Usage: scripts/reproduce-everything.sh [--full]
set -euo pipefail
cd "$(dirname "$0")/.."
full=false
[ "${1:-}" = "--full" ] && full=true
cargo build --release -p bataille-cli --quiet
bin=target/release/bataille
step() { printf '\n== %s\n' "$*"; }

step "verification catalogues"
"$bin" verify
"$bin" bmn verify
"$bin" takeaway verify

step "the article's tables"
scripts/reproduce-tables.sh
BIN="$bin" scripts/book-tables.sh

step "acceptance searches"
out=$(mktemp -d)
"$bin" explore --colours 4 --values 4 --method natural --exhaustive --out "$out/c4v4"
"$bin" explore --colours 1 --values 12 --method natural --exhaustive --out "$out/c1v12"

step "constructions"
"$bin" construct spivey --values 5..200 > "$out/spivey.csv"
grep -c ',loop,' "$out/spivey.csv" | sed 's/$/ Spivey loops verified (185 expected)/'
for v in 2 3 4 5 6 7 8 9 10 11; do
  "$bin" construct c1-positions --values "$v" | grep -E '^(deck|on a loop)'
done

if $full; then
  step "hunts (results/hunts/)"
  BIN="$bin" scripts/hunts.sh
  step "every position of the C=1 V=12 deck"
  "$bin" construct c1-positions --values 12
fi
echo
echo "all done; search outputs in $out"
