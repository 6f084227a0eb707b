"""`bataille.cycles`: the SAT solver's runs give the command line's files, stop on Ctrl-C with
the decided periods kept, resume to the uninterrupted files, and refuse bad questions."""

from __future__ import annotations

import csv
import pathlib
from typing import Dict, List

import pytest

import bataille
import bataille.cycles
from conftest import run

#: The columns that depend on the machine (seconds) and the command, left out of comparisons.
TIMED = {"solve_s", "check_s"}


def rows(path: pathlib.Path) -> List[Dict[str, str]]:
    with open(path, newline="") as f:
        return [{k: v for k, v in r.items() if k not in TIMED} for r in csv.DictReader(f)]


def same_files(a: pathlib.Path, b: pathlib.Path, names: List[str]) -> None:
    for name in names:
        if name == "instances.csv":
            assert rows(a / name) == rows(b / name), name
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_solve_writes_the_command_lines_files(cli, tmp_path: pathlib.Path) -> None:
    run(cli, "cycles", "solve", "-c", "1", "-v", "5", "--max-period", "7", "--all",
        "--out", str(tmp_path / "cli"))
    s = bataille.cycles.solve(1, 5, max_period=7, all=True, out=tmp_path / "py")
    same_files(tmp_path / "cli", tmp_path / "py", ["instances.csv", "cycles.csv"])
    assert s.conclusion.startswith("certified: every loop of period 1 to 7")
    assert len(s.found) == len(rows(tmp_path / "cli" / "cycles.csv")) > 0
    assert set(s.instances["verdict"]) == {"complete"}
    assert s.parts is None and s.blocks is None
    # The metadata names the command that makes the same files.
    meta = (tmp_path / "py" / "metadata.csv").read_text()
    assert "command,bataille cycles solve -c 1 -v 5 --method natural --max-period 7 --all" in meta


def test_split_periods_and_aligned_cycles(cli, tmp_path: pathlib.Path) -> None:
    args = ["-c", "1", "-v", "5", "--max-period", "8", "--cards", "--split", "--all"]
    run(cli, "cycles", "solve", *args, "--out", str(tmp_path / "cli"))
    s = bataille.cycles.solve(1, 5, max_period=8, cards=True, split=True, all=True,
                              out=tmp_path / "py")
    same_files(tmp_path / "cli", tmp_path / "py", ["instances.csv", "cycles.csv"])
    assert len(s.parts) == len(rows(tmp_path / "cli" / "parts.csv")) > 0
    assert len(s.found) > 0

    run(cli, "aligned", "solve", "--cards", "8", "--max-rounds", "4", "--out", str(tmp_path / "a"))
    a = bataille.cycles.solve_aligned(8, max_rounds=4, out=tmp_path / "b")
    same_files(tmp_path / "a", tmp_path / "b", ["instances.csv", "rounds.csv", "blocks.csv"])
    assert len(a.found) == 6 and len(a.blocks) == 6
    assert "6 loops" in a.conclusion


def test_ctrl_c_keeps_the_decided_periods_and_resume_finishes(
    cli, tmp_path: pathlib.Path
) -> None:
    said: List[str] = []

    def stop_at_once(line: str) -> None:
        said.append(line)
        raise KeyboardInterrupt

    with pytest.raises(bataille.Interrupted, match="resume=True"):
        bataille.cycles.solve(4, 3, max_period=8, all=True, out=tmp_path / "py",
                              echo=stop_at_once)
    assert said and said[0].startswith("deck:")
    done = bataille.cycles.solve(4, 3, max_period=8, all=True, out=tmp_path / "py", resume=True)
    assert done.conclusion.startswith("certified: every loop of period 1 to 8")
    run(cli, "cycles", "solve", "-c", "4", "-v", "3", "--max-period", "8", "--all",
        "--out", str(tmp_path / "cli"))
    same_files(tmp_path / "cli", tmp_path / "py", ["instances.csv", "cycles.csv"])


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(period=3, max_period=4), ValueError, "give one of period= and max_period="),
        (dict(), ValueError, "give one of period= and max_period="),
        (dict(period=0), ValueError, "period= must be at least 1"),
        (dict(period=3, method="sideways"), ValueError, "sideways"),
        (dict(period=3, threads=2), ValueError, "threads= needs split=True"),
        (dict(period=3, time_limit=-1.0), ValueError, "time_limit"),
        (dict(period=3, solver_config="fast"), ValueError, "expected default, sat or unsat"),
        (dict(period=3, resume=True, replace=True), ValueError, "exclude each other"),
        (dict(period=3, resume=True), OSError, "there is nothing to resume"),
        (dict(period=3, max_hand=50), ValueError, "hand"),
    ],
)
def test_bad_questions_are_refused(tmp_path: pathlib.Path, kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        bataille.cycles.solve(3, 3, out=tmp_path / "x", **kwargs)


def test_another_question_is_not_resumed(tmp_path: pathlib.Path) -> None:
    bataille.cycles.solve(2, 2, max_period=3, out=tmp_path / "q")
    with pytest.raises(OSError, match="holds another question"):
        bataille.cycles.solve(2, 3, max_period=3, out=tmp_path / "q", resume=True)
    with pytest.raises(TypeError, match="echo"):
        bataille.cycles.solve(2, 2, period=1, out=tmp_path / "r", echo=3)


def test_parts_solved_apart_and_merged(cli, tmp_path: pathlib.Path) -> None:
    q = dict(cards=True, period=6, split=True, all=True)
    one = bataille.cycles.solve(1, 5, part=1, out=tmp_path / "p1", **q)
    assert one.conclusion.startswith("part: 6 cards, smallest hand 1 of 2: complete")
    bataille.cycles.solve(1, 5, part=2, out=tmp_path / "p2", **q)
    merged = bataille.cycles.solve(1, 5, merge=[tmp_path / "p1", tmp_path / "p2"],
                                   out=tmp_path / "merged", **q)
    assert merged.conclusion.startswith("certified: every position that comes back after 6")
    run(cli, "cycles", "solve", "-c", "1", "-v", "5", "--cards", "--period", "6", "--split",
        "--all", "--out", str(tmp_path / "cli"))
    same_files(tmp_path / "cli", tmp_path / "merged", ["instances.csv", "cycles.csv"])
    with pytest.raises(OSError, match="in both"):
        bataille.cycles.solve(1, 5, merge=[tmp_path / "p1", tmp_path / "p1"],
                              out=tmp_path / "twice", **q)
    with pytest.raises(ValueError, match="part= and merge= take one split period"):
        bataille.cycles.solve(1, 5, period=6, part=1, out=tmp_path / "x")


def test_census_writes_the_command_lines_files(cli, tmp_path: pathlib.Path) -> None:
    run(cli, "cycles", "census", "-c", "1", "-v", "5", "--out", str(tmp_path / "cli"))
    said: List[str] = []
    c = bataille.cycles.census(1, 5, out=tmp_path / "py", echo=said.append)
    for name in ["cycles.csv", "summary.csv", "state.txt"]:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "py" / name).read_bytes()
    assert c.complete and len(c.loops) == len(rows(tmp_path / "cli" / "cycles.csv")) > 0
    assert c.summary and said and c.text == "\n".join(said)
    # Shards and their checkpoints merged: the same files.
    for k in (1, 2):
        bataille.cycles.census(1, 5, shard=(k, 2), checkpoint=tmp_path / f"s{k}.ckpt",
                               out=tmp_path / f"s{k}")
    bataille.cycles.census(1, 5, merge=[tmp_path / "s1.ckpt", tmp_path / "s2.ckpt"],
                           out=tmp_path / "merged")
    for name in ["cycles.csv", "summary.csv", "state.txt"]:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "merged" / name).read_bytes()
    with pytest.raises(ValueError, match="natural or optimized"):
        bataille.cycles.census(2, 4, method="random", out=tmp_path / "r")
    with pytest.raises(OSError, match="not empty"):
        bataille.cycles.census(2, 4, out=tmp_path / "py")


def test_ancestors_are_the_command_lines(cli) -> None:
    loop = "[4, 3] / [2, 5, 1]"
    printed = run(cli, "cycles", "ancestors", loop, "--budget", "100000")
    a = bataille.cycles.ancestors(loop, budget=100000, deals=True)
    assert a.report == printed
    assert a.complete and a.deal_count == len(a.deals) and sum(a.by_depth) > 0
    listed = run(cli, "cycles", "ancestors", loop, "--budget", "100000", "--deals", "-")
    assert len(a.deals) == len(listed.splitlines()) - 1
    with pytest.raises(ValueError):
        bataille.cycles.ancestors(loop, method="random")
    with pytest.raises(ValueError, match="budget"):
        bataille.cycles.ancestors(loop, budget=0)


def test_position_hunt_is_the_command_lines(cli, tmp_path: pathlib.Path) -> None:
    args = ["-c", "3", "-v", "4", "--random", "200000", "--seed", "5"]
    run(cli, "cycles", "hunt", *args, "--threads", "2", "--out", str(tmp_path / "cli"))
    h = bataille.cycles.hunt(3, 4, random=200000, seed=5, threads=2, out=tmp_path / "py")
    for name in ["summary.csv", "cycles.csv", "loops.csv", "records.csv", "state.txt"]:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "py" / name).read_bytes()
    assert len(h.loops) > 0
    meta = (tmp_path / "py" / "metadata.csv").read_text()
    assert "command,bataille cycles hunt -c 3 -v 4 -m natural --random 200000 --seed 5" in meta
    with pytest.raises(ValueError, match="needs seeds=FILE"):
        bataille.cycles.hunt(3, 4, random=10, sampler="insert")
    with pytest.raises(ValueError, match="sampler"):
        bataille.cycles.hunt(3, 4, random=10, sampler="gaussian")
    with pytest.raises(ValueError):
        bataille.cycles.hunt(3, 4, method="random", random=10)
