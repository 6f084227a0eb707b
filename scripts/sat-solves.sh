#!/bin/bash
# The SAT solves of results/sat/ (chapter: docs/results-sat.md): each question is an ordinary
# `bataille cycles solve` or `bataille aligned solve` output directory, continued with --resume when it exists, so the
# script picks up where a stopped run left. The solver's resume keeps the periods and parts
# decided, and those undecided at the time limit given or a larger one: a question undecided
# at LIMIT waits for a larger LIMIT, its run then saying "nothing left to solve".
#
# Questions named *-cards count periods in cards each player turns per turn of the loop
# (`cycles solve --cards`), the others in tricks; *-ties-T ask only for loops whose tricks
# have at most T ties (`--max-ties T`), *-hand-M only loops in which one player holds at most
# M cards at every trick boundary (`--max-hand M`). Questions with --split solve each period
# in parts (one per length of the smallest hand, `parts.csv`), THREADS of them at once
# (default 1; on a workstation, the number of cores).
#
# Usage: scripts/sat-solves.sh [NAME...]     run (or continue) the named questions (default all)
#        scripts/sat-solves.sh table          the table of every question's periods (the "last"
#                                             columns: the last period refuted by a real proof,
#                                             not an odd count of cards refuted in one step; for a
#                                             split period, the largest part's clauses and the
#                                             sums of its parts' seconds and proofs)
#        scripts/sat-solves.sh aligned-table  the table of the aligned questions
# Environment: BIN (default target/release/bataille), LIMIT (seconds per period, or per part
#   of a --split question; default 600, unless the question sets its own), JOBS (questions
#   solved at once, default 1: the solver uses one core, so on a workstation JOBS=<cores>
#   runs that many questions side by side, each line of output prefixed with its question's
#   name; the answers are the same as in a row),
#   THREADS (parts of a --split question solved at once, default 1).
set -euo pipefail
BIN=${BIN:-target/release/bataille}
LIMIT=${LIMIT:-600}
JOBS=${JOBS:-1}
THREADS=${THREADS:-1}
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || { echo "THREADS must be a positive number, not '$THREADS'" >&2; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
BASE=results/sat

# name: command and flags
QUESTIONS=(
    "c4v3-natural:cycles solve -c 4 -v 3 -m natural --max-period 19 --all"
    "c4v3-optimized:cycles solve -c 4 -v 3 -m optimized --max-period 19 --all"
    "c4v3-natural-cards:cycles solve -c 4 -v 3 -m natural --cards --max-period 26 --all"
    "c4v3-optimized-cards:cycles solve -c 4 -v 3 -m optimized --cards --max-period 26 --all"
    "c4v4-natural-cards:cycles solve -c 4 -v 4 -m natural --cards --max-period 32 --all --time-limit 3600"
    "c4v5-optimized-cards-36:cycles solve -c 4 -v 5 -m optimized --cards --period 36 --time-limit 3600"
    "c2v7-natural-cards-96:cycles solve -c 2 -v 7 -m natural --cards --period 96 --time-limit 3600"
    "c4v6-natural-cards-48:cycles solve -c 4 -v 6 -m natural --cards --period 48 --time-limit 3600"
    "aligned-24-prime:aligned solve --cards 24 --max-rounds 4 --prime --time-limit 9000"
    "aligned-28:aligned solve --cards 28 --max-rounds 4 --time-limit 3600"
    "c4v7-natural-cards-56:cycles solve -c 4 -v 7 -m natural --cards --period 56 --time-limit 10800"
    "c4v7-natural-cards-56-ties-1:cycles solve -c 4 -v 7 -m natural --cards --period 56 --max-ties 1 --time-limit 3600"
    "c4v7-natural-cards-56-ties-1-hand-10:cycles solve -c 4 -v 7 -m natural --cards --period 56 --max-ties 1 --max-hand 10 --time-limit 3600"
    "c4v7-natural-cards-ties-1-hand-10:cycles solve -c 4 -v 7 -m natural --cards --max-period 56 --all --split --max-ties 1 --max-hand 10 --time-limit 1800"
    "c4v5-optimized-cards:cycles solve -c 4 -v 5 -m optimized --cards --max-period 36 --all --split --time-limit 5400"
    "c2v7-natural-cards:cycles solve -c 2 -v 7 -m natural --cards --max-period 48 --all --split --time-limit 7200"
    "c4v13-natural-cards:cycles solve -c 4 -v 13 -m natural --cards --max-period 60 --all --split"
    "c4v5-natural-cards:cycles solve -c 4 -v 5 -m natural --cards --max-period 60 --all --split"
    "c4v13-optimized-cards:cycles solve -c 4 -v 13 -m optimized --cards --max-period 60 --all --split"
    "c4v13-natural-cards-ties-0:cycles solve -c 4 -v 13 -m natural --cards --max-period 80 --all --split --max-ties 0"
    "c4v13-natural-cards-ties-1:cycles solve -c 4 -v 13 -m natural --cards --max-period 60 --all --split --max-ties 1"
    "c4v13-natural-cards-ties-1-hand-18:cycles solve -c 4 -v 13 -m natural --cards --max-period 60 --all --split --max-ties 1 --max-hand 18"
    "c2v7-natural-cards-48:cycles solve -c 2 -v 7 -m natural --cards --period 48 --time-limit 1500"
    "c4v6-natural-cards:cycles solve -c 4 -v 6 -m natural --cards --max-period 47 --all --split --solver-config unsat"
    "c4v7-natural-cards:cycles solve -c 4 -v 7 -m natural --cards --max-period 27 --all --split --solver-config unsat"
    "aligned-2:aligned solve --cards 2 --max-rounds 8"
    "aligned-6:aligned solve --cards 6 --max-rounds 8"
    "aligned-8:aligned solve --cards 8 --max-rounds 8"
    "aligned-10:aligned solve --cards 10 --max-rounds 8"
    "aligned-12:aligned solve --cards 12 --max-rounds 8"
    "aligned-16-prime:aligned solve --cards 16 --max-rounds 8 --prime --time-limit 3600"
    "aligned-c4v4:aligned solve --cards 16 --colours 4 --max-rounds 8"
    "aligned-c4v6:aligned solve --cards 24 --colours 4 --max-rounds 3"
    "aligned-c4v6-r4:aligned solve --cards 24 --colours 4 --rounds 4"
    "aligned-c4v6-prime:aligned solve --cards 24 --colours 4 --max-rounds 4 --prime"
    "aligned-c4v7:aligned solve --cards 28 --colours 4 --max-rounds 4"
    "c4v4-natural:cycles solve -c 4 -v 4 -m natural --max-period 24 --all"
    "c4v5-natural:cycles solve -c 4 -v 5 -m natural --max-period 40 --all"
    "c4v5-optimized:cycles solve -c 4 -v 5 -m optimized --max-period 28 --all"
    "c4v13-natural:cycles solve -c 4 -v 13 -m natural --max-period 40 --all"
    "c4v13-optimized:cycles solve -c 4 -v 13 -m optimized --max-period 40 --all"
    "aligned-16:aligned solve --cards 16 --max-rounds 8 --time-limit 7200"
)

table() {
    echo "| question | periods certified complete (tricks, or cards per player for *-cards) | loops found (period in tricks) | undecided at | CNF clauses (last period) | solver s (last) | proof MB (last) |"
    echo "| --- | --- | --- | --- | ---: | ---: | ---: |"
    for q in "${QUESTIONS[@]}"; do
        local name=${q%%:*} dir=$BASE/${q%%:*}
        [[ $name == aligned-* || ! -f $dir/instances.csv ]] && continue
        awk -F, -v name="$name" -v cycles="$dir/cycles.csv" '
            BEGIN { while ((getline line < cycles) > 0) if (n++) { split(line, f, ","); loops = loops (loops ? ", " : "") f[1] " (" f[2] ")" } }
            NR > 1 { if ($3 == "complete" && $1 == last + 1) { last = $1; if ($10 > 1000) { cl = $6; s = $8; mb = $10 / 1e6 } } else if ($3 == "undecided" || $3 == "stopped") und = $1 " (" $8 " s" ($13 == "" ? " over its parts" : "") ($3 == "stopped" ? ", stopped" : "") ")" }
            END {
                proof = cl ? sprintf("%d | %.1f | %.1f", cl, s, mb) : "- | - | -"
                printf "| %s | %s | %s | %s | %s |\n", name, last ? "1 to " last : "- (one period asked alone)", loops ? loops : "none", und ? und : "-", proof
            }
        ' "$dir/instances.csv"
    done
}

aligned_table() {
    echo "| question | rounds certified complete | cycles of rounds | loops | undecided at | CNF clauses (last) | solver s (all) | proof MB (last) |"
    echo "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |"
    for q in "${QUESTIONS[@]}"; do
        local name=${q%%:*} dir=$BASE/${q%%:*}
        [[ $name == aligned-* && -f $dir/instances.csv ]] || continue
        awk -F, -v name="$name" '
            NR > 1 { s += $8; if ($2 == "complete" && $1 == last + 1) { last = $1; c += $3; l += $4; cl = $6; mb = $10 / 1e6 } else if ($2 == "undecided" || $2 == "stopped") und = $1 " (" $8 " s" ($4 > 0 ? ", " $4 " loops found so far" : "") ($2 == "stopped" ? ", stopped" : "") ")" }
            END { printf "| %s | %s | %d | %d | %s | %d | %.1f | %.1f |\n", name, last ? "1 to " last : "none", c, l, und ? und : "-", cl, s, mb }
        ' "$dir/instances.csv"
    done
}

case ${1:-} in
    table) table; exit 0 ;;
    aligned-table) aligned_table; exit 0 ;;
esac
[[ $LIMIT =~ ^[1-9][0-9]*$ ]] || { echo "LIMIT must be a positive number of seconds, not '$LIMIT'" >&2; exit 2; }
names=("$@")
for n in "${names[@]}"; do
    known=0
    for q in "${QUESTIONS[@]}"; do [[ ${q%%:*} == "$n" ]] && known=1; done
    ((known)) || { echo "unknown question '$n' (the names are in the QUESTIONS list of $0; or table, aligned-table)" >&2; exit 2; }
done
# Ctrl-C or SIGTERM to this script goes on to the solves under way (each writes what it decided
# and exits 130), and no further question is started.
stopping=0
trap 'stopping=1; kill -TERM $(jobs -p) 2>/dev/null || true' INT TERM
for q in "${QUESTIONS[@]}"; do
    ((stopping)) && break
    name=${q%%:*}
    flags=${q#*:}
    if [[ ${#names[@]} -gt 0 && ! " ${names[*]} " == *" $name "* ]]; then
        continue
    fi
    out=$BASE/$name
    resume=()
    [[ -f $out/instances.csv ]] && resume=(--resume)
    # A question may set its own time limit (the 16-card enumeration: about 70,000 models).
    limit=(--time-limit "$LIMIT")
    [[ $flags == *--time-limit* ]] && limit=()
    threads=()
    [[ $flags == *--split* ]] && threads=(--threads "$THREADS")
    echo "== $name: $flags ${limit[*]} ${threads[*]} ${resume[*]}"
    if [[ $JOBS == 1 ]]; then
        # In the background, so that a signal to the script is forwarded at once.
        # shellcheck disable=SC2086
        "$BIN" $flags "${limit[@]}" "${threads[@]}" --out "$out" "${resume[@]}" &
        # (A trap cuts `wait` short: wait until the solver has ended, then ask its status.)
        status=0
        while kill -0 "$!" 2>/dev/null; do wait "$!" || true; done
        wait "$!" || status=$?
        ((status == 0)) || exit "$status"
        continue
    fi
    while (($(jobs -rp | wc -l) >= JOBS)); do
        wait -n || failed=1
    done
    ((stopping)) && break
    # The job is the solver itself (exec), its output prefixed by a process substitution, so
    # that the trap's signal reaches it.
    # shellcheck disable=SC2086
    (exec "$BIN" $flags "${limit[@]}" "${threads[@]}" --out "$out" "${resume[@]}" \
        > >(sed -u "s/^/[$name] /") 2>&1) &
done
while (($(jobs -rp | wc -l) > 0)); do
    wait -n || failed=1
done
((stopping)) && exit 130
exit "${failed:-0}"
