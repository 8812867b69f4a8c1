"""The Treehouse die's follow-up actions, taken after an attack resolves (rules 1.6, ruling A9).

SWAP exchanges the top pyramids of two stacks, DIG lifts one of your buried pyramids to the top of its
stack, AIM tips or stands up one lone pyramid of any colour. Each is optional (`{"type": "skip"}`) and is
only offered when it is possible. WILD (one more attack) is handled with the other attacks in rules.py.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .pieces import TIPPED, UPRIGHT
from .table import controller, name, stack_of

State = dict
Event = dict

FOLLOW_UP_FACES = ("SWAP", "DIG", "AIM", "WILD")

WHAT_IT_DOES = {
    "SWAP": "swap the top pyramids of two stacks",
    "DIG": "move one of your buried pyramids to the top of its stack",
    "AIM": "tip or stand up any one lone pyramid",
    "WILD": "make one more attack",
}


def swap_actions(state: State) -> list[dict]:
    """Every pair of stacks, named by their top pyramids (a lone pyramid is not a stack for SWAP)."""
    tops = [s[-1] for s in state["stacks"]]
    return [{"type": "swap", "stacks": [a, b]} for i, a in enumerate(tops) for b in tops[i + 1:]]


def dig_actions(state: State, seat: int) -> list[dict]:
    """The seat's pyramids buried in a stack (not on top)."""
    colour = state["players"][seat]["colour"]
    return [{"type": "dig", "pyramid": pid}
            for stack in state["stacks"] for pid in stack[:-1] if state["pyramids"][pid]["colour"] == colour]


def aim_actions(state: State) -> list[dict]:
    """Tip any lone upright pyramid or stand up any tipped one, of any colour."""
    return [{"type": "aim", "pyramid": pid, "tip": p["status"] == UPRIGHT}
            for pid, p in state["pyramids"].items() if p["status"] in (UPRIGHT, TIPPED)]


def follow_up_actions(state: State, seat: int, face: str) -> list[dict]:
    """The SWAP, DIG or AIM actions possible now (without "skip")."""
    if face == "SWAP":
        return swap_actions(state)
    if face == "DIG":
        return dig_actions(state, seat)
    if face == "AIM":
        return aim_actions(state)
    return []


def swap(state: State, action: dict) -> list[Event]:
    pair = action["stacks"]  # two pyramid ids (checked by Game.apply)
    tops = {s[-1]: s for s in state["stacks"]}
    if pair[0] == pair[1]:
        raise IllegalAction('SWAP names two different stacks by their top pyramids: "stacks": [id, id]')
    for pid in pair:
        if pid not in tops:
            raise IllegalAction(f"{pid!r} is not the top of a stack: SWAP names each stack by its top")
    first, second = tops[pair[0]], tops[pair[1]]
    first[-1], second[-1] = second[-1], first[-1]
    players = state["players"]
    text = (f"Swap {name(state, pair[0])} and {name(state, pair[1])}: each goes on top of the other's stack; "
            f"{players[controller(state, first)]['name']} and {players[controller(state, second)]['name']} "
            "control them now.")
    return [{"type": "swap", "text": text, "stacks": [list(first), list(second)]}]


def dig(state: State, seat: int, action: dict) -> list[Event]:
    pid = action["pyramid"]
    if {"type": "dig", "pyramid": pid} not in dig_actions(state, seat):
        raise IllegalAction(f"{pid!r} is not one of your pyramids buried in a stack: DIG lifts one of those")
    stack = stack_of(state, pid)
    assert stack is not None
    stack.remove(pid)
    stack.append(pid)
    who = state["players"][seat]["name"]
    text = f"Take {name(state, pid)} out of its stack and put it on top: {who} controls that stack now."
    return [{"type": "dig", "text": text, "pyramid": pid, "stack": list(stack)}]


def aim(state: State, action: dict) -> list[Event]:
    pid, tip = action["pyramid"], action["tip"]  # a pyramid id, true or false (checked by Game.apply)
    pyramid = state["pyramids"][pid]
    if pyramid["status"] not in (UPRIGHT, TIPPED):
        raise IllegalAction(f"{pid!r} is not a lone pyramid: AIM tips or stands up a lone pyramid")
    if tip != (pyramid["status"] == UPRIGHT):
        raise IllegalAction(f"{name(state, pid)} is already {pyramid['status']}")
    pyramid["status"] = TIPPED if tip else UPRIGHT
    text = (f"Tip {name(state, pid)}: it is out of play until its owner's next turn." if tip
            else f"Stand up {name(state, pid)}: it is back in play.")
    return [{"type": "aim", "text": text, "pyramid": pid, "tip": tip}]
