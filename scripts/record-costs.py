#!/usr/bin/env python3
"""What the rest of each C=4 record cell would cost by random sampling, from the committed runs.

Usage: scripts/record-costs.py            the Markdown table of the book (docs/results-records.md,
                                          "What the rest would cost"; scripts/book-tables.sh
                                          splices it there)
       scripts/record-costs.py --csv      the same figures as CSV
       scripts/record-costs.py --methods  the same fit for deals and for positions of every split
                                          played for the same CPU time (the validation runs of
                                          results/cycles/validation/c4vV: deals, uniform)

For each cell still below its best known game (results/records/best.csv: ours, and the public
table or the C++ explorer's logs, whichever is longer), the length histogram of the cell's
largest committed random run (results/hunts/RUN/histograms.csv) gives the tail of the length
distribution: T(x), the games of at least x tricks, is fitted by exp(a + b·x) (least squares of
ln T over the lengths where 3 <= T <= 1,000: the top of the tail, where the longest games are). From it:
  - tricks per decade: ln(10)/(-b), what each ten times more deals add to the longest game;
  - the fit's own longest game, -a/b, beside the run's (a check of the fit);
  - the deals expected before a game reaches the best known: N / exp(a + b·best);
  - their CPU-hours at the rate of the cell's single-piece run (deals over elapsed seconds
    times threads, from its metadata.csv);
  - the deals (and positions) the cell's committed random runs played so far, and their
    CPU-hours at the same rate.
A forecast from an exponential tail, not a bound: the longest games of a run are where the fit
is least sure. Python's standard library only.
"""
import csv
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUNTS = ROOT / "results" / "hunts"

# (values, method): the run whose histogram is fitted, and the run whose speed is taken (a run
# made in one piece: a resumed run's metadata gives the elapsed time of its last piece only).
# The cells below their best known game when this was written; one that reaches it leaves the
# table (rows() reads best.csv).
CELLS = {
    (6, "natural"): ("c4v6-natural-sample", "c4v6-natural-sample"),
    (7, "natural"): ("c4v7-natural-sample", "c4v7-natural-sample"),
    (8, "natural"): ("c4v8-natural-random-1", "c4v8-natural-sample"),
    (9, "natural"): ("c4v9-natural-sample", "c4v9-natural-sample"),
    (10, "natural"): ("c4v10-natural-sample", "c4v10-natural-sample"),
    (11, "natural"): ("c4v11-natural-random-1", "c4v11-natural-random-1"),
    (12, "natural"): ("c4v12-natural-sample", "c4v12-natural-sample"),
    (7, "optimized"): ("c4v7-optimized-random-3", "c4v7-optimized-random"),
    (9, "optimized"): ("c4v9-optimized-random", "c4v9-optimized-random"),
    (10, "optimized"): ("c4v10-optimized-random-3", "c4v10-optimized-random"),
    (11, "optimized"): ("c4v11-optimized-random", "c4v11-optimized-random"),
    (12, "optimized"): ("c4v12-optimized-random", "c4v12-optimized-random"),
}
LOW, HIGH = 3, 1000


def key_values(path):
    with open(path, newline="") as f:
        return {row[0]: row[1] for row in csv.reader(f) if len(row) >= 2}


def best_known():
    """(values, method) -> (ours, best known) for C=4, from results/records/best.csv."""
    cells = {}
    with open(ROOT / "results" / "records" / "best.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["colours"] != "4" or row["method"] not in ("natural", "optimized"):
                continue
            known = [int(row["public_tricks"])] if row["public_tricks"] else []
            known += [int(n) for n in re.findall(r"logs: (\d+)", row["public_note"])]
            if known:
                cells[(int(row["values"]), row["method"])] = (int(row["best_tricks"]), max(known))
    return cells


def tail(run, root=HUNTS):
    """The fit of the run's tail: (deals, longest, a, b, points)."""
    lengths = {}
    with open(root / run / "histograms.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["measure"] == "tricks":
                lengths[int(row["value"])] = int(row["count"])
    deals = int(key_values(root / run / "summary.csv")["deals"])
    points, above = [], 0
    for x in sorted(lengths, reverse=True):
        above += lengths[x]
        if LOW <= above <= HIGH:
            points.append((x, math.log(above)))
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return deals, max(lengths), my - b * mx, b, n


def speed(run):
    """Deals per CPU second of a run made in one piece."""
    meta = key_values(HUNTS / run / "metadata.csv")
    deals = int(key_values(HUNTS / run / "summary.csv")["deals"])
    return deals / (float(meta["elapsed_s"]) * int(meta["threads"]))


def sampled(v, method):
    """Deals and positions the cell's committed random runs played: results/hunts/c4vV-METHOD
    and c4vV-METHOD-* (a run in shards once merged), and for natural stacking the deals and
    positions of every split of the validation runs (results/cycles/validation/c4vV/deals and
    uniform)."""
    runs = [HUNTS / f"c4v{v}-{method}"] + sorted(HUNTS.glob(f"c4v{v}-{method}-*"))
    if method == "natural":
        runs += [ROOT / "results" / "cycles" / "validation" / f"c4v{v}" / m for m in ("deals", "uniform")]
    # A run of the cluster launcher holds its totals in DIR/merged once every shard is done.
    summaries = [r / "summary.csv" for r in runs] + [r / "merged" / "summary.csv" for r in runs]
    return sum(int(key_values(f)["deals"]) for f in summaries if f.exists())


def rows():
    known = best_known()
    for (v, method), (run, timed) in CELLS.items():
        ours, best = known[(v, method)]
        if ours >= best:
            continue
        deals, longest, a, b, n = tail(run)
        need = deals / math.exp(a + b * best)
        rate = speed(timed)
        played = sampled(v, method)
        yield {
            "cell": f"C=4 V={v} {method}",
            "ours": ours,
            "best_known": best,
            "run": run,
            "deals": deals,
            "longest": longest,
            "fit_longest": round(-a / b),
            "points": n,
            "tricks_per_decade": round(math.log(10) / -b),
            "sampled": played,
            "cpu_hours_sampled": f"{played / rate / 3600:.2g}",
            "deals_to_best": f"{need:.2g}",
            "deals_per_cpu_s": round(rate),
            "cpu_hours_to_best": f"{need / rate / 3600:.2g}",
        }


def methods():
    """Deals against positions of every split, each played for the same CPU time."""
    root = ROOT / "results" / "cycles" / "validation"
    print("| deck | played | CPU s | longest (the fit's) | tricks per 10× |")
    print("| --- | --- | ---: | --- | ---: |")
    for v in (7, 8, 11):
        cpu = {}
        with open(root / f"c4v{v}" / "cpu.csv", newline="") as f:
            for row in csv.DictReader(f):
                if row["cpu_s"]:
                    cpu[row["method"]] = cpu.get(row["method"], 0.0) + float(row["cpu_s"])
        for method, what in (("deals", "deals"), ("uniform", "positions")):
            deals, longest, a, b, _ = tail(method, root / f"c4v{v}")
            print(
                f"| C=4 V={v} natural | {sci(deals)} {what} | {cpu[method]:,.0f} | "
                f"{longest} ({round(-a / b)}) | {round(math.log(10) / -b)} |"
            )


def sci(x):
    """Two significant digits, 1.2e+11 written 1.2·10^11."""
    text = f"{float(x):.2g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}·10^{int(exponent)}"


def main():
    if sys.argv[1:] == ["--csv"]:
        out = None
        for r in rows():
            if out is None:
                out = csv.DictWriter(sys.stdout, fieldnames=list(r), lineterminator="\n")
                out.writeheader()
            out.writerow(r)
        return 0
    if sys.argv[1:] == ["--methods"]:
        methods()
        return 0
    if sys.argv[1:]:
        print("usage: scripts/record-costs.py [--csv | --methods]", file=sys.stderr)
        return 2
    print("| cell | ours | best known | sampled so far (CPU-hours) | run fitted: deals, longest (the fit's) | tricks per 10× deals | deals to the best known, forecast | their CPU-hours |")
    print("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: |")
    for r in rows():
        print(
            f"| {r['cell']} | {r['ours']} | {r['best_known']} | {sci(r['sampled'])} "
            f"({sci(r['cpu_hours_sampled'])}) | `{r['run']}`: {sci(r['deals'])}, "
            f"{r['longest']} ({r['fit_longest']}) | {r['tricks_per_decade']} | "
            f"{sci(r['deals_to_best'])} | {sci(r['cpu_hours_to_best'])} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
