#!/bin/bash
# The position hunts against deal sampling (issue: "validate before the big run"): on decks
# where natural loops exist but are rare among deals (C=4 V=7, 8, 11), each method runs for
# the same CPU budget with the same seed, and the table counts the looping positions and the
# distinct loops each finds per CPU-hour. Every run is an ordinary, resumable `bataille`
# output directory (checkpoint beside it), so the script continues where it stopped.
#
# Usage: scripts/position-hunts.sh V [METHOD...]    run (or continue) the runs of C=4 V
#        scripts/position-hunts.sh table             the table of every finished run
#   METHOD   deals, uniform, piles, insert, mutate (default: all five)
# Environment: BIN (default target/release/bataille, copied to target/position-bin/),
#   MINUTES (CPU budget per run, default 20 for V=7, 40 otherwise), THREADS (default 0).
#
# Layout under results/cycles/validation/c4vV/:
#   METHOD/         the run's output directory (summary.csv, cycles.csv, loops.csv, ...)
#   METHOD.ckpt     its checkpoint while it runs
#   plan.csv        the positions (or deals) each method plays: its speed measured on a short
#                   sample, times the budget (the same number, hence the same positions, on a
#                   rerun)
#   cpu.csv         one line per run segment: method, start, end, CPU seconds, exit status
#                   (0 done, 130 stopped and resumed later, `lost`: killed with its machine, its
#                   CPU unknown, its work kept by the checkpoint), commit
#   seeds-insert.txt, seeds-mutate.txt   the seeds of the seeded samplers
# A finished run's files over 10 MB (the mutate runs list tens of thousands of loops) are
# compressed with `gzip -9 -n` (cycles.csv.gz, ...) to keep the repository light; `gzip -dk`
# gives the files back byte for byte.
set -euo pipefail
# shellcheck source=scripts/timed-run.sh
source "$(dirname "$0")/timed-run.sh"
SEED=1
BASE=results/cycles/validation
KNOWN=results/cycles/seeds/c4-natural-known.txt

# The cycles.csv of a run directory, compressed or not.
cycles_of() {
    if [[ -f $1/cycles.csv ]]; then cat "$1/cycles.csv"; else gzip -dc "$1/cycles.csv.gz"; fi
}

table() {
    echo "| deck | method | positions played | CPU s | looping positions | distinct loops | loops per CPU-hour | looping per CPU-hour | new loops (not seeds) |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for dir in "$BASE"/c4v*; do
        [[ -d $dir ]] || continue
        for m in deals uniform piles insert mutate; do
            local out=$dir/$m
            [[ -f $out/summary.csv && ! -f $dir/$m.ckpt ]] || continue
            local played looping loops cpu seeds new
            played=$(awk -F, '$1 == "deals" { print $2 }' "$out/summary.csv")
            looping=$(awk -F, '$1 == "looping_deals" { print $2 }' "$out/summary.csv")
            loops=$(($(cycles_of "$out" | wc -l) - 1))
            # CPU of every recorded segment (finished, or stopped and resumed); a segment lost
            # to a machine restart (exit `lost`, no CPU recorded) leaves the recorded sum short:
            # the planned budget stands for the whole run then, marked "planned".
            cpu=$(awk -F, -v m="$m" '$1 == m && ($5 == 0 || $5 == 130) { t += $4 } END { printf "%.0f", t }' "$dir/cpu.csv")
            if awk -F, -v m="$m" '$1 == m && $5 == "lost" { f = 1 } END { exit !f }' "$dir/cpu.csv"; then
                cpu="$(awk -F, -v m="$m" '$1 == m { print $3 }' "$dir/plan.csv") planned"
            fi
            new=$loops
            if [[ $m == mutate && -f $dir/seeds-mutate-ids.txt ]]; then
                new=$(cycles_of "$out" | tail -n +2 | cut -d, -f1 | grep -cvxFf "$dir/seeds-mutate-ids.txt" || true)
            fi
            awk -v d="${dir##*/}" -v m="$m" -v p="$played" -v c="$cpu" -v l="$looping" -v k="$loops" -v n="$new" \
                'BEGIN { h = (c + 0) / 3600; printf "| %s | %s | %s | %s | %s | %s | %.1f | %.1f | %s |\n", d, m, p, c, l, k, k / h, l / h, n }'
        done
    done
}

if [[ ${1:-} == table ]]; then table; exit 0; fi
V=${1:?usage: scripts/position-hunts.sh V [METHOD...] | table}
shift
METHODS=("$@")
[[ ${#METHODS[@]} -gt 0 ]] || METHODS=(deals uniform piles insert mutate)
MINUTES=${MINUTES:-$([[ $V == 7 ]] && echo 20 || echo 40)}
THREADS=${THREADS:-0}
DIR=$BASE/c4v$V
mkdir -p "$DIR" target/position-bin
cp "${BIN:-target/release/bataille}" target/position-bin/bataille
BIN=target/position-bin/bataille
[[ -f $DIR/cpu.csv ]] || echo "method,start,end,cpu_s,exit,commit" >"$DIR/cpu.csv"
[[ -f $DIR/plan.csv ]] || echo "method,positions,budget_cpu_s" >"$DIR/plan.csv"
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git status --porcelain -- crates 2>/dev/null) ]] || COMMIT=$COMMIT-dirty

# Seeds: for insert, the known loops of smaller decks; for mutate, positions of the loops of
# this deck known before the run (the deal sampling's, when it has found some, and the known
# ones of this deck).
[[ -f $DIR/seeds-insert.txt ]] || awk -v v="$V" '/^#/ { next } {
    n = split($0, c, /[^0-9]+/); m = 0; for (i = 1; i <= n; i++) if (c[i] + 0 > m) m = c[i] + 0
    if (m < v) print }' "$KNOWN" >"$DIR/seeds-insert.txt"

args_of() {
    case $1 in
    deals) echo "hunt -c 4 -v $V" ;;
    uniform | piles) echo "cycles hunt -c 4 -v $V --sampler $1" ;;
    insert) echo "cycles hunt -c 4 -v $V --sampler insert --seeds $DIR/seeds-insert.txt" ;;
    mutate) echo "cycles hunt -c 4 -v $V --sampler mutate --seeds $DIR/seeds-mutate.txt" ;;
    esac
}

for m in "${METHODS[@]}"; do
    out=$DIR/$m ckpt=$DIR/$m.ckpt
    if [[ -f $out/summary.csv && ! -f $ckpt ]]; then echo "== $m: done"; continue; fi
    if [[ $m == mutate && ! -f $DIR/seeds-mutate.txt ]]; then
        { awk -v v="$V" '/^#/ { next } {
            n = split($0, c, /[^0-9]+/); m = 0; for (i = 1; i <= n; i++) if (c[i] + 0 > m) m = c[i] + 0
            if (m == v) print }' "$KNOWN"
          [[ -f $DIR/deals/cycles.csv ]] && awk -F'"' 'NR > 1 { print $2 }' "$DIR/deals/cycles.csv"
        } >"$DIR/seeds-mutate.txt"
        if [[ ! -s $DIR/seeds-mutate.txt ]]; then
            echo "== mutate: no loop of C=4 V=$V known yet (run deals first)"; rm -f "$DIR/seeds-mutate.txt"; continue
        fi
        # The ids of the seeds' loops, so that the table counts the loops found beside them.
        while read -r p; do "$BIN" play "$p" | awk '$1 == "cycle" && $2 == "id:" { print $3 }'; done \
            <"$DIR/seeds-mutate.txt" | sort -u >"$DIR/seeds-mutate-ids.txt"
    fi
    n=$(awk -F, -v m="$m" '$1 == m { print $2 }' "$DIR/plan.csv")
    if [[ -z $n ]]; then
        # The speed of this method on one thread, measured on 2^20 positions (or more, until
        # the sample lasts 5 s), times the budget on all threads.
        k=1048576
        while :; do
            tmp=$(mktemp -d)
            t=$( { /usr/bin/time -f "%U %S" "$BIN" $(args_of "$m") --random $k --seed 99 --threads 1 \
                --out "$tmp/o" >/dev/null; } 2>&1 | tail -1 | awk '{ print $1 + $2 }')
            rm -rf "$tmp"
            if awk -v t="$t" 'BEGIN { exit !(t >= 5) }'; then break; fi
            k=$((k * 2))
        done
        n=$(awk -v k="$k" -v t="$t" -v s="$((MINUTES * 60))" 'BEGIN { x = k / t * s; p = 10 ^ int(log(x) / log(10) - 1); printf "%.0f", int(x / p) * p }')
        echo "$m,$n,$((MINUTES * 60))" >>"$DIR/plan.csv"
    fi
    # A stop asked since the last method: no further method.
    ((stop_requested == 0)) || exit 130
    resume=()
    [[ -f $ckpt ]] && resume=(--resume)
    echo "== $m: $n positions ($(date -u +%FT%TZ)) ${resume[*]}"
    start=$(date -u +%FT%TZ)
    times=$(mktemp)
    # shellcheck disable=SC2046
    timed_run "$times" "$BIN" $(args_of "$m") --random "$n" --seed $SEED \
        --threads "$THREADS" --checkpoint "$ckpt" "${resume[@]}" --out "$out" --replace
    status=$run_status
    cpu=$(timed_cpu "$times")
    rm -f "$times"
    echo "$m,$start,$(date -u +%FT%TZ),$cpu,$status,$COMMIT" >>"$DIR/cpu.csv"
    [[ $status -eq 0 ]] || exit "$status"
    rm -f "$ckpt"
    find "$out" -maxdepth 1 -type f -size +10M -exec gzip -9 -n {} +
done
((stop_requested == 0)) || exit 130
