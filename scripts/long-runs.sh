#!/usr/bin/env bash
# The long runs of the cycles, SAT and records work, one after another in the project's order,
# so that the cores go straight from one to the next. Each step is resumable and skips what
# the committed files say is done: started again after a stop, or on a fresh clone, the queue
# goes on where it was. The runs in shards are plans (experiments/plans/), run here by the
# cluster launcher without SLURM (scripts/slurm/submit.sh --local): the same tasks, directory
# layout and merged results as the plan submitted to a cluster, which may take over a run
# this queue has begun (or the reverse) from its committed directory.
#   1. the 52-card natural position hunt (experiments/plans/hunt-52-natural-uniform.plan:
#      finished, its 100 shards, merged, with the walk back from its longest games,
#      scripts/position-records.sh; the step checks and merges again, in seconds);
#   2. the 52-card optimized position hunt to its 100 shards
#      (experiments/plans/hunt-52-optimized-uniform.plan), then the walk back from its longest
#      games (the games walked back already are skipped);
#   3. the shortest C=4 V=6 natural loop (scripts/sat-solves.sh c4v6-natural-cards, the SAT
#      chapter's question in results/sat/c4v6-natural-cards, certified to 45 cards; a loop
#      turning 48 is known): 46 and 47 cards, LIMIT=9000 a part. Not a plan: the question's
#      committed state is that directory's, a question over periods, and its parts that fit
#      are certified there one session at a time (a plan runs one period:
#      experiments/plans/solve-c4v6-natural-46.plan is the same period for a cluster, 46 hours
#      a part). The parts took about 2 times more each 2 cards (1,748 s in all at 34 cards,
#      33,332 s at 44, its two longest 8,464 and 8,864 s: results/sat/c4v6-natural-cards/
#      parts.csv); at 46 those two (smallest hands 4 and 6) stopped undecided at 9,000 s, the
#      most a part can count on here, where the queue is stopped about every three hours. A
#      resume keeps them as they are (cycles solve --resume keeps a part undecided at its limit
#      while the limit is not raised) and solves the other parts, the longest first: what a
#      longer limit would not have to do again. 46 cards stays undecided at this limit, so the
#      step stops there (47 is not reached);
#   4. the aligned blocks of 24 cards, prime, at 4 rounds (scripts/sat-solves.sh
#      aligned-24-prime, its own limit 9,000 s: undecided at 3,600 s; rounds 2 to 3 took 25.6
#      times longer, which puts 4 rounds near 7,200 s);
#   5. C=4 V=5 natural to 40 cards (scripts/sat-solves.sh c4v5-natural-cards, LIMIT=3600 a
#      part: certified to 31 cards by whole formulas; their time grew 1.56 times each 2 cards
#      from 24 to 30, which puts 32 to 40 near 9,100 s in all);
#   6. the backward search from the longest game of each V=8 and V=13 record cell
#      (scripts/whole-game.sh 1000000; it skips the cells done from the same game);
#   7. the record pipeline on each C=4 cell still below its best known game, one plan a cell
#      (experiments/plans/records-c4vV-METHOD-positions.plan: a position hunt of 10^10
#      positions, 3·10^10 for V=8 natural, then the walk back from its longest games and the
#      backward search from the cell's longest game), the cheapest first by the launcher's dry
#      run: 4.0 core-hours for V=6 natural to 14.7 for V=8 natural, about 98 in all.
# The runs of earlier queues are done and committed (the SAT bounds c4v7-natural-cards to 27
# cards and c4v13-natural-cards to 39, the 32-card record hunts of results/hunts/); their
# commands are in their chapters.
# Nothing is committed by the script: commit what it adds with scripts/commit-progress.sh (the
# results with the book's tables made from them, which CI checks).
#
# Usage: THREADS=2 setsid nohup nice -n 19 scripts/long-runs.sh > target/long-runs.log 2>&1 &
#        kill -TERM <the script's pid>   stops the step under way (its checkpoint is kept, its
#                                        CPU seconds written) and the queue; exit 130
#        scripts/long-runs.sh status     where each step stands
# Environment: THREADS (cores for each step, default 2), BIN (default target/release/bataille;
#   the script runs a copy of its own, so a rebuild does not change it under a run).
set -euo pipefail
cd "$(dirname "$0")/.."
HUNTS=(natural-uniform optimized-uniform)
SAT_QUESTIONS=(c4v6-natural-cards aligned-24-prime c4v5-natural-cards)

if [[ ${1:-} == status ]]; then
    for run in "${HUNTS[@]}"; do
        if [[ -d results/cycles/hunt-52/$run ]]; then
            scripts/slurm/progress.sh "results/cycles/hunt-52/$run" 100
        else
            echo "$run: not started"
        fi
    done
    # The walks back from the hunts' longest games: the games done, and the shards they came from.
    # (A run in one piece, not in shards, counts as one shard.)
    [[ -f results/records-backward/from-positions.csv ]] && awk -F, 'NR > 1 { run = $1; sub(/.*\//, "", run); n[run]++; if ($2 > s[run]) s[run] = $2 }
        END { for (r in n) printf "%s walk back: %d games searched, the latest from %d finished shards\n", r, n[r], s[r] }' \
        results/records-backward/from-positions.csv | sort
    # (The aligned questions' table counts rounds, and has two more columns before "undecided at".)
    { scripts/sat-solves.sh table; scripts/sat-solves.sh aligned-table; } | awk -F' [|] ' -v questions="${SAT_QUESTIONS[*]}" '
        BEGIN { n = split(questions, q, " ") }
        /^[|] aligned-/ { line[substr($1, 3)] = sprintf("rounds certified %s, undecided at %s", $2 ~ /^-/ ? "none yet" : $2, $5); next }
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
# The plan NAME (experiments/plans/NAME.plan) on this machine, THREADS cores a task: its tasks
# not done yet, its merge, its steps after the merge.
plan() {
    step scripts/slurm/submit.sh --local --cpus "$THREADS" --bin "$BIN" --plan "experiments/plans/$1.plan"
}

plan hunt-52-natural-uniform
plan hunt-52-optimized-uniform
step env LIMIT=9000 THREADS="$THREADS" scripts/sat-solves.sh c4v6-natural-cards
step scripts/sat-solves.sh aligned-24-prime
step env LIMIT=3600 THREADS="$THREADS" scripts/sat-solves.sh c4v5-natural-cards
step scripts/whole-game.sh 1000000
for cell in c4v6-natural c4v7-optimized c4v9-natural c4v7-natural c4v10-natural c4v10-optimized \
    c4v9-optimized c4v11-natural c4v12-natural c4v12-optimized c4v11-optimized c4v8-natural; do
    plan "records-$cell-positions"
done
echo "== $(date -u +%FT%TZ) every step done"
