#!/usr/bin/env python3
"""Catalogue of the aligned cycles found by hunts: reads the cycles.csv of each hunt directory
given, checks every aligned position with `bataille aligned check`, and writes one CSV row per
aligned cycle to stdout (a cycle met by several hunts is listed once, under the first; `search`
is the hunt's mode, with its seed for random hunts).

Usage: scripts/aligned-catalogue.py results/hunts/c4v4-natural results/hunts/c4v6-natural \
           results/hunts/c4v6-natural-sample > results/hunts/aligned-catalogue.csv
(BIN overrides the binary, default target/release/bataille.)
"""
import csv
import os
import subprocess
import sys

BIN = os.environ.get("BIN", "target/release/bataille")


def summary(d):
    with open(os.path.join(d, "summary.csv")) as f:
        return dict(csv.reader(f))


out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["game", "search", "cycle_id", "period_tricks", "period_cards", "deals_reaching",
              "aligned_position", "check_rounds", "check_period_rounds"])
seen = set()
for d in sys.argv[1:]:
    s = summary(d)
    search = s["mode"] if s["mode"] == "exhaustive" else f"{s['mode']} seed {s['seed']}"
    with open(os.path.join(d, "cycles.csv")) as f:
        for row in csv.DictReader(f):
            if row["aligned"] != "yes" or row["cycle_id"] in seen:
                continue
            seen.add(row["cycle_id"])
            pos = row["aligned_position"]
            method = s["game"].split()[3]
            r = subprocess.run([BIN, "aligned", "check", pos, "--method", method],
                               capture_output=True, text=True, check=True)
            lines = {l.split(":", 1)[0]: l.split(":", 1)[1].strip()
                     for l in r.stdout.splitlines() if ":" in l and not l.startswith(" ")}
            if not lines.get("aligned", "").startswith("yes"):
                sys.exit(f"{d}: cycle {row['cycle_id']}: aligned check says {lines.get('aligned')!r}")
            out.writerow([s["game"], search, row["cycle_id"], row["period_tricks"],
                          row["period_cards"], row["deals"], pos,
                          lines["aligned"].removeprefix("yes: "), lines["period"]])
