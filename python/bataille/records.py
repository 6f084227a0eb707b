"""Record-length games: a finished game made longer by playing backwards.

- :func:`extend`: the longest games that lead into a finished game, found by searching the
  tree of its ancestors (``bataille records extend``), each a row of the records file.

>>> import bataille.records
>>> e = bataille.records.extend("[5, 1, 3] / [4, 2]", budget=1000)
>>> len(e.rows) >= 0
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from . import _bataille

__all__ = ["Extension", "extend"]


@dataclass
class Extension:
    """The result of :func:`extend`: ``rows`` (the longer games found, by tricks and by cards,
    as rows of the records file: a DataFrame, or a list of dicts without pandas), ``report``
    (what the command line prints) and ``stopped`` (the search was cut short)."""

    rows: Any
    report: str
    stopped: bool

    def __str__(self) -> str:
        return self.report


def extend(
    deal: Any,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    max_ties: int = 3,
    budget: int = 10_000_000,
    whole_game: bool = False,
    every: int = 1,
    records: Optional[Union[str, "os.PathLike[str]"]] = None,
    progress: Union[bool, Callable[[int, int], None], None] = None,
) -> Extension:
    """The longest deals whose games run into ``deal``'s game, as ``bataille records extend``.

    ``deal`` is a deal or any position of a whole deck whose game ends (as for
    :func:`bataille.play`), with deterministic stacking methods. Its ancestors are searched
    backwards (tricks of at most ``max_ties`` ties, at most ``budget`` positions; with
    ``whole_game=True``, from the start and every ``every``-th position of its game, each with
    that budget), and the longest deals found, by tricks and by cards, are returned, replayed
    by the engine. ``records=`` appends them to that records file when they are longer than
    its rows of the same cell. ``progress=True`` draws a bar; a callable receives (done,
    total). Ctrl-C stops the search with :class:`bataille.Interrupted`.
    """
    from . import _progress

    progress, close = _progress(progress, "positions")
    try:
        r = _bataille.extend(
            deal,
            method,
            method2,
            max_ties=max_ties,
            budget=budget,
            whole_game=whole_game,
            every=every,
            records=None if records is None else os.fspath(records),
            progress=progress,
        )
    finally:
        if close is not None:
            close()
    columns = list(r["columns"])
    rows = [dict(zip(columns, row)) for row in r["rows"]]
    try:
        import pandas as pd
    except ImportError:
        table: Any = rows
    else:
        table = pd.DataFrame(rows, columns=columns)
    return Extension(rows=table, report=r["report"], stopped=r["stopped"])
