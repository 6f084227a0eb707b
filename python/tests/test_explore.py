"""`bataille.explore` against the command line: the same tables, byte for byte."""

from __future__ import annotations

import pathlib

import pytest

import bataille
from conftest import run


@pytest.mark.parametrize(
    "kwargs, args",
    [
        (dict(colours=4, values=3), ["-c", "4", "-v", "3", "--exhaustive"]),
        (
            dict(colours=2, values=5, method="optimized"),
            ["-c", "2", "-v", "5", "-m", "optimized", "--exhaustive"],
        ),
        (
            dict(colours=4, values=13, random=3000, seed=11),
            ["-c", "4", "-v", "13", "--random", "3000", "--seed", "11"],
        ),
        (
            dict(colours=4, values=4, random=2000, seed=5, method="random"),
            ["-c", "4", "-v", "4", "--random", "2000", "--seed", "5", "-m", "random"],
        ),
    ],
)
def test_tables_are_the_command_lines(cli, tmp_path: pathlib.Path, kwargs, args) -> None:
    out = tmp_path / "run"
    run(cli, "explore", *args, "--threads", "2", "--out", str(out))
    e = bataille.explore(**kwargs, threads=1)
    for name in ("summary", "histograms", "records", "cycles"):
        assert e.csv[name] == (out / f"{name}.csv").read_text(), name
    assert e.state == (out / "state.txt").read_text()
    assert e.deals_played > 0


def test_the_published_count_of_c4v3() -> None:
    # The article: C=4 V=3 has 17,370 deals up to the swap of the players, 360 of them loop.
    e = bataille.explore(4, 3)
    summary = e.summary.set_index("key")["value"]
    assert int(summary["deals"]) == 17_370
    assert int(summary["looping_deals"]) == 360
    assert "17370" in str(e)


def test_shards_add_up_to_the_whole_run() -> None:
    # Random deals come in units of 16,384: 4 units, in 3 shards.
    whole = bataille.explore(4, 4, random=50_000, seed=3)
    parts = [bataille.explore(4, 4, random=50_000, seed=3, shard=(k, 3)) for k in (1, 2, 3)]
    value = lambda e, key: int(e.summary.set_index("key")["value"][key])  # noqa: E731
    assert sum(value(p, "deals") for p in parts) == value(whole, "deals") == 50_000
    assert sum(value(p, "looping_deals") for p in parts) == value(whole, "looping_deals")


def test_progress_is_called_up_to_the_total() -> None:
    seen = []
    bataille.explore(4, 5, random=200_000, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen, "the callback is called at least at the end"
    done, total = seen[-1]
    assert done == total == 200_000


def test_without_pandas_the_tables_are_dicts(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    e = bataille.explore(4, 3)
    assert isinstance(e.summary, dict)
    row = e.summary["key"].index("deals")
    assert e.summary["value"][row] == "17370"


def test_progress_bar_with_and_without_tqdm(capsys, monkeypatch) -> None:
    pytest.importorskip("tqdm", reason="the bar is drawn by tqdm when it is installed")
    bataille.explore(4, 5, random=100_000, seed=2, progress=True)
    bar = capsys.readouterr().err
    assert "100k/100k" in bar.replace(".0", "") and "deals" in bar, bar
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    bataille.explore(4, 5, random=100_000, seed=2, progress=True)
    line = capsys.readouterr().err
    assert "100,000 deals (100.0%)" in line, line
