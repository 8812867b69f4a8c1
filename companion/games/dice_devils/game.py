"""`DiceDevils`: the Game for Dice Devils (rules in `shared/rules/dice-devils.md`, E1..E14).

State layout (plain JSON; seats are indices into `players`):

* `phase`: "draw_ranks" | "reveal" | "claim" | "fight" | "over"; `round` (1-based once ranks are drawn).
* `draw`: a pending hidden draw, chance's move: {"kind": "ranks" | "items" | "blind_pick", "reason", ...}.
* `roll`: a pending `RollRequest` (dice revealed in a fight), chance's move.
* `decision`: a pending player choice {"kind": "spielteufel" | "steal" | "give" | "exchange" | "swap",
  "player": seat, "text", ...}.
* `ranks` (this round, public), `next_ranks` (after this round's swaps), `devils` (ranks in play).
* `display` (face-up item types), `claims` (display index per seat), `supply` (face-down counts by type),
  `collections` (items per seat, private), `dice` (dice shown this round per seat, public).
* `fights` (this round's fights, public, in resolution order) and `fight` (index of the current one).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction

from ..base import CHANCE, Action, Event, Game, Options, State, about
from ..errors import BadOptions, IllegalAction
from ..shapes import ListOf, OneOf, Opt, Seat, Whole
from . import actions, fighting, hidden, rounds
from .items import ITEMS, full_supply, score, triples, value
from .odds import p_win
from .ranks import (
    ABILITIES,
    DEVILS_BY_PLAYERS,
    OBERTEUFEL,
    RANKS,
    SATANSBRATEN,
    SPRINGTEUFEL,
    TITLES,
    rank_number,
    reveal_count,
)
from .seats import seat_of, who


@dataclass(frozen=True)
class DiceDevilsOptions(Options):
    """Alternative rulings; defaults are the documented ones."""

    #: the variant selection of devils (rank names); None: the standard devils for the player count.
    devils: list[str] | None = field(default=None, metadata=about(
        "Devils", "Which ranks play, e.g. oberteufel, putzteufel, satansbraten (empty: the standard ones)."))
    #: variant "more fights": 2 items with 4 players, 3 with 6.
    more_fights: bool = field(default=False, metadata=about(
        "More fights", "Fight over 2 items each round with 4 players, 3 with 6."))
    #: E3: turn up N new items each round instead of topping the display up to N.
    reveal_n_new_each_round: bool = field(default=False, metadata=about(
        "Fresh items each round", "Turn up new items every round instead of topping the display up."))
    #: E8: collections are face-up: the Putzteufel sees what he takes, the Fehlerteufel what he steals.
    open_collections: bool = field(default=False, metadata=about(
        "Open collections",
        "Collected items lie face up: the Putzteufel and Fehlerteufel see what they take."))


class DiceDevils(Game):
    name = "dice-devils"
    title = "Dice Devils"
    options_type = DiceDevilsOptions
    min_players = 3
    max_players = 6
    action_shapes = {
        # chance's draws
        "draw_ranks": {"ranks": ListOf(OneOf(RANKS, "rank"), 1, len(RANKS))},
        "reveal": {"items": ListOf(OneOf(ITEMS, "item"))},
        "pick": {"item": OneOf(ITEMS, "item")},
        # claims and decisions
        "claim": {"item": Whole(0)},
        "force_reroll": {},
        "accept": {},
        "steal": {"from": Seat(), "item": Opt(OneOf(ITEMS, "item"))},
        "give": {"item": OneOf(ITEMS, "item")},
        "exchange": {"give": OneOf(ITEMS, "item"), "from": Seat(), "take": Opt(OneOf(ITEMS, "item"))},
        "swap": {"with": Seat()},
        "pass": {},
    }
    moves_pieces = frozenset({"swap", "ranks"})
    players_label = "Players (the ranks drawn set who plays when)"

    # ---- setup ----------------------------------------------------------------------------------------
    def new_game(self, players: list[str], options: dict | None = None) -> State:
        opts = DiceDevilsOptions.from_json(options)
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise BadOptions("players must be a list of names")
        if len(set(players)) != len(players):
            raise BadOptions("every player needs a different name")
        if not self.min_players <= len(players) <= self.max_players:
            raise BadOptions(f"Dice Devils is for 3 to 6 players, not {len(players)}")
        for flag in ("more_fights", "reveal_n_new_each_round", "open_collections"):
            if not isinstance(getattr(opts, flag), bool):
                raise BadOptions(f"option {flag} is true or false")
        devils = _devils(opts.devils, len(players))
        return {
            "game": self.name,
            "players": list(players),
            "options": {**opts.to_json(), "devils": list(devils)},
            "devils": list(devils),
            "reveal_n": reveal_count(len(players), opts.more_fights),
            "version": 0,
            "round": 0,
            "phase": "draw_ranks",
            "draw": {
                "kind": "ranks",
                "reason": "Shuffle the grab tiles face down; each player draws one and enters the rank drawn",
            },
            "roll": None,
            "decision": None,
            "ranks": [None] * len(players),
            "next_ranks": [None] * len(players),
            "supply": full_supply(),
            "display": [],
            "claims": [None] * len(players),
            "collections": [[] for _ in players],
            "dice": [None] * len(players),
            "fights": [],
            "fight": None,
            "end_reason": None,
        }

    # ---- whose move -----------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def current_player(self, state: State) -> int | None:
        if self.is_over(state):
            return None
        if state["roll"] or state["draw"]:
            return CHANCE
        if state["decision"]:
            return state["decision"]["player"]
        return rounds.next_claimer(state)

    def legal_actions(self, state: State) -> list[Action]:
        """Every action allowed now; for a roll every outcome (at most 124,416: 3 yellow, 2 black, 2 grey)."""
        if self.is_over(state):
            return []
        request = self.roll_request(state)
        if request is not None:
            return [{"type": "roll", "values": v} for v in request.outcomes()]
        if state["draw"]:
            return actions.draw_actions(state)
        if state["decision"]:
            return actions.decision_actions(state)
        return [{"type": "claim", "item": i} for i in range(len(state["display"]))]

    # ---- applying -------------------------------------------------------------------------------------
    def _apply(self, state: State, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action["type"]
        if kind == "roll":
            if not state["roll"]:
                raise IllegalAction("no dice are waiting to be read now")
            fighting.on_roll(state, action["values"], events)
        elif state["draw"]:
            actions.apply_draw(state, action, events)
        elif state["decision"]:
            actions.apply_decision(state, action, events)
        elif kind == "claim":
            index = action["item"]
            if index >= len(state["display"]):
                raise IllegalAction(
                    f"claim an item on display by its number, 0 to {len(state['display']) - 1}"
                )
            rounds.claim(state, rounds.next_claimer(state), index, events)
        else:
            raise IllegalAction(f"{who(state, rounds.next_claimer(state))} must claim an item now")
        return events

    def fight_odds(self, state: State) -> dict[int, Fraction] | None:
        """Each fighter's exact chance (by seat) in the current fight, before or during its first reveal.

        Public: uses only dice already shown. None outside a fight's first reveal (re-rolls change who
        compares, which `odds.p_win` does not model).
        """
        if state["phase"] != "fight" or state["fight"] is None:
            return None
        fight = fighting.current(state)
        if fight["step"] != "reveal":
            return None
        ranks = state["ranks"]
        shown = [s for s in fight["fighters"] if state["dice"][s] is not None]
        ober = seat_of(state, OBERTEUFEL)
        feeds = seat_of(state, SATANSBRATEN) in fight["fighters"]
        if feeds and ober not in shown and state["dice"][ober] is not None:
            shown.append(ober)
        known = {ranks[s]: list(state["dice"][s]) for s in shown}
        chances = p_win([ranks[s] for s in fight["fighters"]], known)
        return {s: chances[ranks[s]] for s in fight["fighters"]}

    # ---- what each player sees ------------------------------------------------------------------------
    def redact(self, state: State, action: Action, player: int | None) -> Action:
        """A secret item (a given value-1 item, the Putzteufel's own item, a blind pick) for those who
        may know it only; see `hidden`."""
        return hidden.redact(state, action, player)

    def chance_seats(self, state: State) -> list[int] | None:
        """The fighters revealing dice; for a blind pick the Putzteufel and the loser; None for the public
        draws (the rank draw, the items turned face up)."""
        pick = hidden.blind_pick(state)
        if pick is not None:
            return [pick["player"], pick["from"]]
        return super().chance_seats(state)

    def secret_chance(self, state: State) -> bool:
        return hidden.blind_pick(state) is not None

    def view(self, state: State, player: int | None) -> State:
        """Own collection only (all if open_collections); the supply only as a count; ranks are public.

        Ranks are public once drawn: each player takes the matching standee, cup and dice openly, and
        claims go in rank order for all to see.
        """
        out = copy.deepcopy(state)
        out["collection_sizes"] = [len(c) for c in state["collections"]]
        out["supply_count"] = sum(state["supply"].values())
        # which types can still be turned up (the reveal is entered by tapping them), not how many
        out["supply_types"] = sorted(t for t, n in state["supply"].items() if n)
        if not state["options"]["open_collections"]:
            out["collections"] = [
                list(c) if seat == player else None for seat, c in enumerate(state["collections"])
            ]
            out["supply"] = None
            draw = out.get("draw")
            if draw and draw["kind"] == "blind_pick" and player not in (draw["player"], draw["from"]):
                draw.pop("give", None)
        if player is not None and state["ranks"][player]:
            rank = state["ranks"][player]
            mine = state["collections"][player]
            out["you"] = {
                "seat": player,
                "name": state["players"][player],
                "rank": rank,
                "title": TITLES[rank],
                "ability": ABILITIES[rank],
                "next_rank": state["next_ranks"][player],
                "collection": list(mine),
                "points": score(mine),
            }
        return out

    def dice_colours(self, state: State) -> list[str]:
        """The Oberteufel's yellow d6s and the other devils' black ones (the grey dice are a kind apart)."""
        return ["yellow", "black"]

    def summary(self, state: State) -> dict:
        """Scores (values + 3 per triple), triples per player and the winner after the tie-breaks (4.6).

        Reveals every collection: the table shows it once the game is over. Tie-breaks use the ranks
        held at the end, swaps of the last round included (the standees have changed hands).
        """
        rows = []
        for seat, name in enumerate(state["players"]):
            items = state["collections"][seat]
            rows.append(
                {
                    "player": name,
                    "rank": state["ranks"][seat],
                    "items": len(items),
                    "values": sum(value(i) for i in items),
                    "triples": triples(items),
                    "score": score(items),
                }
            )
        best = max(r["score"] for r in rows)
        tied = [r for r in rows if r["score"] == best]
        tie_break = None
        if len(tied) > 1:
            spring = [r for r in tied if r["rank"] == SPRINGTEUFEL]
            tie_break = "springteufel" if spring else "highest rank"
            tied = spring or sorted(tied, key=lambda r: rank_number(r["rank"]) if r["rank"] else 99)[:1]
        return {
            "over": self.is_over(state),
            "scores": {r["player"]: r["score"] for r in rows},
            "triples": {r["player"]: r["triples"] for r in rows},
            "players": rows,
            "winners": [r["player"] for r in tied],
            "tie_break": tie_break,
        }


# ---- helpers ----------------------------------------------------------------------------------------------
def _devils(selection: list[str] | None, players: int) -> tuple[str, ...]:
    """The ranks in play, in rank order: the standard set, or a checked variant selection."""
    if selection is None:
        return DEVILS_BY_PLAYERS[players]
    if not isinstance(selection, list) or not all(isinstance(r, str) for r in selection):
        raise BadOptions(
            'option devils is a list of ranks, e.g. ["oberteufel", "putzteufel", "springteufel"]'
        )
    unknown = [r for r in selection if r not in RANKS]
    if unknown:
        raise BadOptions(f"unknown devil {unknown[0]!r}; ranks: {', '.join(RANKS)}")
    if len(set(selection)) != len(selection):
        raise BadOptions("each devil can be chosen only once")
    if len(selection) != players:
        raise BadOptions(f"choose one devil per player: {players} devils, not {len(selection)}")
    if SATANSBRATEN in selection and OBERTEUFEL not in selection:
        raise BadOptions(
            "the Satansbraten needs the Oberteufel in play (his total uses the Oberteufel's lowest die)"
        )
    return tuple(r for r in RANKS if r in selection)
