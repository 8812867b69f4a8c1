"""Reach game states by seeded random play: every roll a random face, every decision a random legal one.

Used by the tests that need a state deep in a game (a blind pick, a steal decision) and by the fuzz
tests that throw random JSON at states a real table reaches.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games import FACES, Action, Game, State

#: Player names enough for every engine (Dog Eat Dog seats up to 10).
NAMES = ("Ann", "Ben", "Cid", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def random_action(game: Game, state: State, rnd: random.Random) -> Action:
    """A random legal action: a roll's outcome with random faces, or one of `legal_actions`."""
    request = game.roll_request(state)
    if request is not None:
        return {"type": "roll", "values": [rnd.choice(FACES[d.kind]) for d in request.dice]}
    return rnd.choice(game.legal_actions(state))


def play(game: Game, players: int, seed: int, steps: int | None = None,
         until: Callable[[State], bool] | None = None) -> tuple[State, list[Action]]:
    """Play from a new game until `until(state)` holds, `steps` actions are applied or the game ends;
    returns the state reached and the actions that led there."""
    rnd = random.Random(seed)
    state = game.new_game(list(NAMES[:players]))
    actions: list[Action] = []
    while not game.is_over(state) and (steps is None or len(actions) < steps):
        if until is not None and until(state):
            break
        action = random_action(game, state, rnd)
        state, _ = game.apply(state, action)
        actions.append(action)
    return state, actions


def first_state(game: Game, players: int, until: Callable[[State], bool], seeds: int = 200) -> tuple[
        State, list[Action]]:
    """The first state, over seeds 0, 1, ..., where `until(state)` holds (fails the test if none does)."""
    for seed in range(seeds):
        state, actions = play(game, players, seed, until=until)
        if until(state):
            return state, actions
    raise AssertionError(f"no seed of {seeds} reaches the state asked for")
