"""Beggar-my-neighbour (bataille anglaise), under the 1911 Britannica rules: the engine of
``bataille bmn``."""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _bataille

__all__ = ["play"]


def play(
    first: str,
    second: Optional[str] = None,
    *,
    deck: Optional[str] = None,
    counts: Optional[str] = None,
    partial: bool = False,
    max_tricks: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays one game, as ``bataille bmn play`` does.

    Args:
        first, second: the two hands in the ``-JQKA`` notation (``-`` a numeral), top card
            first; or ``first`` alone as ``"FIRST/SECOND"``.
        deck: a preset deck name (default: the standard 52 cards); ``counts``: the deck as
            counts of numerals, J, Q, K, A.
        partial: accept any cards, not only a whole deck.
        max_tricks: stop after this many tricks.

    Returns:
        A dict: ``hands``, ``outcome`` (``"first"``, ``"second"``, ``"loop"`` or
        ``"capped"``), ``tricks`` and ``cards`` to the end (or to the first repeated position),
        and for a loop ``tail_tricks``, ``tail_cards``, ``period_tricks``, ``period_cards`` and
        ``cycle_id``.

    Raises:
        ValueError: hands that cannot be read or are not the deck, with the command line's
            words.
    """
    return _bataille.bmn_play(
        first, second, deck=deck, counts=counts, partial=partial, max_tricks=max_tricks
    )
