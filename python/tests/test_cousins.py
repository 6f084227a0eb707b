"""`bataille.hunt`, `bataille.verify` and `bataille.bmn.play` against the command line."""

from __future__ import annotations

import csv
import io
import pathlib
import re

import pytest

import bataille
from conftest import run


def test_hunt_is_the_command_lines(cli, tmp_path: pathlib.Path) -> None:
    mine, theirs = tmp_path / "py", tmp_path / "cli"
    h = bataille.hunt(4, 3, keep=5, out=mine)
    run(cli, "hunt", "-c", "4", "-v", "3", "--exhaustive", "--keep", "5", "--out", str(theirs))
    for name in ("summary.csv", "cycles.csv", "loops.csv", "state.txt"):
        assert (mine / name).read_bytes() == (theirs / name).read_bytes(), name
    assert h.csv["loops"] == (theirs / "loops.csv").read_text()
    # C=4 V=3: one loop, reached by 360 deals, of which 5 are kept.
    assert len(h.loops) == 5 and set(h.loops["cycle_id"]) == {"f830e70e556fe9c1"}
    with pytest.raises(ValueError, match="hunt does not apply to the random"):
        bataille.hunt(4, 3, "random")
    with pytest.raises(ValueError, match="keep must be at least 1"):
        bataille.hunt(4, 3, keep=0)


def test_verify_rows_are_the_command_lines(cli) -> None:
    rows = bataille.verify()
    printed = run(cli, "verify", "--csv")
    theirs = {r["name"]: r for r in csv.DictReader(io.StringIO(printed))}
    assert len(rows) > 50
    for row in rows.itertuples():
        assert row.id in theirs, row.id
        assert row.computed == theirs[row.id]["computed"]
        assert row.published == theirs[row.id]["published"]
    # Every claim agrees, or its difference is explained: none fails.
    assert set(rows["status"]) <= {"ok", "misprint", "known difference"}, set(rows["status"])
    assert list(bataille.verify("c1-v5")["id"]) == [i for i in rows["id"] if "c1-v5" in i]
    with pytest.raises(ValueError, match="no catalogue entry matches"):
        bataille.verify("no-such-claim")


def test_bmn_play_is_the_command_lines(cli) -> None:
    # The first non-terminating game (Casella et al., arXiv 2403.13855, 2024): a 62-trick loop.
    deal = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    g = bataille.bmn.play(deal)
    printed = run(cli, "bmn", "play", deal)
    fields = dict(re.findall(r"^(\w[\w ]*):\s+(.*)$", printed, re.M))
    assert g["outcome"] == "loop" and fields["outcome"].startswith("never ends")
    assert fields["cycle id"] == g["cycle_id"]
    assert fields["tricks"].split()[0] == str(g["tricks"])
    assert fields["period"].startswith(f"{g['period_tricks']} tricks, {g['period_cards']} cards")
    with pytest.raises(ValueError, match="partial=True"):
        bataille.bmn.play("AAAA/----")
    assert bataille.bmn.play("AAAA/----", partial=True)["outcome"] in ("first", "second")
    with pytest.raises(ValueError, match="expected two hands"):
        bataille.bmn.play("AAAA")
