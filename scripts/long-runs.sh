#!/usr/bin/env bash
# The long runs of the cycles, SAT and records work, one after another in the project's order,
# so that the cores go straight from one to the next. Each step is resumable and skips what
# the committed files say is done: started again after a stop, or on a fresh clone, the queue
# goes on where it was.
#   1. the 52-card natural position hunt to its 100 shards (scripts/position-hunt-52.sh
#      uniform), then the deals behind its longest games (scripts/position-records.sh);
#   2. the optimized 52-card position hunt to 30 shards (3·10^10 positions, the records work's
#      bar for the 52-card optimized cell), 10 shards at a time, each ten followed by
#      scripts/position-records.sh on it;
#   3. the SAT questions still open on the known loops (scripts/sat-solves.sh):
#      c4v7-natural-cards (no loop of C=4 V=7 turns 1 to 27 cards? loops turning 28 are known:
#      the shortest loops' lower bound), LIMIT=7200 a part (certified in 415 solver seconds,
#      its longest part 20 s); c4v6-natural-cards (to 47 cards, below its aligned loops' 48,
#      which c4v6-natural-cards-48 asks apart), LIMIT=9000 a part: its parts' sum took
#      1,748 s at 34 cards, 2,861 s at 36, 4,566 s at 38, 10,799 s at 40 and 16,593 s at 42,
#      its longest part 442, 680, 1,052, 3,167 and 4,200 s, the 40-card one with builds and
#      tests on the same two cores (solve_s is wall time; the ten 40-card parts timed alone
#      took 1.82 times their 38-card times in all, about 1,900 s for the longest). At 42 cards,
#      quiet, the parts took 1.6 to 2.1 times their 40-card times, the two longest 3.7 and 4.3
#      times their 38-card ones: about 2 times more each 2 cards; at 44 (certified, with 45,
#      by 33,332 s over its parts) those two took 8,464 and 8,864 s, the other parts of over
#      1,000 s 1.45 to 2.09 times their 42-card times, so about 18,000 s at 46
#      (results/sat/c4v6-natural-cards/parts.csv). The
#      solver keeps no state between runs: a part stopped with the queue starts again from
#      nothing. The parts start longest first (cycles solve --split), so the longest starts
#      with the run. The queue here is stopped about every three hours: 9,000 s (2.5 h) is the
#      most a part can count on, so a part that needs more stops undecided at its limit
#      (a resume at the same limit keeps it as it is and solves only the parts left: see 8.).
#      46 cards did; 44's longest fitted, with nothing else beside them. On a machine that runs for days, raise it (LIMIT=21600
#      scripts/sat-solves.sh c4v6-natural-cards). Here it runs until 45 cards are certified;
#      46 cards, whose longest parts stopped undecided at 9,000 s, comes last (8.);
#   4. the 32-card cells of the records work to 3·10^10 positions each: the position hunts
#      c4v8-natural-positions-2 and c4v8-optimized-positions-2 (scripts/record-hunts.sh, their
#      checkpoints in results/hunts/checkpoints), each followed by scripts/position-records.sh
#      on it;
#   5. c4v13-natural-cards, LIMIT=3600 a part, while 38 cards are not certified (certified
#      to 39 cards: 36 took 6,824 s over its 26 parts, the longest 1,124 s, 38 took 15,454 s,
#      the longest 1,761 s). Once running, the step would go on into 40 cards (about 35,000 s,
#      parts that may pass 3,600 s: an estimate) until the queue is stopped; 40 cards is not
#      in this queue (LIMIT=7200 scripts/sat-solves.sh c4v13-natural-cards goes on with it);
#   6. the 32-card cells of the records work to 3·10^10 deals each as well (the bar is
#      counted in deals; 4. counts positions of every split): c4v8-optimized-random-4 (done)
#      and c4v8-natural-random-1 (scripts/record-hunts.sh, checkpoints in
#      results/hunts/checkpoints), then scripts/whole-game.sh 1000000 (the backward search
#      from every position of each cell's longest game; it skips the cells done from the same
#      game). They lose nothing when the queue stops;
#   7. the rest of the optimized 52-card hunt, 10 shards at a time as in 2.;
#   8. c4v6-natural-cards' 46 cards, LIMIT=9000 a part. Its two longest parts (smallest
#      hands 4 and 6) stopped undecided at 9,000 s, so 46 cards stays undecided at this limit
#      whatever the other parts give, and the step stops there (47 is not reached). A resume
#      keeps those two as they are (cycles solve --resume keeps a part undecided at its
#      limit when the limit is not raised) and solves the other parts, the longest first
#      (smallest hand 5 took 5,315 s at 44 cards and may not fit 9,000 s at 46): what a
#      longer limit would not have to do again.
# Nothing is committed by the script: commit what it adds with scripts/commit-progress.sh (the
# results with the book's tables made from them, which CI checks).
#
# Usage: THREADS=2 setsid nohup nice -n 19 scripts/long-runs.sh > target/long-runs.log 2>&1 &
#        kill -TERM <the script's pid>   stops the step under way (its checkpoint is kept, its
#                                        cpu.csv row written) and the queue; exit 130
#        scripts/long-runs.sh status     where each step stands
# Environment: THREADS (cores for each step, default 2), BIN (default target/release/bataille;
#   the script runs a copy of its own, so a rebuild does not change it under a run).
set -euo pipefail
cd "$(dirname "$0")/.."
OPTIMIZED_FIRST=30
SAT_QUESTIONS=(c4v7-natural-cards c4v6-natural-cards c4v13-natural-cards)
V8_HUNTS=(c4v8-natural-positions-2 c4v8-optimized-positions-2)
V8_DEALS=(c4v8-optimized-random-4 c4v8-natural-random-1)
# Whether the record hunt NAME is finished (its results say complete).
hunt_finished() { grep -qsx 'complete,true' "results/hunts/$1/summary.csv"; }

if [[ ${1:-} == status ]]; then
    scripts/position-hunt-52.sh uniform status
    METHOD=optimized scripts/position-hunt-52.sh uniform status
    # The walks back from the hunts' longest games: the games done, and the shards they came from.
    # (A run in one piece, not in shards, counts as one shard.)
    [[ -f results/records-backward/from-positions.csv ]] && awk -F, 'NR > 1 { run = $1; sub(/.*\//, "", run); n[run]++; if ($2 > s[run]) s[run] = $2 }
        END { for (r in n) printf "%s walk back: %d games searched, the latest from %d finished shards\n", r, n[r], s[r] }' \
        results/records-backward/from-positions.csv | sort
    for name in "${V8_HUNTS[@]}" "${V8_DEALS[@]}"; do
        if hunt_finished "$name"; then
            echo "$name: finished"
        elif [[ -f results/hunts/checkpoints/$name.ckpt ]]; then
            awk -v n="$name" '$1 == "mode" { of = $3 } $1 == "counts" { done = $2 }
                END { printf "%s: %s of %s %s (checkpoint)\n", n, done, of, n ~ /positions/ ? "positions" : "deals" }' "results/hunts/checkpoints/$name.ckpt"
        else
            echo "$name: not started"
        fi
    done
    scripts/sat-solves.sh table | awk -F' [|] ' -v questions="${SAT_QUESTIONS[*]}" '
        BEGIN { n = split(questions, q, " ") }
        { line[substr($1, 3)] = sprintf("periods certified %s, undecided at %s", $2 ~ /^-/ ? "none yet" : $2, $4) }
        END { for (i = 1; i <= n; i++) printf "%s: %s\n", q[i], (q[i] in line) ? line[q[i]] : "not started" }'
    exit 0
fi
[[ $# -eq 0 ]] || { echo "usage: $0 [status]" >&2; exit 2; }
THREADS=${THREADS:-2}
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || { echo "THREADS must be a positive number, not '$THREADS'" >&2; exit 2; }
mkdir -p target/long-runs-bin
# `nice` alone does not yield to work started in another session where Linux groups processes
# by session (sched_autogroup_enabled=1): each group gets an even share of the cores, whatever
# its processes' nice values. The queue's own group is made as nice as its processes, when the
# queue leads its session (started with setsid, as above: the group is then the queue's alone,
# not its user's shell's).
if [[ -w /proc/self/autogroup && $(ps -o sid= -p $$ | tr -d ' ') == "$$" ]]; then
    echo 19 >/proc/self/autogroup 2>/dev/null || true
fi
# One queue at a time (a second would replace the binary under the first); the lock goes with
# the process, and the steps inherit it.
exec 8>target/long-runs-bin/.lock
flock -n 8 || { echo "another scripts/long-runs.sh is under way (it holds target/long-runs-bin/.lock)" >&2; exit 2; }
cp "${BIN:-target/release/bataille}" target/long-runs-bin/bataille.tmp
mv target/long-runs-bin/bataille.tmp target/long-runs-bin/bataille
export BIN=$PWD/target/long-runs-bin/bataille

child=
stopped=0
trap 'stopped=1; [[ -n $child ]] && kill -TERM "$child" 2>/dev/null || true' INT TERM
# Runs one step in the background (so that a signal reaches it) and returns its status; a
# stop ends the queue, whenever it comes: before the step starts, while it starts, or during it.
step() {
    ((stopped)) && { echo "stopped before: $*"; exit 130; }
    echo "== $(date -u +%FT%TZ) $*"
    "$@" &
    child=$!
    ((stopped)) && kill -TERM "$child" 2>/dev/null
    local status=0
    # A trapped signal cuts `wait` short: wait until the step has ended, then ask its status.
    while kill -0 "$child" 2>/dev/null; do wait "$child" || true; done
    wait "$child" || status=$?
    child=
    if ((stopped)); then
        echo "stopped during: $* (exit $status)"
        exit 130
    fi
    return "$status"
}
done_shards() { # METHOD: the number of finished shards, or the queue ends (exit 2)
    local line n
    line=$(METHOD=$1 scripts/position-hunt-52.sh uniform status) || { echo "cannot read the state of the $1 hunt" >&2; exit 2; }
    n=$(sed 's/^[^:]*: \([0-9]*\) of.*/\1/' <<<"$line")
    [[ $n =~ ^[0-9]+$ ]] || { echo "cannot read the state of the $1 hunt: $line" >&2; exit 2; }
    echo "$n"
}
# The optimized hunt to TARGET finished shards, in chunks that end on a multiple of ten, each
# followed by the walk back from its longest games; the walk back once more at the end (it
# skips the games already done), in case the queue was stopped during the last one.
optimized_to() { # TARGET
    local n
    n=$(done_shards optimized)
    while ((n < $1)); do
        local chunk=$((10 - n % 10))
        ((chunk <= $1 - n)) || chunk=$(($1 - n))
        step env METHOD=optimized THREADS="$THREADS" scripts/position-hunt-52.sh uniform "$chunk"
        step scripts/position-records.sh results/cycles/hunt-52/optimized-uniform
        n=$(done_shards optimized)
    done
    step scripts/position-records.sh results/cycles/hunt-52/optimized-uniform
}

step env THREADS="$THREADS" scripts/position-hunt-52.sh uniform
step scripts/position-records.sh
optimized_to "$OPTIMIZED_FIRST"
step env LIMIT=7200 THREADS="$THREADS" scripts/sat-solves.sh c4v7-natural-cards
# Whether the SAT question NAME has PERIOD certified (its instances.csv row says complete).
certified() { awk -F, -v p="$2" '$1 == p && $3 == "complete" { f = 1 } END { exit !f }' "results/sat/$1/instances.csv"; }
# The record hunt NAME from its committed checkpoint, unless it is finished (a finished hunt
# run again would play nothing and rewrite its metadata with that).
record_hunt() {
    if ! hunt_finished "$1"; then
        step env CHECKPOINTS=results/hunts/checkpoints THREADS="$THREADS" scripts/record-hunts.sh "$1"
    fi
}
# C=4 V=6 here until 45 cards are certified (the step goes on into 46 if that happens while it
# runs); from then on its 46 cards come last (8. above).
if ! certified c4v6-natural-cards 45; then
    step env LIMIT=9000 THREADS="$THREADS" scripts/sat-solves.sh c4v6-natural-cards
fi
for name in "${V8_HUNTS[@]}"; do
    record_hunt "$name"
    step scripts/position-records.sh "results/hunts/$name"
done
# The 52-card bound while 38 cards are not certified (see 5. above).
if ! certified c4v13-natural-cards 38; then
    step env LIMIT=3600 THREADS="$THREADS" scripts/sat-solves.sh c4v13-natural-cards
fi
for name in "${V8_DEALS[@]}"; do
    record_hunt "$name"
done
step scripts/whole-game.sh 1000000
optimized_to 100
step env LIMIT=9000 THREADS="$THREADS" scripts/sat-solves.sh c4v6-natural-cards
echo "== $(date -u +%FT%TZ) every step done"
