# Sourced by whole-game.sh and position-records.sh: one `bataille records extend --whole-game`
# run, timed, and what its output says. Needs BIN and RECORDS set.
# shellcheck source=scripts/timed-run.sh
source "$(dirname "${BASH_SOURCE[0]}")/timed-run.sh"

# extend_whole START METHOD BUDGET LOG: runs it from START (a deal or any position), appending
# the deals found to RECORDS; its output in LOG, its CPU seconds in LOG.time. On failure prints
# its error and exits 2; Ctrl-C or SIGTERM reaches the run, and the script then exits 130.
extend_whole() {
    local start=$1 method=$2 budget=$3 log=$4 status
    timed_run "$log.time" "$BIN" records extend "$start" -m "$method" \
        --whole-game --budget "$budget" --records "$RECORDS" >"$log" 2>"$log.err"
    status=$run_status
    # (A run that ended well as a stop came is kept: the caller writes its row, and the next
    # run does not start.)
    if ((status != 0 && run_stopped)); then
        if [[ -n $run_pid ]]; then
            echo "stopped during records extend on $start" >&2
        else
            echo "stopped before records extend on $start" >&2
        fi
        exit 130
    fi
    if ((status != 0)); then
        echo "records extend failed on $start:" >&2
        cat "$log.err" >&2
        exit 2
    fi
}

# extend_cpu LOG: the CPU seconds of the run.
extend_cpu() { timed_cpu "$1.time"; }

# extend_found LOG: `tricks,cards` of the longest deal by tricks, empty when none was kept.
extend_found() {
    awk '/^by tricks:/ { for (i = 1; i <= NF; i++) if ($i == "tricks,") { print $(i - 1) "," $(i + 1); exit } }' "$1"
}
