"""The exact shape of each DOG action: its fields, and each field's exact JSON type (true is no seat).

Checked before any rule is: a wrong shape is refused with a sentence naming the field.
"""

from __future__ import annotations

from ..errors import IllegalAction
from .cards import RANKS

PART = {"marble": int, "to": int}
SHAPES: dict[str, dict[str, object]] = {
    "deal": {"seat": int, "cards": [str]},
    "give": {"seat": int, "card": str},
    "start": {"card": str},
    "move": {"card": str, "marble": int, "to": int},
    "swap": {"card": str, "marble": int, "with": int},
    "seven": {"card": str, "parts": [PART]},
    "part": PART,
    "no_effect": {"card": str},
    "fold": {},
}


def check(action: dict) -> None:
    """Raise IllegalAction unless `action` has exactly the fields of its type, each of its exact type."""
    kind = action.get("type")
    if kind not in SHAPES:
        raise IllegalAction(f"unknown action {kind!r}; DOG's actions: {', '.join(SHAPES)}")
    _fields(action, SHAPES[kind], kind, skip="type")


def _fields(obj: dict, shape: dict, what: str, skip: str | None = None) -> None:
    keys = set(obj) - {skip}
    if keys != set(shape):
        wanted = ", ".join(shape) or "no fields"
        raise IllegalAction(f"{what} takes {wanted}; got {', '.join(sorted(map(str, keys))) or 'none'}")
    for name, kind in shape.items():
        _value(obj[name], kind, f"{what} {name}")


def _value(value: object, kind: object, what: str) -> None:
    if isinstance(kind, list):
        if type(value) is not list or not value:
            raise IllegalAction(f"{what} is a non-empty list")
        for item in value:
            _value(item, kind[0], what)
    elif isinstance(kind, dict):
        if type(value) is not dict:
            raise IllegalAction(f"{what} is an object with {', '.join(kind)}")
        _fields(value, kind, what)
    elif type(value) is not kind:
        raise IllegalAction(f"{what} is {'a whole number' if kind is int else 'text'}, not {value!r}")
    elif kind is int and what.endswith("seat") and not 0 <= value < 4:
        raise IllegalAction(f"{what} is a seat, 0 to 3, not {value}")
    elif kind is int and not what.endswith("seat") and not -1 <= value < 80:
        raise IllegalAction(f"{what} is a hole: -1 (kennel), 0-63 (track) or 64-79 (finish), not {value}")
    elif kind is str and what.endswith(("card", "cards")) and value not in RANKS:
        raise IllegalAction(f"{value!r} is not a DOG card; the cards are {', '.join(RANKS)}")
