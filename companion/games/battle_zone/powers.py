"""Activation and the five powers over a pyramid's range (3.1, 3.2, B8-B10).

Destroy, Control and Freeze act at once on every pyramid in range. Upgrade resolves larges, then
mediums, then smalls (B9); when a size's supply cannot serve every pyramid of one colour and size, the
player picks, one `grow` at a time, which ones get the larger piece, and the rest leave the board.
Transport goes step by step: pick a pyramid in range (`transport`), put it on an empty square in range
(`put`), up to X times (X = the activated pyramid's pips after any downgrade), or `stop`. While one of
these is under way `state["pending"]` says so:

    {"power": "upgrade", "die", "centre", "groups": [[colour, size, [squares]], ...]}
    {"power": "transport", "die", "centre", "zone": [squares], "left": X, "moved": [squares],
     "holding": square or None}
"""

from __future__ import annotations

from ..errors import IllegalAction
from . import supply
from .board import SIZE_NAMES, SQUARES, describe, zone
from .options import POWERS

_ORDER = {sq: i for i, sq in enumerate(SQUARES)}
Events = list[dict]


def power_of(state: dict, colour: str) -> str:
    return POWERS[state["colours"].index(colour)]


def listing(names: list[str]) -> str:
    """Join names as a sentence does: "a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def activate(state: dict, seat: int, die: int, square: str) -> Events:
    """Stand up a pyramid `seat` controls, or downgrade an upright one; then its power over the range
    of its size after any downgrade (3.2)."""
    piece = state["board"][square]
    name = state["players"][seat]
    old = describe(piece)
    if piece["controller"] == seat:
        piece["controller"] = None
        step = "stand it up"
    else:
        supply.take(state, piece["colour"], piece["size"] - 1)
        supply.give_back(state, piece["colour"], piece["size"])
        piece["size"] -= 1
        step = f"swap it for a {describe(piece)} from the supply, standing"
    power = power_of(state, piece["colour"])
    squares = zone(square, piece["size"], state["options"]["range"] == "ring")
    text = f"{name} activates the {old} on {square} ({power}, range {piece['size']}): {step}."
    events = [{"type": "activate", "seat": seat, "square": square, "power": power, "range": list(squares),
               "text": text}]
    targets = [sq for sq in squares if sq in state["board"]]
    if power == "destroy":
        events += _destroy(state, targets)
    elif power == "control":
        events += _control(state, seat, targets)
    elif power == "freeze":
        events += _freeze(state, targets)
    elif power == "upgrade":
        groups = [[colour, size, [sq for sq in targets if _is(state, sq, colour, size)]]
                  for size in (3, 2, 1) for colour in state["colours"]]
        state["pending"] = {"power": "upgrade", "die": die, "centre": square,
                            "groups": [g for g in groups if g[2]]}
        events += resolve_upgrade(state)
    else:
        state["pending"] = {"power": "transport", "die": die, "centre": square, "zone": list(squares),
                            "left": piece["size"], "moved": [], "holding": None}
        events += _transport_or_finish(state)
    return events


def _is(state: dict, square: str, colour: str, size: int) -> bool:
    piece = state["board"][square]
    return piece["colour"] == colour and piece["size"] == size


def _named(state: dict, squares: list[str]) -> list[str]:
    return [f"the {describe(state['board'][sq])} on {sq}" for sq in squares]


def _remove(state: dict, square: str) -> None:
    piece = state["board"].pop(square)
    supply.give_back(state, piece["colour"], piece["size"])


def _destroy(state: dict, targets: list[str]) -> Events:
    if not targets:
        return [{"type": "destroy", "squares": [], "text": "Nothing in range to destroy."}]
    text = f"Return {listing(_named(state, targets))} to the supply."
    for sq in targets:
        _remove(state, sq)
    return [{"type": "destroy", "squares": targets, "text": text}]


def _control(state: dict, seat: int, targets: list[str]) -> Events:
    changed = [sq for sq in targets if state["board"][sq]["controller"] != seat]
    if not changed:
        return [{"type": "control", "squares": [], "text": "Nothing in range changes hands."}]
    rival = state["players"][1 - seat]
    text = f"Lay {listing(_named(state, changed))} pointing at {rival}."
    for sq in changed:
        state["board"][sq]["controller"] = seat
    return [{"type": "control", "seat": seat, "squares": changed, "text": text}]


def _freeze(state: dict, targets: list[str]) -> Events:
    lying = [sq for sq in targets if state["board"][sq]["controller"] is not None]
    if not lying:
        return [{"type": "freeze", "squares": [], "text": "Nothing in range is lying down to freeze."}]
    text = f"Stand up {listing(_named(state, lying))}, without activating them."
    for sq in lying:
        state["board"][sq]["controller"] = None
    return [{"type": "freeze", "squares": lying, "text": text}]


# ---- upgrade power ---------------------------------------------------------------------------------------
def resolve_upgrade(state: dict) -> Events:
    """Resolve the pending Upgrade power group by group until done or until the player must choose."""
    pending = state["pending"]
    events: Events = []
    while pending["groups"]:
        colour, size, squares = pending["groups"][0]
        free = state["supply"][colour][size] if size < 3 else 0
        if 0 < free < len(squares):
            bigger = f"{SIZE_NAMES[size + 1]} {colour}"
            who = state["players"][state["active"]]
            text = (f"Only {free} {bigger} left for {len(squares)} {SIZE_NAMES[size]} {colour}s in range: "
                    f"{who} picks which to upgrade; the others leave the board.")
            events.append({"type": "upgrade_choice", "squares": list(squares), "text": text})
            return events
        pending["groups"].pop(0)
        if free:
            events += [_grow(state, sq) for sq in squares]
        elif squares:
            why = "a large cannot grow" if size == 3 else f"no {SIZE_NAMES[size + 1]} {colour} is left"
            text = f"Return {listing(_named(state, squares))} to the supply ({why})."
            for sq in squares:
                _remove(state, sq)
            events.append({"type": "upgrade_removed", "squares": list(squares), "text": text})
    state["pending"] = None
    return events or [{"type": "upgrade", "squares": [], "text": "Nothing in range to upgrade."}]


def _grow(state: dict, square: str) -> dict:
    piece = state["board"][square]
    old = describe(piece)
    supply.take(state, piece["colour"], piece["size"] + 1)
    supply.give_back(state, piece["colour"], piece["size"])
    piece["size"] += 1
    text = f"Swap the {old} on {square} for a {describe(piece)} from the supply, keeping its orientation."
    return {"type": "upgrade", "squares": [square], "text": text}


def grow(state: dict, square: object) -> Events:
    """The player's pick of one pyramid to upgrade when the supply is short."""
    squares = state["pending"]["groups"][0][2]
    if square not in squares:
        raise IllegalAction(f"pick one of {', '.join(squares)} to upgrade")
    squares.remove(square)
    return [_grow(state, square)] + resolve_upgrade(state)


# ---- transport power -------------------------------------------------------------------------------------
def transport_actions(state: dict) -> list[dict]:
    pending = state["pending"]
    board = state["board"]
    if pending["holding"] is None:
        picks = [{"type": "transport", "square": sq} for sq in pending["zone"]
                 if sq in board and sq not in pending["moved"]]
    else:
        picks = [{"type": "put", "square": sq} for sq in pending["zone"] if sq not in board]
    return picks + [{"type": "stop"}]


def _transport_or_finish(state: dict) -> Events:
    """End the transport when nothing more can be moved: X done, nothing to pick, or no empty square."""
    pending = state["pending"]
    board = state["board"]
    pickable = any(sq in board and sq not in pending["moved"] for sq in pending["zone"])
    empty = any(sq not in board for sq in pending["zone"])
    if pending["left"] and pickable and empty:
        return []
    state["pending"] = None
    return [{"type": "transport_done", "text": "The transport is over."}] if pending["moved"] else [
        {"type": "transport_done", "text": "Nothing in range can be transported."}]


def pick(state: dict, square: object) -> Events:
    pending = state["pending"]
    if pending["holding"] is not None:
        held = pending["holding"]
        raise IllegalAction(f"put the pyramid from {held} on an empty square in range first, or stop")
    if square not in pending["zone"] or square not in state["board"]:
        raise IllegalAction(f"pick a pyramid in range of {pending['centre']} to transport")
    if square in pending["moved"]:
        raise IllegalAction(f"the pyramid on {square} has already been transported")
    pending["holding"] = square
    text = f"Transport the {describe(state['board'][square])} on {square}: where to?"
    return [{"type": "transport_pick", "square": square, "text": text}]


def put(state: dict, square: object) -> Events:
    pending = state["pending"]
    start = pending["holding"]
    if start is None:
        raise IllegalAction("pick a pyramid in range to transport first, or stop")
    if square not in pending["zone"] or square in state["board"]:
        raise IllegalAction(f"put it on an empty square in range of {pending['centre']}")
    piece = state["board"].pop(start)
    state["board"][square] = piece
    pending["holding"], pending["left"] = None, pending["left"] - 1
    pending["moved"].append(square)
    text = f"Move the {describe(piece)} from {start} to {square}, keeping its orientation."
    return [{"type": "transport", "from": start, "to": square, "text": text}] + _transport_or_finish(state)


def stop(state: dict) -> Events:
    state["pending"] = None
    return [{"type": "transport_done", "text": "The transport is over."}]
