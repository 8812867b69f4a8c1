"""What each seat may know of a Dice Devils action, and who may enter a hidden draw (ruling E8).

Collections are hidden (unless `open_collections`), so three actions carry secrets:

* the Fehlerteufel's victim's `give`: which value-1 item, the victim's choice from a hidden collection;
* the Putzteufel's `exchange`: which of his own items he gives;
* the blind `pick`: the item he draws from the loser's pile, seen by the two of them only.

A decision's item is the decider's alone (so a phone deciding for a seat nobody took never sees that
seat's items among its choices); the blind pick is known to the Putzteufel and the loser, and only they
may enter it.
"""

from __future__ import annotations

from ..base import Action, State

#: action type -> the fields that name an item from a hidden collection.
SECRET_FIELDS = {"give": ("item",), "exchange": ("give", "take"), "pick": ("item",)}


def knowers(state: State, action: Action) -> list[int]:
    """The seats that may know `action`'s secret fields, applied to `state`."""
    if action.get("type") == "pick":
        draw = state.get("draw") or {}
        return [s for s in (draw.get("player"), draw.get("from")) if isinstance(s, int)]
    decision = state.get("decision") or {}
    return [decision["player"]] if isinstance(decision.get("player"), int) else []


def redact(state: State, action: Action, player: int | None) -> Action:
    """`action` without its secret fields unless `player` may know them (see the module's docstring)."""
    hidden = SECRET_FIELDS.get(action.get("type"), ())
    if state["options"].get("open_collections") or not any(f in action for f in hidden):
        return action
    if player is not None and player in knowers(state, action):
        return action
    return {k: v for k, v in action.items() if k not in hidden}


def blind_pick(state: State) -> dict | None:
    """The pending blind pick, if the outcome due is one."""
    draw = state.get("draw")
    return draw if draw and draw.get("kind") == "blind_pick" else None
