#!/usr/bin/env bash
# Submits a sharded run to SLURM: a job array of N shards, one per array task, each with its
# own checkpoint (requeue-safe: a requeued or resubmitted task resumes where it stopped), and a
# merge job that runs once every task has ended and checks that no shard is missing; or runs
# the same tasks and merge on this machine (--local).
#
#   scripts/slurm/submit.sh [OPTIONS] -- explore|hunt|bmn explore|cycles hunt ARGS... --out DIR
#   scripts/slurm/submit.sh [OPTIONS] -- cycles census|aligned blocks ARGS... --out DIR
#   scripts/slurm/submit.sh [OPTIONS] -- cycles solve ARGS... --split --period P --out DIR
#   scripts/slurm/submit.sh [OPTIONS] -- aligned solve ARGS... --out DIR
#   scripts/slurm/submit.sh [OPTIONS] --plan FILE
#
# A search (explore, hunt, bmn explore, cycles hunt) runs as shards of its work units. A census
# (cycles census) and a search of aligned blocks (aligned blocks) run as shards of their units
# too, and the merge job puts the shards' checkpoints together (--merge): the census's files, or
# the blocks' catalogue (DIR/merged/catalogue.csv). A SAT
# question (cycles solve, one split period) runs as one task per part of the period (--part K:
# the loops whose smallest hand has K cards), each with its own output directory, which a
# requeued task continues (--resume); the merge job puts the parts together (--merge) and
# certifies the period when every part is complete. Its task count is the period's number of
# parts (--shards is refused when it differs), and its time cannot be estimated: the dry run
# gives each part's formula size instead, and the solver seconds of the slowest earlier period
# when DIR/merged holds one. Give bataille a --time-limit below --time, so that a part still
# undecided at the limit ends cleanly (an "undecided" row, which --resume raises later) rather
# than being cut by SLURM: the same submission with a larger --time-limit (and --tasks for the
# open parts) continues them. An aligned question (aligned solve) is one such task, its periods
# solved one after the other (no parts yet), into DIR/shards/shard-1; the merge job puts a copy
# (hard links) in DIR/merged.
#
# Options (before the --):
#   --shards N      number of shards, one array task each (default 64; for cycles solve, the
#                   period's number of parts)
#   --cpus C        CPUs per task, passed to the search as --threads (default 16; for cycles
#                   solve, 1: one solver a task)
#   --time T        time limit of each task, in any format sbatch accepts (default 02:00:00)
#   --bin PATH      the bataille binary (default: bataille on PATH)
#   --tasks LIST    submit only these array tasks, e.g. 3,7 or 5-9 (to rerun the shards that
#                   failed; the others keep their outputs)
#   --dry-run       check everything, print the run's cost and the sbatch commands, and queue
#                   nothing
#   --then CMD      after the merge, run the shell command CMD as a job of its own (SLURM:
#                   once the merge job has ended well; repeated, each after the one before),
#                   in the directory submit.sh was called from, with DIR (the --out
#                   directory, absolute) and BIN (the binary) in its environment and its log in
#                   DIR/logs/then-I.log: the steps of a pipeline, e.g. the record pipeline
#                   --then 'scripts/position-records.sh $DIR/merged' --then
#                   'scripts/whole-game.sh' (docs/cluster.md)
#   --plan FILE     the run described in FILE (a plan: see below); the options given beside it
#                   come after the plan's, so they win (--local, --tasks, --bin, --dry-run, ...)
#   --local         no SLURM: run the tasks here, in the order of the array, as many at once
#                   as the cores hold (each on --cpus threads, default every core: one at a
#                   time), then the merge, into the same DIR and layout: the merged results are
#                   those of the cluster run. Ctrl-C stops the tasks under way at their
#                   checkpoints; the same command again goes on from there (a finished task
#                   ends at once).
#
# A plan is the run written down once, for this machine (--local) and a cluster alike: lines of
# options and the command, as typed after submit.sh, split at spaces (no quotes: a line
# `--then CMD` keeps the rest of the line, spaces and all, as the step's command); `#` begins a
# comment line. The command comes after a line or word `--`. See experiments/plans/.
#
# The cost: before anything is queued the search's first work units are played on this machine
# for about a second (`bataille ... --dry-run`, on --cpus threads; for a census or blocks, a
# sample of units spread through shard 1, each stopped after 30 CPU s: `cut=N` counts them, and
# makes the estimate low), and the time of one task, the core-hours of the run, the memory and
# output of a task are printed from that speed (its speed per core when --cpus is more than
# this machine's cores). A task that would last longer than --time is refused, with the shard
# count that fits (the speed of this machine is taken for the nodes': measure on a node when
# they differ).
#
# Under DIR (created before anything is queued):
#   DIR/shards/shard-K/          output of shard K (aligned blocks: DIR/shards/shard-K.csv)
#   DIR/checkpoints/shard-K.ckpt its checkpoint
#   DIR/logs/shard-K.log         its log, every attempt appended
#   DIR/logs/merge.log           log of the merge job (then-I.log: the I-th --then step's)
#   DIR/merged/                  the merged results: the files of a single run
#   DIR/submit.txt               the search, the shard count, the binary and the job ids
#
# The launcher owns --shard, --checkpoint, --resume, --part, --merge, --dry-run and --threads:
# giving them is refused, and so is --records (every shard would append to the file).
# Partition, account and the like come from sbatch's own environment variables
# (SBATCH_PARTITION, SBATCH_ACCOUNT, ...). DIR and the binary must be visible from every node.
# See docs/cluster.md.
set -euo pipefail

die() {
    echo "submit.sh: $*" >&2
    exit 2
}

# The seconds of a SLURM time limit (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S); fails for another
# form (UNLIMITED, a typo: sbatch judges those).
seconds_of() {
    local d=0 h=0 m=0 s=0
    if [[ $1 =~ ^([0-9]+)-([0-9]+)(:([0-9]+)(:([0-9]+))?)?$ ]]; then
        d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[4]:-0} s=${BASH_REMATCH[6]:-0}
    elif [[ $1 =~ ^([0-9]+)$ ]]; then
        m=${BASH_REMATCH[1]}
    elif [[ $1 =~ ^([0-9]+):([0-9]+)$ ]]; then
        m=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
    elif [[ $1 =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    else
        return 1
    fi
    echo $((((10#$d * 24 + 10#$h) * 60 + 10#$m) * 60 + 10#$s))
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# --plan FILE: its options, then the other options given, then its command.
for ((i = 1; i <= $#; i++)); do
    [[ ${!i} == --plan ]] || { [[ ${!i} == -- ]] && break; continue; }
    j=$((i + 1))
    plan=${!j-}
    [[ -n $plan ]] || die "--plan needs a file"
    [[ -f $plan ]] || die "the plan '$plan' does not exist"
    plan_options=() plan_command=() in_command=false
    while IFS= read -r line || [[ -n $line ]]; do
        [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
        [[ $line != *[\"\']* ]] || die "$plan: no quotes in a plan (a line '--then CMD' keeps the rest of the line as CMD): $line"
        if [[ $line =~ ^[[:space:]]*--then[[:space:]]+(.*[^[:space:]])[[:space:]]*$ ]]; then
            $in_command && die "$plan: a --then line after the command"
            plan_options+=(--then "${BASH_REMATCH[1]}")
            continue
        fi
        read -ra words <<<"$line"
        for w in "${words[@]}"; do
            if $in_command; then
                plan_command+=("$w")
            elif [[ $w == -- ]]; then
                in_command=true
            else
                plan_options+=("$w")
            fi
        done
    done <"$plan"
    ((${#plan_command[@]})) || die "$plan: no command (it comes after --)"
    given=("${@:1:i-1}" "${@:j+1}")
    for w in "${given[@]}"; do
        [[ $w != -- ]] || die "--plan $plan holds the command: give none after --"
        [[ $w != --plan ]] || die "one --plan at a time"
    done
    set -- "${plan_options[@]}" "${given[@]}" -- "${plan_command[@]}"
    break
done
shards=
cpus=
limit=02:00:00
bin=
tasks=
dry_run=false
local=false
then=()
while (($#)); do
    case $1 in
        --shards) shards=${2-}; shift 2 || die "--shards needs a value" ;;
        --cpus) cpus=${2-}; shift 2 || die "--cpus needs a value" ;;
        --time) limit=${2-}; shift 2 || die "--time needs a value" ;;
        --bin) bin=${2-}; shift 2 || die "--bin needs a value" ;;
        --tasks) tasks=${2-}; shift 2 || die "--tasks needs a value" ;;
        --dry-run) dry_run=true; shift ;;
        --local) local=true; shift ;;
        --then)
            [[ -n ${2-} ]] || die "--then needs a command"
            then+=("$2")
            shift 2
            ;;
        --) shift; break ;;
        *) die "unknown option '$1' (the search comes after --, e.g. -- explore ... --out DIR)" ;;
    esac
done

if $local && ((BASH_VERSINFO[0] < 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] < 1))); then
    die "--local needs bash 5.1 or later (it waits for its tasks with wait -n -p); this is bash $BASH_VERSION"
fi
given_shards=$shards
if [[ -n $shards ]]; then
    [[ $shards =~ ^[0-9]+$ ]] && ((10#$shards >= 1)) ||
        die "invalid shard count '$shards': expected a whole number of at least 1"
    shards=$((10#$shards))
fi
if [[ -n $cpus ]]; then
    [[ $cpus =~ ^[0-9]+$ ]] && ((10#$cpus >= 1)) ||
        die "invalid CPU count '$cpus': expected a whole number of at least 1"
    cpus=$((10#$cpus))
fi
[[ -n $limit ]] || die "empty time limit: expected e.g. 02:00:00"
if [[ -n $tasks ]]; then
    [[ $tasks =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
        die "invalid task list '$tasks': expected shard numbers and ranges, e.g. 3,7,10-12"
fi

# The search: explore, hunt or bmn explore, and its arguments.
(($#)) || die "no search given: expected -- explore|hunt|bmn explore|cycles hunt|cycles census|aligned blocks|cycles solve ARGS... --out DIR"
command=("$1")
shift
# shards: a search's work units in shards; states: a census's or blocks' units in shards,
# merged from their checkpoints; parts: a SAT question's parts, one a task.
mode=shards
case ${command[0]} in
    explore | hunt) ;;
    bmn)
        [[ ${1-} == explore ]] || die "cannot shard 'bmn ${1-}': only bmn explore runs in shards"
        command+=("$1")
        shift
        ;;
    cycles)
        [[ ${1-} == hunt || ${1-} == census || ${1-} == solve ]] ||
            die "cannot shard 'cycles ${1-}': only cycles hunt, cycles census and cycles solve run as tasks with this launcher"
        [[ $1 == solve ]] && mode=parts
        [[ $1 == census ]] && mode=states
        command+=("$1")
        shift
        ;;
    aligned)
        [[ ${1-} == blocks || ${1-} == solve ]] ||
            die "cannot shard 'aligned ${1-}': only aligned blocks runs in shards, and aligned solve as one task"
        mode=states
        [[ $1 == solve ]] && mode=parts
        command+=("$1")
        shift
        ;;
    *) die "cannot shard '${command[0]}': expected explore, hunt, bmn explore, cycles hunt, cycles census, aligned blocks or cycles solve" ;;
esac
args=()
out=
while (($#)); do
    case $1 in
        --out)
            (($# >= 2)) || die "--out needs a directory"
            [[ -z $out ]] || die "--out given twice"
            out=$2
            shift 2
            ;;
        --out=*)
            [[ -z $out ]] || die "--out given twice"
            out=${1#--out=}
            shift
            ;;
        --shard | --shard=* | --checkpoint | --checkpoint=* | --resume | --resume=* | --part | \
            --part=* | --merge | --merge=* | --dry-run)
            die "'${1%%=*}' is set by the launcher for each task: leave it out"
            ;;
        --threads | --threads=*)
            die "'${1%%=*}' is set by the launcher from --cpus: leave it out"
            ;;
        --seeds | --seeds=*)
            # The tasks run in DIR: a seeds file is given to them by its absolute path.
            if [[ $1 == --seeds ]]; then
                (($# >= 2)) || die "--seeds needs a file"
                seeds=$2
                shift 2
            else
                seeds=${1#--seeds=}
                shift
            fi
            [[ -f $seeds ]] || die "the seeds file '$seeds' does not exist"
            args+=(--seeds "$(readlink -f -- "$seeds")")
            ;;
        --records | --records=*)
            die "'--records' would have every shard append its own rows to the file:" \
                "leave it out (DIR/merged/records.csv holds the longest games)"
            ;;
        *)
            args+=("$1")
            shift
            ;;
    esac
done
[[ -n $out ]] || die "no --out DIR given: the shards, checkpoints, logs and merged results go there"
if [[ $mode == parts ]]; then
    split=false period=false
    for a in "${args[@]}"; do
        case $a in
            --split) split=true ;;
            --period | --period=*) period=true ;;
        esac
    done
    [[ ${command[0]} == aligned ]] || { $split && $period; } ||
        die "cycles solve runs as one task per part of one period: give --split and --period P"
    cpus=${cpus:-1}
else
    shards=${shards:-64}
    # Here, every core; on SLURM, 16 a task.
    if $local; then cpus=${cpus:-$(nproc)}; else cpus=${cpus:-16}; fi
fi
# A checkpoint every 5 minutes unless the search sets its own --checkpoint-every (a census or
# blocks saves one after each batch of units).
every=(--checkpoint-every 300)
[[ $mode == shards ]] || every=()
for a in "${args[@]}"; do
    if [[ $a == --checkpoint-every || $a == --checkpoint-every=* ]]; then every=(); fi
done

# The binary, as an absolute path: the tasks run it from their own directory.
if [[ -z $bin ]]; then
    bin=$(command -v bataille) ||
        die "no bataille on PATH: build it (cargo build --release) and give --bin PATH"
fi
[[ -f $bin && -x $bin ]] || die "the binary '$bin' does not exist or is not executable"
bin=$(readlink -f -- "$bin")

scratch=$(mktemp -d)
trap 'rm -rf -- "$scratch"' EXIT
# The checks and the cost sample below run bataille in the background and wait for it, so that
# a stop (Ctrl-C, or SIGTERM to this script alone, as a queue sends it) reaches the run under
# way and the script ends after it, exit 130, queueing nothing.
checking=
interrupted=false
trap 'interrupted=true; [[ -z $checking ]] || kill -TERM "$checking" 2>/dev/null || true' INT TERM HUP
checked() { # COMMAND...: runs it as above; its exit status
    "$@" &
    checking=$!
    local status
    while :; do
        status=0
        wait "$checking" || status=$?
        # (A trapped signal cuts `wait` short: wait again until the command has ended.)
        kill -0 "$checking" 2>/dev/null || break
    done
    checking=
    ! $interrupted || { echo "submit.sh: stopped during the checks: nothing queued" >&2; exit 130; }
    return "$status"
}
if [[ $mode == parts ]]; then
    # The question is checked, and its parts counted, by bataille's dry run (which reads the
    # solver seconds of earlier periods from DIR/merged when it holds them).
    costdir=$(readlink -m -- "$out")/merged
    [[ -d $costdir ]] || costdir=$scratch/cost
    checked "$bin" "${command[@]}" "${args[@]}" --dry-run --out "$costdir" >"$scratch/cost.log" 2>&1 || {
        sed 's/^/  /' "$scratch/cost.log" >&2
        die "bataille refused the question: nothing queued"
    }
    parts=$(sed -n 's/^cost: tasks=\([0-9]*\).*/\1/p' "$scratch/cost.log")
    [[ -n $parts ]] || die "bataille printed no cost line: nothing queued"
    if [[ -n $given_shards && $shards != "$parts" ]]; then
        [[ ${command[0]} != aligned ]] || die "--shards $shards: an aligned question is one task (leave --shards out)"
        die "--shards $shards: the period has $parts parts, one task each (leave --shards out)"
    fi
    shards=$parts
elif [[ $mode == shards ]]; then
    # The arguments are checked before anything is queued: the search is started on a scratch
    # directory and stopped before its first unit.
    status=0
    checked "$bin" "${command[@]}" "${args[@]}" --shard "1/$shards" --threads 1 --checkpoint "$scratch/ckpt" \
        --max-units 0 --out "$scratch/out" >"$scratch/log" 2>&1 || status=$?
    # 130: stopped as asked, before any work.
    if ((status != 0 && status != 130)); then
        sed 's/^/  /' "$scratch/log" >&2
        die "bataille refused the search (exit $status): nothing queued"
    fi
fi
if [[ -n $tasks ]]; then
    for t in ${tasks//[,-]/ }; do
        ((10#$t >= 1 && 10#$t <= shards)) || die "task $t is not a shard of 1 to $shards"
    done
fi

if ! $dry_run && ! $local; then
    command -v sbatch >/dev/null || die "no sbatch on PATH: run this on a SLURM login node (or give --local)"
fi

# The cost, measured on a sample of shard 1's own units (see the header); for a census or
# blocks, this is also the check of the arguments. Not for a --local run that continues the
# same run in DIR (checked when it started; a census's sample can take minutes): `cost:` alone.
# (A checkpoint is named, unused, for a search that sets --checkpoint-every.)
continued=false
# The search as submit.txt records it, and as two runs are compared: a SAT question's without
# its --time-limit (a part undecided at one limit is continued, --resume keeping what was
# decided, by the same question with a larger one).
search="${command[*]} ${args[*]} (shards $shards)"
same_search() { # RECORDED: whether it is this search
    if [[ $mode == parts ]]; then
        local strip='s/ --time-limit(=| )[^ ]+//g'
        [[ $(sed -E "$strip" <<<"$1") == "$(sed -E "$strip" <<<"$search")" ]]
    else
        [[ $1 == "$search" ]]
    fi
}
if $local && ! $dry_run && [[ $mode != parts && -f $out/submit.txt ]] &&
    same_search "$(sed -n 's/^search: //p' "$out/submit.txt" | tail -n 1)"; then
    continued=true
    echo "cost: seconds=0" >"$scratch/cost.log"
fi
if [[ $mode == shards ]] && ! $continued; then
    checked "$bin" "${command[@]}" "${args[@]}" --shard "1/$shards" --threads "$cpus" --dry-run \
        --checkpoint "$scratch/cost.ckpt" --out "$scratch/cost" >"$scratch/cost.log" 2>&1 || {
        sed 's/^/  /' "$scratch/cost.log" >&2
        die "bataille could not measure the search's cost: nothing queued"
    }
elif [[ $mode == states ]] && ! $continued; then
    checked "$bin" "${command[@]}" "${args[@]}" --shard "1/$shards" --threads "$cpus" --dry-run \
        --out "$scratch/cost" >"$scratch/cost.log" 2>&1 || {
        sed 's/^/  /' "$scratch/cost.log" >&2
        die "bataille refused the run: nothing queued"
    }
fi
cost=$(sed -n 's/^cost: //p' "$scratch/cost.log")
value() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" <<<"$cost"; }
task_seconds=$(value seconds)
[[ -n $task_seconds || $mode == parts ]] || die "bataille printed no cost line: nothing queued"
if [[ $mode != parts ]] && ! $local && limit_seconds=$(seconds_of "$limit"); then
    # Whole seconds, rounded up: bash has no floating point.
    task=$(awk -v s="$task_seconds" 'BEGIN { printf "%d", s == int(s) ? s : int(s) + 1 }')
    if ((task > limit_seconds)); then
        fits=$(awk -v s="$task_seconds" -v n="$shards" -v l="$limit_seconds" \
            'BEGIN { x = s * n / l; printf "%d", x == int(x) ? x : int(x) + 1 }')
        sed -n 's/^\(sample\|shard\):/  &/p' "$scratch/cost.log" >&2
        die "a task would take about $task s, more than --time $limit ($limit_seconds s):" \
            "use at least $fits shards, or more --cpus, or a longer --time: nothing queued"
    fi
fi
if $dry_run && [[ $mode == parts ]]; then
    grep -v '^cost: ' "$scratch/cost.log" | sed 's/^/# /'
    if [[ ${command[0]} == aligned ]]; then
        echo "# 1 task of $cpus CPU, the whole question, its periods one after the other; its time" \
            "is not predictable (bounded by --time $limit, and each period by bataille's --time-limit when given)"
    else
        echo "# $shards tasks of $cpus CPU, one part each; the time of a part is not predictable" \
            "(each is bounded by --time $limit and by bataille's --time-limit when given)"
    fi
elif $dry_run; then
    grep -v '^cost: ' "$scratch/cost.log" | sed 's/^/# /'
    awk -v s="$task_seconds" -v n="$shards" -v c="$cpus" -v m="$(value memory_bytes)" \
        -v o="$(value output_bytes)" 'BEGIN {
        printf "# %d tasks of %d CPUs: %.3f core-hours in all; about %.0f s a task, all at once\n",
            n, c, s * c * n / 3600, s
        mb = m / 1048576; kb = o / 1000
        printf "# a task: %d MB of memory measured, about %d kB of results\n",
            int(mb) + (mb > int(mb)), int(kb) + (kb > int(kb)) }'
fi

# Refuses a run into DIR while the jobs of its last SLURM submission (the array, the merge, the
# --then steps) are still queued or running: two tasks of one shard at once would write the
# same checkpoint.
refuse_if_queued() {
    local earlier queued stale
    earlier=$(awk '/^jobs: array [0-9]+, merge [0-9]+$/ { a = $3; sub(",", "", a); ids = a "," $5 }
        /^then: job [0-9]+:/ { j = $3; sub(":", "", j); ids = ids "," j } END { print ids }' \
        "$out/submit.txt")
    [[ -n $earlier ]] || return 0
    # Steps left waiting on a merge or step that failed never run: they are cancelled, the
    # others wait.
    stale=$(squeue -h -j "$earlier" -o '%i %r' 2>/dev/null | awk '$2 == "DependencyNeverSatisfied" { print $1 }' || true)
    if [[ -n $stale ]]; then
        # shellcheck disable=SC2086
        scancel $stale 2>/dev/null || true
        echo "submit.sh: cancelled the steps of the last submission left waiting on a step that failed: $(echo $stale)" >&2
    fi
    queued=$(squeue -h -j "$earlier" -o '%i %r' 2>/dev/null | awk '$2 != "DependencyNeverSatisfied" { print $1 }' || true)
    [[ -z $queued ]] ||
        die "the jobs $earlier of $out are still queued or running: wait for them or scancel them"
}

out=$(readlink -m -- "$out")
[[ ! -e $out || -d $out ]] || die "--out $out exists and is not a directory"
# Two runs into one DIR at once would write the same checkpoints: every submission and --local
# run holds DIR/.launcher.lock from its checks of DIR to its end (a submission's end is its
# jobs queued and written down; a --local run's, its merge and steps). Opened for writing, as
# a lock on a network file system needs.
if ! $dry_run; then
    mkdir -p -- "$out"
    exec 9>>"$out/.launcher.lock"
    lock=0
    flock -n -E 75 9 || lock=$?
    ((lock == 0)) || {
        ((lock == 75)) && die "another submit.sh run of $out is under way (it holds $out/.launcher.lock)"
        die "cannot lock $out/.launcher.lock (flock exit $lock): does its file system support locks?"
    }
fi
if [[ -f $out/submit.txt ]]; then
    previous=$(sed -n 's/^search: //p' "$out/submit.txt" | tail -n 1)
    same_search "$previous" ||
        die "$out holds another search ($previous): choose another --out"
    # (A --local run too: it would share the checkpoints with the jobs.)
    $dry_run || refuse_if_queued
fi
name=bataille-$(basename -- "$out")
array=${tasks:-1-$shards}
task_args=("$here/shard.sh")
merge_args=("$here/merge.sh" --bin "$bin")
case $mode in
    parts)
        task_args+=(--parts "$bin" "$shards" "$out" "${command[@]}" "${args[@]}")
        merge_args+=(--parts "$out" "$shards" -- "${command[@]}" "${args[@]}")
        ;;
    states)
        # A search of blocks writes one file, its catalogue: a shard's is shards/shard-K.csv.
        [[ ${command[0]} == aligned ]] && task_args+=(--file)
        task_args+=("$bin" "$shards" "$out" "${command[@]}" "${args[@]}")
        merge_args+=(--states "$out" "$shards" -- "${command[@]}" "${args[@]}")
        ;;
    *)
        task_args+=("$bin" "$shards" "$out" "${command[@]}" "${args[@]}" "${every[@]}")
        merge_args+=("$out" "$shards")
        ;;
esac
shard_cmd=(sbatch --parsable --job-name "$name" --array "$array" --cpus-per-task "$cpus"
    --time "$limit" --requeue --open-mode append --output "$out/logs/shard-%a.log"
    --chdir "$out" "${task_args[@]}")
merge_cmd=(sbatch --parsable --job-name "$name-merge" --cpus-per-task 1 --time "$limit"
    --open-mode append --output "$out/logs/merge.log" --chdir "$out")
# The steps after the merge: in the directory of the submission, DIR and BIN exported.
then_cmd=(sbatch --parsable --cpus-per-task "$cpus" --time "$limit" --open-mode append
    --chdir "$PWD" --export "ALL,DIR=$out,BIN=$bin")

# Appends this run to DIR/submit.txt: the date, the search, the binary, the tasks (TASKS: their
# CPUs and where they run), JOBS (the jobs line), and a line per --then step with its job
# (then_jobs, in the order of the steps).
write_down() {
    local i
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "search: $search"
        echo "binary: $bin ($("$bin" --version 2>/dev/null || echo 'no version'))"
        echo "tasks: $array, $1"
        echo "$2"
        for i in "${!then[@]}"; do echo "then: job ${then_jobs[i]}: ${then[i]}"; done
    } >>"$out/submit.txt"
}

# The array's task numbers, one a line (3,7,10-12: 3 7 10 11 12).
task_numbers() {
    local range
    for range in ${array//,/ }; do
        seq "${range%-*}" "${range#*-}"
    done
}

if $dry_run && $local; then
    for k in $(task_numbers); do
        printf 'SLURM_ARRAY_TASK_ID=%s SLURM_CPUS_PER_TASK=%s ' "$k" "$cpus"
        printf '%q ' "${task_args[@]}"
        echo
    done
    printf '%q ' "${merge_args[@]}"
    echo
    for step in "${then[@]}"; do printf 'DIR=%q BIN=%q bash -c %q\n' "$out" "$bin" "$step"; done
    exit 0
elif $dry_run; then
    printf '%q ' "${shard_cmd[@]}"
    echo
    printf '%q ' "${merge_cmd[@]}" --dependency afterany:JOBID "${merge_args[@]}"
    echo
    for i in "${!then[@]}"; do
        printf '%q ' "${then_cmd[@]}" --job-name "$name-then-$((i + 1))" \
            --output "$out/logs/then-$((i + 1)).log" --dependency afterok:JOBID \
            --wrap "bash -c $(printf %q "${then[i]}")"
        echo
    done
    exit 0
fi

! $interrupted || { echo "submit.sh: stopped before anything was queued" >&2; exit 130; }
# The folders exist before the jobs are queued: SLURM opens the logs when a task starts.
mkdir -p -- "$out/shards" "$out/checkpoints" "$out/logs"

if $local; then
    # The tasks in the order of the array, each as SLURM runs it (shard.sh, its log appended),
    # as many at once as the cores hold (cores / --cpus), then the merge. A task that fails
    # does not stop the others: the merge names it, as on SLURM. Ctrl-C or SIGTERM reaches the
    # tasks under way (each stops at its checkpoint) and ends the run after them, exit 130.
    then_jobs=()
    for step in "${then[@]}"; do then_jobs+=(local); done
    write_down "$cpus CPUs, on $(hostname) without SLURM" "jobs: local"
    child=
    # The tasks under way (process group -> task), as many at once as the cores hold.
    declare -A running=()
    slots=$(($(nproc) / cpus))
    ((slots >= 1)) || slots=1
    stopped=false
    trap 'stopped=true
        for g in "${!running[@]}" $child; do kill -TERM -- "-$g" 2>/dev/null || true; done' INT TERM HUP
    # (A stop that came since the checks: no task starts.)
    ! $interrupted || stopped=true
    failed=()
    # Waits for one task to end and notes how it ended (a trapped signal cuts `wait -n` short:
    # it then returns with no process, and the caller waits again).
    reap() {
        local pid= status=0 p
        wait -n -p pid "${!running[@]}" || status=$?
        if [[ -z ${pid-} ]]; then
            ((status == 127)) || return 0
            # No task left to wait for, though some are listed: those no longer running ended
            # with a status this shell cannot know.
            for p in "${!running[@]}"; do
                kill -0 "$p" 2>/dev/null || { failed+=("${running[$p]}"); unset "running[$p]"; }
            done
            sleep 0.1
            return 0
        fi
        ((status == 0)) || failed+=("${running[$pid]}")
        unset "running[$pid]"
    }
    for k in $(task_numbers); do
        while ((${#running[@]} >= slots)); do reap; done
        $stopped && break
        echo "task $k of $shards ($cpus CPUs)"
        # A process group of its own, signalled whole as SLURM signals a task's processes
        # (and out of reach of the terminal's Ctrl-C, which this script passes on).
        SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_JOB_ID=local SLURM_CPUS_PER_TASK=$cpus \
            setsid "${task_args[@]}" >>"$out/logs/shard-$k.log" 2>&1 </dev/null &
        running[$!]=$k
        # (A signal that came as it started.)
        ! $stopped || kill -TERM -- "-$!" 2>/dev/null || true
    done
    while ((${#running[@]})); do reap; done
    if $stopped; then
        echo "stopped: the tasks under way kept their checkpoints; the same command goes on from there" >&2
        exit 130
    fi
    ((${#failed[@]} == 0)) || echo "tasks that did not end well: ${failed[*]} (see $out/logs)" >&2
    status=0
    "${merge_args[@]}" >>"$out/logs/merge.log" 2>&1 || status=$?
    ((status == 0)) || { tail -n 3 "$out/logs/merge.log" >&2; exit "$status"; }
    echo "merged results in $out/merged (logs in $out/logs)"
    for i in "${!then[@]}"; do
        $stopped && exit 130
        log=$out/logs/then-$((i + 1)).log
        echo "then: ${then[i]}"
        DIR=$out BIN=$bin setsid bash -c "${then[i]}" >>"$log" 2>&1 </dev/null &
        child=$!
        # A trapped signal cuts `wait` short: wait again until the step has ended.
        while :; do
            status=0
            wait "$child" || status=$?
            kill -0 "$child" 2>/dev/null || break
        done
        child=
        $stopped && exit 130
        if ((status != 0)); then
            tail -n 3 "$log" >&2
            echo "submit.sh: the step '${then[i]}' failed (exit $status): see $log" >&2
            exit "$status"
        fi
    done
    exit 0
fi

job=$("${shard_cmd[@]}") || die "sbatch refused the job array: nothing queued"
job=${job%%;*}
if ! merge=$("${merge_cmd[@]}" --dependency "afterany:$job" "${merge_args[@]}"); then
    scancel "$job" || true
    die "sbatch refused the merge job: job array $job cancelled"
fi
merge=${merge%%;*}
previous=$merge
steps=()
for i in "${!then[@]}"; do
    if ! step=$("${then_cmd[@]}" --job-name "$name-then-$((i + 1))" --output "$out/logs/then-$((i + 1)).log" \
        --dependency "afterok:$previous" --wrap "bash -c $(printf %q "${then[i]}")"); then
        scancel "$job" "$merge" "${steps[@]}" || true
        die "sbatch refused the step '${then[i]}': the jobs of this submission are cancelled"
    fi
    previous=${step%%;*}
    steps+=("$previous")
done
then_jobs=("${steps[@]}")
write_down "$cpus CPUs, time limit $limit" "jobs: array $job, merge $merge"
echo "job array $job ($array of $shards shards), merge job $merge${steps[*]:+, then ${steps[*]}}"
echo "logs in $out/logs, merged results in $out/merged"
