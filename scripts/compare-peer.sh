#!/usr/bin/env bash
# Measures `bataille explore` against the public single-threaded C++ explorer
# (github.com/legrosbuffle/bataille_cpp) on this machine, one core each,
# alternating the two programs so that both see the same machine state.
#
#   scripts/compare-peer.sh [PEER_DIR] [ROUNDS]
#
# PEER_DIR: a checkout of bataille_cpp (cloned into a temporary directory when omitted; the
# figures in docs/performance.md come from commit 2bd1c9e). ROUNDS: alternations (default 3).
#
# Workloads (the two the issue names):
#   - every C=4 V=4 deal, natural: the C++ program plays the first half of the lexicographic
#     list (31,531,501 deals), we play one deal per mirror pair (31,532,760);
#   - random 52-card deals, natural: the C++ program runs until killed and logs a block every
#     2^20 deals when its longest game changes; with the author's seed 6243159 a block falls at
#     4,194,304 deals, and its `time:` (whole seconds) gives the rate; we play 4,194,304 deals.
# Rates are medians over the rounds. C=4 V=4: deals per CPU second (user time, steadier than
# wall time on a machine whose cores are shared); 52 cards: deals per wall second for both, as
# the C++ program's log gives elapsed time.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
peer=${1:-}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ -z "$peer" ]]; then
    peer="$work/bataille_cpp"
    git clone --quiet https://github.com/legrosbuffle/bataille_cpp "$peer"
fi
(cd "$peer" && g++ -std=c++20 -fstrict-aliasing -O3 -DNDEBUG -o "$work/peer" bataille.cc explore.cc)
(cd "$root" && cargo build --release --quiet --bin bataille)
ours="$root/target/release/bataille"

# User CPU seconds (FORMAT %U) or wall seconds (%e) of a command, its output discarded.
timed() {
    local format=$1
    shift
    /usr/bin/time -f "$format" -o "$work/time" "$@" >/dev/null 2>&1 || true
    cat "$work/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$work/v4-peer"; : >"$work/v4-ours"; : >"$work/52-peer"; : >"$work/52-ours"
for round in $(seq "$rounds"); do
    echo "round $round of $rounds" >&2
    # C=4 V=4 exhaustive.
    t=$(cd "$work" && timed %U "$work/peer" exhaustive natural 4 4)
    echo "31531501 / $t" | bc -l >>"$work/v4-peer"
    t=$(timed %U "$ours" explore -c 4 -v 4 --exhaustive --threads 1 --out "$work/out" --replace)
    echo "31532760 / $t" | bc -l >>"$work/v4-ours"
    # 52 cards, random.
    rm -f "$work"/c4v13_6243159.txt
    (cd "$work" && timeout 45 "$work/peer" random natural 4 13 6243159 >/dev/null 2>&1 || true)
    secs=$(awk '/after 4194304\// { hit = 1 } hit && /^time:/ { sub("s", "", $2); print $2; exit }' \
        "$work/c4v13_6243159.txt")
    echo "4194304 / $secs" | bc -l >>"$work/52-peer"
    t=$(timed %e "$ours" explore -c 4 -v 13 --random 4194304 --seed 1 --threads 1 --out "$work/out" --replace)
    echo "4194304 / $t" | bc -l >>"$work/52-ours"
done

printf '%-32s %14s %14s %7s\n' "workload (one core)" "C++ deals/s" "ours deals/s" "ratio"
for w in v4 52; do
    p=$(median <"$work/$w-peer"); o=$(median <"$work/$w-ours")
    name=$([[ $w == v4 ]] && echo "C=4 V=4 exhaustive, natural" || echo "52 cards random, natural")
    printf '%-32s %14.0f %14.0f %6.2fx\n' "$name" "$p" "$o" "$(echo "$o / $p" | bc -l)"
done
echo "every round (deals/s): C++ V=4 $(tr '\n' ' ' <"$work/v4-peer"); ours V=4 $(tr '\n' ' ' <"$work/v4-ours")" >&2
echo "  C++ 52 $(tr '\n' ' ' <"$work/52-peer"); ours 52 $(tr '\n' ' ' <"$work/52-ours")" >&2
