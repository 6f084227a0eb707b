"""`bataille.explore` with an output directory and a checkpoint: the command line's files, a
run stopped by Ctrl-C (a KeyboardInterrupt) and resumed equal to one that was not, and the
refusals of a used directory."""

from __future__ import annotations

import csv
import pathlib

import pytest

import bataille
from conftest import run

TABLES = ("summary.csv", "histograms.csv", "records.csv", "cycles.csv", "state.txt")


def metadata(out: pathlib.Path) -> dict:
    with (out / "metadata.csv").open() as f:
        return {row["key"]: row["value"] for row in csv.DictReader(f)}


def test_out_is_the_command_lines_directory(cli, tmp_path: pathlib.Path) -> None:
    mine, theirs = tmp_path / "py", tmp_path / "cli"
    bataille.explore(4, 4, random=40_000, seed=9, threads=2, out=mine)
    run(cli, "explore", "-c", "4", "-v", "4", "--random", "40000", "--seed", "9", "--out",
        str(theirs))
    for name in TABLES:
        assert (mine / name).read_bytes() == (theirs / name).read_bytes(), name
    # metadata.csv names the command line that makes the same files, without machine paths.
    command = metadata(mine)["command"]
    assert command.startswith("bataille explore -c 4 -v 4 -m natural --random 40000 --seed 9")
    assert command.endswith("--threads 2 --out '<outside>/py'"), command
    assert str(tmp_path) not in (mine / "metadata.csv").read_text()


def test_ctrl_c_then_resume_gives_the_uninterrupted_files(tmp_path: pathlib.Path) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    ckpt = tmp_path / "run.ckpt"
    # 25 units of 16,384 random 52-card deals: about a second on one thread of a release
    # build, longer here. The stop comes as Ctrl-C would, from the progress callback (called
    # every 250 ms), at its first call with some units done and some left.
    kw = dict(random=400_000, seed=4, threads=1)
    bataille.explore(4, 13, **kw, out=whole)

    def ctrl_c(done: int, total: int) -> None:
        if 0 < done < total:
            raise KeyboardInterrupt

    with pytest.raises(bataille.Interrupted, match="resume=True"):
        bataille.explore(4, 13, **kw, out=part, checkpoint=ckpt, checkpoint_every=1,
                         progress=ctrl_c)
    assert ckpt.is_file(), "the checkpoint is saved when the run stops"
    assert metadata(part)["deals_played"] != metadata(whole)["deals_played"]
    e = bataille.explore(4, 13, **kw, out=part, checkpoint=ckpt, resume=True)
    assert metadata(part)["resumed"] == "true"
    for name in TABLES:
        assert (part / name).read_bytes() == (whole / name).read_bytes(), name
    assert e.csv["summary"] == (whole / "summary.csv").read_text()


def test_used_directories_and_checkpoints_are_refused(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "r"
    bataille.explore(4, 3, out=out)
    with pytest.raises(OSError, match="is not empty .*pass replace=True"):
        bataille.explore(4, 3, out=out)
    bataille.explore(4, 3, out=out, replace=True)
    ckpt = tmp_path / "c.ckpt"
    ckpt.write_text("not a state\n")
    with pytest.raises(OSError, match="already exists: pass resume=True"):
        bataille.explore(4, 3, out=tmp_path / "s", checkpoint=ckpt)
    with pytest.raises(OSError, match="cannot resume from"):
        bataille.explore(4, 3, out=tmp_path / "s", checkpoint=ckpt, resume=True)
    with pytest.raises(ValueError, match="need out="):
        bataille.explore(4, 3, checkpoint=ckpt)
    with pytest.raises(ValueError, match="resume=True needs checkpoint="):
        bataille.explore(4, 3, out=tmp_path / "t", resume=True)
    # A file where the directory should be.
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError, match="is not a directory"):
        bataille.explore(4, 3, out=tmp_path / "file")
