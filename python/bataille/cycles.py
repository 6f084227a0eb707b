"""Loops among all positions, not only deals: every loop of a small deck, the positions that
reach a loop, and loops decided by a SAT solver (found, or proved absent with a checked proof).

- :func:`census`: every loop of a small deck, among every position of every split, each once,
  with the deals that reach it (``bataille cycles census``).
- :func:`ancestors`: the tree of the positions that reach a loop or a position, played
  backwards (``bataille cycles ancestors``).
- :func:`hunt`: seeded random positions of every split played until they end or loop
  (``bataille cycles hunt``), the loops met with the positions that reach them.
- :func:`solve`: the loops of a deck whose period (in tricks, or in the cards each player
  turns) is P, or every period up to P, found by CaDiCaL and replayed by the engine; a period
  with none is certified by an LRAT proof that is checked.
- :func:`solve_aligned`: every aligned cycle of 2n cards with a period of R rounds.

:func:`census`, :func:`solve` and :func:`solve_aligned` write the command line's output directory (``bataille cycles solve`` and ``bataille
aligned solve``, byte for byte but for the command in ``metadata.csv``), which a later call
continues with ``resume=True``; their tables come back as pandas DataFrames (dicts of column
lists without pandas). Ctrl-C stops the solver with :class:`bataille.Interrupted`: the periods
decided are kept.

>>> import bataille.cycles, tempfile
>>> s = bataille.cycles.solve(2, 2, max_period=4, all=True, out=tempfile.mkdtemp() + "/c2v2")
>>> s.conclusion.startswith("certified")
True
"""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _bataille

__all__ = [
    "Ancestors",
    "Census",
    "Solved",
    "ancestors",
    "census",
    "hunt",
    "solve",
    "solve_aligned",
]

Echo = Union[bool, Callable[[str], None], None]


@dataclass
class Solved:
    """The result of :func:`solve` or :func:`solve_aligned`: the output directory's tables.

    ``instances`` has one row per period (``instances.csv``), ``found`` the loops found
    (``cycles.csv``; for aligned cycles, the cycles of rounds of ``rounds.csv``), ``parts`` one
    row per part of a split period (``parts.csv``, ``None`` when the periods were solved whole),
    ``blocks`` the catalogue rows of the aligned cycles (``blocks.csv``; ``None`` for loops).
    ``conclusion`` is what the files certify and where the run stopped, as the command line
    says it; ``out`` the directory.
    """

    out: str
    conclusion: str
    instances: Any
    found: Any
    parts: Any = None
    blocks: Any = None
    csv: Dict[str, str] = field(default_factory=dict, repr=False)

    def __str__(self) -> str:
        return self.conclusion


def _read(path: str) -> Any:
    """A CSV file as a DataFrame (ids and hashes kept as text), or a dict of column lists."""
    with open(path, newline="", encoding="utf-8") as f:
        return _read_text(f.read())


def _read_text(text: str) -> Any:
    """CSV text as a DataFrame (ids and hashes kept as text), or a dict of column lists."""
    try:
        import pandas as pd
    except ImportError:
        rows = list(csv.reader(io.StringIO(text)))
        header, body = (rows[0], rows[1:]) if rows else ([], [])
        return {name: [row[i] for row in body] for i, name in enumerate(header)}
    text_columns = ("cycle_id", "position", "proof_sha256", "cnf_sha256", "solver", "deal")
    return pd.read_csv(io.StringIO(text), dtype={c: str for c in text_columns})


def _echo(echo: Echo) -> Optional[Callable[[str], None]]:
    if echo is True:
        return lambda line: print(line, file=sys.stderr, flush=True)
    if echo in (None, False):
        return None
    if callable(echo):
        return echo
    raise TypeError("echo must be True, False, None or a callable taking a line")


def _solved(out: str, conclusion: str, found: str, extra: Dict[str, str]) -> Solved:
    tables = {"instances": "instances.csv", "found": found, **extra}
    paths = {k: os.path.join(out, v) for k, v in tables.items()}
    read = {k: _read(p) for k, p in paths.items() if os.path.exists(p)}
    texts = {}
    for k, p in paths.items():
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                texts[tables[k]] = f.read()
    return Solved(
        out=out,
        conclusion=conclusion,
        instances=read["instances"],
        found=read["found"],
        parts=read.get("parts"),
        blocks=read.get("blocks"),
        csv=texts,
    )


def solve(
    colours: int,
    values: int,
    method: str = "natural",
    *,
    out: Union[str, "os.PathLike[str]"],
    period: Optional[int] = None,
    max_period: Optional[int] = None,
    all: bool = False,
    deals: bool = False,
    cards: bool = False,
    max_ties: Optional[int] = None,
    max_hand: Optional[int] = None,
    split: bool = False,
    threads: int = 0,
    part: Optional[int] = None,
    merge: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None,
    time_limit: Optional[float] = None,
    keep: bool = False,
    resume: bool = False,
    replace: bool = False,
    solver_config: str = "default",
    echo: Echo = None,
) -> Solved:
    """Loops of the C=colours, V=values deck found, or proved absent, by a SAT solver.

    Exactly one of ``period`` (loops coming back after exactly P tricks, or with ``cards=True``
    after each player turned P cards: loops of period P and of its divisors) and
    ``max_period`` (every period from 1 to P, in order) is given. ``all=True`` lists every loop
    (otherwise the search stops at the first loop of period exactly P); ``deals=True`` asks
    only of loops through a deal; ``max_ties`` and ``max_hand`` restrict the tricks and the
    hands (what is certified is then restricted too, and the conclusion says so).
    ``split=True`` solves each period in parts, one per length of the smallest hand, on
    ``threads`` threads (0: one per core). With ``split=True`` and one ``period``, ``part=H``
    solves only the part whose loops' smallest hand has H cards (one task of a cluster's job
    array), and ``merge=[dirs]`` puts the parts' directories together in ``out``, each read
    back and checked, certifying the period when every part is complete (it solves nothing:
    ``resume=True`` later solves the parts still open).

    ``time_limit`` bounds the solver seconds of each period (or part): a period not decided in
    time is undecided, never "none". ``out`` is the output directory: it must be empty, or hold
    this question's files (``resume=True`` continues them), unless ``replace=True``.
    ``keep=True`` keeps each period's CNF and LRAT proof in ``out/proofs``. ``echo=True``
    prints the run's lines on stderr as they come; a callable receives each line.

    Raises ``ValueError`` for a question the encoding refuses, ``OSError`` for the files, and
    :class:`bataille.Interrupted` on Ctrl-C (the periods decided are kept).
    """
    out = os.fspath(out)
    r = _bataille.solve(
        colours,
        values,
        method,
        out=out,
        period=period,
        max_period=max_period,
        all=all,
        deals=deals,
        cards=cards,
        max_ties=max_ties,
        max_hand=max_hand,
        split=split,
        threads=threads,
        part=part,
        merge=None if merge is None else [os.fspath(d) for d in merge],
        time_limit=time_limit,
        keep=keep,
        resume=resume,
        replace=replace,
        solver_config=solver_config,
        echo=_echo(echo),
    )
    return _solved(out, r["conclusion"], "cycles.csv", {"parts": "parts.csv"})


def solve_aligned(
    cards: int,
    *,
    out: Union[str, "os.PathLike[str]"],
    rounds: Optional[int] = None,
    max_rounds: Optional[int] = None,
    max_mult: int = 4,
    colours: Optional[int] = None,
    prime: bool = False,
    time_limit: Optional[float] = None,
    keep: bool = False,
    resume: bool = False,
    replace: bool = False,
    solver_config: str = "default",
    echo: Echo = None,
) -> Solved:
    """Every aligned cycle of ``cards`` cards (two hands of cards/2) with a period of R rounds.

    Exactly one of ``rounds`` (exactly R rounds) and ``max_rounds`` (every period from 1 to R)
    is given. Values are free, each used at most ``max_mult`` times, or exactly ``colours``
    times; ``prime=True`` keeps the cycles that do not cut into two smaller blocks. The cycles
    found are replayed by the engine (``found``: ``rounds.csv``; ``blocks``: their catalogue
    rows), the rest proved absent by a checked LRAT proof. The other arguments are those of
    :func:`solve`.
    """
    out = os.fspath(out)
    r = _bataille.solve_aligned(
        cards,
        out=out,
        rounds=rounds,
        max_rounds=max_rounds,
        max_mult=max_mult,
        colours=colours,
        prime=prime,
        time_limit=time_limit,
        keep=keep,
        resume=resume,
        replace=replace,
        solver_config=solver_config,
        echo=_echo(echo),
    )
    return _solved(out, r["conclusion"], "rounds.csv", {"blocks": "blocks.csv"})


@dataclass
class Census:
    """The result of :func:`census`: ``loops`` (``cycles.csv``: each loop once, by its canonical
    position, with its period and the deals that reach it) and ``summary`` (``summary.csv``,
    a dict of its keys and values); ``complete`` says whether every unit of the shard was
    searched, ``text`` is the report the command line prints."""

    out: str
    complete: bool
    loops: Any
    summary: Dict[str, str]
    text: str

    def __str__(self) -> str:
        return self.text


def census(
    colours: int,
    values: int,
    method: str = "natural",
    *,
    out: Union[str, "os.PathLike[str]"],
    shard: Optional[Tuple[int, int]] = None,
    threads: int = 0,
    batch: int = 256,
    budget: int = 100_000_000,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    resume: bool = False,
    merge: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None,
    replace: bool = False,
    no_estimate_limit: bool = False,
    progress: Union[bool, Callable[[int, int], None], None] = None,
    echo: Echo = None,
) -> Census:
    """Every loop of the C=colours, V=values deck (natural or optimized stacking), among every
    position of every split, each listed once, as ``bataille cycles census`` does.

    The positions are searched in work units on ``threads`` threads (0: one per core);
    ``shard=(k, n)`` searches the k-th of n parts, whose ``checkpoint`` files ``merge=[...]``
    puts together; ``checkpoint=`` saves the state after each ``batch`` of units, and
    ``resume=True`` continues it. ``budget`` bounds the positions visited to count the deals
    that reach each loop. A census estimated at more than 30 days is refused unless
    ``no_estimate_limit=True``. ``out`` is the output directory (``cycles.csv``,
    ``summary.csv``, ``state.txt``, ``metadata.csv``): empty, unless ``replace=True``.
    ``progress=True`` draws a bar (units done); a callable receives (done, total). ``echo``
    as in :func:`solve`.

    Raises ``ValueError`` for a deck or method the census does not take, ``OSError`` for the
    files, and :class:`bataille.Interrupted` on Ctrl-C (the checkpoint keeps every unit done).
    """
    from . import _progress

    out = os.fspath(out)
    progress, close = _progress(progress, "units")
    lines: list = []
    shown = _echo(echo)

    def said(line: str) -> None:
        lines.append(line)
        if shown is not None:
            shown(line)

    try:
        r = _bataille.census(
            colours,
            values,
            method,
            out=out,
            shard=shard,
            threads=threads,
            batch=batch,
            budget=budget,
            checkpoint=None if checkpoint is None else os.fspath(checkpoint),
            resume=resume,
            merge=None if merge is None else [os.fspath(m) for m in merge],
            replace=replace,
            no_estimate_limit=no_estimate_limit,
            progress=progress,
            echo=said,
        )
    finally:
        if close is not None:
            close()
    with open(os.path.join(out, "summary.csv"), newline="", encoding="utf-8") as f:
        summary = {row[0]: row[1] for row in list(csv.reader(f))[1:] if len(row) >= 2}
    return Census(
        out=out,
        complete=r["complete"],
        loops=_read(os.path.join(out, "cycles.csv")),
        summary=summary,
        text="\n".join(lines),
    )


@dataclass
class Ancestors:
    """The result of :func:`ancestors`: ``report`` (the command line's report), ``by_depth``
    (positions at each number of tricks from the root), ``deal_count`` (the deals of the
    tree), ``visited`` (ancestors visited), ``complete`` (no bound or stop left any out),
    ``deepest`` (position, tricks, cards of the deepest ancestors) and, with ``deals=True``,
    ``deals`` (each deal with its tail, a DataFrame or dict)."""

    report: str
    by_depth: List[int]
    deal_count: int
    visited: int
    complete: bool
    deepest: List[Tuple[str, int, int]]
    deals: Any = None

    def __str__(self) -> str:
        return self.report


def ancestors(
    position: Any,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    max_depth: Optional[int] = None,
    max_ties: Optional[int] = None,
    budget: int = 100_000_000,
    deepest: int = 5,
    deals: bool = False,
    progress: Union[bool, Callable[[int, int], None], None] = None,
) -> Ancestors:
    """The tree of the positions from which ``position`` (a position of a whole deck, as for
    :func:`bataille.play`; on a loop, the loop's) is reached, played backwards by the engine,
    as ``bataille cycles ancestors`` does: counted by depth, with its deals (once per mirror
    pair for a loop) and their tails, within ``max_depth`` tricks, tricks of at most
    ``max_ties`` ties, and at most ``budget`` ancestors visited.
    """
    from . import _progress

    progress, close = _progress(progress, "positions")
    try:
        r = _bataille.ancestors(
            position,
            method,
            method2,
            max_depth=max_depth,
            max_ties=max_ties,
            budget=budget,
            deepest=deepest,
            deals=deals,
            progress=progress,
        )
    finally:
        if close is not None:
            close()
    listing = None
    if r["deals"] is not None:
        listing = _read_text(r["deals"])
    return Ancestors(
        report=r["report"],
        by_depth=list(r["by_depth"]),
        deal_count=r["deal_count"],
        visited=r["visited"],
        complete=r["complete"],
        deepest=[tuple(d) for d in r["deepest"]],
        deals=listing,
    )


def hunt(
    colours: int,
    values: int,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    random: int,
    sampler: str = "uniform",
    seeds: Optional[Union[str, "os.PathLike[str]"]] = None,
    keep: int = 1000,
    seed: int = 0,
    threads: int = 0,
    top: int = 10,
    shard: Optional[Tuple[int, int]] = None,
    max_cycles: Optional[int] = None,
    out: Union[str, "os.PathLike[str]", None] = None,
    checkpoint: Union[str, "os.PathLike[str]", None] = None,
    checkpoint_every: int = 60,
    resume: bool = False,
    replace: bool = False,
    progress: Union[bool, Callable[[int, int], None]] = False,
) -> Any:
    """``random`` seeded positions of every split of the deck, each played until it ends or
    loops, as ``bataille cycles hunt`` does: a :class:`bataille.Exploration` whose ``loops``
    keeps, for each loop met, the ``keep`` smallest positions that reach it.

    ``sampler`` draws the positions: ``"uniform"`` (every position of every split equally
    likely), ``"piles"`` (each hand a run of piles), ``"insert"`` and ``"mutate"`` (around the
    positions of a ``seeds`` file: one position a line, or a CSV file with a position column).
    The other arguments are :func:`bataille.explore`'s; with ``out``, the files are those of the
    command with the same arguments (``seeds.txt`` among them for a seeded sampler).
    """
    from . import _search

    options: Dict[str, Any] = dict(
        random=random,
        seed=seed,
        threads=threads,
        top=top,
        shard=shard,
        max_cycles=max_cycles,
        keep=keep,
        sampler=sampler,
        seeds=None if seeds is None else os.fspath(seeds),
    )
    return _search(colours, values, method, method2, options, out, checkpoint,
                   checkpoint_every, resume, replace, progress)
