"""The chance draws and player decisions of Dice Devils: what is legal now and how each one applies.

Draws are chance's moves ("draw_ranks", "reveal", "pick"); decisions belong to `state["decision"]["player"]`
("force_reroll"/"accept", "steal", "give", "exchange", "swap", "pass").
"""

from __future__ import annotations

import itertools

from ..base import Action, Event, State
from ..errors import IllegalAction
from . import fighting, rounds
from .items import ITEMS, NAMES
from .ranks import TITLES
from .seats import ones, who


def draw_actions(state: State) -> list[Action]:
    """Every outcome of the pending draw: rank assignments, item multisets in the supply, or item types."""
    draw = state["draw"]
    if draw["kind"] == "ranks":
        return [{"type": "draw_ranks", "ranks": list(p)} for p in itertools.permutations(state["devils"])]
    if draw["kind"] == "items":
        stock = [t for t in ITEMS if state["supply"][t]]
        return [
            {"type": "reveal", "items": list(combo)}
            for combo in itertools.combinations_with_replacement(stock, draw["count"])
            if all(combo.count(t) <= state["supply"][t] for t in set(combo))
        ]
    return [{"type": "pick", "item": t} for t in dict.fromkeys(state["collections"][draw["from"]])]


def apply_draw(state: State, action: Action, events: list[Event]) -> None:
    """Check the draw's outcome against what is possible (a permutation, the supply, the loser's pile)."""
    draw = state["draw"]
    kind = action["type"]
    if draw["kind"] == "ranks":
        if kind != "draw_ranks":
            raise IllegalAction(f"waiting for the rank draw: {draw['reason']}")
        ranks = action["ranks"]
        if sorted(ranks) != sorted(state["devils"]) or len(ranks) != len(state["players"]):
            raise IllegalAction(f"give each player, in seat order, one of: {', '.join(state['devils'])}")
        state["ranks"], state["next_ranks"], state["draw"] = list(ranks), list(ranks), None
        listing = ", ".join(f"{state['players'][s]} is {TITLES[r]}" for s, r in enumerate(ranks))
        events.append({"type": "ranks", "ranks": list(ranks), "text": f"Ranks drawn: {listing}."})
        rounds.start_round(state, events)
    elif draw["kind"] == "items":
        if kind != "reveal":
            raise IllegalAction(f"waiting for the items turned face up: {draw['reason']}")
        items = action["items"]
        if len(items) != draw["count"]:
            raise IllegalAction(f"enter exactly {draw['count']} item(s) turned face up")
        for item in items:
            if items.count(item) > state["supply"][item]:
                raise IllegalAction(f"only {state['supply'][item]} {NAMES[item]} tile(s) remain face down")
        rounds.reveal(state, list(items), events)
    else:
        if kind != "pick":
            raise IllegalAction(f"waiting for the blind pick: {draw['reason']}")
        item = action["item"]
        if item not in state["collections"][draw["from"]]:
            # The same words whatever the pile holds: a refusal must not tell what is in it.
            raise IllegalAction(
                f"enter the tile {who(state, draw['player'])} drew from {who(state, draw['from'])}'s pile, "
                "as you both see it"
            )
        state["draw"] = None
        fighting.exchange(state, draw["from"], draw["give"], item, events)


def decision_actions(state: State) -> list[Action]:
    """The choices of the player to decide; hidden collections: no item the chooser cannot see."""
    decision = state["decision"]
    kind = decision["kind"]
    cols = state["collections"]
    open_cols = state["options"]["open_collections"]
    winner = decision["player"]
    if kind == "spielteufel":
        return [{"type": "force_reroll"}, {"type": "accept"}]
    if kind == "give":
        return [{"type": "give", "item": t} for t in ones(cols[decision["player"]])]
    if kind == "steal":
        if open_cols:
            acts = [
                {"type": "steal", "from": s, "item": t} for s in decision["losers"] for t in ones(cols[s])
            ]
        else:
            acts = [{"type": "steal", "from": s} for s in decision["losers"]]
        return acts + [{"type": "pass"}]
    if kind == "exchange":
        acts = []
        for mine in dict.fromkeys(cols[winner]):
            for s in decision["losers"]:
                if open_cols:
                    acts += [
                        {"type": "exchange", "give": mine, "from": s, "take": t}
                        for t in dict.fromkeys(cols[s])
                    ]
                else:
                    acts.append({"type": "exchange", "give": mine, "from": s})
        return acts + [{"type": "pass"}]
    return [{"type": "swap", "with": s} for s in decision["losers"]] + [{"type": "pass"}]


def apply_decision(state: State, action: Action, events: list[Event]) -> None:
    """Apply a choice that is exactly one of `decision_actions` (its shape, exact types included, was
    checked by `Game.apply`: 0.0 and true are no seats there, though they compare equal to 0 and 1)."""
    decision = state["decision"]
    if action not in decision_actions(state):
        raise IllegalAction(_why_not(state, action))
    kind = action["type"]
    if kind in ("force_reroll", "accept"):
        fighting.spielteufel(state, kind == "force_reroll", events)
    elif kind == "steal":
        fighting.steal(state, action["from"], action.get("item"), events)
    elif kind == "give":
        fighting.give(state, decision["player"], action["item"], events)
    elif kind == "exchange":
        fighting.exchange(state, action["from"], action["give"], action.get("take"), events)
    elif kind == "pass" and decision["kind"] in ("steal", "exchange"):
        events.append(
            {
                "type": "pass",
                "seat": decision["player"],
                "text": f"{who(state, decision['player'])} does not use the ability.",
            }
        )
        fighting.offer_swap(state)
    elif not fighting.swap(state, action.get("with"), events):
        rounds.end_round(state, events)


def _why_not(state: State, action: Action) -> str:
    """A sentence saying what is expected instead of `action`."""
    decision = state["decision"]
    name = who(state, decision["player"])
    expected = {
        "spielteufel": "force a re-roll (force_reroll) or accept the dice (accept)",
        "steal": "steal from one of the losers of this fight, or pass",
        "give": "give one of your value-1 items",
        "exchange": "exchange one of your items with a loser of this fight, or pass",
        "swap": "swap rank with one of the losers of this fight, or pass",
    }[decision["kind"]]
    return f"{action.get('type')!r} is not possible now: {name} must {expected}"
