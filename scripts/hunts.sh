#!/bin/bash
# The hunts recorded under results/hunts/ (issue 5), one command each: exhaustive C=4 V=4,
# random C=4 V=6, first slices of the exhaustive C=4 V=5 hunts, and the random hunts of the
# open cases. Every command is seeded and checkpointed; rerun one with `--resume` added to
# continue it after an interruption (the checkpoints live in $CKPT, default /tmp/hunt-ckpt).
#
# Usage: scripts/hunts.sh [NAME...]   (no name: all of them, in order; ~5 minutes on 2 cores)
# Build first: cargo build --release -p bataille-cli (or --profile release-lto).
set -euo pipefail
BIN=${BIN:-target/release/bataille}
CKPT=${CKPT:-/tmp/hunt-ckpt}
THREADS=${THREADS:-0}
mkdir -p "$CKPT" results/hunts

hunt() { # name, then the flags of `bataille hunt`
    local name=$1
    shift
    rm -f "$CKPT/$name.ckpt"
    # --replace: the committed results are rewritten (byte-identical for the same code).
    "$BIN" hunt "$@" --threads "$THREADS" --checkpoint "$CKPT/$name.ckpt" \
        --out "results/hunts/$name" --replace
}

run() {
    case $1 in
    c4v4-natural) hunt "$1" -c 4 -v 4 -m natural --exhaustive ;;
    c4v6-natural) hunt "$1" -c 4 -v 6 -m natural --random 100000000 --seed 6 ;;
    c4v5-natural-slice) hunt "$1" -c 4 -v 5 -m natural --exhaustive --shard 1/10000 ;;
    c4v5-optimized-slice) hunt "$1" -c 4 -v 5 -m optimized --exhaustive --shard 1/10000 ;;
    c4v7-natural) hunt "$1" -c 4 -v 7 -m natural --random 20000000 --seed 7 ;;
    c4v9-natural) hunt "$1" -c 4 -v 9 -m natural --random 20000000 --seed 9 ;;
    c4v11-natural) hunt "$1" -c 4 -v 11 -m natural --random 10000000 --seed 11 ;;
    c4v13-natural) hunt "$1" -c 4 -v 13 -m natural --random 10000000 --seed 13 ;;
    c4v8-optimized) hunt "$1" -c 4 -v 8 -m optimized --random 20000000 --seed 8 ;;
    c4v13-optimized) hunt "$1" -c 4 -v 13 -m optimized --random 10000000 --seed 13 ;;
    *) echo "unknown hunt $1" >&2; exit 2 ;;
    esac
}

ALL=(c4v4-natural c4v6-natural c4v5-natural-slice c4v5-optimized-slice c4v7-natural
    c4v9-natural c4v11-natural c4v13-natural c4v8-optimized c4v13-optimized)
for name in "${@:-${ALL[@]}}"; do
    echo "== $name ($(date -u +%FT%TZ))"
    run "$name"
done
