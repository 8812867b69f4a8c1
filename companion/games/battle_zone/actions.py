"""The five actions a die may give (3.4): which are legal now, and why one is not.

An action names the die it uses by its index in the roll (0-2), the colour it acts with (on a 6, the
colour chosen; on 1-5 it may be left out, it is the die's), and the square of the pyramid:

    {"type": "place",    "die": 0, "colour": "red", "square": "c1"}     a small from the supply
    {"type": "take",     "die": 1, "colour": "blue", "square": "d4"}    an upright pyramid
    {"type": "upgrade",  "die": 2, "colour": "green", "square": "e2"}
    {"type": "activate", "die": 0, "colour": "yellow", "square": "c3"}
    {"type": "move",     "die": 1, "colour": "black", "square": "c3", "direction": "NE"}
"""

from __future__ import annotations

from ..errors import IllegalAction
from . import supply
from .board import DIRECTIONS, SQUARES, describe, path, starting_line

DIE_ACTIONS = ("place", "take", "upgrade", "activate", "move")
ANY_COLOUR = 6
_ORDER = {sq: i for i, sq in enumerate(SQUARES)}


def player(state: dict, seat: int) -> str:
    return state["players"][seat]


def opponent(seat: int) -> int:
    return 1 - seat


def die_colours(state: dict, value: int) -> tuple[str, ...]:
    """The colours a die may act with: its face's, or any on a 6."""
    colours = tuple(state["colours"])
    return colours if value == ANY_COLOUR else (colours[value - 1],)


def pieces_of(state: dict, colour: str) -> list[tuple[str, dict]]:
    """(square, piece) of every pyramid of `colour` on the board, in board order a1..h8."""
    found = [(sq, p) for sq, p in state["board"].items() if p["colour"] == colour]
    return sorted(found, key=lambda item: _ORDER[item[0]])


def can_upgrade(state: dict, seat: int, piece: dict) -> bool:
    standing = piece["controller"] is None and state["options"]["upgrade_standing"]
    mine = piece["controller"] == seat or standing
    return mine and supply.has(state, piece["colour"], piece["size"] + 1)


def can_activate(state: dict, seat: int, piece: dict) -> bool:
    """One you control (stood up), or an upright one that can be downgraded (3.2, B12)."""
    if piece["controller"] == seat:
        return True
    return piece["controller"] is None and supply.has(state, piece["colour"], piece["size"] - 1)


def die_actions(state: dict, seat: int, die: int) -> list[dict]:
    """Every distinct legal action of one unused die, by colour, then kind, then square."""
    value = state["dice"][die]["value"]
    board = state["board"]
    out: list[dict] = []
    for colour in die_colours(state, value):
        base = {"die": die, "colour": colour}
        if supply.has(state, colour, 1):
            out += [{"type": "place", **base, "square": sq} for sq in starting_line(seat) if sq not in board]
        mine = pieces_of(state, colour)
        out += [{"type": "take", **base, "square": sq} for sq, p in mine if p["controller"] is None]
        out += [{"type": "upgrade", **base, "square": sq} for sq, p in mine if can_upgrade(state, seat, p)]
        out += [{"type": "activate", **base, "square": sq} for sq, p in mine if can_activate(state, seat, p)]
        for sq, p in mine:
            if p["controller"] != seat:
                continue
            for direction in DIRECTIONS:
                end = path(sq, direction, p["size"], seat)
                if end == "off" or (end is not None and end not in board):
                    out.append({"type": "move", **base, "square": sq, "direction": direction})
    return out


def normalise(state: dict, action: dict) -> dict:
    """The action in the form `die_actions` lists: the die's colour filled in when left out. Its fields'
    names and types were checked by `Game.apply` (`BattleZone.action_shapes`); a 6 needs its colour named."""
    kind, die, square = action["type"], action["die"], action["square"]
    value = state["dice"][die]["value"]
    colour = action.get("colour")
    if colour is None and value == ANY_COLOUR:
        colours = ", ".join(state["colours"])
        raise IllegalAction(f"die {die} shows a 6: say which colour it acts with ({colours})")
    out = {"type": kind, "die": die, "colour": colour or die_colours(state, value)[0], "square": square}
    if kind == "move":
        out["direction"] = action["direction"]
    return out


def why_not(state: dict, seat: int, action: dict) -> str:
    """A sentence saying why a well-formed die action (as `normalise` gives it) is not legal now."""
    die, colour, sq, kind = action["die"], action["colour"], action["square"], action["type"]
    value = state["dice"][die]["value"]
    if state["dice"][die]["used"]:
        return f"die {die} (a {value}) is already used this turn"
    if colour not in die_colours(state, value):
        return f"die {die} shows a {value}, which is {die_colours(state, value)[0]}, not {colour}"
    piece = state["board"].get(sq)
    if kind == "place":
        if not supply.has(state, colour, 1):
            return f"no small {colour} is left in the supply"
        if sq not in starting_line(seat):
            return f"{sq} is not on {player(state, seat)}'s starting line (rank {1 if seat == 0 else 8})"
        return f"{sq} is not empty: the {describe(piece)} stands there"
    if piece is None:
        return f"there is no pyramid on {sq}"
    name = f"the {describe(piece)} on {sq}"
    if piece["colour"] != colour:
        return f"{name} is not {colour}"
    owner = piece["controller"]
    if kind == "take":
        return f"{name} is lying: only an upright pyramid can be taken (B5)"
    if owner is not None and owner != seat:
        return f"{name} is {player(state, owner)}'s: only the Control power can take it (B5)"
    if kind == "upgrade":
        if owner is None:
            return f"{name} is upright: only a pyramid you control can be upgraded (B4)"
        if piece["size"] == 3:
            return f"{name} is a large: there is no larger size"
        return f"no {describe({'colour': colour, 'size': piece['size'] + 1})} is left in the supply"
    if kind == "activate":
        if piece["size"] == 1:
            return f"{name} is an upright small: it cannot be downgraded, so it cannot be activated (B12)"
        return f"{name} cannot be downgraded: no {describe({'colour': colour, 'size': piece['size'] - 1})} " \
               "is left in the supply"
    if owner is None:
        return f"{name} is upright: only a pyramid you control can move"
    end = path(sq, action["direction"], piece["size"], seat)
    if end is None:
        return (f"{name} moving {piece['size']} square(s) {action['direction']} would leave the board, "
                "and only past the opponent's starting line may a pyramid leave it (B6)")
    return f"{end} is taken: a move may pass over pyramids but not end on one"
