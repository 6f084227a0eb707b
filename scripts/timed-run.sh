# Sourced by the long-run scripts: one run of a command (the bataille binary) under
# /usr/bin/time, in the background, so that Ctrl-C or SIGTERM to the script reaches the run
# (bataille saves its checkpoint and exits 130) and not /usr/bin/time (which would lose the CPU
# time). The trap is in place before the run starts; a signal that came before /usr/bin/time
# had started the run is passed on as soon as the run is there. Each signal to the script is
# passed on once (bataille takes a second one as "quit at once").

# timed_run TIMES COMMAND...: runs COMMAND, its user and system seconds written to TIMES; sets
# run_status (its exit status) and run_stopped (1 when the script was asked to stop).
timed_run() {
    local times=$1
    shift
    run_status=0 run_stopped=0 run_sent=0 run_pid=
    trap 'run_stopped=1; [[ -n $run_pid ]] && pkill -TERM -P "$run_pid" 2>/dev/null && run_sent=1 || true' INT TERM
    /usr/bin/time -f "%U %S" -o "$times" "$@" &
    run_pid=$!
    # A trapped signal cuts `wait` short (with the signal's status, not the run's): wait until
    # the run has ended, then ask its status.
    while kill -0 "$run_pid" 2>/dev/null; do
        if ((run_stopped && !run_sent)); then
            if pkill -TERM -P "$run_pid" 2>/dev/null; then run_sent=1; else sleep 0.1; continue; fi
        fi
        wait "$run_pid" || true
    done
    wait "$run_pid" || run_status=$?
    trap - INT TERM
}

# timed_cpu TIMES: the CPU seconds (user and system) of the run.
timed_cpu() { awk 'END { printf "%.1f", $1 + $2 }' "$1"; }
