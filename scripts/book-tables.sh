#!/usr/bin/env bash
# The book's tables of results, made from the committed results, never typed by hand.
#
# Usage: scripts/book-tables.sh           regenerate them: the loop-rates and records
#                                         experiments where their files change
#                                         (results/loop-rates, results/records, --replace),
#                                         then every marked table of the book
#        scripts/book-tables.sh --check   change nothing; exit 1 and name each table (and each
#                                         experiment's file) that is not what the committed
#                                         results give (.ci/run runs this)
#
# A table of the book is marked by two comment lines, invisible once rendered:
#     <!-- book-tables: NAME -->
#     <!-- end of book-tables: NAME -->
# and everything between them is the table NAME gives:
#   sat             docs/results-sat.md      scripts/sat-solves.sh table (results/sat)
#   sat-aligned     docs/results-sat.md      scripts/sat-solves.sh aligned-table
#   sat-scaling     docs/results-sat.md      scripts/sat-scaling.sh table (results/sat/scaling)
#   position-hunts-c4v7, -c4v8, -c4v11
#                   docs/results-cycles.md   scripts/position-hunts.sh table, one deck each
#   hunt-52         docs/results-cycles.md   scripts/slurm/progress.sh of each run begun
#                                            under results/cycles/hunt-52 (METHOD-uniform)
#   loop-rates      docs/results-cycles.md   results/loop-rates/table.md
#   whole-game      docs/results-records.md  results/records-backward/whole-game.csv
#   from-positions  docs/results-records.md  results/records-backward/from-positions.csv
#   record-costs    docs/results-records.md  scripts/record-costs.py (results/hunts histograms,
#                                            results/records/best.csv)
#   record-methods  docs/results-records.md  scripts/record-costs.py --methods
#                                            (results/cycles/validation)
#   durations-c1, durations-c4, duels
#                   docs/results-tables.md   the table lines of results/NAME/table.md (made by
#                                            scripts/reproduce-tables.sh, too slow to rerun here)
#   records         docs/results-tables.md   the rows of results/records/table.md whose
#                                            (C, V, method) the excerpt lists (which rows is
#                                            the book's choice; their numbers are the table's)
# The prose around the tables is written by hand; where it quotes a number a long run changes
# (the SAT bounds of the open questions, the record cells' prose, the README's records), it is
# updated when the run's step ends.
#
# Environment: BIN, the bataille binary (default target/release/bataille; CI uses the debug
# build the tests made).
set -euo pipefail
cd "$(dirname "$0")/.."
# The same digits whatever the machine's locale (awk reads and prints numbers by LC_NUMERIC).
export LC_ALL=C
BIN=${BIN:-target/release/bataille}
CHECK=0
case ${1:-} in
    --check) CHECK=1 ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
[[ -x $BIN ]] || { echo "no binary at $BIN: cargo build --release first (or set BIN)" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

# The experiments: run in a scratch results directory (its sources linked to the committed
# ones: the recipes' `sources` and `extra`) and compared file by file with the committed
# directory, NOTE.md apart (it names the commit and the machine). Without --check, an
# experiment whose files changed is run again in place (--replace) once every table is made, so
# that an unchanged one keeps its NOTE.md.
mkdir -p "$scratch/results"
for src in hunts cycles durations-c1 durations-c4 records.csv; do
    [[ -e results/$src ]] || { echo "no results/$src, which the loop-rates or records recipe reads" >&2; exit 2; }
    ln -s "$PWD/results/$src" "$scratch/results/$src"
done
stale_experiments=()
for exp in loop-rates records; do
    "$BIN" experiment run "experiments/$exp.recipe" --results "$scratch/results" > /dev/null
    made=$(cd "$scratch/results/$exp" && ls | grep -vx NOTE.md)
    committed=$( (cd "results/$exp" 2>/dev/null && ls) | grep -vx NOTE.md || true)
    changed=0
    [[ $made == "$committed" ]] || changed=1
    for name in $made; do
        cmp -s "$scratch/results/$exp/$name" "results/$exp/$name" || changed=1
    done
    if ((changed)); then
        stale_experiments+=("$exp")
        if ((CHECK)); then
            echo "results/$exp/ is not what the committed runs give (bataille experiment run experiments/$exp.recipe --replace)" >&2
            failed=1
        fi
    fi
    cp "$scratch/results/$exp/table.md" "$scratch/$exp.md"
done

# Each table below goes to a file of the scratch directory, then between its markers.
scripts/sat-solves.sh table > "$scratch/sat"
scripts/sat-solves.sh aligned-table > "$scratch/sat-aligned"

# The backward searches from the position hunts' longest games: one row per game, the run's
# name and its finished shards, the game, the longest deal found. An empty "found" is a game
# that starts from a deal (no deal longer than it) or one whose search found none in its budget.
awk -F, '
    BEGIN {
        print "| hunt (finished shards) | its game (tricks) | the longest deal found (tricks, cards) | CPU s |"
        print "| --- | ---: | --- | ---: |"
    }
    NR > 1 {
        run = $1; sub(/.*\//, "", run)
        # The position is the first quoted field; a deal has two hands of equal length.
        line = $0; sub(/^[^"]*"/, "", line); sub(/".*/, "", line)
        split(line, hands, "/")
        a = gsub(/,/, ",", hands[1]); b = gsub(/,/, ",", hands[2])
        if ($5 != "") found = $5 ", " $6
        else if (a == b) found = "none longer: the game starts from a deal"
        else found = "none within the budget of " $7
        printf "| %s (%s) | %s | %s | %s |\n", run, $2, $3, found, $8
    }
' results/records-backward/from-positions.csv > "$scratch/from-positions"

# The 52-card position hunts: one row per run begun, from its `status` line.
for method in natural optimized; do
    [[ -d results/cycles/hunt-52/$method-uniform ]] || continue
    scripts/slurm/progress.sh "results/cycles/hunt-52/$method-uniform" 100
done | awk '
    BEGIN {
        print "| run | shards done | positions played | looping | CPU s | positions per CPU-second |"
        print "| --- | ---: | ---: | ---: | ---: | ---: |"
    }
    # "natural-uniform: 67 of 100 shards done, 67000084480 positions, 0 looping, 50584 CPU s"
    {
        # The order of magnitude from the digits, not from log() (1e9 would come out 10.0·10^8).
        sub(/:$/, "", $1); e = length($7) - 1; m = sprintf("%.1f", $7 / 10 ^ e)
        if (m + 0 >= 10) { e++; m = sprintf("%.1f", $7 / 10 ^ e) }
        printf "| %s | %s of %s | %s (%s·10^%d) | %s | %s | %s |\n", $1, $2, $4, $7, m, e, $9, $11, ($11 > 0 ? sprintf("%.2f M", $7 / $11 / 1e6) : "-")
    }
' > "$scratch/hunt-52"

# The article's tables (scripts/reproduce-tables.sh makes them): the table lines of each
# experiment's table.md, its caption left to the book.
for exp in durations-c1 durations-c4 duels; do
    awk '/^\|/ { last = NR } { line[NR] = $0 } END { for (i = 1; i <= last; i++) if (i >= first) print line[i] }
        /^\|/ && !first { first = NR }' "results/$exp/table.md" > "$scratch/$exp"
done
scripts/sat-scaling.sh table > "$scratch/sat-scaling"

# The position hunts against deal sampling, one table per deck (scripts/position-hunts.sh table,
# its numbers written with thousands separators and its methods by name).
scripts/position-hunts.sh table > "$scratch/position-hunts"
for deck in c4v7 c4v8 c4v11; do
    awk -F' [|] ' -v deck="| $deck" '
        function commas(n,   s) { s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }; return n s }
        function rate(x) { return x >= 1000 ? commas(sprintf("%.0f", x)) : x == 0 ? "0" : sprintf("%.1f", x) }
        BEGIN {
            print "| method | positions played | CPU s | looping positions | distinct loops | loops per CPU-hour | new loops (not seeds) |"
            print "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
            name["deals"] = "deals (`hunt`)"; name["uniform"] = "uniform positions"; name["piles"] = "runs of piles"
            name["insert"] = "cards inserted into smaller decks\047 loops"; name["mutate"] = "local moves around this deck\047s known loops"
        }
        $1 == deck {
            cpu = $4; planned = sub(/ planned$/, "", cpu)
            new = $9; sub(/ [|]$/, "", new)
            printf "| %s | %s | %s%s | %s | %s | %s | %s |\n", name[$2], commas($3), commas(cpu), planned ? " (planned)" : "", commas($5), commas($6), rate($7), commas(new)
        }
    ' "$scratch/position-hunts" > "$scratch/position-hunts-$deck"
done

# The whole-game extensions of the record cells: one row per cell, its first run, then the later
# runs (from what an earlier one found, or from a longer game found since), each with its start
# and its budget (ancestors searched from each position).
awk -F, '
    # 10^k when the budget is a power of ten, the number otherwise.
    function budget(b,   r, k) {
        for (r = b + 0; r > 1 && r % 10 == 0; k++) r /= 10
        return r == 1 && k > 0 ? "10^" k : b
    }
    BEGIN {
        print "| cell | start (tricks) | found | gain | budget | CPU s | later runs: start → found (gain; budget; CPU s) |"
        print "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
    }
    NR > 1 {
        cell = "C=" $1 " V=" $2 " " $3
        if (!(cell in first)) { order[++n] = cell; first[cell] = sprintf("%s | %s | +%s | %s | %s", $4, $5, $6, budget($7), $8); gain[cell] = $6 }
        else later[cell] = later[cell] (later[cell] ? "; " : "") sprintf("%s → %s (+%s; %s; %s)", $4, $5, $6, budget($7), $8)
    }
    END {
        for (i = 1; i <= n; i++) {
            c = order[i]
            rest = later[c] ? later[c] : (gain[c] == 0 ? "(same start: skipped)" : "-")
            printf "| %s | %s | %s |\n", c, first[c], rest
        }
    }
' results/records-backward/whole-game.csv > "$scratch/whole-game"

# The records excerpt: each row the book lists, as the regenerated table has it now.
records_excerpt() {
    local page=$1
    awk -v table="$scratch/records.md" '
        BEGIN {
            while ((getline line < table) > 0) {
                if (line ~ /^\| [0-9]/) { split(line, f, " \\| "); row[f[1] " | " f[2] " | " f[3]] = line }
                else if (line ~ /^\|/ && n < 2) header[++n] = line
            }
        }
        $0 == "<!-- book-tables: records -->" { inside = 1; print header[1]; print header[2]; next }
        $0 == "<!-- end of book-tables: records -->" { inside = 0 }
        inside && /^\| [0-9]/ {
            split($0, f, " \\| "); key = f[1] " | " f[2] " | " f[3]
            if (!(key in row)) { print "the records excerpt of " FILENAME " lists " key " |, which results/records/table.md does not: remove the row" > "/dev/stderr"; bad = 1; exit 2 }
            print row[key]
        }
        END { if (!bad && !header[1]) { print "results/records/table.md has no table header" > "/dev/stderr"; exit 2 } }
    ' "$page"
}

# Replaces the lines between NAME's two markers of PAGE with "", the table, "", in a scratch
# copy of the page: the pages themselves are written only once every table is made, so that
# an error (exit 2) leaves them as they were.
mkdir -p "$scratch/docs"
splice() {
    local name=$1 page=$2 file=$3 begin="<!-- book-tables: $1 -->" end="<!-- end of book-tables: $1 -->"
    local copy=$scratch/$page
    [[ -f $copy ]] || cp "$page" "$copy"
    local b e
    b=$(grep -nxF "$begin" "$copy" | cut -d: -f1 || true)
    e=$(grep -nxF "$end" "$copy" | cut -d: -f1 || true)
    if [[ ! $b =~ ^[0-9]+$ || ! $e =~ ^[0-9]+$ ]] || ((b > e)); then
        echo "$page must hold the line '$begin' once, and after it the line '$end' once" >&2
        exit 2
    fi
    awk -v begin="$begin" -v end="$end" -v file="$file" '
        $0 == begin { print; print ""; while ((getline line < file) > 0) print line; print ""; skip = 1; next }
        $0 == end { skip = 0 }
        !skip { print }
    ' "$copy" > "$scratch/page"
    if ! cmp -s "$scratch/page" "$copy"; then
        stale+=("$name")
        if ((CHECK)); then
            echo "$page: the table '$name' is not what the committed results give (scripts/book-tables.sh updates it):" >&2
            diff "$copy" "$scratch/page" | head -20 >&2 || true
            failed=1
        fi
        cp "$scratch/page" "$copy"
    fi
}
stale=()

records_excerpt docs/results-tables.md > "$scratch/records"
splice sat docs/results-sat.md "$scratch/sat"
splice sat-aligned docs/results-sat.md "$scratch/sat-aligned"
splice sat-scaling docs/results-sat.md "$scratch/sat-scaling"
splice hunt-52 docs/results-cycles.md "$scratch/hunt-52"
splice loop-rates docs/results-cycles.md "$scratch/loop-rates.md"
splice position-hunts-c4v7 docs/results-cycles.md "$scratch/position-hunts-c4v7"
splice position-hunts-c4v8 docs/results-cycles.md "$scratch/position-hunts-c4v8"
splice position-hunts-c4v11 docs/results-cycles.md "$scratch/position-hunts-c4v11"
splice whole-game docs/results-records.md "$scratch/whole-game"
splice from-positions docs/results-records.md "$scratch/from-positions"
python3 scripts/record-costs.py >"$scratch/record-costs"
splice record-costs docs/results-records.md "$scratch/record-costs"
python3 scripts/record-costs.py --methods >"$scratch/record-methods"
splice record-methods docs/results-records.md "$scratch/record-methods"
splice durations-c1 docs/results-tables.md "$scratch/durations-c1"
splice durations-c4 docs/results-tables.md "$scratch/durations-c4"
splice duels docs/results-tables.md "$scratch/duels"
splice records docs/results-tables.md "$scratch/records"
if ((failed)); then
    echo "run scripts/book-tables.sh (after cargo build --release) to regenerate them" >&2
    exit 1
fi
if ((CHECK)); then
    echo "the book's tables are what the committed results give"
    exit 0
fi
for exp in "${stale_experiments[@]}"; do
    "$BIN" experiment run "experiments/$exp.recipe" --replace > /dev/null
    echo "regenerated results/$exp/"
done
# (Each page by a rename, so that a stop cannot leave one half written.)
for page in docs/*.md; do
    if [[ -f $scratch/$page ]] && ! cmp -s "$scratch/$page" "$page"; then
        cp "$scratch/$page" "$page.new"
        mv "$page.new" "$page"
    fi
done
for name in "${stale[@]}"; do echo "updated the table '$name'"; done
exit 0
