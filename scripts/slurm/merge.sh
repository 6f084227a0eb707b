#!/usr/bin/env bash
# Merges the shards of a search submitted by scripts/slurm/submit.sh (its merge job runs this
# once every array task has ended), or by hand:
#
#   scripts/slurm/merge.sh [--bin PATH] DIR SHARDS
#   scripts/slurm/merge.sh [--bin PATH] --parts DIR PARTS -- cycles solve|aligned solve ARGS...
#   scripts/slurm/merge.sh [--bin PATH] --states DIR SHARDS -- cycles census|aligned blocks ARGS...
#
# Checks that every shard K from 1 to SHARDS ran to the end (DIR/shards/shard-K/state.txt and
# DIR/checkpoints/shard-K.done exist: a shard stopped by a time limit has written partial
# results but no .done), then runs `bataille merge` into DIR/merged. Exits 1 naming the missing
# or unfinished shards (and merges nothing) if there are any, 2 on bad arguments.
#
# With --parts, the shards are the parts of a SAT question's period (DIR/shards/shard-K holds
# part K's files): `bataille cycles solve ARGS --merge` puts them together into DIR/merged,
# which certifies the period when every part is complete (a part undecided at its time limit
# leaves the period undecided, and the merged directory names it). An aligned question is one
# part, the whole question: DIR/merged is a copy of its directory (hard links: a proof kept with
# --keep takes no second room).
#
# With --states, the shards are those of a census or of a search of aligned blocks: their final
# states (a census's DIR/shards/shard-K/state.txt; the blocks' checkpoint,
# DIR/checkpoints/shard-K.ckpt) are merged by the command's own --merge, into DIR/merged (the
# census's files) or DIR/merged/catalogue.csv (the blocks' catalogue).
set -euo pipefail
bin=
if [[ ${1-} == --bin ]]; then
    bin=${2:?--bin needs a path}
    shift 2
fi
question=()
kind=search
if [[ ${1-} == --parts || ${1-} == --states ]]; then
    kind=${1#--}
    shift
    if (($# < 4)) || [[ $3 != -- ]]; then
        echo "usage: merge.sh [--bin PATH] --$kind DIR SHARDS -- COMMAND ARGS..." >&2
        exit 2
    fi
    question=("${@:4}")
    set -- "$1" "$2"
fi
if (($# != 2)) || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: merge.sh [--bin PATH] DIR SHARDS" >&2
    exit 2
fi
dir=$1
shards=$2
bin=${bin:-$(command -v bataille)} || {
    echo "merge.sh: no bataille on PATH: give --bin PATH" >&2
    exit 2
}

echo "== merge of $shards shards of $dir, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
# The paths bataille is given (and writes into merged/metadata.csv) are DIR's own, never a
# machine's: the merge runs in DIR.
bin=$(readlink -f -- "$bin")
cd -- "$dir"
missing=()
parts=()
for ((k = 1; k <= shards; k++)); do
    result=shards/shard-$k/state.txt
    [[ $kind != parts ]] || result=shards/shard-$k/parts.csv
    [[ $kind != parts || ${question[0]} != aligned ]] || result=shards/shard-$k/instances.csv
    # A census's shard writes its final state into its output (equal to its last checkpoint);
    # a search of blocks writes only its catalogue, so its checkpoint is the state.
    [[ $kind != states || ${question[0]} == cycles ]] || result=checkpoints/shard-$k.ckpt
    if [[ -f $result && -f checkpoints/shard-$k.done ]]; then
        if [[ $kind == states ]]; then parts+=("$result"); else parts+=("shards/shard-$k"); fi
    else
        missing+=("$k")
    fi
done
if ((${#missing[@]})); then
    list=$(
        IFS=,
        echo "${missing[*]}"
    )
    echo "merge.sh: ${#missing[@]} of $shards shards missing or unfinished: $list" \
        "(see $dir/logs/shard-K.log); rerun them with submit.sh --tasks $list" \
        "and the same search" >&2
    exit 1
fi
# --replace: a merge run again (after more shards were rerun) rewrites DIR/merged.
if [[ $kind == states && ${question[0]} == aligned ]]; then
    # The catalogue is one file, which blocks never replaces: the merge writes a new one beside
    # it, put in its place once whole.
    mkdir -p merged
    rm -f merged/catalogue.csv.new
    "$bin" "${question[@]}" --merge "${parts[@]}" --out merged/catalogue.csv.new
    exec mv -f merged/catalogue.csv.new merged/catalogue.csv
elif [[ $kind == parts && ${question[0]} == aligned ]]; then
    # The task's files are the result: copied whole (its later runs write new files by renaming,
    # so the links keep this copy as it is), put in place of DIR/merged once complete.
    rm -rf merged.new
    cp -al shards/shard-1 merged.new
    rm -rf merged
    exec mv merged.new merged
elif [[ $kind == states || $kind == parts ]]; then
    exec "$bin" "${question[@]}" --merge "${parts[@]}" --out merged --replace
fi
exec "$bin" merge "${parts[@]}" --out merged --replace
