"""The take-away games of the companion documents, solved exactly.

- :func:`solve`: who wins a game at a position with best play, and how (``bataille takeaway
  solve``): Nim and Marienbad by Bouton's closed form, subtraction games and Fort Boyard by
  their period, the match games of one and two heaps by their tables, or any of them by the
  generic solver (``brute_force=True``).

>>> import bataille.takeaway
>>> bataille.takeaway.solve("nim", [1, 3, 5, 7]).outcome
'P'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Sequence

from . import _bataille

__all__ = ["GAMES", "Solution", "solve"]

#: The games :func:`solve` takes.
GAMES = ("nim", "marienbad", "subtraction", "fort-boyard", "matches", "two-heaps")


@dataclass
class Solution:
    """The result of :func:`solve`: ``outcome`` (``"P"``: the player to move loses against
    best play; ``"N"``: wins), ``winning`` (the winning moves, or ``"none"``), ``fields``
    (every line of the report, by its name: ``game``, ``position``, ``solved by``, ...) and
    ``text`` (the report as the command line prints it)."""

    outcome: str
    winning: str
    fields: Dict[str, str]
    text: str

    def __str__(self) -> str:
        return self.text


def solve(
    game: str,
    heaps: Sequence[int] = (),
    *,
    convention: Optional[str] = None,
    rule: Optional[str] = None,
    first_max: Optional[int] = None,
    prev: Optional[int] = None,
    max_take: Optional[int] = None,
    brute_force: bool = False,
) -> Solution:
    """Solves ``game`` (one of :data:`GAMES`) at the position ``heaps`` (the rows of nim and
    marienbad, the heap of subtraction, fort-boyard and matches, the two heaps of two-heaps;
    empty: the game's own start where it has one), as ``bataille takeaway solve`` does.

    ``convention`` is ``"normal"`` (who takes the last one wins) or ``"misere"`` (loses);
    default: the game's own. The match games take ``rule`` (the most a player may take after a
    take of n: ``"2n"``, ``"3n"``, ``"kn+q"``, a constant), ``first_max`` and ``prev`` (the
    opponent's last take); subtraction takes ``max_take``. Raises ``ValueError`` with the
    command line's words for a game or position it does not take.
    """
    text = _bataille.takeaway_solve(
        game,
        list(heaps),
        convention=convention,
        rule=rule,
        first_max=first_max,
        prev=prev,
        max_take=max_take,
        brute_force=brute_force,
    )
    fields: Dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name and not name.startswith(" "):
            fields.setdefault(name.strip(), value.strip())
    outcome = fields.get("outcome", "")[:1]
    return Solution(outcome=outcome, winning=fields.get("winning", ""), fields=fields, text=text)
