"""The Battle Zone engine: turns of three dice, the five actions, the powers' steps, exits and victory.

State (plain JSON):
    players     the two names; seat 0's starting line is rank 1, seat 1's rank 8; seat 0 starts
    colours     the colours of die faces 1-5 (options.COLOUR_SETS)
    board       square -> {"colour", "size", "controller"} for every pyramid on the board (board.py)
    supply      colour -> [smalls, mediums, larges] beside the board (supply.py)
    exited      per seat, the pyramids it moved off past the opponent's line: [{"colour", "size"}]
    phase       "roll" | "act" | "over"; active: the seat whose turn it is; turn: turns started
    roll        the RollRequest the game waits for (three d6), or None
    dice        this turn's dice: [{"value": 1-6, "used": bool}]
    pending     a power waiting for the player's steps (powers.py), or None
    quiet_turns turns ended in a row without an exit (a draw is offered from options.stall_turns)
    winner      the winning seat once over by victory; draw: true when ended by agreement
    recent      the last events, newest last
"""

from __future__ import annotations

import copy
from typing import ClassVar

from ..base import CHANCE, Action, Event, Game, State
from ..dice import D6, DieRequest, RollRequest
from ..errors import BadOptions, IllegalAction
from ..shapes import OneOf, Opt, Whole
from . import actions, correction, odds, powers, supply
from .board import DIRECTIONS, SQUARES, describe, path, reading
from .options import COLOUR_SETS, BattleZoneOptions

RECENT_EVENTS = 20
TURN_TAG = "turn"
POWER_STEPS = ("transport", "put", "stop", "grow")
COLOURS_TO_WIN = 5

_DIE = {"die": Whole(0, 2), "colour": Opt(OneOf(lambda state: state["colours"], "colour")),
        "square": OneOf(SQUARES, "square")}
_SQUARE = {"square": OneOf(SQUARES, "square")}


class BattleZone(Game):
    """Jason Troutman's Battle Zone (2001) with the rulings of rules/battle-zone.md."""

    name = "battle-zone"
    title = "Battle Zone"
    options_type = BattleZoneOptions
    min_players = 2
    max_players = 2
    action_shapes = {  # see base.py; the rules still check what depends on the state (actions.normalise)
        "place": _DIE, "take": _DIE, "upgrade": _DIE, "activate": _DIE,
        "move": {**_DIE, "direction": OneOf(tuple(DIRECTIONS), "direction")},
        "transport": _SQUARE, "put": _SQUARE, "grow": _SQUARE, "stop": {}, "end": {}, "draw": {},
    }
    moves_pieces = frozenset({"place", "take", "upgrade", "activate", "move", "exit", "destroy", "control",
                              "upgrade_removed", "freeze", "transport", "correct"})
    #: Actions any seated player may send at any moment, whoever is to move (the table's tools).
    table_actions: ClassVar[tuple[str, ...]] = (correction.CORRECT,)

    # ---- the shared vocabulary ---------------------------------------------------------------------
    def new_game(self, players: list[str], options: dict | None = None) -> State:
        opts = BattleZoneOptions.from_json(options)
        opts.check()
        if not isinstance(players, list) or len(players) != 2:
            raise BadOptions("Battle Zone is for exactly 2 players")
        if not all(isinstance(p, str) and p.strip() for p in players) or len(set(players)) != 2:
            raise BadOptions("each player needs a different, non-empty name")
        colours = COLOUR_SETS[opts.colours]
        state = {
            "game": self.name, "version": 0, "options": opts.to_json(), "players": list(players),
            "colours": list(colours), "board": {}, "supply": supply.new_supply(colours), "exited": [[], []],
            "phase": "roll", "active": 0, "turn": 1, "roll": None, "dice": [], "pending": None,
            "quiet_turns": 0, "exited_this_turn": False, "winner": None, "draw": False, "recent": [],
        }
        state["roll"] = _roll_request(state).to_json()
        return state

    def current_player(self, state: State) -> int | None:
        if state["phase"] == "over":
            return None
        return CHANCE if state["roll"] else state["active"]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: State) -> list[Action]:
        """Every distinct legal action: for each unused die its actions (actions.py), or a power's next
        steps (powers.py); `end` declines the dice left, `draw` ends a stalled game."""
        if state["phase"] == "over":
            return []
        request = self.roll_request(state)
        if request is not None:
            return [{"type": "roll", "values": values} for values in request.outcomes()]
        pending = state["pending"]
        if pending is not None:
            if pending["power"] == "transport":
                return powers.transport_actions(state)
            return [{"type": "grow", "square": sq} for sq in pending["groups"][0][2]]
        seat = state["active"]
        out = [a for die in _unused(state) for a in actions.die_actions(state, seat, die)]
        if not (out and state["options"]["must_use_all_dice"]):
            out.append({"type": "end"})
        if _stalled(state):
            out.append({"type": "draw"})
        return out

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """As every game; a board correction (correction.py) may also come while a roll is due."""
        if not (isinstance(action, dict) and action.get("type") == correction.CORRECT):
            return super().apply(state, action)
        if self.is_over(state):
            raise IllegalAction("the game is over")
        nxt = copy.deepcopy(state)
        events = correction.correct(nxt, action)
        nxt["recent"] = (nxt["recent"] + events)[-RECENT_EVENTS:]
        nxt["version"] = state.get("version", 0) + 1
        return nxt, events

    def view(self, state: State, player: int | None) -> State:
        """Nothing is secret; the view adds the board square by square (board.reading) and the exact
        chances of the next roll (odds.next_roll) for the phone."""
        out = copy.deepcopy(state)
        out["squares"] = reading(state)
        out["odds"] = odds.next_roll(state, player)
        return out

    def summary(self, state: State) -> dict:
        """Who won (or the draw), and each player's exited pyramids and colours."""
        players = []
        for seat, name in enumerate(state["players"]):
            exited = state["exited"][seat]
            colours = [c for c in state["colours"] if any(p["colour"] == c for p in exited)]
            players.append({"name": name, "exited": [dict(p) for p in exited], "colours": colours})
        winner = state["winner"]
        return {"over": self.is_over(state), "draw": state["draw"], "winner": winner,
                "winner_name": None if winner is None else state["players"][winner],
                "turns": state["turn"], "players": players}

    def _apply(self, state: State, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "roll":
            events = self._roll(state, action)
        elif kind in actions.DIE_ACTIONS:
            events = self._die_action(state, action)
        elif kind in POWER_STEPS:
            events = self._power_step(state, action)
        elif kind == "end":
            events = self._end(state)
        else:  # "draw": Game.apply refused every type action_shapes does not declare
            events = self._draw(state)
        state["recent"] = (state["recent"] + events)[-RECENT_EVENTS:]
        return events

    # ---- actions -----------------------------------------------------------------------------------
    def _roll(self, state: State, action: Action) -> list[Event]:
        if state["roll"] is None:
            raise IllegalAction(f"no roll is due: {_doing(state)}")
        state["roll"], state["phase"] = None, "act"
        state["dice"] = [{"value": v, "used": False} for v in action["values"]]
        faces = ", ".join(f"{v} ({actions.die_colours(state, v)[0] if v < 6 else 'any colour'})"
                          for v in action["values"])
        event = {"type": "roll", "seat": state["active"], "values": list(action["values"]),
                 "text": f"{_name(state)} rolled {faces}."}
        return [event] + self._after_action(state)

    def _die_action(self, state: State, action: Action) -> list[Event]:
        if state["phase"] != "act" or state["pending"] is not None:
            raise IllegalAction(f"not now: {_doing(state)}")
        seat = state["active"]
        wanted = actions.normalise(state, action)
        used = state["dice"][wanted["die"]]["used"]
        if used or wanted not in actions.die_actions(state, seat, wanted["die"]):
            raise IllegalAction(actions.why_not(state, seat, wanted))
        state["dice"][wanted["die"]]["used"] = True
        kind, square, colour = wanted["type"], wanted["square"], wanted["colour"]
        if kind == "activate":
            events = powers.activate(state, seat, wanted["die"], square)
        else:
            events = {"place": _place, "take": _take, "upgrade": _upgrade, "move": _move}[kind](
                state, seat, colour, square, wanted.get("direction"))
        for event in events:
            event.setdefault("die", wanted["die"])
        return events + self._after_action(state)

    def _power_step(self, state: State, action: Action) -> list[Event]:
        pending = state["pending"]
        kind = action["type"]
        wants = "transport" if kind in ("transport", "put", "stop") else "upgrade"
        if pending is None or pending["power"] != wants:
            raise IllegalAction(f"{kind} is a step of the {wants} power, none is under way: {_doing(state)}")
        if kind == "stop":
            events = powers.stop(state)
        elif kind == "grow":
            events = powers.grow(state, action["square"])
        elif kind == "transport":
            events = powers.pick(state, action["square"])
        else:
            events = powers.put(state, action["square"])
        return events + self._after_action(state)

    def _end(self, state: State) -> list[Event]:
        if state["phase"] != "act" or state["pending"] is not None:
            raise IllegalAction(f"end declines the dice left; now {_doing(state)}")
        if state["options"]["must_use_all_dice"]:
            raise IllegalAction("with must_use_all_dice every die that has a legal action must be used (B7)")
        text = f"{_name(state)} leaves the other dice unused."
        event = {"type": "end", "seat": state["active"], "text": text}
        return [event] + self._end_turn(state)

    def _draw(self, state: State) -> list[Event]:
        now = state["phase"] == "act" and state["pending"] is None
        if not (now and _stalled(state)):
            need = state["options"]["stall_turns"]
            raise IllegalAction(f"a draw is offered only after {need} turns in a row without an exit (B13)")
        state["phase"], state["draw"], state["dice"] = "over", True, []
        text = f"{_name(state)} ends the game as a draw after {state['quiet_turns']} turns without an exit."
        return [{"type": "game_over", "draw": True, "winner": None, "text": text}]

    # ---- flow --------------------------------------------------------------------------------------
    def _after_action(self, state: State) -> list[Event]:
        """Victory at once (B13); else the turn goes on while a die left has a legal action."""
        seat = state["active"]
        colours = {p["colour"] for p in state["exited"][seat]}
        if len(colours) >= COLOURS_TO_WIN:
            state["phase"], state["winner"], state["dice"] = "over", seat, []
            text = f"{_name(state)} has moved a pyramid of each of the five colours off the board and wins!"
            return [{"type": "game_over", "winner": seat, "draw": False, "text": text}]
        if state["pending"] is not None:
            return []
        left = _unused(state)
        if any(actions.die_actions(state, seat, die) for die in left):
            return []
        if left:
            values = ", ".join(str(state["dice"][d]["value"]) for d in left)
            text = f"{_name(state)} has no legal action for the dice left ({values})."
            return [{"type": "no_action", "seat": seat, "text": text}] + self._end_turn(state)
        return self._end_turn(state)

    def _end_turn(self, state: State) -> list[Event]:
        state["quiet_turns"] = 0 if state["exited_this_turn"] else state["quiet_turns"] + 1
        state["exited_this_turn"] = False
        state["active"] = 1 - state["active"]
        state["turn"] += 1
        state["phase"], state["dice"], state["pending"] = "roll", [], None
        state["roll"] = _roll_request(state).to_json()
        text = f"{_name(state)}'s turn: roll the three dice."
        return [{"type": "turn", "seat": state["active"], "text": text}]


# ---- the four direct actions (activate is powers.activate) ---------------------------------------------
def _place(state: State, seat: int, colour: str, square: str, _direction: None) -> list[Event]:
    supply.take(state, colour, 1)
    state["board"][square] = {"colour": colour, "size": 1, "controller": seat}
    text = (f"{state['players'][seat]} places a small {colour} on {square}, lying and pointing at "
            f"{state['players'][1 - seat]}.")
    return [{"type": "place", "seat": seat, "square": square, "text": text}]


def _take(state: State, seat: int, colour: str, square: str, _direction: None) -> list[Event]:
    piece = state["board"][square]
    piece["controller"] = seat
    text = (f"{state['players'][seat]} takes control of the {describe(piece)} on {square}: lay it pointing "
            f"at {state['players'][1 - seat]}.")
    return [{"type": "take", "seat": seat, "square": square, "text": text}]


def _upgrade(state: State, seat: int, colour: str, square: str, _direction: None) -> list[Event]:
    piece = state["board"][square]
    old = describe(piece)
    supply.take(state, colour, piece["size"] + 1)
    supply.give_back(state, colour, piece["size"])
    piece["size"] += 1
    text = (f"{state['players'][seat]} upgrades the {old} on {square}: swap it for a {describe(piece)} from "
            "the supply, keeping its orientation.")
    return [{"type": "upgrade", "seat": seat, "square": square, "text": text}]


def _move(state: State, seat: int, colour: str, square: str, direction: str) -> list[Event]:
    piece = state["board"].pop(square)
    end = path(square, direction, piece["size"], seat)
    who, rival = state["players"][seat], state["players"][1 - seat]
    if end == "off":
        state["exited"][seat].append({"colour": piece["colour"], "size": piece["size"]})
        state["exited_this_turn"] = True
        text = f"{who} moves the {describe(piece)} from {square} off the board past {rival}'s starting line"
        return [{"type": "exit", "seat": seat, "square": square, "direction": direction,
                 "colour": piece["colour"], "text": f"{text}: {who} keeps it."}]
    state["board"][end] = piece
    text = f"{who} moves the {describe(piece)} from {square} to {end}."
    return [{"type": "move", "seat": seat, "square": square, "to": end, "direction": direction, "text": text}]


def _roll_request(state: State) -> RollRequest:
    seat = state["active"]
    reason = f"{state['players'][seat]}: roll the three dice"
    return RollRequest(seat, (DieRequest(D6),) * 3, reason, TURN_TAG)


def _unused(state: State) -> list[int]:
    return [i for i, die in enumerate(state["dice"]) if not die["used"]]


def _stalled(state: State) -> bool:
    need = state["options"]["stall_turns"]
    return bool(need) and state["quiet_turns"] >= need


def _name(state: State) -> str:
    return state["players"][state["active"]]


def _doing(state: State) -> str:
    """What the game waits for, in words."""
    if state["phase"] == "over":
        return "the game is over"
    if state["roll"]:
        return f"waiting for {_name(state)}'s roll"
    pending = state["pending"]
    if pending is not None and pending["power"] == "transport":
        return f"{_name(state)} is transporting pyramids around {pending['centre']} (transport, put or stop)"
    if pending is not None:
        return f"{_name(state)} picks which pyramid to upgrade (grow)"
    return f"{_name(state)} uses a die (place, take, upgrade, activate, move) or ends the turn"
