# Sourced by the long-run scripts: one run of a command (the bataille binary) under
# /usr/bin/time, in the background, so that Ctrl-C or SIGTERM to the script reaches the run
# (bataille saves its checkpoint and exits 130) and not /usr/bin/time (which would lose the CPU
# time).
#
# Sourcing it sets the script's INT and TERM trap: a stop is recorded in `stop_requested`
# whenever it comes. During a run it is passed on to the binary once (a second signal to the
# script is passed on too: bataille takes it as "quit at once"), even if it came before the
# binary had started; between runs it stops the next run from starting. The scripts check
# `stop_requested` before each piece of work they record.
stop_requested=0
trap 'stop_requested=1' INT TERM

# timed_run TIMES COMMAND...: runs COMMAND, its user and system seconds written to TIMES
# (empty when they are unknown; TIMES.pid holds its process id during the run); sets
# run_status (its exit status; 130 for a run stopped before its handler was in place) and
# run_stopped (1 when a stop was asked). A stop asked before the call starts nothing:
# run_status 130.
timed_run() {
    local times=$1 i
    shift
    run_status=0 run_stopped=0 run_sent=0 run_pid= run_child=
    : >"$times"
    if ((stop_requested)); then
        run_status=130 run_stopped=1
        return 0
    fi
    run_pidfile=$times.pid
    : >"$run_pidfile"
    trap 'stop_requested=1; if ((run_sent)); then kill -TERM "$run_child" 2>/dev/null || true; else timed_forward; fi' INT TERM
    # The binary itself (the child of /usr/bin/time) writes its process id before it starts
    # (a shell that then becomes the binary): the signal goes to it, and the run is over only
    # when it has ended. A signal to the whole process group, as a scheduler sends, ends
    # /usr/bin/time at once, before the binary has saved its checkpoint; the binary, no longer
    # a child of anything here, is still found by its id.
    /usr/bin/time -f "%U %S" -o "$times" bash -c 'echo $$ >"$0" && exec "$@"' "$run_pidfile" "$@" &
    run_pid=$!
    # (Until the binary's id is there, or /usr/bin/time has ended: a stop that came before
    # is passed on then.)
    for ((i = 0; i < 200; i++)); do
        timed_child
        [[ -z $run_child ]] && kill -0 "$run_pid" 2>/dev/null || break
        # (`|| true`: a signal to the whole process group kills a sleep too.)
        sleep 0.01 || true
    done
    timed_forward
    # A trapped signal cuts `wait` short (with the signal's status, not the run's): wait until
    # the run has ended, then ask its status.
    while kill -0 "$run_pid" 2>/dev/null; do
        wait "$run_pid" || true
        timed_forward
    done
    wait "$run_pid" || run_status=$?
    timed_child
    rm -f "$run_pidfile"
    while [[ -n $run_child ]] && kill -0 "$run_child" 2>/dev/null; do sleep 0.2 || true; done
    trap 'stop_requested=1' INT TERM
    run_stopped=$stop_requested
    # (bash answers -1 when /usr/bin/time died of a signal that also cut `wait` short: the
    # status is unknown then.)
    if ((run_status < 0 || run_status > 255)); then run_status=255; fi
    # (Killed before its handler was in place, or /usr/bin/time killed with it: the binary saves
    # its checkpoint when it can, and a resume is right.)
    if ((run_stopped && run_status > 128)); then run_status=130; fi
}

# Passes a stop on to the run, once, when the binary is there.
timed_forward() {
    ((stop_requested && !run_sent)) || return 0
    timed_child
    [[ -n $run_child ]] || return 0
    kill -TERM "$run_child" 2>/dev/null || true
    run_sent=1
}

# The binary's process id once it has written it. (`read` is a builtin: a signal to the whole
# process group cannot kill it, as it would a command substitution under `set -e`.)
timed_child() {
    [[ -n $run_child ]] || read -r run_child <"$run_pidfile" 2>/dev/null || true
}

# timed_cpu TIMES: the CPU seconds (user and system) of the run; empty when unknown.
timed_cpu() { awk 'END { if (NR) printf "%.1f", $1 + $2 }' "$1"; }
