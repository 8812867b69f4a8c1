"""The Dog Eat Dog engine: setup, the first-player roll, turns, cleanup, attacks, the Treehouse die, the end.

State (plain JSON):
    players   [{"name", "colour"}] in seat (clockwise) order
    pyramids  id -> {"colour", "size", "status", "captured_by"} (see pieces.py)
    stacks    lists of ids, bottom to top; the top pyramid's owner controls the stack
    phase     "first-roll" | "attack" | "rolling" | "treehouse" | "over"
    active    seat whose turn it is (None before the first-player roll); turn: turns started so far
    attack    the attack under way (attack.py) or None; follow_up: the Treehouse face to act on, or None
    roll      the RollRequest the game waits for, or None
    recent    the last outcome events, newest last
"""

from __future__ import annotations

from ..base import CHANCE, Game
from ..dice import D6, DieRequest, RollRequest
from ..errors import BadOptions, IllegalAction
from ..shapes import Flag, ListOf, OneOf, Opt
from . import attack as attacks
from . import scoring, treehouse
from .options import DogEatDogOptions
from .pieces import TIPPED, UPRIGHT, listing, new_pyramids
from .table import can_attack, name

State = dict
Event = dict

FIRST_ROLL_TAG = "first-player"
RECENT_EVENTS = 20


def _pyramid_ids(state: State) -> dict:
    """The pyramids of this game, by id ("red-L-1"): the names an action may use."""
    return state["pyramids"]


PYRAMID = OneOf(_pyramid_ids, "pyramid")


class DogEatDog(Game):
    """Jason Darrah's Dog Eat Dog (2008) with the rulings of rules/dog-eat-dog.md."""

    name = "dog-eat-dog"
    title = "Dog Eat Dog"
    options_type = DogEatDogOptions
    min_players = 2
    max_players = 10
    action_shapes = {
        "attack": {"attacker": PYRAMID, "target": PYRAMID, "treehouse": Opt(Flag())},
        "pass": {},
        "skip": {},
        "swap": {"stacks": ListOf(PYRAMID, 2, 2)},
        "dig": {"pyramid": PYRAMID},
        "aim": {"pyramid": PYRAMID, "tip": Flag()},
    }
    moves_pieces = frozenset({"attack_won", "attack_lost", "cleanup", "swap", "dig", "aim"})

    # --- the shared vocabulary -------------------------------------------------------------------------

    def new_game(self, players: list[str], options: dict | None = None) -> State:
        opts = DogEatDogOptions.from_json(options)
        if not isinstance(players, list) or not self.min_players <= len(players) <= self.max_players:
            raise BadOptions(f"Dog Eat Dog needs {self.min_players} to {self.max_players} players")
        if not all(isinstance(p, str) and p.strip() for p in players) or len(set(players)) != len(players):
            raise BadOptions("each player needs a different, non-empty name")
        colours = opts.seat_colours(len(players))
        state = {
            "game": self.name, "version": 0, "options": opts.to_json() | {"colours": colours},
            "players": [{"name": n, "colour": c} for n, c in zip(players, colours, strict=True)],
            "pyramids": new_pyramids(colours), "stacks": [],
            "phase": "first-roll", "active": None, "turn": 0,
            "attack": None, "follow_up": None, "roll": None, "recent": [],
        }
        state["roll"] = _first_roll_request(state, list(range(len(players)))).to_json()
        return state

    def current_player(self, state: State) -> int | None:
        if state["phase"] == "over":
            return None
        return CHANCE if state["roll"] else state["active"]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: State) -> list[dict]:
        if state["phase"] == "over":
            return []
        request = self.roll_request(state)
        if request is not None:
            return [{"type": "roll", "values": values} for values in request.outcomes()]
        seat = state["active"]
        if state["phase"] == "attack":
            return attacks.attack_actions(state, seat) + [{"type": "pass"}]
        face = state["follow_up"]
        if face == "WILD":
            return attacks.attack_actions(state, seat) + [{"type": "skip"}]
        return treehouse.follow_up_actions(state, seat, face) + [{"type": "skip"}]

    def dice_colours(self, state: State) -> list[str]:
        """The players' colours: the first roll asks one die of each contender's colour."""
        return [player["colour"] for player in state["players"]]

    def summary(self, state: State) -> dict:
        return scoring.summary(state)

    def _apply(self, state: State, action: dict) -> list[Event]:
        handlers = {
            "roll": self._roll, "attack": self._attack, "pass": self._pass, "skip": self._skip,
            "swap": self._follow_up, "dig": self._follow_up, "aim": self._follow_up,
        }
        events = handlers[action["type"]](state, action)  # Game.apply refused any other type
        state["recent"] = (state["recent"] + events)[-RECENT_EVENTS:]
        return events

    # --- actions ---------------------------------------------------------------------------------------

    def _roll(self, state: State, action: dict) -> list[Event]:
        request = state["roll"]
        if request is None:
            raise IllegalAction(f"no roll is due: it is {_active_name(state)}'s turn to act")
        state["roll"] = None
        values = action["values"]
        if request["tag"] == FIRST_ROLL_TAG:
            return self._first_roll(state, request["extra"]["seats"], values)
        if request["tag"] == attacks.ATTACK_TAG:
            events, done = attacks.on_attack_roll(state, values)
        else:
            events, done = attacks.on_defence_roll(state, values)
        return events + self._after_attack(state) if done else events

    def _first_roll(self, state: State, seats: list[int], values: list[int]) -> list[Event]:
        """Highest d6 goes first; tied high rollers roll again (ruling A10)."""
        top = max(values)
        high = [seat for seat, value in zip(seats, values, strict=True) if value == top]
        names = [state["players"][s]["name"] for s in high]
        rolled = ", ".join(f"{state['players'][s]['name']} {v}" for s, v in zip(seats, values, strict=True))
        if len(high) > 1:
            state["roll"] = _first_roll_request(state, high).to_json()
            return [{"type": "first_roll", "text": f"{rolled}: {listing(names)} tie on {top} and roll again.",
                     "values": values, "tied": high}]
        event = {"type": "first_roll", "text": f"{rolled}: {names[0]} goes first.", "values": values,
                 "first": high[0]}
        return [event] + self._start_turn(state, high[0])

    def _attack(self, state: State, action: dict) -> list[Event]:
        if not (state["phase"] == "attack" or state["follow_up"] == "WILD"):
            raise IllegalAction(f"{_active_name(state)} cannot attack now: {_phase_words(state)}")
        events = attacks.declare(state, state["active"], action)
        state["phase"], state["follow_up"] = "rolling", None
        return events

    def _pass(self, state: State, action: dict) -> list[Event]:
        if state["phase"] != "attack":
            raise IllegalAction(f"pass ends a turn without attacking; now {_phase_words(state)}")
        event = {"type": "pass", "text": f"{_active_name(state)} does not attack this turn."}
        return [event] + self._end_turn(state)

    def _skip(self, state: State, action: dict) -> list[Event]:
        if state["phase"] != "treehouse":
            raise IllegalAction(f"skip declines a Treehouse action; now {_phase_words(state)}")
        face = state["follow_up"]
        event = {"type": "skip", "text": f"{_active_name(state)} does not use the {face}."}
        return [event] + self._end_turn(state)

    def _follow_up(self, state: State, action: dict) -> list[Event]:
        face = action["type"].upper()
        if state["phase"] != "treehouse" or state["follow_up"] != face:
            raise IllegalAction(f"{face} needs the Treehouse die to show {face}; now {_phase_words(state)}")
        if face == "SWAP":
            events = treehouse.swap(state, action)
        elif face == "DIG":
            events = treehouse.dig(state, state["active"], action)
        else:
            events = treehouse.aim(state, action)
        return events + self._end_turn(state)

    # --- flow ------------------------------------------------------------------------------------------

    def _after_attack(self, state: State) -> list[Event]:
        """The attack is resolved: offer the Treehouse face's action if it can act, else end the turn."""
        face = state["attack"]["face"]
        state["attack"] = None
        seat = state["active"]
        if face not in treehouse.FOLLOW_UP_FACES:
            return self._end_turn(state)
        who = _active_name(state)
        if face == "WILD":
            possible = can_attack(state, seat)
        else:
            possible = bool(treehouse.follow_up_actions(state, seat, face))
        if not possible:
            text = f"The Treehouse die shows {face} ({treehouse.WHAT_IT_DOES[face]}), impossible now."
            return [{"type": "treehouse", "face": face, "text": text}] + self._end_turn(state)
        state["phase"], state["follow_up"] = "treehouse", face
        text = f"The Treehouse die shows {face}: {who} may {treehouse.WHAT_IT_DOES[face]}, or skip."
        return [{"type": "treehouse", "face": face, "text": text}]

    def _end_turn(self, state: State) -> list[Event]:
        state["follow_up"] = None
        return self._start_turn(state, (state["active"] + 1) % len(state["players"]))

    def _start_turn(self, state: State, seat: int) -> list[Event]:
        """Cleanup (every own tipped pyramid stands up, A8); the game ends if no attack is possible (A2)."""
        state["active"], state["turn"] = seat, state["turn"] + 1
        state["phase"], state["follow_up"] = "attack", None
        who = state["players"][seat]["name"]
        colour = state["players"][seat]["colour"]
        events = [{"type": "turn", "text": f"{who}'s turn.", "seat": seat}]
        tipped = [pid for pid, p in state["pyramids"].items()
                  if p["colour"] == colour and p["status"] == TIPPED]
        for pid in tipped:
            state["pyramids"][pid]["status"] = UPRIGHT
        if tipped:
            text = f"{who}: stand up {listing([name(state, pid) for pid in tipped])}."
            events.append({"type": "cleanup", "text": text, "pyramids": tipped})
        if not can_attack(state, seat):
            events += self._game_over(state, seat)
        return events

    def _game_over(self, state: State, seat: int) -> list[Event]:
        state["phase"], state["active"] = "over", None
        result = scoring.summary(state)
        scores = ", ".join(f"{row['name']} {row['score']}" for row in result["players"])
        names = result["winner_names"]
        verdict = f"{names[0]} wins" if len(names) == 1 else f"{listing(names)} share the win"
        text = (f"{state['players'][seat]['name']} has no legal attack: the game is over. "
                f"Scores: {scores}. {verdict}.")
        return [{"type": "game_over", "text": text, "winners": result["winners"],
                 "scores": [row["score"] for row in result["players"]]}]


def _first_roll_request(state: State, seats: list[int]) -> RollRequest:
    """One d6 per contending player, in the player's colour so the camera can tell whose die is whose."""
    players = state["players"]
    dice = tuple(DieRequest(D6, players[s]["colour"]) for s in seats)
    who = listing([f"{players[s]['name']} ({players[s]['colour']})" for s in seats])
    reason = f"{who}: 1 die each, the highest goes first"
    return RollRequest(None, dice, reason, FIRST_ROLL_TAG, {"seats": seats})


def _active_name(state: State) -> str:
    return "nobody" if state["active"] is None else state["players"][state["active"]]["name"]


def _phase_words(state: State) -> str:
    if state["phase"] == "attack":
        return f"{_active_name(state)} may attack or pass"
    if state["phase"] == "treehouse":
        face = state["follow_up"]
        return f"{_active_name(state)} may {treehouse.WHAT_IT_DOES[face]} (Treehouse {face}) or skip"
    if state["phase"] == "first-roll":
        return "everyone rolls for the first player"
    return "a roll is due"
