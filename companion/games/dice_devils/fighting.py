"""One dice fight on the state: reveals, the Spielteufel's re-roll, ties, the winner's abilities, the swap.

A fight record (in `state["fights"]`, the current one at `state["fight"]`) is public. Its `step` says
where it is: "reveal", "spielteufel" (his decision), "force" or "tie" (re-rolls), "ability" (the
Fehlerteufel's steal or the Putzteufel's exchange), "swap" (the winner's rank swap), "done".

Dice under the cups are secret until a fight, so a roll is asked for when the dice are revealed. Each
roll asks for at most one devil per dice colour (yellow, black, grey) so the camera can tell whose
dice are whose: "Oberteufel (Alice), Spielteufel (Bob) and Satansbraten (Carol)", then
"Fehlerteufel (Dan)".
"""

from __future__ import annotations

from ..base import Event, State
from ..dice import RollRequest
from .fights import outcome, total
from .items import NAMES
from .ranks import FEHLERTEUFEL, OBERTEUFEL, PUTZTEUFEL, SATANSBRATEN, SPIELTEUFEL, dice_of
from .seats import by_rank, names, ones, seat_of, who


def current(state: State) -> dict:
    return state["fights"][state["fight"]]


def start_fight(state: State, events: list[Event]) -> None:
    """Announce the fight and ask its devils (and the Oberteufel, if the Satansbraten needs him) to reveal."""
    fight = current(state)
    seats = list(fight["fighters"])
    ober = seat_of(state, OBERTEUFEL)
    satan = seat_of(state, SATANSBRATEN)
    if satan in seats and ober not in seats and state["dice"][ober] is None:
        seats = by_rank(state, seats + [ober])
    fight.update(step="reveal", queue=colour_groups(state, seats))
    events.append(
        {
            "type": "fight",
            "item": fight["item"],
            "fighters": fight["fighters"],
            "text": f"Fight over the {NAMES[fight['item']]}: {names(state, fight['fighters'])}.",
        }
    )
    ask_roll(state)


def colour_groups(state: State, seats: list[int]) -> list[list[int]]:
    """Split the devils who must show dice into rolls with at most one devil per dice colour."""
    ranks = state["ranks"]
    black = [s for s in by_rank(state, seats) if ranks[s] not in (OBERTEUFEL, SATANSBRATEN)]
    first = [s for s in seats if ranks[s] in (OBERTEUFEL, SATANSBRATEN)] + black[:1]
    groups = [by_rank(state, first)] + [[s] for s in black[1:]]
    return [g for g in groups if g]


def ask_roll(state: State) -> None:
    """Put the next group of the queue in `state["roll"]`, with the words every phone shows."""
    fight = current(state)
    group = fight["queue"][0]
    dice = tuple(d for seat in group for d in dice_of(state["ranks"][seat]))
    verb = {
        "reveal": "roll under your cups, then reveal your dice",
        "force": "re-roll all your dice (forced by the Spielteufel)",
        "tie": "re-roll all your dice (tie)",
    }[fight["step"]]
    request = RollRequest(
        player=group[0] if len(group) == 1 else None,
        dice=dice,
        reason=f"{names(state, group)}: {verb}",
        tag=f"dice-devils:{fight['step']}",
        extra={"seats": group, "counts": [len(dice_of(state["ranks"][s])) for s in group]},
    )
    state["roll"] = request.to_json()


def ober_low(state: State) -> int | None:
    """The lowest die of this round's Oberteufel, once shown."""
    ober = seat_of(state, OBERTEUFEL)
    dice = state["dice"][ober] if ober is not None else None
    return min(dice) if dice else None


def update_totals(state: State) -> None:
    fight = current(state)
    low = ober_low(state)
    for i, seat in enumerate(fight["fighters"]):
        dice = state["dice"][seat]
        rank = state["ranks"][seat]
        ready = dice is not None and (rank != SATANSBRATEN or low is not None)
        fight["totals"][i] = total(rank, dice, low) if ready else None


def on_roll(state: State, values: list[int], events: list[Event]) -> None:
    """Record the shown dice; when the queue is empty, continue the fight."""
    fight = current(state)
    request = state["roll"]
    at = 0
    for seat, count in zip(request["extra"]["seats"], request["extra"]["counts"], strict=True):
        state["dice"][seat] = list(values[at : at + count])
        at += count
    state["roll"] = None
    update_totals(state)
    for seat in request["extra"]["seats"]:
        shown = ", ".join(str(v) for v in state["dice"][seat])
        text = f"{who(state, seat)} shows {shown}"
        if seat in fight["fighters"] and fight["totals"][fight["fighters"].index(seat)] is not None:
            text += f": total {fight['totals'][fight['fighters'].index(seat)]}"
        events.append({"type": "dice", "seat": seat, "dice": state["dice"][seat], "text": text + "."})
    fight["queue"].pop(0)
    if fight["queue"]:
        ask_roll(state)
    elif fight["step"] == "reveal" and seat_of(state, SPIELTEUFEL) in fight["fighters"]:
        spiel = seat_of(state, SPIELTEUFEL)
        fight["step"] = "spielteufel"
        state["decision"] = {
            "kind": "spielteufel",
            "player": spiel,
            "text": f"{who(state, spiel)}: force all your opponents to re-roll, or accept?",
        }
    else:
        settle(state, events)


def spielteufel(state: State, force: bool, events: list[Event]) -> None:
    """The Spielteufel's once-per-fight choice: all his opponents re-roll all their dice, or not."""
    fight = current(state)
    spiel = seat_of(state, SPIELTEUFEL)
    state["decision"] = None
    fight["spielteufel_forced"] = force
    if not force:
        events.append({"type": "accept", "seat": spiel, "text": f"{who(state, spiel)} accepts the dice."})
        settle(state, events)
        return
    opponents = [s for s in fight["fighters"] if s != spiel]
    fight.update(step="force", contenders=list(fight["fighters"]), queue=colour_groups(state, opponents))
    events.append(
        {
            "type": "force_reroll",
            "seat": spiel,
            "text": f"{who(state, spiel)} forces {names(state, opponents)} to re-roll.",
        }
    )
    ask_roll(state)


def settle(state: State, events: list[Event]) -> None:
    """Highest total wins; the Springteufel wins ties he is in; other ties re-roll among the tied."""
    fight = current(state)
    totals = {state["ranks"][s]: fight["totals"][fight["fighters"].index(s)] for s in fight["contenders"]}
    winner, tied = outcome(totals)
    if winner is not None:
        if len([t for t in totals.values() if t == max(totals.values())]) > 1:
            events.append(
                {"type": "tie", "text": f"Tie at {max(totals.values())}: the Springteufel wins ties."}
            )
        win(state, seat_of(state, winner), events)
        return
    seats = by_rank(state, [seat_of(state, r) for r in tied])
    fight.update(
        step="tie", contenders=seats, queue=colour_groups(state, seats), rerolls=fight["rerolls"] + 1
    )
    events.append(
        {
            "type": "tie",
            "seats": seats,
            "text": f"Tie at {max(totals.values())}: {names(state, seats)} re-roll.",
        }
    )
    ask_roll(state)


def win(state: State, seat: int, events: list[Event]) -> None:
    """The winner takes the item, then may use the Fehlerteufel's or Putzteufel's ability, then swap."""
    fight = current(state)
    fight["winner"] = seat
    fight["losers"] = [s for s in fight["fighters"] if s != seat]
    state["collections"][seat].append(fight["item"])
    events.append(
        {
            "type": "win",
            "seat": seat,
            "item": fight["item"],
            "text": f"{who(state, seat)} wins the {NAMES[fight['item']]}.",
        }
    )
    rank = state["ranks"][seat]
    robbable = [s for s in fight["losers"] if state["collections"][s]]
    if rank in (FEHLERTEUFEL, PUTZTEUFEL) and robbable:
        kind = "steal" if rank == FEHLERTEUFEL else "exchange"
        fight["step"] = "ability"
        verb = "steal a value-1 item from" if kind == "steal" else "exchange one of your items with"
        state["decision"] = {
            "kind": kind,
            "player": seat,
            "losers": robbable,
            "text": f"{who(state, seat)}: {verb} {names(state, robbable)} (one of them), or pass?",
        }
    else:
        offer_swap(state)


def offer_swap(state: State) -> None:
    fight = current(state)
    seat = fight["winner"]
    fight["step"] = "swap"
    state["draw"] = None
    state["decision"] = {
        "kind": "swap",
        "player": seat,
        "losers": list(fight["losers"]),
        "text": f"{who(state, seat)}: swap rank with {names(state, fight['losers'])} "
        "(one of them, from next round), or keep your rank?",
    }


def steal(state: State, victim: int, item: str | None, events: list[Event]) -> None:
    """Fehlerteufel: take a value-1 item from `victim`, who chooses which unless collections are open."""
    thief = current(state)["winner"]
    choices = ones(state["collections"][victim])
    if not choices:
        events.append(
            {
                "type": "steal",
                "seat": thief,
                "victim": victim,
                "item": None,
                "text": f"{who(state, thief)} tries to steal from {who(state, victim)}, "
                "who has no value-1 item.",
            }
        )
        offer_swap(state)
    elif item is None and len(choices) > 1:
        state["decision"] = {
            "kind": "give",
            "player": victim,
            "thief": thief,
            "text": f"{who(state, victim)}: give the Fehlerteufel one of your value-1 items.",
        }
    else:
        give(state, victim, item or choices[0], events)


def give(state: State, victim: int, item: str, events: list[Event]) -> None:
    """A value-1 item passes from the victim to the Fehlerteufel."""
    thief = current(state)["winner"]
    state["collections"][victim].remove(item)
    state["collections"][thief].append(item)
    shown = NAMES[item] if state["options"]["open_collections"] else "a value-1 item"
    events.append(
        {
            "type": "steal",
            "seat": thief,
            "victim": victim,
            "item": item,
            "visible_to": [thief, victim],
            "text": f"{who(state, thief)} steals {shown} from {who(state, victim)}.",
        }
    )
    offer_swap(state)


def exchange(state: State, other: int, mine: str, theirs: str | None, events: list[Event]) -> None:
    """Putzteufel: give `mine`, take `theirs`; hidden collections: a blind pick from `other`'s pile first."""
    putz = current(state)["winner"]
    if theirs is None:
        state["decision"] = None
        state["draw"] = {
            "kind": "blind_pick",
            "player": putz,
            "from": other,
            "give": mine,
            "count": len(state["collections"][other]),
            "reason": f"{who(state, putz)}: draw one item blind from {who(state, other)}'s pile and enter it",
        }
        return
    state["collections"][other].remove(theirs)
    state["collections"][putz].remove(mine)
    state["collections"][putz].append(theirs)
    state["collections"][other].append(mine)
    if state["options"]["open_collections"]:
        text = f"{who(state, putz)} exchanges their {NAMES[mine]} for {who(state, other)}'s {NAMES[theirs]}."
    else:
        text = (
            f"{who(state, putz)} exchanges one of their items for one of {who(state, other)}'s, picked blind."
        )
    events.append(
        {
            "type": "exchange",
            "seat": putz,
            "other": other,
            "gave": mine,
            "took": theirs,
            "visible_to": [putz, other],
            "text": text,
        }
    )
    offer_swap(state)


def swap(state: State, other: int | None, events: list[Event]) -> bool:
    """The winner's rank swap (from next round, E5); returns True while fights remain this round."""
    seat = current(state)["winner"]
    if other is not None:
        nxt = state["next_ranks"]
        nxt[seat], nxt[other] = nxt[other], nxt[seat]
        events.append(
            {
                "type": "swap",
                "seat": seat,
                "other": other,
                "text": f"{who(state, seat)} swaps rank with {who(state, other)} from next round: "
                        "swap standee, cup and dice before it begins.",
            }
        )
    current(state)["step"] = "done"
    state["decision"] = None
    if state["fight"] + 1 < len(state["fights"]):
        state["fight"] += 1
        start_fight(state, events)
        return True
    return False
