"""How a dice fight is scored: each devil's total and who wins or must re-roll (rules 4.3, E4).

These functions work on plain values so the engine and the odds share one definition of a fight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .ranks import OBERTEUFEL, SATANSBRATEN, SPRINGTEUFEL


def total(rank: str, dice: Sequence[int], ober_low: int | None = None) -> int:
    """A devil's fight total: the Oberteufel counts his best 2 of 3, the Satansbraten adds `ober_low`."""
    if rank == OBERTEUFEL:
        return sum(sorted(dice)[1:])
    if rank == SATANSBRATEN:
        if ober_low is None:
            raise ValueError("the Satansbraten's total needs the Oberteufel's lowest die")
        return sum(dice) + ober_low
    return sum(dice)


def outcome(totals: Mapping[str, int]) -> tuple[str | None, list[str]]:
    """(winner, []) when decided, else (None, the tied ranks that must re-roll).

    Only a tie for the highest total matters; the Springteufel wins any such tie he is part of.
    """
    best = max(totals.values())
    top = [rank for rank, value in totals.items() if value == best]
    if len(top) == 1:
        return top[0], []
    if SPRINGTEUFEL in top:
        return SPRINGTEUFEL, []
    return None, top
