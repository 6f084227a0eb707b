#!/bin/bash
# Checks the proofs that `bataille cycles solve --keep` and `bataille aligned solve --keep` write
# (DIR/proofs/*.cnf with its .lrat) with three LRAT checkers that share no code with the
# toolkit, then breaks each proof and checks it again:
# - lrat-trim (github.com/arminbiere/lrat-trim): reads the binary proof; verified means exit
#   status 20 and `s VERIFIED`;
# - cake_lpr (github.com/tanyongkiam/cake_lpr, verified in CakeML): reads the binary proof and
#   the text one; verified means `s VERIFIED UNSAT` on stdout (it exits with status 0 either way);
# - lrat-check (github.com/marijnheule/drat-trim): reads text only, so it gets the text proof
#   that `lrat-trim --ascii` writes (trimmed to the steps the refutation uses); verified means
#   exit status 0 and `c VERIFIED`.
# The broken proofs are made from that text proof: the first hint of its middle step removed,
# and the last hint of its final step (the empty clause) removed. First, two small cases that
# lrat-check gets wrong: an empty clause with no hints (`p cnf 1 1`, `1 0`; proof `2 0 0`), and
# a formula whose clauses lrat-check stores past the end of its table (`p cnf 50 2`, `1 2 0`,
# `-1 2 0`; proof `3 2 0 1 2 0`, which derives a clause and not the empty clause).
#
# The exit status is 1 if lrat-trim or cake_lpr fails to verify a proof, or verifies a broken
# one, or if lrat-check fails to verify a proof; lrat-check's answers on the broken proofs and
# on the two small cases are printed only.
#
# Usage: scripts/check-proofs-elsewhere.sh LRAT_TRIM CAKE_LPR LRAT_CHECK DIR...
#   e.g. bataille cycles solve -c 4 -v 3 --period 8 --keep --out DIR, then
#   scripts/check-proofs-elsewhere.sh lrat-trim cake_lpr lrat-check DIR
set -euo pipefail
usage="usage: scripts/check-proofs-elsewhere.sh LRAT_TRIM CAKE_LPR LRAT_CHECK DIR..."
TRIM=${1:?$usage}
CAKE=${2:?$usage}
CHECK=${3:?$usage}
shift 3
[[ $# -ge 1 ]] || { echo "$usage" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failed=0

# Each prints VERIFIED, or `rejected` with the checker's reason, or `no verdict`.
by_trim() {
    local rc=0
    "$TRIM" "$1" "$2" >"$TMP/out" 2>&1 || rc=$?
    if [[ $rc == 20 ]] && grep -qx 's VERIFIED' "$TMP/out"; then
        echo VERIFIED
    elif [[ $rc == 0 ]]; then
        echo "no verdict (exit 0: $(grep -m1 'no empty clause found' "$TMP/out" || true))"
    else
        echo "rejected (exit $rc: $(grep -m1 '^lrat-trim:' "$TMP/out" || true))"
    fi
}
by_cake() {
    local rc=0
    "$CAKE" "$1" "$2" >"$TMP/out" 2>"$TMP/err" || rc=$?
    if grep -qx 's VERIFIED UNSAT' "$TMP/out"; then
        echo VERIFIED
    else
        echo "rejected (exit $rc: $(head -1 "$TMP/err"))"
    fi
}
by_check() {
    local rc=0
    "$CHECK" "$1" "$2" >"$TMP/out" 2>&1 || rc=$?
    if [[ $rc == 0 ]] && grep -qx 'c VERIFIED' "$TMP/out"; then
        echo VERIFIED
    elif grep -qx 'c NOT VERIFIED' "$TMP/out"; then
        echo "rejected (exit $rc: $(grep -m1 'FAILED\|ERROR\|failed while' "$TMP/out" || true))"
    else
        echo "no verdict (exit $rc: $(tail -1 "$TMP/out"))"
    fi
}
expect() { # checker (with "broken" in it for a broken proof), unused, verdict
    echo "  $1: $3"
    if [[ $1 == *broken* ]]; then
        [[ $3 != VERIFIED ]] || failed=1
    else
        [[ $3 == VERIFIED ]] || failed=1
    fi
}

echo "two small cases (each checker's answer printed only):"
printf 'p cnf 1 1\n1 0\n' >"$TMP/a.cnf"
printf '2 0 0\n' >"$TMP/a.lrat"
printf 'p cnf 50 2\n1 2 0\n-1 2 0\n' >"$TMP/b.cnf"
printf '3 2 0 1 2 0\n' >"$TMP/b.lrat"
for c in a b; do
    echo " $(paste -sd/ "$TMP/$c.cnf" | sed 's|/| / |g'), with the proof $(cat "$TMP/$c.lrat"):"
    echo "  lrat-trim: $(by_trim "$TMP/$c.cnf" "$TMP/$c.lrat")"
    echo "  cake_lpr: $(by_cake "$TMP/$c.cnf" "$TMP/$c.lrat")"
    echo "  lrat-check: $(by_check "$TMP/$c.cnf" "$TMP/$c.lrat")"
done

for dir in "$@"; do
    [[ -d $dir/proofs ]] || { echo "$dir/proofs: no such directory (solve with --keep)" >&2; exit 2; }
    for cnf in "$dir"/proofs/*.cnf; do
        proof=${cnf%.cnf}.lrat
        [[ -f $proof ]] || continue
        echo "$proof:"
        expect lrat-trim "" "$(by_trim "$cnf" "$proof")"
        expect cake_lpr "" "$(by_cake "$cnf" "$proof")"
        text=$TMP/text.lrat
        "$TRIM" --ascii "$cnf" "$proof" "$text" >/dev/null 2>&1 || true
        [[ -s $text ]] || { echo "  lrat-trim --ascii wrote no text proof"; failed=1; continue; }
        steps=$(awk '$2 != "d"' "$text" | wc -l)
        expect "lrat-check (text, $steps steps)" "" "$(by_check "$cnf" "$text")"
        expect "cake_lpr (text)" "" "$(by_cake "$cnf" "$text")"
        # The first hint of the middle step removed.
        awk -v k=$(((steps + 1) / 2)) '$2 != "d" && ++n == k {
            out = $1; zeros = 0; gone = 0
            for (i = 2; i <= NF; i++) {
                if (zeros == 1 && !gone && $i != 0) { gone = 1; continue }
                if ($i == 0) zeros++
                out = out " " $i
            }
            print out; next
        } { print }' "$text" >"$TMP/middle.lrat"
        # The last hint of the final step removed.
        awk -v k="$steps" '$2 != "d" && ++n == k { $(NF - 1) = ""; $0 = $0; $1 = $1 } { print }' \
            "$text" >"$TMP/final.lrat"
        for broken in middle final; do
            b=$TMP/$broken.lrat
            expect "lrat-trim ($broken step broken)" "" "$(by_trim "$cnf" "$b")"
            expect "cake_lpr ($broken step broken)" "" "$(by_cake "$cnf" "$b")"
            echo "  lrat-check ($broken step broken): $(by_check "$cnf" "$b")"
        done
    done
done
if [[ $failed == 0 ]]; then
    echo "lrat-trim and cake_lpr verified every proof and rejected every broken one; lrat-check verified every proof"
else
    echo "FAILED: a checker did not verify a proof, or lrat-trim or cake_lpr verified a broken one" >&2
fi
exit $failed
