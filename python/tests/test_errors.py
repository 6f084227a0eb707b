"""Bad input: a clear Python exception carrying the command line's words, never a crash."""

from __future__ import annotations

import numpy as np
import pytest

import bataille
from conftest import ROOT


@pytest.mark.parametrize(
    "deal, words",
    [
        ("[1, 1] / [3]", "not a whole deck (partial=True plays any cards)"),
        ("5,3", "expected two hands separated by one '/'"),
        ("[5, x] / [2]", "is not a card"),
        ("/", "both hands are empty"),
        ([[5, 3]], "a pair of hands"),
        (([5, 0], [1]), "0 in the first hand is not a card"),
        (([5, 300], [1]), "300 in the first hand is not a card"),
        (([5, 3], "abc"), "the second hand is not a sequence of cards"),
        (42, "a deal is a string"),
        ("1" * 10_000 + "/1", "bytes in all"),
    ],
)
def test_bad_deals(deal, words) -> None:
    with pytest.raises(ValueError, match=None) as caught:
        bataille.play(deal)
    assert words in str(caught.value)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="is not a stacking method|unknown method|method"):
        bataille.play("5,3/2,4,1", "sideways")
    with pytest.raises(ValueError, match="max_tricks must be at least 1"):
        bataille.play("5,3/2,4,1", max_tricks=0)
    with pytest.raises(ValueError, match="not the one given by colours/values"):
        bataille.play("5,3/2,4,1", colours=3)
    with pytest.raises(ValueError, match="threads is more than the limit"):
        bataille.play_many(["5,3/2,4,1"], threads=1_000_000)
    with pytest.raises(OverflowError):
        bataille.play("5,3/2,4,1", seed=-1)


def test_bad_arrays_of_deals() -> None:
    with pytest.raises(ValueError, match="one deal per row"):
        bataille.play_many(np.ones(6, dtype=np.uint8))
    with pytest.raises(ValueError, match="whole numbers"):
        bataille.play_many(np.ones((2, 6)) * 1.5)
    with pytest.raises(ValueError, match="0 is not a card"):
        bataille.play_many(np.zeros((2, 6), dtype=np.int64))
    with pytest.raises(ValueError, match="deal 1: .*not a whole deck"):
        bataille.play_many(np.array([[1, 2, 2, 1], [1, 1, 1, 3]]))
    with pytest.raises(ValueError, match="deal 1: "):
        bataille.play_many(["5,3/2,4,1", "oops"])
    with pytest.raises(ValueError, match="for one deal, use play"):
        bataille.play_many("5,3/2,4,1")
    # An empty batch is no error.
    assert len(bataille.play_many(np.zeros((0, 52), dtype=np.uint8))["tricks"]) == 0


def test_bad_explorations() -> None:
    with pytest.raises(ValueError, match="random must be at least 1"):
        bataille.explore(4, 3, random=0)
    with pytest.raises(ValueError, match="top 10001 is more than the limit"):
        bataille.explore(4, 3, top=10_001)
    with pytest.raises(ValueError, match="shard"):
        bataille.explore(4, 3, shard=(3, 2))
    with pytest.raises(ValueError, match="fewer than 5 shards"):
        bataille.explore(4, 3, shard=(1, 5))
    with pytest.raises(ValueError):
        bataille.explore(0, 3)
    with pytest.raises(ValueError, match="max_cycles"):
        bataille.explore(4, 3, max_cycles=10)


def test_the_package_is_typed() -> None:
    package = ROOT / "python" / "bataille"
    assert (package / "py.typed").is_file()
    assert (package / "_bataille.pyi").is_file()
    assert "Plays one game" in (bataille.play.__doc__ or "")
