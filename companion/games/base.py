"""The shared vocabulary of every engine (after OpenSpiel and boardgame.io).

* A state is plain JSON data (dicts, lists, strings, numbers); engines never mutate the state they
  are given, they return a new one.
* `legal_actions(state)` lists what may happen next; each action is a JSON object with a `"type"`.
* `apply(state, action)` returns `(next_state, events)` or raises `IllegalAction` with a sentence a
  player can read, leaving the given state untouched.
* When chance is due, `roll_request(state)` says who rolls what and why, and the only legal action
  is `{"type": "roll", "values": [...]}`. The engine never rolls, reads no clock and does no I/O.
* `view(state, player)` removes what that player may not see; `player=None` is a spectator.
  `redact(state, action, player)` does the same for one action (the log a phone downloads, the choices
  a phone deciding for another seat is shown); `chance_seats` and `secret_chance` say who may enter
  the outcome that is due (the seats that rolled; only the seats a hidden draw concerns).
* An event's `"text"` is shown to every phone; secret details go in other fields, with
  `"visible_to": [seats]`.
* The state is the replay of the action log from `new_game(players, options)`.

Action shapes, checked once, here: each engine declares `action_shapes`, per action type the fields
it takes and the shape of each (`shapes.py`: `Seat`, `Whole`, `Flag`, `Text`, `OneOf`, `ListOf`,
`Opt`). Before the engine sees an action, `apply` refuses with `BadAction` (an IllegalAction; the web
answers 400) an unknown type, a missing or unknown field, or a value of the wrong exact type: a seat
is an int (not `0.0`, not `true`), an item a known name, a list a list of its element shape. So
`_apply` may index with what it is given; it still checks what depends on the state (whose turn, what
a pile holds). `"roll"` is declared for every game (`{"values": ListOf(Face())}`, then
`RollRequest.check` with exact types). A new engine adopts it with one class attribute, e.g.

    action_shapes = {"move": {"marble": Whole(0, 15), "steps": ListOf(Whole(1, 7), 1, 7)},
                     "swap": {"with": Seat()}, "fold": {}}

An engine that declares none gets only the `"type"` check; tests/games/test_action_fuzz.py throws
random JSON at every registered engine and accepts only IllegalAction or GameError back.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from .dice import RollRequest
from .errors import BadAction, BadOptions, IllegalAction
from .shapes import Face, Fields, ListOf, action_problem

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

#: `current_player` answers this when the next action is a roll's outcome.
CHANCE = -1


def about(label: str, help: str, choices: dict[Any, str] | None = None) -> dict[str, Any]:
    """An option field's words for the new-table form: a plain label, one line of help, and for an
    option with a few values, each value's words. Use as `field(default=..., metadata=about(...))`."""
    return {"label": label, "help": help, "choices": choices}


@dataclass(frozen=True)
class Options:
    """Base of each game's options: one field per alternative ruling, the documented default first."""

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Each option as the new-table form shows it: name, label, help, kind ("switch" for yes/no,
        "select" for a few values, "list" for a list typed as text) and its default; a select lists its
        values' words with the default first."""
        out = []
        for f in fields(cls):
            meta = f.metadata or {}
            default = f.default if f.default is not MISSING else None
            choices = meta.get("choices")
            kind = ("switch" if isinstance(default, bool) else "select" if choices
                    else "number" if isinstance(default, int) else "list")
            entry = {"name": f.name, "label": meta.get("label", f.name.replace("_", " ").capitalize()),
                     "help": meta.get("help", ""), "kind": kind, "default": default}
            if choices:
                entry["choices"] = [{"value": v, "label": w} for v, w in
                                    sorted(choices.items(), key=lambda item: item[0] != default)]
            out.append(entry)
        return out

    @classmethod
    def from_json(cls, data: dict | None) -> Options:
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BadOptions(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class Game(ABC):
    """One game's rules. Subclasses are stateless; every method is a pure function of its arguments."""

    name: ClassVar[str]
    title: ClassVar[str]
    options_type: ClassVar[type[Options]] = Options
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    #: action type -> {field: shape} (see the module docstring); "roll" is added by `shapes_of`.
    action_shapes: ClassVar[dict[str, Fields]] = {}
    #: event types that ask players to move pieces on the table ("Tip both pyramids"): the page keeps
    #: their words in view until the next command.
    moves_pieces: ClassVar[frozenset[str]] = frozenset()
    #: the new-table form's heading over the players' names
    players_label: ClassVar[str] = "Players, in turn order"

    @abstractmethod
    def new_game(self, players: list[str], options: dict | None = None) -> State:
        """The initial state for these player names (seat order = turn order) and options."""

    @abstractmethod
    def current_player(self, state: State) -> int | None:
        """Seat index of who must act, `CHANCE` when a roll is due, None when the game is over."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[Action]:
        """Every action allowed now. While a roll is due, `roll_request` is the authority: callers check
        an outcome with `RollRequest.check` rather than list them (five dice have 7,776 outcomes)."""

    @abstractmethod
    def _apply(self, state: State, action: Action) -> list[Event]:
        """Apply a checked action to a private copy of the state, in place; return the events. A roll
        is checked against the pending request here; a roll when none is due is the engine's to refuse,
        in its own words."""

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    def shapes_of(self) -> dict[str, Fields]:
        """Every action type this game takes and its fields: `action_shapes` plus the roll's outcome."""
        if not self.action_shapes:
            return {}
        return {"roll": {"values": ListOf(Face())}, **self.action_shapes}

    def roll_request(self, state: State) -> RollRequest | None:
        """The roll the game waits for, or None."""
        pending = state.get("roll")
        return RollRequest.from_json(pending) if pending else None

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The next state and the events the action caused; an illegal action raises and changes nothing."""
        problem = action_problem(action, self.shapes_of(), self.title, state)
        if problem:
            raise BadAction(problem)
        if self.is_over(state):
            raise IllegalAction("the game is over")
        request = self.roll_request(state)
        if request is not None and action["type"] != "roll":
            raise IllegalAction(f"waiting for a roll: {request.reason}")
        if request is not None:
            try:
                request.check(action.get("values"))
            except ValueError as err:
                raise IllegalAction(str(err)) from None
        nxt = copy.deepcopy(state)
        events = self._apply(nxt, action)
        nxt["version"] = state.get("version", 0) + 1
        return nxt, events

    def view(self, state: State, player: int | None) -> State:
        """What `player` (None: a spectator) may see; games with secrets override this."""
        return copy.deepcopy(state)

    def redact(self, state: State, action: Action, player: int | None) -> Action:
        """`action`, applied to `state`, as `player` (None: a spectator) may know it: secret fields left
        out. Games with hidden information override this; the default keeps everything (nothing secret).

        A decision's secret fields (an item chosen from a hidden collection) are the decider's alone: a
        phone deciding for a seat it does not hold is never shown them, so it cannot probe them."""
        return action

    def chance_seats(self, state: State) -> list[int] | None:
        """The seats whose chance outcome is due: the seats that rolled, or the seats a hidden draw
        concerns; None when any seat may enter it (a public draw)."""
        request = self.roll_request(state)
        if request is None:
            return None
        if request.player is not None:
            return [request.player]
        seats = request.extra.get("seats")
        return [s for s in seats if isinstance(s, int)] if isinstance(seats, list) else None

    def secret_chance(self, state: State) -> bool:
        """True when the outcome due is a hidden draw: only `chance_seats` may see or enter it."""
        return False

    def summary(self, state: State) -> dict:
        """Final scores and winners once over (games override); the CLI prints it after a replay."""
        return {}

    def dice_colours(self, state: State) -> list[str]:
        """The colour names this game asks for dice by (`DieRequest.colour`): the players name their sets so
        when they calibrate the camera, and the camera names each die among them where it knows them all
        (`companion.table.PendingRoll`). None by default (the game tells no dice apart by colour)."""
        return []


def replay(game: Game, players: list[str], options: dict | None, actions: list[Action]) -> State:
    """The state after applying `actions` in order from the initial state; raises at the first illegal one."""
    state = game.new_game(players, options)
    for action in actions:
        state, _ = game.apply(state, action)
    return state
