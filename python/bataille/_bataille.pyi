"""The compiled module of the package: use the functions of ``bataille`` itself."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

__version__: str

class Interrupted(KeyboardInterrupt):
    """A long call stopped by Ctrl-C (KeyboardInterrupt) before its end; its message says what
    was kept."""

class Game:
    """The result of one game (``bataille.play``)."""

    deal: str
    method: str
    method2: str
    outcome: str
    tricks: int
    cards: int
    tail_tricks: Optional[int]
    tail_cards: Optional[int]
    period_tricks: Optional[int]
    period_cards: Optional[int]
    cycle_id: Optional[str]
    aligned: Optional[bool]
    aligned_note: Optional[str]
    positions: Optional[List[Tuple[List[int], List[int]]]]

def play(
    deal: Any,
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    seed: int = ...,
    trace: bool = ...,
    colours: Optional[int] = ...,
    values: Optional[int] = ...,
    partial: bool = ...,
    max_tricks: Optional[int] = ...,
) -> Game: ...
def play_many_array(
    deals: np.ndarray,
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    seed: int = ...,
    threads: int = ...,
    max_tricks: Optional[int] = ...,
    colours: Optional[int] = ...,
    values: Optional[int] = ...,
    partial: bool = ...,
) -> Dict[str, np.ndarray]: ...
def play_many_list(
    deals: Sequence[Any],
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    seed: int = ...,
    threads: int = ...,
    max_tricks: Optional[int] = ...,
    colours: Optional[int] = ...,
    values: Optional[int] = ...,
    partial: bool = ...,
) -> Dict[str, np.ndarray]: ...
def explore(
    colours: int,
    values: int,
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    random: Optional[int] = ...,
    seed: int = ...,
    threads: int = ...,
    top: int = ...,
    max_tricks: Optional[int] = ...,
    shard: Optional[Tuple[int, int]] = ...,
    max_cycles: Optional[int] = ...,
    out: Optional[str] = ...,
    checkpoint: Optional[str] = ...,
    checkpoint_every: int = ...,
    resume: bool = ...,
    replace: bool = ...,
    progress: Optional[Callable[[int, int], None]] = ...,
    keep: Optional[int] = ...,
    sampler: Optional[str] = ...,
    seeds: Optional[str] = ...,
) -> Dict[str, Any]: ...
def verify(
    filter: Optional[str] = ...,
) -> List[Tuple[str, str, str, str, str, str, str]]: ...
def bmn_play(
    first: str,
    second: Optional[str] = ...,
    *,
    deck: Optional[str] = ...,
    counts: Optional[str] = ...,
    partial: bool = ...,
    max_tricks: Optional[int] = ...,
) -> Dict[str, Any]: ...
def solve(
    colours: int,
    values: int,
    method: str = ...,
    *,
    out: str,
    period: Optional[int] = ...,
    max_period: Optional[int] = ...,
    all: bool = ...,
    deals: bool = ...,
    cards: bool = ...,
    max_ties: Optional[int] = ...,
    max_hand: Optional[int] = ...,
    split: bool = ...,
    threads: int = ...,
    part: Optional[int] = ...,
    merge: Optional[List[str]] = ...,
    time_limit: Optional[float] = ...,
    keep: bool = ...,
    resume: bool = ...,
    replace: bool = ...,
    solver_config: str = ...,
    echo: Optional[Callable[[str], None]] = ...,
) -> Dict[str, Any]: ...
def solve_aligned(
    cards: int,
    *,
    out: str,
    rounds: Optional[int] = ...,
    max_rounds: Optional[int] = ...,
    max_mult: int = ...,
    colours: Optional[int] = ...,
    prime: bool = ...,
    time_limit: Optional[float] = ...,
    keep: bool = ...,
    resume: bool = ...,
    replace: bool = ...,
    solver_config: str = ...,
    echo: Optional[Callable[[str], None]] = ...,
) -> Dict[str, Any]: ...
def census(
    colours: int,
    values: int,
    method: str = ...,
    *,
    out: str,
    shard: Optional[Tuple[int, int]] = ...,
    threads: int = ...,
    batch: int = ...,
    budget: int = ...,
    checkpoint: Optional[str] = ...,
    resume: bool = ...,
    merge: Optional[List[str]] = ...,
    replace: bool = ...,
    no_estimate_limit: bool = ...,
    progress: Optional[Callable[[int, int], None]] = ...,
    echo: Optional[Callable[[str], None]] = ...,
) -> Dict[str, Any]: ...
def ancestors(
    position: Any,
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    max_depth: Optional[int] = ...,
    max_ties: Optional[int] = ...,
    budget: int = ...,
    deepest: int = ...,
    deals: bool = ...,
    progress: Optional[Callable[[int, int], None]] = ...,
) -> Dict[str, Any]: ...
def extend(
    deal: Any,
    method: str = ...,
    method2: Optional[str] = ...,
    *,
    max_ties: int = ...,
    budget: int = ...,
    whole_game: bool = ...,
    every: int = ...,
    records: Optional[str] = ...,
    progress: Optional[Callable[[int, int], None]] = ...,
) -> Dict[str, Any]: ...
def takeaway_solve(
    game: str,
    heaps: List[int],
    *,
    convention: Optional[str] = ...,
    rule: Optional[str] = ...,
    first_max: Optional[int] = ...,
    prev: Optional[int] = ...,
    max_take: Optional[int] = ...,
    brute_force: bool = ...,
) -> str: ...
