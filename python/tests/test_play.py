"""`bataille.play` and `bataille.play_many` against the article and the command line."""

from __future__ import annotations

import re

import numpy as np
import pytest

import bataille
from conftest import run


def test_the_articles_six_trick_loop() -> None:
    # Delahaye & Mathieu's first loop: C=1 V=5, natural stacking, 6 tricks, no tail.
    g = bataille.play("[5, 3] / [2, 4, 1]")
    assert (g.outcome, g.tail_tricks, g.period_tricks, g.period_cards) == ("loop", 0, 6, 6)
    assert "period_tricks=6" in repr(g)
    assert g.aligned is None  # unequal hands: the aligned test does not apply


def test_a_deal_as_text_or_as_hands_is_the_same_game() -> None:
    a = bataille.play("5,3/2,4,1", trace=True)
    b = bataille.play(([5, 3], [2, 4, 1]), trace=True)
    c = bataille.play((np.array([5, 3]), (2, 4, 1)), trace=True)
    assert repr(a) == repr(b) == repr(c)
    assert a.positions == b.positions == c.positions


def test_trace_is_the_command_lines(cli) -> None:
    deal = "[9, 1, 6, 2] / [5, 8, 4, 7, 3]"
    printed = run(cli, "play", deal, "--trace")
    lines = [line.rstrip(" →") for line in printed.splitlines() if line.startswith("[")]
    g = bataille.play(deal, trace=True)
    shown = [f"{list(first)} / {list(second)}" for first, second in g.positions]
    assert shown == lines
    # The article's C=1 V=9 example loops with a period of 20 tricks.
    assert (g.outcome, g.period_tricks) == ("loop", 20)


@pytest.mark.parametrize(
    "deal, args",
    [
        ("[5, 3] / [2, 4, 1]", []),
        ("[2, 1, 3, 1, 3, 2] / [2, 3, 3, 1, 1, 2]", ["--method", "optimized"]),
        ("[1, 2, 3, 4] / [4, 3, 2, 1]", ["--method", "natural", "--method2", "optimized"]),
        ("[5, 3] / [2, 4, 1]", ["--method", "random", "--seed", "7"]),
        ("[1, 1, 2] / [3, 3]", ["--partial"]),
        ("[2, 1, 3, 1, 3, 2] / [2, 3, 3, 1, 1, 2]", ["--max-tricks", "5"]),
    ],
)
def test_measures_are_the_command_lines(cli, deal, args) -> None:
    printed = run(cli, "play", deal, *args)
    fields = dict(re.findall(r"^(\w[\w ]*):\s+(.*)$", printed, re.M))
    option = dict(zip(args[::2], args[1::2]))
    g = bataille.play(
        deal,
        option.get("--method", "natural"),
        option.get("--method2"),
        seed=int(option.get("--seed", 0)),
        partial="--partial" in args,
        max_tricks=int(option["--max-tricks"]) if "--max-tricks" in option else None,
    )
    assert fields["tricks"].split()[0] == str(g.tricks)
    assert fields["cards"].split()[0] == str(g.cards)
    words = {
        "first": "the first player wins",
        "second": "the second player wins",
        "draw": "draw (both run out together)",
        "loop": "infinite game (loop)",
        "capped": "stopped at the cap",
    }
    assert fields["outcome"].startswith(words[g.outcome])
    if g.outcome == "loop":
        assert fields["cycle id"] == g.cycle_id
        assert fields["period"].split()[0] == str(g.period_tricks)


def test_aligned_loops_are_named() -> None:
    # A loop of aligned rounds from equal hands (docs/rules.md: C=2 V=2).
    g = bataille.play("[1, 2] / [2, 1]")
    assert g.outcome in bataille.OUTCOMES
    if g.outcome == "loop":
        assert g.aligned is not None and g.aligned_note


def random_deals(n: int, colours: int, values: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(1, values + 1), colours)
    return np.array([rng.permutation(deck) for _ in range(n)], dtype=np.uint8)


def test_play_many_equals_play_one_by_one() -> None:
    deals = random_deals(2000, 4, 3, seed=1)
    many = bataille.play_many(deals, threads=2)
    for i, row in enumerate(deals):
        g = bataille.play((row[:6].tolist(), row[6:].tolist()))
        assert bataille.OUTCOMES[many["outcome"][i]] == g.outcome
        assert many["tricks"][i] == g.tricks and many["cards"][i] == g.cards
        if g.outcome == "loop":
            assert format(int(many["cycle_id"][i]), "016x") == g.cycle_id
            assert many["period_tricks"][i] == g.period_tricks
        else:
            assert many["cycle_id"][i] == 0 and many["period_tricks"][i] == 0
    # 360 of the 17,370 C=4 V=3 deals (2%) loop: the sample has some, and draws.
    assert (many["outcome"] == 3).sum() > 0 and (many["outcome"] == 2).sum() > 0


def test_play_many_with_random_methods_is_play_with_seed_plus_index() -> None:
    deals = [f"{','.join(map(str, r[:6]))}/{','.join(map(str, r[6:]))}" for r in random_deals(40, 4, 3, 2)]
    many = bataille.play_many(deals, "random", seed=100, threads=2)
    one = bataille.play_many(deals, "random", seed=100, threads=1)
    for key in many:
        assert (many[key] == one[key]).all()
    for i, deal in enumerate(deals):
        assert many["tricks"][i] == bataille.play(deal, "random", seed=100 + i).tricks


def test_play_many_of_52_card_deals() -> None:
    deals = random_deals(2000, 4, 13, seed=3)
    out = bataille.play_many(deals)
    assert set(out) == {"outcome", "tricks", "cards", "tail_tricks", "period_tricks", "cycle_id"}
    assert all(len(a) == 2000 for a in out.values())
    assert out["outcome"].dtype == np.uint8 and out["tricks"].dtype == np.uint64
    # 52-card games end (no natural loop is known): the first or the second player wins.
    assert set(np.unique(out["outcome"])) <= {0, 1, 2}
