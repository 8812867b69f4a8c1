"""Exact chances for the next roll of three d6, for the phone: will it hold a die of a colour?

A die acts with a colour on that colour's face or on a 6, so each die gives a given colour with
probability 2/6; one of k colours with (k + 1)/6. Counts are binomial over the three dice.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

DICE = 3


def p_at_least(count: int, colours: int = 1, dice: int = DICE) -> Fraction:
    """The chance that at least `count` of `dice` d6 can act with one of `colours` colours (1-5)."""
    if not 1 <= colours <= 5:
        raise ValueError("colours is how many colours count, 1 to 5")
    p = Fraction(colours + 1, 6)
    return sum((comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(count, dice + 1)), Fraction(0))


def next_roll(state: dict, seat: int | None) -> dict:
    """The figures the phone shows: for one colour, the chance of at least 1, 2 or 3 dice of it; for
    `seat`, the chance of a die of a colour it has not yet exited (None once all five are out)."""
    figures = {str(n): _figure(p_at_least(n)) for n in (1, 2, 3)}
    missing = None
    if seat is not None:
        out = {p["colour"] for p in state["exited"][seat]}
        need = [c for c in state["colours"] if c not in out]
        if need:
            missing = {"colours": need, **_figure(p_at_least(1, len(need)))}
    return {"one_colour": figures, "missing": missing}


def _figure(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}
