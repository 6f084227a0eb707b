"""The Python package's speed against the command line (docs/performance.md, "From Python").

    python python/bench/speed.py [--rounds 3] [--bin target/release/bataille]

Alternates the command line and the package on the same workloads, one thread each, and
prints the median of each: `explore` on the yardsticks (2,000,000 random 52-card deals, seed
1; every C=4 V=4 deal), `play_many` on 1,000,000 random 52-card deals against the command
line's deals per second on its random 52-card deals, and the cost of one `play` call. Run it
on a release build (`pip install ./python`) and an idle machine; it is a measurement, not a
test.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from typing import Dict, List

import numpy as np

import bataille

YARDSTICKS = {
    "52-card random": dict(colours=4, values=13, random=2_000_000, seed=1),
    "C=4 V=4 exhaustive": dict(colours=4, values=4),
}


def cli_args(kw: Dict) -> List[str]:
    args = ["explore", "-c", str(kw["colours"]), "-v", str(kw["values"])]
    if "random" in kw:
        args += ["--random", str(kw["random"]), "--seed", str(kw["seed"])]
    else:
        args += ["--exhaustive"]
    return args + ["--threads", "1"]


def time_cli(binary: str, kw: Dict) -> float:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([binary, *cli_args(kw), "--out", out + "/r"], check=True, capture_output=True)
        return time.perf_counter() - started


def time_python(kw: Dict) -> float:
    started = time.perf_counter()
    bataille.explore(**kw, threads=1)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bin", default="target/release/bataille")
    a = parser.parse_args()

    print(f"bataille {bataille.__version__}, Python {sys.version.split()[0]}, {a.rounds} rounds")
    for name, kw in YARDSTICKS.items():
        cli, py = [], []
        for _ in range(a.rounds):
            cli.append(time_cli(a.bin, kw))
            py.append(time_python(kw))
        c, p = statistics.median(cli), statistics.median(py)
        print(f"explore, {name}: command line {c:.2f} s, Python {p:.2f} s ({p / c:.3f}×)")

    rng = np.random.default_rng(1)
    deck = np.repeat(np.arange(1, 14, dtype=np.uint8), 4)
    deals = np.array([rng.permutation(deck) for _ in range(1_000_000)], dtype=np.uint8)
    many, engine = [], []
    for _ in range(a.rounds):
        started = time.perf_counter()
        bataille.play_many(deals, threads=1)
        many.append(len(deals) / (time.perf_counter() - started))
        # The command line's own count of its deals per second, from its summary line.
        printed = subprocess.run(
            [a.bin, *cli_args(YARDSTICKS["52-card random"]), "--out", tempfile.mkdtemp() + "/r"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        engine.append(float(re.search(r"(\d+) deals/s", printed).group(1)))
    m, e = statistics.median(many), statistics.median(engine)
    print(f"play_many, 52-card deals: {m:,.0f} deals/s; the command line {e:,.0f} ({m / e:.3f}×)")

    calls = 100_000
    per = min(timeit.repeat(lambda: bataille.play("[5, 3] / [2, 4, 1]"), number=calls, repeat=a.rounds))
    print(f"one play call (the article's 6-trick loop): {per / calls * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
