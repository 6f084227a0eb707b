#!/usr/bin/env bash
# Commits what the long runs have added under results/ (checkpoints, finished shards, SAT
# periods, record deals), with the book's tables regenerated from them in the same commit:
# CI checks that the two agree (scripts/book-tables.sh --check), so a progress commit without
# them would fail it. The message carries `scripts/long-runs.sh status`.
#
# Usage: scripts/commit-progress.sh [SUBJECT]   (default: "Long runs: progress")
# A run that is still going may finish a shard between the tables and the commit: before a
# commit that must pass CI as it stands, stop the queue (kill -TERM the scripts/long-runs.sh
# process) first.
set -euo pipefail
cd "$(dirname "$0")/.."
subject=${1:-"Long runs: progress"}
scripts/book-tables.sh
# The results, and the pages whose tables book-tables.sh writes.
pages=$(grep -lF '<!-- book-tables: ' docs/*.md)
# shellcheck disable=SC2086
git add -A -- results $pages
# shellcheck disable=SC2086
if git diff --cached --quiet -- results $pages; then
    echo "nothing to commit"
    exit 0
fi
# Only these paths, whatever else is staged.
# shellcheck disable=SC2086
git commit -q -m "$subject" -m "$(scripts/long-runs.sh status)" -- results $pages
git log --oneline -1
