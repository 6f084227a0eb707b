#!/usr/bin/env bash
# Tests the SLURM launcher (scripts/slurm/submit.sh) on a real, private, single-node SLURM:
#
#   scripts/slurm/test-local.sh     # as root; BATAILLE=PATH picks the binary (default
#                                   # target/release/bataille), BATAILLE_SLURM_KEEP=1 keeps
#                                   # the temporary folder (logs, results) for inspection,
#                                   # BATAILLE_SLURM_DEALS=N sets the 52-card run's size
#
# 1. Installs slurm-wlm and munge with apt-get if they are missing (and says so: they are left
#    installed; no service is started by the installation).
# 2. Writes a single-node configuration for this machine (CPUs, memory and host name detected)
#    in a temporary folder and starts munged, slurmctld and slurmd there, with their own
#    sockets, ports, pid files and state folders, so an existing SLURM is not disturbed.
# 3. Checks that bad submissions are refused with nothing queued (a task longer than --time
#    among them, with the shard count that fits) and that --dry-run prints the cost; submits
#    C=2 V=6 natural exhaustive in 8 shards, a 52-card random run in 4 shards and a C=3 V=4
#    position hunt (`cycles hunt`, followed by a two-step record pipeline, `--then`) in 3, a
#    census (`cycles census`) in 3, a search of aligned blocks in 2 and a beggar-my-neighbour
#    run (`bmn explore`) in 2; requeues one of the 52-card tasks while it runs,
#    after its first checkpoint, and checks that it resumed from it; submits a C=3 V=4 hunt in
#    3 shards without shard 3, checks that the merge job names it and fails, then submits that
#    shard alone; submits a SAT question (C=1 V=5, loops turning 6 cards, `cycles solve
#    --split`) as one task per part, whose merge job certifies the period, and an aligned
#    question (`aligned solve`, 8 cards, 1 to 4 rounds) as one task; checks that the same
#    questions with a larger `--time-limit` are taken as the same runs (continued, not refused).
# 4. Checks every merged output byte-identical (all files but metadata.csv) to a single run of
#    the same search, and the SAT question's merged files equal to a single run's but for the
#    seconds (the aligned question's too); runs the census again without SLURM, from a plan (`submit.sh --local --plan`), and
#    checks its shards and merged files equal to the SLURM run's; stops a --local run of the
#    52-card deals by SIGTERM after its first checkpoint, runs it again, and checks it resumed
#    and merged to the single run's files; runs it once more, finished, and checks that no
#    shard ran again (their files untouched) and what scripts/slurm/progress.sh reads from it.
# 5. Stops the daemons it started, by their process ids, and removes the temporary folder.
#
# Exits 0 when everything matches, 1 on any difference or failure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
submit=$root/scripts/slurm/submit.sh
bin=${BATAILLE:-$root/target/release/bataille}
started=$(date +%s)

say() { echo "test-local: $*"; }
fail() {
    echo "test-local: FAIL: $*" >&2
    exit 1
}

[[ $(id -u) == 0 ]] || fail "run as root: it starts munged, slurmctld and slurmd"
[[ -x $bin ]] || fail "no binary $bin: build it (cargo build --release -p bataille-cli) or set BATAILLE"
bin=$(readlink -f -- "$bin")

# Everything this script creates, and the daemons it starts, go when it exits.
work=$(mktemp -d /tmp/bataille-slurm-test.XXXXXX)
pids=()
ctld_pid=
policy_created=false
cleanup() {
    local status=$?
    set +e
    local i pid order=()
    if [[ -n $ctld_pid ]] && kill -0 "$ctld_pid" 2>/dev/null; then
        scancel --quiet --full --user root 2>/dev/null
        for ((i = 0; i < 60; i++)); do
            [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
            sleep 0.5
        done
    fi
    # slurmd, slurmctld, then munged: the SLURM daemons talk through munged until they exit.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do order+=("${pids[i]}"); done
    for pid in "${order[@]}"; do
        kill -TERM "$pid" 2>/dev/null
        for ((i = 0; i < 40; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.25
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [[ $policy_created == true ]]; then rm -f /usr/sbin/policy-rc.d; fi
    if ((status != 0)) && [[ -d $work ]]; then
        for log in "$work"/log/*.log; do
            echo "--- last lines of $log" >&2
            tail -n 15 "$log" >&2
        done
    fi
    if [[ ${BATAILLE_SLURM_KEEP-} == 1 ]]; then
        say "daemons stopped, $work kept ($(($(date +%s) - started)) s in all)"
    else
        rm -rf -- "$work"
        say "daemons stopped, $work removed ($(($(date +%s) - started)) s in all)"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- 1. packages -----------------------------------------------------------------------------
install_packages() {
    # Services must not start during the installation: a policy-rc.d that refuses them is put
    # in place for the time of the installation if there is none.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        policy_created=true
    fi
    local apt=(apt-get -q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
        -o Dpkg::Options::=--force-confold)
    local try
    for try in 1 2 3; do
        DEBIAN_FRONTEND=noninteractive "${apt[@]}" update </dev/null ||
            say "apt-get update failed: trying with the package lists there are"
        if DEBIAN_FRONTEND=noninteractive "${apt[@]}" install --no-install-recommends \
            slurm-wlm munge </dev/null; then
            break
        fi
        ((try < 3)) || fail "apt-get could not install slurm-wlm and munge"
        sleep 10
    done
    if [[ $policy_created == true ]]; then
        rm -f /usr/sbin/policy-rc.d
        policy_created=false
    fi
    say "installed slurm-wlm and munge with apt-get (left installed)"
}
missing=()
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    command -v apt-get >/dev/null ||
        fail "missing ${missing[*]} and no apt-get: install SLURM (slurmctld, slurmd," \
            "the client commands) and munge"
    say "missing ${missing[*]}: installing slurm-wlm and munge"
    install_packages
fi

# --- 2. a private single-node SLURM ----------------------------------------------------------

free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 20000))
        if ! (: >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
}

mkdir -p "$work"/{etc,munge,state,spool,log,runs,single}
chmod 700 "$work/munge"
mungekey --create --keyfile "$work/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$work/munge/munge.key"
munged --foreground --force --socket "$work/munge/munge.socket" --key-file "$work/munge/munge.key" \
    --pid-file "$work/munge/munged.pid" --log-file "$work/log/munged.log" \
    --seed-file "$work/munge/munge.seed" >>"$work/log/munged.log" 2>&1 &
pids+=($!)

node=$(hostname -s)
hardware=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p' | sed 's/ *UpTime=.*//')
[[ -n $hardware ]] || fail "slurmd -C did not describe this machine"
ctld_port=$(free_port)
slurmd_port=$(free_port)
export SLURM_CONF=$work/etc/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=bataille-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
echo "CgroupPlugin=cgroup/v1" >"$work/etc/cgroup.conf"

for ((i = 0; i < 40; i++)); do
    [[ -S $work/munge/munge.socket ]] && break
    sleep 0.25
done
[[ -S $work/munge/munge.socket ]] || fail "munged did not start"
slurmctld -D -c -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
ctld_pid=$!
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
for ((i = 0; i < 120; i++)); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
done
[[ $state == idle ]] || fail "the node did not come up (state '$state')"
say "SLURM up: node $node ($hardware), ports $ctld_port/$slurmd_port, in $work"

# --- 3. submissions --------------------------------------------------------------------------
runs=$work/runs
queue_empty() { [[ -z $(squeue -h -o %i) ]]; }

refused() {
    local status=0
    "$submit" "$@" >"$work/refusal.log" 2>&1 || status=$?
    ((status == 2)) || fail "submit.sh $* was not refused (exit $status): $(cat "$work/refusal.log")"
}
# 115 work units: enough for the default 64 shards.
good=(explore -c 2 -v 6 --exhaustive)
refused --bin "$bin" -- "${good[@]}"
refused --bin "$bin" --shards 0 -- "${good[@]}" --out "$runs/bad"
refused --bin "$bin" --shards x -- "${good[@]}" --out "$runs/bad"
refused --bin "$bin" -- play 1,2/3,4 --out "$runs/bad"
refused --bin "$bin" -- verify --out "$runs/bad"
refused --bin "$bin" -- bmn play --out "$runs/bad"
refused --bin "$bin" -- cycles ancestors '[1, 2] / [2, 1]' --out "$runs/bad"
# A census of 32 units in the default 64 shards.
refused --bin "$bin" -- cycles census -c 2 -v 2 --out "$runs/bad"
grep -q 'fewer than 64 shards' "$work/refusal.log" ||
    fail "a census of 32 units in 64 shards was refused for another reason: $(cat "$work/refusal.log")"
refused --bin "$bin" -- cycles census -c 3 -v 3 --merge x.ckpt --out "$runs/bad"
refused --bin "$bin" -- cycles hunt -c 2 -v 4 --random 1000 --sampler insert \
    --seeds "$work/no-such-seeds" --out "$runs/bad"
refused --bin "$work/no-such-binary" -- "${good[@]}" --out "$runs/bad"
refused --bin "$bin" -- "${good[@]}" --shard 1/2 --out "$runs/bad"
refused --bin "$bin" -- "${good[@]}" --checkpoint x.ckpt --out "$runs/bad"
refused --bin "$bin" -- "${good[@]}" --resume --out "$runs/bad"
refused --bin "$bin" -- "${good[@]}" --threads 2 --out "$runs/bad"
refused --bin "$bin" -- "${good[@]}" --records records.csv --out "$runs/bad"
refused --bin "$bin" -- explore -c 0 -v 3 --exhaustive --out "$runs/bad"
# C=4 V=3 is one work unit: two shards would leave one with nothing to do.
refused --bin "$bin" --shards 2 -- explore -c 4 -v 3 --exhaustive --out "$runs/bad"
grep -q 'fewer than 2 shards' "$work/refusal.log" ||
    fail "a search of 1 unit in 2 shards was refused for another reason: $(cat "$work/refusal.log")"
# A task that would outlast --time: refused, with the shard count that fits (10^9 52-card
# deals in 2 tasks of 1 CPU, each hours long, against a limit of 1 minute).
refused --bin "$bin" --shards 2 --cpus 1 --time 1 -- explore -c 4 -v 13 --random 1000000000 \
    --out "$runs/bad"
grep -q 'more than --time 1 (60 s): use at least [0-9]* shards' "$work/refusal.log" ||
    fail "a task longer than --time was refused for another reason: $(cat "$work/refusal.log")"
# A SAT question runs one task per part of one split period: C=1 V=5 at 6 cards has 2 parts.
question=(cycles solve -c 1 -v 5 --cards --period 6 --split --all)
refused --bin "$bin" -- cycles solve -c 1 -v 5 --cards --period 6 --out "$runs/bad"
grep -q 'give --split and --period P' "$work/refusal.log" ||
    fail "a question not split was refused for another reason: $(cat "$work/refusal.log")"
refused --bin "$bin" --shards 3 -- "${question[@]}" --out "$runs/bad"
grep -q 'the period has 2 parts' "$work/refusal.log" ||
    fail "a question in 3 tasks was refused for another reason: $(cat "$work/refusal.log")"
refused --bin "$bin" -- "${question[@]}" --part 1 --out "$runs/bad"
refused --bin "$bin" -- cycles solve -c 1 -v 500 --cards --period 6 --split --out "$runs/bad"
# An aligned question is one task: its dry run says so; a bad one is refused.
aligned=(aligned solve --cards 8 --max-rounds 4)
refused --bin "$bin" -- aligned solve --cards 7 --max-rounds 4 --out "$runs/bad"
refused --bin "$bin" --shards 2 -- "${aligned[@]}" --out "$runs/bad"
grep -q 'an aligned question is one task' "$work/refusal.log" ||
    fail "an aligned question in 2 tasks was refused for another reason: $(cat "$work/refusal.log")"
dry=$("$submit" --dry-run --bin "$bin" -- "${aligned[@]}" --out "$runs/bad")
grep -q '^# 1 task of 1 CPU, the whole question' <<<"$dry" && grep -q '^# formula: *4 rounds: ' <<<"$dry" ||
    fail "submit.sh --dry-run of an aligned question printed no task or formula: $dry"
# Plans: a missing one, one with quotes, one without its command, one beside a command.
refused --bin "$bin" --plan "$work/no-such.plan"
printf '%s\n' "--then echo 'a b'" '-- explore -c 2 -v 6 --exhaustive --out x' >"$work/quoted.plan"
refused --bin "$bin" --plan "$work/quoted.plan"
grep -q 'no quotes in a plan' "$work/refusal.log" ||
    fail "a plan with quotes was refused for another reason: $(cat "$work/refusal.log")"
printf '%s\n' '--shards 2' >"$work/empty.plan"
refused --bin "$bin" --plan "$work/empty.plan"
printf '%s\n' '-- explore -c 2 -v 6 --exhaustive --out x' >"$work/good.plan"
refused --bin "$bin" --plan "$work/good.plan" -- explore -c 2 -v 6 --exhaustive --out x
queue_empty || fail "a refused submission queued something"
dry=$("$submit" --dry-run --bin "$bin" -- "${question[@]}" --out "$runs/bad")
grep -q '^# 2 tasks of 1 CPU, one part each' <<<"$dry" && grep -q '^# formula: ' <<<"$dry" ||
    fail "submit.sh --dry-run of a SAT question printed no tasks or formulas: $dry"
dry=$("$submit" --dry-run --bin "$bin" -- "${good[@]}" --out "$runs/bad")
grep -q '^sbatch ' <<<"$dry" || fail "submit.sh --dry-run printed no sbatch command: $dry"
grep -q '^# 64 tasks of 16 CPUs: [0-9.]* core-hours in all' <<<"$dry" ||
    fail "submit.sh --dry-run printed no cost: $dry"
queue_empty || fail "submit.sh --dry-run queued something"
[[ ! -e $runs/bad ]] || fail "a refused or dry-run submission created its output folder"
say "bad submissions refused, nothing queued"

c2v6=(explore -c 2 -v 6 --exhaustive)
# 52-card deals, enough for each shard to run a few seconds and be requeued after its first
# checkpoint: 10^7 by default (about 3 s a shard with the release binary here).
deals=${BATAILLE_SLURM_DEALS:-10000000}
c4v13=(explore -c 4 -v 13 --random "$deals" --seed 2026)
# 6 work units, 2 per shard, 164 looping deals.
c3v4=(hunt -c 3 -v 4 -m natural --exhaustive)
# A position hunt (every split of the hands): 13 units of 16,384 positions, in 3 shards.
positions=(cycles hunt -c 3 -v 4 --random 200000 --seed 5)
# A census (every position of C=3 V=4, its 393,216 units in 3 shards, merged from their
# checkpoints) and a search of aligned blocks (8 cards, the first size with loops: 54 units in
# 2 shards, its catalogue merged the same way).
census=(cycles census -c 3 -v 4)
# Beggar-my-neighbour: 20,000 random deals of a 20-card deck in 2 shards.
bmn=(bmn explore --counts 12,2,2,2,2 --random 20000 --seed 4)
blocks=(aligned blocks --cards 8)
# Submitted from another directory, with the binary given by --bin.
cd "$work"
"$submit" --shards 8 --cpus 1 --time 10 --bin "$bin" -- "${c2v6[@]}" --checkpoint-every 1 \
    --out runs/c2v6 >/dev/null
# Submitted again while its jobs are queued: refused (the highest job id stays the merge job's).
last=$(sed -n 's/^jobs: array [0-9]*, merge \([0-9]*\)$/\1/p' runs/c2v6/submit.txt)
refused --bin "$bin" --shards 8 -- "${c2v6[@]}" --checkpoint-every 1 --out runs/c2v6
grep -q 'still queued or running' "$work/refusal.log" ||
    fail "a second submission into runs/c2v6 was refused for another reason: $(cat "$work/refusal.log")"
(($(squeue -h -o %F | sort -n | tail -n 1) == last)) ||
    fail "a second submission into runs/c2v6 was queued"
# The 52-card run's binary is a stand-in that makes its requeue certain: the first start of shard
# 2 plays 4 of its 31 units (`--max-units 4`: bataille stops there as a signal would stop it,
# checkpoint written, exit 130) and the task stays running until the requeue's SIGTERM. So the
# shard is still running, part done, when the test requeues it, however fast or loaded the
# machine (a pause at the first checkpoint came too late when the first checkpoint was the last,
# and the shard ended before the requeue, now and then). Every other start, and every other use,
# runs the binary itself.
# stand_in TASK FILE: writes that stand-in for task TASK (its first start: no checkpoint yet).
stand_in() {
    cat >"$2" <<STANDIN
#!/usr/bin/env bash
checkpoint= previous=
for a in "\$@"; do [[ \$previous == --checkpoint ]] && checkpoint=\$a; previous=\$a; done
if [[ \${SLURM_ARRAY_TASK_ID-} != $1 || -z \$checkpoint || -e \$checkpoint ]]; then
    exec "$bin" "\$@"
fi
# The first start of shard $1 plays 4 of its units and stops there (its checkpoint written, exit
# 130, as a stop leaves it), then stays until a signal comes, as a task still running would.
signalled=false
trap 'signalled=true' TERM INT
"$bin" "\$@" --max-units 4 &
pid=\$!
while :; do
    wait \$pid && status=0 || status=\$?
    kill -0 \$pid 2>/dev/null || break
done
until [[ \$signalled == true ]]; do sleep 0.05; done
exit \$status
STANDIN
    chmod +x "$2"
}
paused=$work/paused-bataille
stand_in 2 "$paused"
"$submit" --shards 4 --cpus 1 --time 10 --bin "$paused" -- "${c4v13[@]}" --checkpoint-every 1 \
    --out "$runs/c4v13" >/dev/null
# With the record pipeline after its merge: the walk back from its longest games (records
# and table kept in its DIR), then a step that reads what the walk wrote.
"$submit" --shards 3 --cpus 1 --time 10 --bin "$bin" \
    --then "RECORDS=\$DIR/records.csv FROM_POSITIONS=\$DIR/from-positions.csv $root/scripts/position-records.sh \$DIR/merged 100" \
    --then 'wc -l <"$DIR/from-positions.csv" >"$DIR/rows.txt"' \
    -- "${positions[@]}" --out runs/positions >/dev/null
"$submit" --time 10 --bin "$bin" -- "${question[@]}" --out "$runs/solve" >/dev/null
"$submit" --time 10 --bin "$bin" -- "${aligned[@]}" --time-limit 300 --out "$runs/aligned" >/dev/null
"$submit" --shards 3 --cpus 1 --time 10 --bin "$bin" -- "${census[@]}" --out "$runs/census" >/dev/null
"$submit" --shards 2 --cpus 1 --time 10 --bin "$bin" -- "${blocks[@]}" --out "$runs/blocks" >/dev/null
"$submit" --shards 2 --cpus 1 --time 10 --bin "$bin" -- "${bmn[@]}" --out "$runs/bmn" >/dev/null
# The hunt without its shard 3: the merge must name it.
"$submit" --shards 3 --cpus 1 --time 10 --tasks 1-2 --bin "$bin" -- "${c3v4[@]}" \
    --out "$runs/c3v4" >/dev/null
cd "$root"
say "submitted: $(squeue -h -o '%i' | tr '\n' ' ')"

# Requeue shard 2 of the 52-card run once it has run past its first checkpoint.
array=$(sed -n 's/^jobs: array \([0-9]*\),.*/\1/p' "$runs/c4v13/submit.txt")
task=${array}_2
log=$runs/c4v13/logs/shard-2.log
for ((i = 0; ; i++)); do
    state=$(squeue -h -j "$task" -o %T 2>/dev/null || true)
    if [[ $state == RUNNING && -f $runs/c4v13/checkpoints/shard-2.ckpt ]]; then break; fi
    if grep -qs 'complete at' "$log"; then fail "task $task ended before it could be requeued"; fi
    ((i < 3000)) || fail "task $task did not run with a checkpoint within 5 minutes"
    sleep 0.1
done
scontrol requeue "$task"
say "requeued task $task while running, after its first checkpoint"
# A requeued job may be given a later start time: let it go now.
sleep 1
scontrol update JobId="$task" StartTime=now 2>/dev/null || true

# --- 4. wait, then compare -------------------------------------------------------------------
deadline=$(($(date +%s) + 900))
until queue_empty; do
    (($(date +%s) < deadline)) || fail "jobs still queued after 15 minutes: $(squeue -h)"
    # A requeued job can come back held or with a later start: release it.
    for held in $(squeue -h -t PENDING -o '%i %r' | awk '$2 ~ /Held|BeginTime/ {print $1}'); do
        scontrol release "$held" 2>/dev/null || true
        scontrol update JobId="$held" StartTime=now 2>/dev/null || true
    done
    sleep 0.5
done

grep -q 'stopped before the end' "$log" || fail "shard 2 was not stopped mid-run: $(cat "$log")"
grep -q 'shard 2/4 stopped (exit 130)' "$log" ||
    fail "shard 2's script did not see bataille stop after its checkpoint: $(cat "$log")"
grep -q 'start 2: resuming from' "$log" || fail "shard 2 did not resume from its checkpoint: $(cat "$log")"
# The second start played only what the first had left.
played=$(grep -o '[0-9]* deals played' "$log" | tail -n 1 | cut -d' ' -f1)
total=$(sed -n 's/^deals: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
[[ -n $played && -n $total ]] && ((played < total)) ||
    fail "shard 2 played $played of its $total deals after the requeue: it did not resume"
# Each start of the shard wrote its CPU seconds: stopped (130), then to its end (0).
awk -F, 'NR == 2 && $4 == 130 && $3 > 0 { a = 1 } NR == 3 && $4 == 0 && $3 > 0 { b = 1 }
    END { exit !(a && b && NR == 3) }' "$runs/c4v13/checkpoints/shard-2.cpu" ||
    fail "shard 2's CPU seconds are not one line per start: $(cat "$runs/c4v13/checkpoints/shard-2.cpu")"
say "requeued shard resumed from its checkpoint"

grep -q 'missing or unfinished: 3' "$runs/c3v4/logs/merge.log" ||
    fail "the merge job did not name the missing shard 3: $(cat "$runs/c3v4/logs/merge.log")"
[[ ! -e $runs/c3v4/merged ]] || fail "the merge job merged with a shard missing"
say "merge job named the missing shard"
"$submit" --shards 3 --cpus 1 --time 10 --tasks 3 --bin "$bin" -- "${c3v4[@]}" \
    --out "$runs/c3v4" >/dev/null
until queue_empty; do
    (($(date +%s) < deadline)) || fail "jobs still queued after 15 minutes: $(squeue -h)"
    sleep 0.5
done

compare() {
    local name=$1
    shift
    "$bin" "$@" --out "$work/single/$name" >/dev/null 2>&1 || fail "the single run $* failed"
    [[ -f $runs/$name/merged/state.txt ]] ||
        fail "no merged results for $name: $(cat "$runs/$name/logs/merge.log")"
    diff -r --exclude metadata.csv "$work/single/$name" "$runs/$name/merged" >&2 ||
        fail "$name: the merged shards differ from a single run"
    say "$name: merged shards byte-identical to a single run ($(ls "$runs/$name/merged" | tr '\n' ' '))"
}
compare c2v6 "${c2v6[@]}"
compare c4v13 "${c4v13[@]}"
compare c3v4 "${c3v4[@]}"
compare positions "${positions[@]}"
compare census "${census[@]}"
compare bmn "${bmn[@]}"
# The tasks and merges are given DIR's own paths: no metadata.csv names the machine's folders.
if grep -l -- "$work" "$runs"/*/merged/metadata.csv "$runs"/*/shards/shard-1/metadata.csv; then
    fail "these metadata.csv name the test's folder $work"
fi
# The record pipeline's steps ran after the merge, one after the other: a row per distinct game
# of the merged records.csv (header aside), each with the deal the walk back found.
games=$(awk -F'"' 'NR > 1 && !seen[$2]++' "$runs/positions/merged/records.csv" | wc -l)
((games > 0)) && [[ $(cat "$runs/positions/rows.txt" 2>/dev/null) == $((games + 1)) ]] ||
    fail "the record pipeline's steps did not run in turn: $(cat "$runs/positions/logs"/then-*.log)"
grep -q '^runs/positions/merged,1,' "$runs/positions/from-positions.csv" ||
    fail "the walk back's table names its run otherwise: $(head -n 2 "$runs/positions/from-positions.csv")"
[[ -s $runs/positions/records.csv ]] || fail "the walk back appended no deal to its records file"
say "positions: the record pipeline's two steps ran after the merge, in turn ($games games walked back)"
"$bin" "${blocks[@]}" --out "$work/single/blocks.csv" >/dev/null 2>&1 || fail "the single run of blocks failed"
cmp "$work/single/blocks.csv" "$runs/blocks/merged/catalogue.csv" >&2 ||
    fail "blocks: the merged catalogue differs from a single run's: $(cat "$runs/blocks/logs/merge.log")"
say "blocks: merged shards' catalogue byte-identical to a single run's"
# The same run without SLURM (--local), written as a plan: the same layout, and the merged files
# of the cluster's.
printf '%s\n' '# the census of C=3 V=4 in 3 shards' '--shards 3 --cpus 1' \
    "-- ${census[*]}" "--out $runs/census-local" >"$work/census.plan"
"$submit" --local --bin "$bin" --plan "$work/census.plan" >/dev/null
for d in merged shards; do
    diff -r --exclude metadata.csv "$runs/census/$d" "$runs/census-local/$d" >&2 ||
        fail "census: the --local run's $d differ from the SLURM run's"
done
say "census: a --local run of its plan gives the SLURM run's files"
# A --local run stopped (SIGTERM) once its first checkpoint is written, then the same command
# again: it resumes, and its merged files are the single run's.
# (Its shard 1 stops after 4 units and waits for the signal: the stand-in above, for task 1.)
stand_in 1 "$work/paused-bataille-1"
local_c4v13=("$submit" --local --shards 4 --cpus 1 --bin "$work/paused-bataille-1" -- "${c4v13[@]}"
    --checkpoint-every 1 --out "$runs/c4v13-local")
"${local_c4v13[@]}" >"$work/local.log" 2>&1 &
pid=$!
for ((i = 0; ; i++)); do
    [[ -f $runs/c4v13-local/checkpoints/shard-1.ckpt ]] && break
    kill -0 "$pid" 2>/dev/null || fail "the --local run ended before its first checkpoint: $(cat "$work/local.log")"
    ((i < 3000)) || fail "the --local run wrote no checkpoint within 5 minutes"
    sleep 0.1
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
((status == 130)) || fail "the --local run stopped with exit $status, not 130: $(cat "$work/local.log")"
"${local_c4v13[@]}" >/dev/null || fail "the --local run did not resume"
grep -q 'resuming from' "$runs/c4v13-local/logs/shard-1.log" ||
    fail "the --local run's shard 1 did not resume from its checkpoint"
diff -r --exclude metadata.csv "$work/single/c4v13" "$runs/c4v13-local/merged" >&2 ||
    fail "c4v13: the --local run stopped and resumed differs from a single run"
say "c4v13: a --local run stopped by SIGTERM and run again gives the single run's files"
# Once more, finished: no shard runs again (their files untouched), the merge is the same, and
# the run's progress is read from its directory alone.
before=$(cd "$runs/c4v13-local" && find shards checkpoints -type f -exec md5sum {} + | sort)
"${local_c4v13[@]}" >/dev/null || fail "the finished --local run, run again, failed"
[[ $(cat "$runs/c4v13-local"/logs/shard-*.log | grep -c 'complete already') == 4 ]] ||
    fail "the finished --local run, run again, did not skip its 4 shards"
[[ $(cd "$runs/c4v13-local" && find shards checkpoints -type f -exec md5sum {} + | sort) == "$before" ]] ||
    fail "the finished --local run, run again, changed its shards' files"
diff -r --exclude metadata.csv "$work/single/c4v13" "$runs/c4v13-local/merged" >&2 ||
    fail "c4v13: the finished run, run again, merged other files"
progress=$("$root/scripts/slurm/progress.sh" "$runs/c4v13-local")
[[ $progress == "c4v13-local: 4 of 4 shards done, $(awk -F, '$1 == "deals" { print $2 }' "$work/single/c4v13/summary.csv") deals, "* ]] ||
    fail "progress.sh of the finished run: $progress"
say "c4v13: run again once finished, it redoes nothing ($progress)"
# The SAT question: the parts' merge certifies the period, with the single run's loops and rows
# (the solver's and the checker's seconds aside).
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "solve_s" || $i == "check_s") drop[i] = 1 }
        { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line $i ","; print line }' "$1"
}
"$bin" "${question[@]}" --out "$work/single/solve" >/dev/null 2>&1 || fail "the single run failed"
grep -q 'certified: every position that comes back after 6 cards' "$runs/solve/logs/merge.log" ||
    fail "the parts' merge did not certify the period: $(cat "$runs/solve/logs/merge.log")"
cmp "$work/single/solve/cycles.csv" "$runs/solve/merged/cycles.csv" >&2 ||
    fail "solve: the merged parts' loops differ from a single run's"
for f in instances.csv parts.csv; do
    diff <(untimed "$work/single/solve/$f") <(untimed "$runs/solve/merged/$f") >&2 ||
        fail "solve: the merged parts' $f differs from a single run's"
done
say "solve: the parts run as tasks, merged, equal to a single run"
# The aligned question: one task, its directory copied to merged, equal to a single run's.
"$bin" "${aligned[@]}" --out "$work/single/aligned" >/dev/null 2>&1 || fail "the single aligned run failed"
grep -q '^certified: every aligned cycle of 8 cards' "$runs/aligned/logs/shard-1.log" ||
    fail "the aligned task did not certify its rounds: $(cat "$runs/aligned/logs/shard-1.log")"
for f in rounds.csv blocks.csv; do
    cmp "$work/single/aligned/$f" "$runs/aligned/merged/$f" >&2 ||
        fail "aligned: the task's $f differs from a single run's"
done
diff <(untimed "$work/single/aligned/instances.csv") <(untimed "$runs/aligned/merged/instances.csv") >&2 ||
    fail "aligned: the task's instances.csv differs from a single run's"
# A larger --time-limit is the same question, continued; another question in its DIR is not.
for q in "${question[*]} --out $runs/solve" "${aligned[*]} --out $runs/aligned"; do
    # shellcheck disable=SC2086
    "$submit" --dry-run --bin "$bin" -- $q --time-limit 9000 >"$work/again.log" 2>&1 ||
        fail "a larger --time-limit was refused: $(cat "$work/again.log")"
done
refused --bin "$bin" -- aligned solve --cards 8 --max-rounds 3 --out "$runs/aligned"
grep -q 'holds another search' "$work/refusal.log" ||
    fail "another aligned question in the same DIR was refused for another reason: $(cat "$work/refusal.log")"
say "aligned: the question run as a task, merged, equal to a single run; a larger limit continues it"
say "all checks passed"
