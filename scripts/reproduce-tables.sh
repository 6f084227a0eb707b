#!/usr/bin/env bash
# Regenerates every table of the article under results/ (CSV, Markdown, SVG and a NOTE.md each),
# replacing the committed ones, and the loop-rate table of the committed hunts.
# Usage: scripts/reproduce-tables.sh [--deals N] [--threads N]   (extra flags go to every run)
# Same recipes and seeds => the same files (NOTE.md aside), whatever the thread count.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p bataille-cli --quiet
bin=target/release/bataille
for recipe in durations-c1 durations-c4 duels; do
  "$bin" experiment run "experiments/$recipe" --replace "$@"
done
# The records table reads the duration runs' results, the loop-rate table the committed hunts';
# they draw no deals.
"$bin" experiment run experiments/records --results results --replace
"$bin" experiment run experiments/loop-rates --results results --replace
