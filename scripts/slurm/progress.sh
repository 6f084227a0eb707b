#!/usr/bin/env bash
# Where a run of scripts/slurm/submit.sh stands, from its directory alone (what a fresh clone
# of the repository holds: no SLURM, no submit.txt needed):
#
#   scripts/slurm/progress.sh DIR [SHARDS]
#
# prints one line, `NAME: D of N shards done, P positions|deals, L looping, C CPU s`, where
# NAME is DIR's last component, D the shards that ran to the end (DIR/checkpoints/shard-K.done),
# P and L the sums of their summary.csv's `deals` and `looping_deals` (positions for a
# position hunt; a census or SAT part has neither: 0), and C the CPU seconds of their starts
# that ended well or were stopped (DIR/checkpoints/shard-K.cpu; a start lost with its machine
# has none). N is SHARDS, or else the shard count written in a shard's metadata.csv
# (`shard,K/N`). A shard under way is not counted until it is done.
set -euo pipefail
dir=${1:?usage: scripts/slurm/progress.sh DIR [SHARDS]}
dir=${dir%/}
shards=${2-}
[[ -d $dir ]] || { echo "progress.sh: no run directory $dir" >&2; exit 2; }
if [[ -z $shards ]]; then
    for m in "$dir"/shards/shard-*/metadata.csv; do
        [[ -f $m ]] || continue
        shards=$(awk -F, '$1 == "shard" { split($2, s, "/"); print s[2]; exit }' "$m")
        [[ -n $shards ]] && break
    done
fi
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "progress.sh: the shard count of $dir is not known: give SHARDS" >&2; exit 2; }
done=0 units=0 looping=0 cpu=0 word=deals
for ((k = 1; k <= shards; k++)); do
    [[ -f $dir/checkpoints/shard-$k.done ]] || continue
    done=$((done + 1))
    summary=$dir/shards/shard-$k/summary.csv
    if [[ -f $summary ]]; then
        # (The counts as written: awk's %d stops at 2^31 in some awks.)
        read -r d l w < <(awk -F, '$1 == "deals" { d = $2 } $1 == "looping_deals" { l = $2 }
            $1 == "game" { split($2, g, " "); w = g[1] }
            END { print (d == "" ? 0 : d), (l == "" ? 0 : l), (w == "positions" ? w : "deals") }' "$summary")
        units=$((units + d)) looping=$((looping + l)) word=$w
    fi
    if [[ -f $dir/checkpoints/shard-$k.cpu ]]; then
        cpu=$(LC_ALL=C awk -F, -v t="$cpu" 'NR > 1 && ($4 == 0 || $4 == 130) { t += $3 } END { printf "%.1f", t }' "$dir/checkpoints/shard-$k.cpu")
    fi
done
LC_ALL=C printf '%s: %d of %d shards done, %d %s, %d looping, %.0f CPU s\n' \
    "$(basename -- "$dir")" "$done" "$shards" "$units" "$word" "$looping" "$cpu"
