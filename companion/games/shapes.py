"""Action shapes: what each field of an action must be, declared once per game and checked by `Game.apply`.

An engine declares, per action type, the fields that action takes and the shape of each value:

    from companion.games.shapes import Flag, ListOf, OneOf, Opt, Seat, Whole

    class MyGame(Game):
        action_shapes = {
            "claim": {"item": Whole(0)},                        # a display index: 0, 1, ...
            "swap": {"with": Seat()},                           # a seat of this table
            "reveal": {"items": ListOf(OneOf(ITEMS, "item"))},  # known item names
            "attack": {"attacker": OneOf(pyramids, "pyramid"), "treehouse": Opt(Flag())},
            "pass": {},                                         # no fields
        }

The check uses exact JSON types, so nothing an engine indexes with can surprise it: a seat or a whole
number is an int, never a float (`0.0`) or a bool (`true`); a name is a str from the known ones; a list
is a list of its element shape. A missing or unknown field is refused too. Values that depend on more
than the action (is that item in this pile? is it this seat's turn?) stay the engine's to check.
Standard library only, like every engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

State = dict[str, Any]

#: The longest text an action field may hold (names, ids), in characters.
MAX_TEXT = 64
#: The longest list an action field may hold, in elements (a roll, a reveal, a rank draw).
MAX_LIST = 64


def shown(value: Any) -> str:
    """A short, safe rendering of a value for a refusal: never a huge or deeply nested repr."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if value is None or isinstance(value, bool):
        return json.dumps(value)  # null, true, false: as the player wrote them
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Shape:
    """One field's shape. `problem` says why a value does not fit, as words a player can read, or None."""

    def problem(self, value: Any, state: State) -> str | None:
        raise NotImplementedError


class Whole(Shape):
    """A whole number (an int, not a float or a bool), from `low` to `high` inclusive (None: no bound)."""

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.low, self.high = low, high

    def problem(self, value: Any, state: State) -> str | None:
        if not _whole(value):
            return f"a whole number is needed, not {shown(value)}"
        if self.low is not None and value < self.low or self.high is not None and value > self.high:
            low = "" if self.low is None else f" from {self.low}"
            high = "" if self.high is None else f" to {self.high}"
            return f"{value} is out of range: a whole number{low}{high} is needed"
        return None


class Seat(Shape):
    """A seat of this table: a whole number from 0 to `len(state["players"]) - 1` (not `0.0`, not `true`)."""

    def problem(self, value: Any, state: State) -> str | None:
        seats = len(state.get("players") or ())
        if not _whole(value):
            return f"a seat is a whole number from 0 to {seats - 1}, not {shown(value)}"
        if not 0 <= value < seats:
            return f"there is no seat {value}: seats are 0 to {seats - 1}"
        return None


class Flag(Shape):
    """true or false (not 0 or 1)."""

    def problem(self, value: Any, state: State) -> str | None:
        return None if isinstance(value, bool) else f"true or false is needed, not {shown(value)}"


class Text(Shape):
    """Any text up to `MAX_TEXT` characters (for names the engine checks itself)."""

    def problem(self, value: Any, state: State) -> str | None:
        if not isinstance(value, str):
            return f"text is needed, not {shown(value)}"
        return None if len(value) <= MAX_TEXT else f"text of at most {MAX_TEXT} characters is needed"


class OneOf(Shape):
    """One of a set of known names: `choices` is a collection of str, or a function of the state that
    gives one (the pyramids of this game). `noun` names the thing in the refusal ("item", "pyramid");
    the choices are listed when there are few of them and they do not depend on the state."""

    def __init__(self, choices: Collection[str] | Callable[[State], Collection[str]], noun: str) -> None:
        self.choices, self.noun = choices, noun

    def problem(self, value: Any, state: State) -> str | None:
        if not isinstance(value, str):
            return f"{_a(self.noun)} is named by its text id, not {shown(value)}"
        known = self.choices(state) if callable(self.choices) else self.choices
        if value in known:
            return None
        if callable(self.choices) or len(known) > 12:
            return f"there is no {self.noun} called {shown(value)}"
        return f"unknown {self.noun} {shown(value)}; {self.noun}s: {', '.join(known)}"


class Face(Shape):
    """One die's face as entered: a whole number (pips) or a face's name ("AIM"); `RollRequest.check`
    then says whether it is a face of the die asked for."""

    def problem(self, value: Any, state: State) -> str | None:
        if _whole(value) or isinstance(value, str) and len(value) <= MAX_TEXT:
            return None
        return f"a die shows a whole number or a face's name, not {shown(value)}"


class ListOf(Shape):
    """A list of `element`s, `min_len` to `max_len` long."""

    def __init__(self, element: Shape, min_len: int = 0, max_len: int = MAX_LIST) -> None:
        self.element, self.min_len, self.max_len = element, min_len, max_len

    def problem(self, value: Any, state: State) -> str | None:
        if not isinstance(value, list):
            return f"a list is needed, not {shown(value)}"
        if not self.min_len <= len(value) <= self.max_len:
            count = (f"{self.min_len}" if self.min_len == self.max_len
                     else f"{self.min_len} to {self.max_len}")
            return f"a list of {count} is needed, not {len(value)}"
        for index, element in enumerate(value):
            problem = self.element.problem(element, state)
            if problem:
                return f"entry {index + 1}: {problem}"
        return None


class Opt(Shape):
    """A field that may be left out (or given); when given, it has `shape`."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    def problem(self, value: Any, state: State) -> str | None:
        return self.shape.problem(value, state)


Fields = dict[str, Shape]


def action_problem(action: Any, shapes: dict[str, Fields], game_title: str, state: State) -> str | None:
    """Why `action` does not have one of the declared shapes, in words; None if it does. With no shapes
    declared (an engine that has not adopted them yet) only the object and its "type" are checked."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return 'an action is a JSON object with a "type"'
    if not shapes:
        return None
    kind = action["type"]
    fields = shapes.get(kind)
    if fields is None:
        return f"unknown action {shown(kind)}; {game_title} knows {', '.join(shapes)}"
    for name in action:
        if name != "type" and name not in fields:
            takes = ", ".join(f'"{f}"' for f in fields) or "no other field"
            return f'{kind} has no field {shown(name)} (it takes {takes})'
    for name, shape in fields.items():
        if name not in action:
            if isinstance(shape, Opt):
                continue
            return f'{kind} needs "{name}"'
        problem = shape.problem(action[name], state)
        if problem:
            return f'{kind} "{name}": {problem}'
    return None
