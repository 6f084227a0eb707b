"""The example of docs/python.md runs and draws its plot."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT


def test_durations_example_recomputes_the_table(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("matplotlib", reason="the example draws with matplotlib")
    plot = tmp_path / "durations.svg"
    done = subprocess.run(
        [sys.executable, str(ROOT / "python/examples/durations_c4.py"), "--deals", "4000",
         "--out", str(plot)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 14  # 7 values of V, 2 methods
    # The means agree with the article's (within 3 of our 95% half-widths) on most cells.
    assert sum(row[-1] == "True" for row in rows) >= 12, done.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
