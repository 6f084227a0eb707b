"""bataille: the card game of War ("la bataille") from Python.

The engine of the ``bataille`` command line, compiled into this package: games played exactly
by the rules of Delahaye & Mathieu's article, loops found by Brent's detection and named by
their canonical cycle id, many games at once in parallel, and the search harness that explores
every deal of a small deck or seeded random deals of any deck.

>>> import bataille
>>> g = bataille.play("[5, 3] / [2, 4, 1]")
>>> g.outcome, g.period_tricks
('loop', 6)

Functions:

- :func:`play`: one game, with its outcome, measures, loop and (``trace=True``) positions.
- :func:`play_many`: many games in parallel, into NumPy arrays.
- :func:`explore`: every deal of a deck, or N seeded random deals: the command line's tables.
- :func:`hunt`: the same, keeping the deals that reach each loop.
- :func:`verify`: the published claims, each recomputed by the engine, as rows.
- :mod:`bataille.cycles`: loops among all positions: the census of a small deck, a position's
  ancestors, loops found or proved absent by a SAT solver.
- :mod:`bataille.records`: record-length games, made longer by playing backwards.
- :mod:`bataille.bmn`: beggar-my-neighbour; :mod:`bataille.takeaway`: the take-away games.

Long calls release the interpreter, can show a progress bar (``progress=True``: tqdm when it is
installed), and stop on Ctrl-C with :class:`Interrupted`. Bad arguments raise ``ValueError``
with the command line's words.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bataille
from ._bataille import Game, Interrupted

__all__ = [
    "OUTCOMES",
    "Exploration",
    "Game",
    "Interrupted",
    "bmn",
    "cycles",
    "records",
    "takeaway",
    "explore",
    "hunt",
    "play",
    "play_many",
    "verify",
]

__version__: str = _bataille.__version__

#: The outcome codes of :func:`play_many`: ``OUTCOMES[code]`` is the word of ``Game.outcome``.
OUTCOMES: Tuple[str, ...] = ("first", "second", "draw", "loop", "capped")

Hand = Sequence[int]
Deal = Union[str, Tuple[Hand, Hand], Sequence[Hand]]


def play(
    deal: Deal,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    seed: int = 0,
    trace: bool = False,
    colours: Optional[int] = None,
    values: Optional[int] = None,
    partial: bool = False,
    max_tricks: Optional[int] = None,
) -> Game:
    """Plays one game, as ``bataille play`` does.

    Args:
        deal: the two hands, top card first: the command line's text (``"[5, 3] / [2, 4, 1]"``
            or ``"5,3/2,4,1"``) or a pair of sequences of cards (``([5, 3], [2, 4, 1])``).
        method: the stacking method of the first player (and of the second unless ``method2``
            is given): ``"natural"``, ``"optimized"``, ``"random"``, ``"ascending"`` or
            ``"first-player-first"``.
        method2: the stacking method of the second player.
        seed: the seed of the random method (the command line's ``--seed``: the same game).
        trace: also keep every position (``Game.positions``).
        colours, values: the deck the deal must form (inferred from the cards when omitted).
        partial: accept any cards from 1 to V, not only a whole deck.
        max_tricks: stop after this many tricks (default: none for deterministic methods,
            10,000,000 with a random one).

    Returns:
        A :class:`Game`: ``outcome`` (``"first"``, ``"second"``, ``"draw"``, ``"loop"`` or
        ``"capped"``), ``tricks`` and ``cards`` (per player) to the end or to the first repeated
        position, and for a loop ``tail_tricks``, ``tail_cards``, ``period_tricks``,
        ``period_cards``, ``cycle_id`` and, from equal hands, ``aligned`` and ``aligned_note``.

    Raises:
        ValueError: a deal that cannot be read or is not the deck, an unknown method.
        Interrupted: Ctrl-C during the game.
    """
    return _bataille.play(
        deal,
        method,
        method2,
        seed=seed,
        trace=trace,
        colours=colours,
        values=values,
        partial=partial,
        max_tricks=max_tricks,
    )


def play_many(
    deals: Union[np.ndarray, Sequence[Deal]],
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    seed: int = 0,
    threads: int = 0,
    max_tricks: Optional[int] = None,
    colours: Optional[int] = None,
    values: Optional[int] = None,
    partial: bool = False,
) -> Dict[str, np.ndarray]:
    """Plays many games in parallel, into NumPy arrays.

    Args:
        deals: a 2-D array of cards, one deal per row, the first player's hand being the first
            half of the row (rounded down), top card first; or a sequence of deals as
            :func:`play` takes them (text or pairs of hands, of any sizes).
        method, method2, max_tricks, colours, values, partial: as for :func:`play`; every deal
            is checked against the deck.
        seed: with a random method, deal ``i`` is played with the seed ``seed + i``: the game
            ``play(deal, method, seed=seed + i)`` gives. The arrays do not depend on
            ``threads``.
        threads: worker threads (0: one per core).

    Returns:
        A dict of 1-D arrays, one entry per deal: ``outcome`` (uint8, an index into
        :data:`OUTCOMES`), ``tricks`` and ``cards`` (uint64, as ``Game`` has them),
        ``tail_tricks`` and ``period_tricks`` (uint64, 0 without a loop) and ``cycle_id``
        (uint64, the loop's id as a number, 0 without a loop: ``format(id, "016x")`` is
        ``Game.cycle_id``).

    Raises:
        ValueError: a deal that is not the deck (its index is named), an unknown method.
        Interrupted: Ctrl-C; the games played are dropped.
    """
    options: Dict[str, Any] = dict(
        seed=seed,
        threads=threads,
        max_tricks=max_tricks,
        colours=colours,
        values=values,
        partial=partial,
    )
    if isinstance(deals, np.ndarray):
        if deals.ndim != 2:
            raise ValueError(
                f"an array of deals has one deal per row (2 dimensions), got {deals.ndim}"
            )
        if deals.size and not np.issubdtype(deals.dtype, np.integer):
            raise ValueError(f"an array of deals holds whole numbers, got dtype {deals.dtype}")
        if deals.size and (deals.min() < 1 or deals.max() > 255):
            bad = deals.min() if deals.min() < 1 else deals.max()
            raise ValueError(f"{bad} is not a card: cards are whole numbers from 1 to 255")
        cards = np.ascontiguousarray(deals, dtype=np.uint8)
        return _bataille.play_many_array(cards, method, method2, **options)
    if isinstance(deals, (str, bytes)):
        raise ValueError("play_many takes a sequence of deals: for one deal, use play")
    return _bataille.play_many_list(list(deals), method, method2, **options)


@dataclass
class Exploration:
    """The result of :func:`explore`: the command line's tables and summary.

    ``summary``, ``histograms``, ``records`` and ``cycles`` are pandas DataFrames when pandas
    is installed, and dicts of column lists otherwise; ``csv`` holds the text of each table,
    byte for byte the file of the same name (``summary.csv``, ...) that ``bataille explore``
    writes, ``state`` the run's ``state.txt``, ``text`` the command line's summary and
    ``deals_played`` the deals played by this call (fewer than the run's when it resumed).
    """

    summary: Any
    histograms: Any
    records: Any
    cycles: Any
    text: str
    state: str
    deals_played: int
    csv: Dict[str, str] = field(repr=False)
    #: For a hunt: the deals of each loop (``loops.csv``); ``None`` for an exploration.
    loops: Any = None

    def __str__(self) -> str:
        return self.text


def _table(text: str) -> Any:
    try:
        import pandas as pd
    except ImportError:
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return {}
        header, body = rows[0], rows[1:]
        return {name: [row[i] for row in body] for i, name in enumerate(header)}
    return pd.read_csv(io.StringIO(text))


def _progress_bar(total_label: str) -> Tuple[Callable[[int, int], None], Callable[[], None]]:
    """A callback drawing a bar (tqdm when installed, a line on stderr otherwise)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    state: Dict[str, Any] = {"bar": None}

    def update(done: int, total: int) -> None:
        if tqdm is not None:
            if state["bar"] is None:
                state["bar"] = tqdm(total=total or None, unit=" " + total_label, unit_scale=True)
            bar = state["bar"]
            bar.update(done - bar.n)
        else:
            share = f" ({100.0 * done / total:.1f}%)" if total else ""
            print(f"\r{done:,} {total_label}{share}", end="", file=sys.stderr, flush=True)

    def close() -> None:
        if state["bar"] is not None:
            state["bar"].close()
        elif tqdm is None:
            print(file=sys.stderr)

    return update, close


def _progress(
    progress: Union[bool, Callable[[int, int], None], None], label: str
) -> Tuple[Optional[Callable[[int, int], None]], Optional[Callable[[], None]]]:
    """The callback of a ``progress=`` argument (True: a bar counting ``label``; a callable: it)
    and what closes it (None when there is nothing to close)."""
    if progress is True:
        return _progress_bar(label)
    if progress is False or progress is None:
        return None, None
    return progress, None


def explore(
    colours: int,
    values: int,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    random: Optional[int] = None,
    seed: int = 0,
    threads: int = 0,
    top: int = 10,
    max_tricks: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    max_cycles: Optional[int] = None,
    out: Union[str, "os.PathLike[str]", None] = None,
    checkpoint: Union[str, "os.PathLike[str]", None] = None,
    checkpoint_every: int = 60,
    resume: bool = False,
    replace: bool = False,
    progress: Union[bool, Callable[[int, int], None]] = False,
) -> Exploration:
    """Explores the deals of the deck of ``colours`` colours and ``values`` values, as
    ``bataille explore`` does.

    Args:
        colours, values: the deck (C and V).
        method, method2, max_tricks: as for :func:`play`.
        random: play this many seeded random deals; without it, every deal (one per mirror
            pair when both players stack alike).
        seed: the seed of the random deals and methods: the same seed gives the same tables
            whatever ``threads`` and ``shard``.
        threads: worker threads (0: one per core).
        top: the longest games kept per measure.
        shard: ``(k, n)``: the k-th of n parts of the run (merge them with ``bataille merge``).
        max_cycles: keep a uniform sample of this many distinct loops (at least 1,000).
        out: also write the command line's output directory there: ``summary.csv``,
            ``histograms.csv``, ``records.csv``, ``cycles.csv`` and ``state.txt`` byte for byte
            those of ``bataille explore`` with the same arguments, and ``metadata.csv`` naming
            that command. A directory that holds files is refused unless they are this run's
            own (resumed) or ``replace=True``.
        checkpoint: save the run's state to this file as it goes (every ``checkpoint_every``
            seconds); needs ``out``.
        resume: continue the run saved in ``checkpoint``: the files come out as those of an
            uninterrupted run.
        replace: replace the results in a used ``out`` directory.
        progress: ``True`` for a bar (tqdm when installed), or a callable taking
            ``(deals_done, deals_total)``, called a few times a second.

    Returns:
        An :class:`Exploration`.

    Raises:
        ValueError: a deck, method or option the command line refuses, with its words.
        OSError: an output directory or checkpoint that cannot be used (used by another run,
            not this run's, not writable...), with the reason.
        Interrupted: Ctrl-C. With ``out``, the partial results are written there first, and
            with ``checkpoint`` the run continues with ``resume=True``; without, nothing is
            kept.
    """
    return _search(
        colours,
        values,
        method,
        method2,
        dict(
            random=random,
            seed=seed,
            threads=threads,
            top=top,
            max_tricks=max_tricks,
            shard=shard,
            max_cycles=max_cycles,
        ),
        out,
        checkpoint,
        checkpoint_every,
        resume,
        replace,
        progress,
    )


def _search(
    colours: int,
    values: int,
    method: str,
    method2: Optional[str],
    options: Dict[str, Any],
    out: Any,
    checkpoint: Any,
    checkpoint_every: int,
    resume: bool,
    replace: bool,
    progress: Union[bool, Callable[[int, int], None]],
) -> Exploration:
    callback, close = _progress(progress, "deals")
    try:
        raw = _bataille.explore(
            colours,
            values,
            method,
            method2,
            **options,
            out=None if out is None else os.fspath(out),
            checkpoint=None if checkpoint is None else os.fspath(checkpoint),
            checkpoint_every=checkpoint_every,
            resume=resume,
            replace=replace,
            progress=callback,
        )
    finally:
        if close is not None:
            close()
    names = ("summary", "histograms", "records", "cycles", "loops")
    tables = {name: raw[name] for name in names if name in raw}
    return Exploration(
        summary=_table(tables["summary"]),
        histograms=_table(tables["histograms"]),
        records=_table(tables["records"]),
        cycles=_table(tables["cycles"]),
        loops=_table(tables["loops"]) if "loops" in tables else None,
        text=raw["text"],
        state=raw["state"],
        deals_played=raw["deals_played"],
        csv=tables,
    )


def hunt(
    colours: int,
    values: int,
    method: str = "natural",
    method2: Optional[str] = None,
    *,
    keep: int = 1_000_000,
    random: Optional[int] = None,
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
) -> Exploration:
    """Hunts the loops of a deck, as ``bataille hunt`` does: :func:`explore`, also keeping for
    each distinct loop the deals that reach it (the ``keep`` smallest), in ``loops``
    (``loops.csv``: ``cycle_id``, ``deal``, ``tail_tricks``).

    Deterministic stacking methods only (with the random method a repeated position is not a
    loop). The other arguments are :func:`explore`'s; with ``out``, the files are those of
    ``bataille hunt`` with the same arguments, ``loops.csv`` among them.

    Raises:
        ValueError: a random method, ``keep=0``, or what :func:`explore` refuses.
        OSError, Interrupted: as for :func:`explore`.
    """
    return _search(
        colours,
        values,
        method,
        method2,
        dict(
            random=random,
            seed=seed,
            threads=threads,
            top=top,
            shard=shard,
            max_cycles=max_cycles,
            keep=keep,
        ),
        out,
        checkpoint,
        checkpoint_every,
        resume,
        replace,
        progress,
    )


def verify(filter: Optional[str] = None) -> Any:
    """The catalogue of ``bataille verify``: every checkable claim of the article and of the
    public record tables, recomputed by the engine, one row per claim.

    Args:
        filter: keep the claims whose id contains this text.

    Returns:
        A DataFrame (a list of dicts without pandas) with the columns ``id``, ``source``,
        ``claim``, ``published``, ``computed``, ``status`` (``ok``, ``misprint``, ``differs``,
        ``false``, ...) and ``evidence``.

    Raises:
        ValueError: no claim matches ``filter``.
    """
    columns = ("id", "source", "claim", "published", "computed", "status", "evidence")
    rows = [dict(zip(columns, row)) for row in _bataille.verify(filter)]
    try:
        import pandas as pd
    except ImportError:
        return rows
    return pd.DataFrame(rows, columns=list(columns))


from . import bmn, cycles, records, takeaway  # noqa: E402  (after the functions they document beside)
