"""The rules engines: pure, deterministic, standard library only (see base.py for the vocabulary)."""

from __future__ import annotations

import importlib

from .base import CHANCE, Action, Event, Game, Options, State, replay
from .dice import D6, FACES, GREY, TREEHOUSE, DieRequest, RollRequest
from .errors import BadAction, BadOptions, GameError, IllegalAction, UnknownGame

#: Game name -> "module:Class"; loaded on first use so one engine's import cost is not everyone's.
_ENGINES = {
    "dog-eat-dog": "companion.games.dog_eat_dog:DogEatDog",
    "dice-devils": "companion.games.dice_devils:DiceDevils",
    "battle-zone": "companion.games.battle_zone:BattleZone",
    "dog": "companion.games.dog:Dog",
}


def register(name: str, target: str) -> None:
    """Add an engine by "module:Class" (tests use this for small stand-in games)."""
    _ENGINES[name] = target


def names() -> list[str]:
    return list(_ENGINES)


def get(name: str) -> Game:
    """The engine called `name` (e.g. "dog-eat-dog")."""
    try:
        target = _ENGINES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(_ENGINES)}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)()


__all__ = [
    "CHANCE", "D6", "FACES", "GREY", "TREEHOUSE", "Action", "BadAction", "BadOptions", "DieRequest", "Event",
    "Game", "GameError", "IllegalAction", "Options", "RollRequest", "State", "UnknownGame", "get", "names",
    "register", "replay",
]
