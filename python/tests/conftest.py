"""Shared fixtures: the command-line binary the package's results are compared with."""

from __future__ import annotations

import os
import pathlib
import subprocess
from typing import List

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The `bataille` binary: $BATAILLE, or the workspace's debug or release build."""
    given = os.environ.get("BATAILLE")
    candidates: List[pathlib.Path] = (
        [pathlib.Path(given)]
        if given
        else [ROOT / "target" / "debug" / "bataille", ROOT / "target" / "release" / "bataille"]
    )
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail("no bataille binary: run `cargo build` first, or set BATAILLE to one")


def run(cli: pathlib.Path, *args: str) -> str:
    """Runs the command line and returns what it printed (it must succeed)."""
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
