#!/bin/bash
# The record hunts by random sampling behind the C=4 rows of results/records.csv: one
# `bataille explore --random N --seed S --top 20 --records` run each, whose longest games by
# tricks and by cards are appended (replayed first) to the records file with the command, seed,
# commit and machine. Output directories go to results/hunts/<name>/.
#
# Usage: scripts/record-hunts.sh [NAME...]   (no name: all of them, in order)
# Times on the 2-core development machine: c4v5-* 34 and 44 min, c4v6-optimized 5 min,
# c4v7-optimized 14 min, c4v8-optimized and c4v9-optimized about 20 min each, c4v10-optimized
# 6 min (and 16 min for c4v10-optimized-random-2), c4v11-optimized 26.5 min, c4v12-optimized and
# c4v13-optimized 3 min each; c4v7-optimized-random-2 31 min, c4v7-optimized-random-3 36 min,
# c4v10-optimized-random-3 39 min; the natural samples c4vV-natural-sample (10^8 deals, seed
# 100 + V, V = 6..10, 12, 13: a first look at the natural column) 1.5 to 3 min each beside
# another run.
# The runs are deterministic: rerunning one (or resuming a finished one, as a requeued job does)
# finds the same games, and a game the records file already holds is not appended again.
# RECORDS=FILE appends elsewhere. Build first: cargo build --release -p bataille-cli.
#
# The natural hunts c4v6-natural-random ... c4v13-natural-random (5·10^10 deals each, seed V;
# the public natural records took 10^10 to 5·10^10 random deals each) are not part of "all":
# hours each on a workstation. Name them, and set CHECKPOINTS=DIR to save each run's progress
# in DIR/NAME.ckpt every minute and on Ctrl-C: running the same command again resumes it, and
# a resumed run gives exactly the results of an uninterrupted one. c4v11-natural-random-1 is a
# shorter one (10^10 deals, seed 111, 2 h 5 min here), also outside "all", and so is
# c4v8-natural-random-1 (3·10^10 deals, seed 208). The long optimized runs of the 32- and
# 52-card decks, c4v8-optimized-random-4 and c4v13-optimized-random-2 (3·10^10 deals each,
# seeds 408 and 213), are outside "all" too. For the runs of the 52- and 32-card cells, keep
# the checkpoints in the repository so that a fresh clone resumes them:
#   CHECKPOINTS=results/hunts/checkpoints nice -n 19 scripts/record-hunts.sh c4v13-natural-random
#
# The position hunts c4v8-natural-positions and c4v8-optimized-positions (outside "all") play
# random positions of every split instead of deals (`bataille cycles hunt --sampler uniform`,
# 4·10^9 each, seeds 508 and 518): their longest games start from positions no deal need
# reach, and `scripts/position-records.sh results/hunts/NAME` then finds the deals that lead
# into them (the way the 52-card natural record was found; docs/results-records.md).
# c4v8-natural-positions-2 and c4v8-optimized-positions-2 (2.6·10^10 more each, seeds 528 and
# 538; about 2.5 hours each on 2 threads) bring each 32-card cell to 3·10^10 positions, the
# records work's bar; run them with CHECKPOINTS=results/hunts/checkpoints (scripts/long-runs.sh
# does).
set -euo pipefail
BIN=${BIN:-target/release/bataille}
RECORDS=${RECORDS:-results/records.csv}
THREADS=${THREADS:-0}
CHECKPOINTS=${CHECKPOINTS:-}
mkdir -p results/hunts

# Runs the command in the background, so that Ctrl-C or SIGTERM to the script reaches it at
# once (the trap below): it saves its checkpoint and exits 130, and so does the script.
background() {
    "$@" &
    local pid=$! status=0
    # (The trap cuts `wait` short: wait until the run has ended, then ask its status.)
    while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done
    wait "$pid" || status=$?
    return "$status"
}

checkpoint() { # name: the checkpoint flags, in the array `resume`
    resume=()
    if [ -n "$CHECKPOINTS" ]; then
        mkdir -p "$CHECKPOINTS"
        resume=(--checkpoint "$CHECKPOINTS/$1.ckpt")
        [ -e "$CHECKPOINTS/$1.ckpt" ] && resume+=(--resume)
    fi
    return 0
}

sample() { # name, deck and method flags, deals, seed
    local name=$1 deals=$3 seed=$4 resume
    checkpoint "$name"
    # shellcheck disable=SC2086 # $2 holds several flags
    background "$BIN" explore $2 --random "$deals" --seed "$seed" --top 20 --threads "$THREADS" \
        --records "$RECORDS" --out "results/hunts/$name" --replace "${resume[@]}"
}

positions() { # name, deck and method flags, positions, seed
    local name=$1 n=$3 seed=$4 resume
    checkpoint "$name"
    # shellcheck disable=SC2086 # $2 holds several flags
    background "$BIN" cycles hunt $2 --sampler uniform --random "$n" --seed "$seed" \
        --threads "$THREADS" --out "results/hunts/$name" --replace "${resume[@]}"
}
stopping=0
trap 'stopping=1; kill -TERM $(jobs -p) 2>/dev/null || true' INT TERM

run() {
    case $1 in
    c4v5-natural-random) sample "$1" "-c 4 -v 5" 10000000000 11 ;;
    c4v5-optimized-random) sample "$1" "-c 4 -v 5 -m optimized" 10000000000 12 ;;
    c4v6-optimized-random) sample "$1" "-c 4 -v 6 -m optimized" 1000000000 106 ;;
    c4v7-optimized-random) sample "$1" "-c 4 -v 7 -m optimized" 2000000000 107 ;;
    c4v7-optimized-random-2) sample "$1" "-c 4 -v 7 -m optimized" 3000000000 207 ;;
    c4v7-optimized-random-3) sample "$1" "-c 4 -v 7 -m optimized" 5000000000 307 ;;
    c4v8-optimized-random) sample "$1" "-c 4 -v 8 -m optimized" 3000000000 108 ;;
    c4v9-optimized-random) sample "$1" "-c 4 -v 9 -m optimized" 2000000000 109 ;;
    c4v10-optimized-random) sample "$1" "-c 4 -v 10 -m optimized" 500000000 110 ;;
    c4v10-optimized-random-2) sample "$1" "-c 4 -v 10 -m optimized" 1500000000 210 ;;
    c4v10-optimized-random-3) sample "$1" "-c 4 -v 10 -m optimized" 3000000000 310 ;;
    c4v11-optimized-random) sample "$1" "-c 4 -v 11 -m optimized" 2000000000 111 ;;
    c4v12-optimized-random) sample "$1" "-c 4 -v 12 -m optimized" 200000000 112 ;;
    c4v13-optimized-random) sample "$1" "-c 4 -v 13 -m optimized" 200000000 113 ;;
    c4v11-natural-random-1) sample "$1" "-c 4 -v 11" 10000000000 111 ;;
    c4v8-natural-random-1) sample "$1" "-c 4 -v 8" 30000000000 208 ;;
    c4v8-optimized-random-4) sample "$1" "-c 4 -v 8 -m optimized" 30000000000 408 ;;
    c4v13-optimized-random-2) sample "$1" "-c 4 -v 13 -m optimized" 30000000000 213 ;;
    c4v8-natural-positions) positions "$1" "-c 4 -v 8 -m natural" 4000000000 508 ;;
    c4v8-optimized-positions) positions "$1" "-c 4 -v 8 -m optimized" 4000000000 518 ;;
    c4v8-natural-positions-2) positions "$1" "-c 4 -v 8 -m natural" 26000000000 528 ;;
    c4v8-optimized-positions-2) positions "$1" "-c 4 -v 8 -m optimized" 26000000000 538 ;;
    c4v[6-9]-natural-sample | c4v1[0-3]-natural-sample)
        local v=${1#c4v}
        v=${v%-natural-sample}
        sample "$1" "-c 4 -v $v" 100000000 $((100 + v))
        ;;
    c4v[6-9]-natural-random | c4v1[0-3]-natural-random)
        local v=${1#c4v}
        v=${v%-natural-random}
        sample "$1" "-c 4 -v $v" 50000000000 "$v"
        ;;
    *) echo "unknown hunt $1" >&2; exit 2 ;;
    esac
}

ALL=(c4v12-optimized-random c4v13-optimized-random c4v10-optimized-random c4v10-optimized-random-2
    c4v6-optimized-random c4v7-optimized-random c4v11-optimized-random c4v8-optimized-random
    c4v9-optimized-random c4v5-natural-random c4v5-optimized-random c4v7-optimized-random-2
    c4v10-optimized-random-3 c4v7-optimized-random-3 c4v6-natural-sample c4v7-natural-sample
    c4v8-natural-sample c4v9-natural-sample c4v10-natural-sample c4v12-natural-sample
    c4v13-natural-sample)
for name in "${@:-${ALL[@]}}"; do
    echo "== $name ($(date -u +%FT%TZ))"
    run "$name"
    # (A stop that came after the run's last deal, while it wrote its files, ends here too.)
    if ((stopping)); then exit 130; fi
done
