"""Fixtures for the Dog Eat Dog engine tests: a started game and a way to lay out a table position."""

from __future__ import annotations

import copy

import pytest

from companion.games import IllegalAction
from companion.games.battle_zone import BattleZone, supply
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


class BzTable:
    """Battle Zone positions for scenario tests: pyramids laid on the board (taken from the supply, so
    the 45 stay accounted for) and dice already rolled, then the real engine applies actions."""

    game = BattleZone()

    def position(self, pieces: dict | None = None, dice=(1, 2, 3), active: int = 0,
                 options: dict | None = None, empty_supply=()) -> dict:
        """A game with `pieces` (square -> (colour, size, controller seat or None)) on the board,
        `active` to act with `dice`; `empty_supply` lists (colour, size) whose supply is emptied
        (those pyramids are counted as exited by nobody: they go to seat 1-active's exits)."""
        state = self.game.new_game(["Alice", "Bob"], options)
        for sq, (colour, size, controller) in (pieces or {}).items():
            supply.take(state, colour, size)
            state["board"][sq] = {"colour": colour, "size": size, "controller": controller}
        for colour, size in empty_supply:
            while supply.has(state, colour, size):
                supply.take(state, colour, size)
                state["exited"][1 - active].append({"colour": colour, "size": size})
        state.update(roll=None, phase="act", active=active, dice=[{"value": v, "used": False} for v in dice])
        return state

    def play(self, state: dict, *actions: dict) -> tuple[dict, list[dict]]:
        events: list[dict] = []
        for action in actions:
            state, new = self.game.apply(state, action)
            events += new
        return state, events

    def refused(self, state: dict, action: dict) -> str:
        """The sentence an illegal action is refused with; fails if it is applied or changes the state."""
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction) as err:
            self.game.apply(state, action)
        assert state == before
        return str(err.value)

    @staticmethod
    def texts(events: list[dict]) -> str:
        return "\n".join(event["text"] for event in events)


@pytest.fixture
def bz() -> BzTable:
    return BzTable()
