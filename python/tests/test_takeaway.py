"""`bataille.takeaway.solve`: the command line's report, read into its fields."""

from __future__ import annotations

import pytest

import bataille.takeaway
from conftest import run


@pytest.mark.parametrize(
    "args, outcome",
    [
        (["nim", "1", "3", "5", "7"], "P"),
        (["marienbad"], None),
        (["fort-boyard", "18"], None),
        (["matches", "21"], "N"),
        (["two-heaps", "4", "6"], None),
        (["subtraction", "10", "--max-take", "3"], None),
    ],
)
def test_solve_is_the_command_lines(cli, args, outcome) -> None:
    printed = run(cli, "takeaway", "solve", *args)
    heaps = [int(a) for a in args[1:] if a.isdigit()]
    kwargs = {"max_take": 3} if "--max-take" in args else {}
    if kwargs:
        heaps = heaps[:1]
    s = bataille.takeaway.solve(args[0], heaps, **kwargs)
    assert s.text == printed
    assert s.outcome in ("P", "N") and s.fields["game"] and s.fields["outcome"].startswith(s.outcome)
    if outcome is not None:
        assert s.outcome == outcome


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        bataille.takeaway.solve("chess", [1])
    with pytest.raises(ValueError, match="convention"):
        bataille.takeaway.solve("nim", [1, 2], convention="sideways")
    with pytest.raises(ValueError):
        bataille.takeaway.solve("two-heaps", [1, 2, 3])
