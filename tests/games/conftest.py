"""Fixtures for the Dog Eat Dog engine tests: a started game and a way to lay out a table position."""

from __future__ import annotations

import copy

import pytest

from companion.games.dog_eat_dog import DogEatDog
from companion.games.dog_eat_dog.pieces import CAPTURED, IN_STACK, TIPPED

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


class DedTable:
    """Helpers that drive the real engine; `layout` edits a state directly to set up a table position."""

    game = DogEatDog()

    def start(self, players: int = 2, options: dict | None = None, first: int = 0) -> dict:
        """A new game after the first-player roll, won by seat `first`."""
        state = self.game.new_game(list(NAMES[:players]), options)
        values = [6 if seat == first else 1 for seat in range(players)]
        state, _ = self.game.apply(state, {"type": "roll", "values": values})
        return state

    def play(self, state: dict, *actions: dict) -> tuple[dict, list[dict]]:
        """Apply actions in order; returns the last state and every event."""
        events: list[dict] = []
        for action in actions:
            state, new = self.game.apply(state, action)
            events += new
        return state, events

    def attack(self, state: dict, attacker: str, target: str, *rolls: list, treehouse: bool | None = None):
        """Declare an attack, then apply each roll (attacker's first, then the defenders' top down)."""
        action = {"type": "attack", "attacker": attacker, "target": target}
        if treehouse is not None:
            action["treehouse"] = treehouse
        return self.play(state, action, *({"type": "roll", "values": list(r)} for r in rolls))

    @staticmethod
    def layout(state: dict, stacks=(), tipped=(), captured: dict | None = None) -> dict:
        """A copy of `state` with these stacks (ids bottom to top), tipped pyramids, captures (id -> seat)."""
        state = copy.deepcopy(state)
        for stack in stacks:
            for pid in stack:
                state["pyramids"][pid]["status"] = IN_STACK
            state["stacks"].append(list(stack))
        for pid in tipped:
            state["pyramids"][pid]["status"] = TIPPED
        for pid, seat in (captured or {}).items():
            state["pyramids"][pid].update(status=CAPTURED, captured_by=seat)
        return state

    @staticmethod
    def texts(events: list[dict]) -> str:
        return "\n".join(event["text"] for event in events)


@pytest.fixture
def ded() -> DedTable:
    return DedTable()
