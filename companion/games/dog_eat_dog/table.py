"""Read-only questions about the table: where each pyramid is, who controls which stack, who may attack what.

The table is an unordered set of lone pyramids and stacks (`state["stacks"]`: lists of ids, bottom to
top). A stack's controller is the owner of its top pyramid. Nothing here changes the state.
"""

from __future__ import annotations

from .pieces import CAPTURED, IN_STACK, TIPPED, UPRIGHT, describe, listing

State = dict


def seat_of(state: State, colour: str) -> int:
    """The seat of the player who owns `colour`."""
    for seat, player in enumerate(state["players"]):
        if player["colour"] == colour:
            return seat
    raise KeyError(colour)


def owner_name(state: State, pid: str) -> str:
    return state["players"][seat_of(state, state["pyramids"][pid]["colour"])]["name"]


def name(state: State, pid: str) -> str:
    """ "the large red" for an id."""
    return describe(state["pyramids"][pid])


def stack_of(state: State, pid: str) -> list[str] | None:
    """The stack holding `pid`, or None if it is not in a stack."""
    for stack in state["stacks"]:
        if pid in stack:
            return stack
    return None


def stack_name(state: State, stack: list[str]) -> str:
    """ "the stack under the large red" (a stack is named by its top pyramid, the one players see)."""
    return f"the stack under {name(state, stack[-1])}"


def controller(state: State, stack: list[str]) -> int:
    """The seat controlling a stack: the owner of its top pyramid."""
    return seat_of(state, state["pyramids"][stack[-1]]["colour"])


def attackers(state: State, seat: int) -> list[str]:
    """The seat's pyramids that may attack: lone, upright, own colour (ruling A1)."""
    colour = state["players"][seat]["colour"]
    return [pid for pid, p in state["pyramids"].items() if p["colour"] == colour and p["status"] == UPRIGHT]


def targets(state: State, seat: int) -> list[str]:
    """What the seat may attack, by id: lone upright pyramids of another colour, and the top pyramids of
    stacks another player controls that hold none of the seat's colour (rulings A3, A4)."""
    colour = state["players"][seat]["colour"]
    pyramids = state["pyramids"]
    lone = [pid for pid, p in pyramids.items() if p["colour"] != colour and p["status"] == UPRIGHT]
    stacks = [s[-1] for s in state["stacks"] if all(pyramids[pid]["colour"] != colour for pid in s)]
    return lone + stacks


def can_attack(state: State, seat: int) -> bool:
    """Whether the seat has at least one legal attack (the end-of-game test, ruling A2)."""
    return bool(attackers(state, seat)) and bool(targets(state, seat))


def attacker_problem(state: State, seat: int, attacker: str) -> str | None:
    """Why `attacker` (a pyramid id of this game, as `Game.apply` checked) cannot attack for this seat, in a
    sentence; None if it can."""
    pyramids = state["pyramids"]
    p = pyramids[attacker]
    player = state["players"][seat]
    if p["colour"] != player["colour"]:
        owner = owner_name(state, attacker)
        return f"{describe(p)} is {owner}'s: attack with one of your own {player['colour']} pyramids"
    if p["status"] == TIPPED:
        return f"{describe(p)} is tipped: it is out of play until your next turn"
    if p["status"] == IN_STACK:
        return f"{describe(p)} is in a stack: only a lone upright pyramid can attack"
    if p["status"] == CAPTURED:
        captor = state["players"][p["captured_by"]]["name"]
        return f"{describe(p)} was captured by {captor}: it is out of play"
    return None


def target_problem(state: State, seat: int, target: str) -> str | None:
    """Why `target` (a pyramid id of this game, as `Game.apply` checked) cannot be attacked by this seat, in
    a sentence; None if it can."""
    pyramids = state["pyramids"]
    p = pyramids[target]
    colour = state["players"][seat]["colour"]
    if p["status"] == CAPTURED:
        captor = state["players"][p["captured_by"]]["name"]
        return f"{describe(p)} is set aside by {captor}: it is out of play"
    if p["status"] == TIPPED:
        return f"{describe(p)} is tipped: it cannot be attacked until {owner_name(state, target)}'s next turn"
    if p["status"] == UPRIGHT:
        if p["colour"] == colour:
            return f"{describe(p)} is yours: attack a pyramid of another colour"
        return None
    stack = stack_of(state, target)
    assert stack is not None
    if stack[-1] != target:
        top = name(state, stack[-1])
        return f"{describe(p)} is buried in a stack: attack the stack by its top pyramid, {top}"
    if p["colour"] == colour:
        return f"you control {stack_name(state, stack)}: you cannot attack it"
    own = [name(state, pid) for pid in stack if pyramids[pid]["colour"] == colour]
    if own:
        held = listing(own)
        return f"{stack_name(state, stack)} holds {held}: you may not attack a stack with your colour in it"
    return None
