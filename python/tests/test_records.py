"""`bataille.records.extend`: the command line's search backwards, its report and its rows."""

from __future__ import annotations

import pathlib

import pytest

import bataille
import bataille.records
from conftest import run

#: A C=4 V=6 optimized deal of 504 tricks whose game two deals lead into.
DEAL = "[5, 4, 6, 4, 2, 6, 1, 5, 3, 5, 2, 1] / [4, 3, 1, 1, 2, 3, 2, 6, 4, 6, 5, 3]"


def test_extend_is_the_command_lines(cli, tmp_path: pathlib.Path) -> None:
    printed = run(cli, "records", "extend", DEAL, "-m", "optimized")
    e = bataille.records.extend(DEAL, "optimized")
    assert e.report.strip() == printed.strip()
    assert "506 tricks, 610 cards (+2 tricks, +2 cards)" in e.report
    assert "506" in set(e.rows["tricks"]) and not e.stopped
    # The rows replay as the records file's: appended once, the same as the command's.
    bataille.records.extend(DEAL, "optimized", records=tmp_path / "py.csv")
    run(cli, "records", "extend", DEAL, "-m", "optimized", "--records", str(tmp_path / "cli.csv"))
    strip = lambda p: [l.rsplit(",", 3)[0] for l in p.read_text().splitlines()]
    assert strip(tmp_path / "py.csv") == strip(tmp_path / "cli.csv")
    whole = bataille.records.extend(DEAL, "optimized", whole_game=True, every=5, budget=3000)
    assert "508 tricks, 612 cards (+4 tricks, +4 cards)" in whole.report


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(method="random"), "deterministic"),
        (dict(budget=0), "budget"),
        (dict(whole_game=True, every=0), "every"),
    ],
)
def test_bad_extensions_are_refused(kwargs, words) -> None:
    with pytest.raises(ValueError, match=words):
        bataille.records.extend(DEAL, **kwargs)
    with pytest.raises(ValueError, match="whole deck"):
        bataille.records.extend("[1, 2] / [4]")
