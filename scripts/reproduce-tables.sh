#!/usr/bin/env bash
# Regenerates every table of the article under results/ (CSV, Markdown, SVG and a NOTE.md each).
# Usage: scripts/reproduce-tables.sh [--deals N] [--threads N]   (extra flags go to every run)
# Same recipes and seeds => the same files (NOTE.md aside), whatever the thread count.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p bataille-cli --quiet
bin=target/release/bataille
for recipe in durations-c1 durations-c4 duels; do
  "$bin" experiment run "experiments/$recipe" "$@"
done
# The records table reads the duration runs' results; it draws no deals.
"$bin" experiment run experiments/records --results results
