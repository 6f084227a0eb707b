#!/usr/bin/env bash
# Measures `bataille explore` against the public single-threaded C++ explorer
# (github.com/legrosbuffle/bataille_cpp) on this machine, one core each, both methods,
# alternating the two programs so that both see the same machine state.
#
#   scripts/compare-peer.sh [PEER_DIR] [ROUNDS]
#
# PEER_DIR: a checkout of bataille_cpp (cloned from GitHub into a temporary directory when
# omitted; the figures in docs/performance.md come from commit 26848b8). ROUNDS: alternations
# (default 3). BIN: our binary (default: target/release/bataille, built first).
#
# Workloads, natural and optimized stacking:
#   - every C=4 V=4 deal: the C++ program plays the first half of the lexicographic list
#     (31,531,501 deals), we play one deal per mirror pair (31,532,760);
#   - random 52-card deals: the C++ program's random mode runs until killed, so the copy built
#     here is patched to stop after 2^21 = 2,097,152 games (its `while (true)` loop, the only
#     change); we play 2,097,152 deals too.
# Every figure is deals per CPU second (user + system time of the whole process, from
# /usr/bin/time), the median over the rounds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
peer=${1:-}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
games=2097152

if [[ -z "$peer" ]]; then
    peer="$work/bataille_cpp"
    git clone --quiet https://github.com/legrosbuffle/bataille_cpp "$peer"
fi
mkdir "$work/src"
cp "$peer"/*.cc "$peer"/*.h "$work/src/"
grep -q 'while (true) {' "$work/src/explore.cc" ||
    { echo "compare-peer: explore.cc has no 'while (true)' loop to bound" >&2; exit 1; }
sed -i "s/while (true) {/while (arena.stats().num_played < $games) {/" "$work/src/explore.cc"
(cd "$work/src" && g++ -std=c++20 -fstrict-aliasing -O3 -DNDEBUG -o "$work/peer" bataille.cc explore.cc)
if [[ -z ${BIN:-} ]]; then
    (cd "$root" && cargo build --release --quiet --bin bataille)
    BIN="$root/target/release/bataille"
fi
ours=$(realpath "$BIN")

# CPU seconds (user + system) of a command run in $work, its output discarded.
cpu() {
    (cd "$work" && /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>&1) || true
    awk '{ print $1 + $2 }' "$work/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for m in natural optimized; do
    : >"$work/v4-peer-$m"; : >"$work/v4-ours-$m"; : >"$work/52-peer-$m"; : >"$work/52-ours-$m"
done
for round in $(seq "$rounds"); do
    echo "round $round of $rounds" >&2
    for m in natural optimized; do
        t=$(cpu "$work/peer" exhaustive "$m" 4 4)
        echo "31531501 / $t" | bc -l >>"$work/v4-peer-$m"
        t=$(cpu "$ours" explore -c 4 -v 4 -m "$m" --exhaustive --threads 1 --out "$work/out" --replace)
        echo "31532760 / $t" | bc -l >>"$work/v4-ours-$m"
        t=$(cpu "$work/peer" random "$m" 4 13 6243159)
        echo "$games / $t" | bc -l >>"$work/52-peer-$m"
        t=$(cpu "$ours" explore -c 4 -v 13 -m "$m" --random "$games" --seed 1 --threads 1 \
            --out "$work/out" --replace)
        echo "$games / $t" | bc -l >>"$work/52-ours-$m"
    done
done

printf '%-36s %14s %14s %7s\n' "workload (one core, CPU time)" "C++ deals/s" "ours deals/s" "ratio"
for w in v4 52; do
    for m in natural optimized; do
        p=$(median <"$work/$w-peer-$m"); o=$(median <"$work/$w-ours-$m")
        name=$([[ $w == v4 ]] && echo "C=4 V=4 exhaustive, $m" || echo "52 cards random, $m")
        printf '%-36s %14.0f %14.0f %6.2fx\n' "$name" "$p" "$o" "$(echo "$o / $p" | bc -l)"
    done
done
for w in v4 52; do
    for m in natural optimized; do
        echo "every round, $w $m (deals/s): C++ $(tr '\n' ' ' <"$work/$w-peer-$m"); ours $(tr '\n' ' ' <"$work/$w-ours-$m")" >&2
    done
done
