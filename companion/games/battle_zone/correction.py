"""Correcting the board when the physical board and the game disagree: one square at a time.

    {"type": "correct", "square": "c3", "piece": {"colour": "blue", "size": 2, "controller": 1}}
    {"type": "correct", "square": "c3", "piece": null}                    (the square is empty)

`controller` is the seat the pyramid lies for (pointing at the other player), or null for upright.
The pyramid that stood there goes back to the supply and the new one comes from it, so the 45 stay
accounted for; a correction that needs a pyramid the supply lacks is refused. It is logged and
replayed like any action, may be made at any moment of the game but not in the middle of a power's
steps, and is not listed by `legal_actions` (it is a table tool, not a move).
"""

from __future__ import annotations

from ..errors import IllegalAction
from . import supply
from .board import COORDS, describe

CORRECT = "correct"


def _piece(state: dict, raw: object) -> dict | None:
    """The corrected square's pyramid, checked field by field with exact types."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"colour", "size", "controller"}:
        raise IllegalAction('"piece" is null or {"colour", "size", "controller"}')
    colour, size, seat = raw["colour"], raw["size"], raw["controller"]
    if colour not in state["colours"]:
        raise IllegalAction(f"{colour!r} is not a colour of this game ({', '.join(state['colours'])})")
    if isinstance(size, bool) or not isinstance(size, int) or size not in (1, 2, 3):
        raise IllegalAction(f'"size" is 1 (small), 2 (medium) or 3 (large), not {size!r}')
    if seat is not None and (isinstance(seat, bool) or seat not in (0, 1)):
        raise IllegalAction(f'"controller" is the seat it lies for, 0 or 1, or null upright, not {seat!r}')
    return {"colour": colour, "size": size, "controller": seat}


def _words(state: dict, piece: dict | None) -> str:
    if piece is None:
        return "empty"
    seat = piece["controller"]
    how = "upright" if seat is None else f"lying for {state['players'][seat]}"
    return f"a {describe(piece)}, {how}"


def correct(state: dict, action: dict) -> list[dict]:
    """Apply one square's correction in place; raise IllegalAction (state untouched) if impossible."""
    if set(action) != {"type", "square", "piece"}:
        raise IllegalAction('a correction has exactly "type", "square" and "piece"')
    if state["pending"] is not None:
        raise IllegalAction(f"finish the {state['pending']['power']} first, then correct the board")
    square = action["square"]
    if not isinstance(square, str) or square not in COORDS:
        raise IllegalAction(f'"square" is a square of the board, a1 to h8, not {square!r}')
    new = _piece(state, action["piece"])
    old = state["board"].get(square)
    if old == new:
        raise IllegalAction(f"{square} already holds {_words(state, old)}")
    if new is not None:
        back = old is not None and (old["colour"], old["size"]) == (new["colour"], new["size"])
        if not back and not supply.has(state, new["colour"], new["size"]):
            raise IllegalAction(f"no {describe(new)} is left in the supply: all three are in play or exited")
    if old is not None:
        supply.give_back(state, old["colour"], old["size"])
        del state["board"][square]
    if new is not None:
        supply.take(state, new["colour"], new["size"])
        state["board"][square] = new
    text = f"Board corrected: {square} now holds {_words(state, new)} (it held {_words(state, old)})."
    return [{"type": CORRECT, "square": square, "text": text}]
