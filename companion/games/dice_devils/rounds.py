"""The round: reveal, claims in rank order, uncontested pickups, then the fights (rules 4.3, E3, E10, E11).

Every function here changes the private copy of the state it is given and appends events; the fight
procedure itself is in `fighting.py`. Chance (the rank draw, the items turned face up) is asked for in
`state["draw"]` and arrives as an action.
"""

from __future__ import annotations

from ..base import Event, State
from .fighting import start_fight
from .items import NAMES
from .ranks import SATANSBRATEN, TITLES, rank_number
from .seats import by_rank, seat_of, who

#: The game ends after the round in which a devil holds this many items (E11).
ITEMS_TO_END = 10


def claim_order(state: State) -> list[int]:
    """Seats in the order they claim: rank 1 first."""
    return by_rank(state, list(range(len(state["players"]))))


def next_claimer(state: State) -> int | None:
    """The seat that must claim now, or None when everyone has."""
    for seat in claim_order(state):
        if state["claims"][seat] is None:
            return seat
    return None


def start_round(state: State, events: list[Event]) -> None:
    """New round: reset claims and dice, then ask for the items to turn face up (or end the game)."""
    state["round"] += 1
    seats = len(state["players"])
    state.update(claims=[None] * seats, dice=[None] * seats, fights=[], fight=None, decision=None)
    wanted = state["reveal_n"]
    if not state["options"]["reveal_n_new_each_round"]:
        wanted = max(0, wanted - len(state["display"]))
    count = min(wanted, sum(state["supply"].values()))
    events.append({"type": "round", "round": state["round"], "text": f"Round {state['round']} begins."})
    if count:
        satan = seat_of(state, SATANSBRATEN)
        turner = f"{who(state, satan)}: turn" if satan is not None else "Turn"  # he reveals (4.3 A)
        plural = "s" if count > 1 else ""
        state["phase"] = "reveal"
        state["draw"] = {
            "kind": "items",
            "count": count,
            "reason": f"{turner} {count} item{plural} face up from the supply, then enter them",
        }
    elif not state["display"]:
        end_game(state, events, "The supply and the display are empty.")
    else:
        state["phase"] = "claim"
        events.append({"type": "supply_empty", "text": "The supply is empty: claim the items on display."})


def reveal(state: State, items: list[str], events: list[Event]) -> None:
    """The items turned face up join the display; claiming starts."""
    for item in items:
        state["supply"][item] -= 1
    state["display"].extend(items)
    state["draw"] = None
    state["phase"] = "claim"
    shown = ", ".join(NAMES[i] for i in items)
    events.append({"type": "reveal", "items": items, "text": f"Turned face up: {shown}."})


def claim(state: State, seat: int, index: int, events: list[Event]) -> None:
    """`seat` puts its grab tile by display item `index`; after the last claim the round resolves."""
    state["claims"][seat] = index
    item = NAMES[state["display"][index]]
    events.append(
        {
            "type": "claim",
            "seat": seat,
            "index": index,
            "text": f"{who(state, seat)} claims the {item} (item {index + 1}).",
        }
    )
    if next_claimer(state) is None:
        resolve_claims(state, events)


def resolve_claims(state: State, events: list[Event]) -> None:
    """Sole claimants take their item at once; unclaimed items stay; contested ones become fights (E6)."""
    claimants: dict[int, list[int]] = {}
    for seat in claim_order(state):
        claimants.setdefault(state["claims"][seat], []).append(seat)
    fights = []
    for index, seats in sorted(claimants.items()):
        item = state["display"][index]
        if len(seats) == 1:
            state["collections"][seats[0]].append(item)
            events.append(
                {
                    "type": "take",
                    "seat": seats[0],
                    "item": item,
                    "text": f"{who(state, seats[0])} takes the {NAMES[item]} unopposed.",
                }
            )
        else:
            fights.append(new_fight(item, index, seats))
    fights.sort(key=lambda f: rank_number(state["ranks"][f["fighters"][0]]))
    state["display"] = [item for i, item in enumerate(state["display"]) if i not in claimants]
    state["fights"] = fights
    state["phase"] = "fight"
    if fights:
        state["fight"] = 0
        start_fight(state, events)
    else:
        end_round(state, events)


def new_fight(item: str, index: int, fighters: list[int]) -> dict:
    """A fight record: public, shown on every phone."""
    return {
        "item": item,
        "index": index,
        "fighters": fighters,
        "contenders": list(fighters),
        "totals": [None] * len(fighters),
        "step": "reveal",
        "queue": [],
        "spielteufel_forced": None,
        "rerolls": 0,
        "winner": None,
        "losers": [],
    }


def end_round(state: State, events: list[Event]) -> None:
    """Rank swaps take effect; the game ends if someone holds 10 items (E11), else a new round."""
    if state["ranks"] != state["next_ranks"]:
        state["ranks"] = list(state["next_ranks"])
        listing = ", ".join(
            f"{TITLES[r]}: {state['players'][s]}"
            for s, r in sorted(enumerate(state["ranks"]), key=lambda sr: rank_number(sr[1]))
        )
        events.append({"type": "ranks", "ranks": list(state["ranks"]), "text": f"New ranks: {listing}."})
    state.update(fight=None, decision=None)
    leaders = [s for s, c in enumerate(state["collections"]) if len(c) >= ITEMS_TO_END]
    if leaders:
        holders = ", ".join(state["players"][s] for s in leaders)
        verb = "holds" if len(leaders) == 1 else "hold"
        end_game(state, events, f"{holders} {verb} {ITEMS_TO_END} or more items.")
    else:
        start_round(state, events)


def end_game(state: State, events: list[Event], why: str) -> None:
    state.update(phase="over", draw=None, roll=None, decision=None, fight=None, end_reason=why)
    events.append({"type": "over", "text": f"Game over. {why} Reveal your items for the final count."})
