"""The exact shape of each DOG action, declared for `Game.apply`'s check (games/shapes.py): a card is a
rank's name, a hole a whole number from -1 to 20N-1 for N players (board.py), a 7's part an object
{"marble", "to"}."""

from __future__ import annotations

from typing import Any

from ..shapes import Fields, ListOf, OneOf, Seat, Shape, State, Whole, shown
from .cards import HAND_SIZES, RANKS

CARD = OneOf(RANKS, "card")


class Hole(Shape):
    """A hole code of this table's board: a whole number from -1 (kennel) to 20N-1 (the last finish hole)."""

    def problem(self, value: Any, state: State) -> str | None:
        high = 20 * len(state.get("players") or ()) - 1
        return Whole(-1, high).problem(value, state)


HOLE = Hole()
PART_FIELDS: Fields = {"marble": HOLE, "to": HOLE}


class Part(Shape):
    """One part of a 7: exactly {"marble": hole, "to": hole}."""

    def problem(self, value: Any, state: State) -> str | None:
        if not isinstance(value, dict) or set(value) != set(PART_FIELDS):
            return f'a part is an object with "marble" and "to" (holes), not {shown(value)}'
        for name, shape in PART_FIELDS.items():
            problem = shape.problem(value[name], state)
            if problem:
                return f'part "{name}": {problem}'
        return None


ACTION_SHAPES: dict[str, Fields] = {
    "deal": {"seat": Seat(), "cards": ListOf(CARD, min(HAND_SIZES), max(HAND_SIZES))},
    "give": {"seat": Seat(), "card": CARD},
    "start": {"card": CARD},
    "move": {"card": CARD, "marble": HOLE, "to": HOLE},
    "swap": {"card": CARD, "marble": HOLE, "with": HOLE},
    "seven": {"card": CARD, "parts": ListOf(Part(), 1, 7)},
    "part": dict(PART_FIELDS),
    "no_effect": {"card": CARD},
    "take": {"card": CARD, "from": Seat()},
    "hand_over": {"seat": Seat(), "card": CARD},
    "fold": {},
}
