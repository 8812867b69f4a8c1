"""`companion bench engine`: seeded random Dog Eat Dog games per second, microseconds per odds query;
then Battle Zone's figures (bench_battle_zone.py) and DOG's (bench_dog.py: the worst-case time to list a
7's moves, random games per second).

Randomness lives here, outside the engine: a `random.Random(seed)` plays every seat and every die. The
same player, `play_random_game`, drives the engine's property tests.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

from companion import bench_battle_zone, bench_dog
from companion.games import FACES, Game
from companion.games.dog_eat_dog import DogEatDog
from companion.games.dog_eat_dog import odds as ded_odds

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy"]


def random_action(game: Game, state: dict, rng: random.Random, pass_chance: float = 0.05) -> dict:
    """A uniformly random legal action; a roll is fair dice; "pass"/"skip" only with `pass_chance`."""
    request = game.roll_request(state)
    if request is not None:
        return {"type": "roll", "values": [rng.choice(FACES[die.kind]) for die in request.dice]}
    actions = game.legal_actions(state)
    declines = [a for a in actions if a["type"] in ("pass", "skip")]
    others = [a for a in actions if a["type"] not in ("pass", "skip")]
    if declines and (not others or rng.random() < pass_chance):
        return declines[0]
    return rng.choice(others)


def play_random_game(players: int, options: dict | None, seed: int, max_actions: int = 10_000,
                     pass_chance: float = 0.05) -> tuple[dict, list[dict]]:
    """Play one whole game with seeded random choices; returns the final state and the action log."""
    game, rng = DogEatDog(), random.Random(seed)
    state = game.new_game(NAMES[:players], options)
    actions: list[dict] = []
    while not game.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"seed {seed}: no end after {max_actions} actions")
        action = random_action(game, state, rng, pass_chance)
        state, _ = game.apply(state, action)
        actions.append(action)
    return state, actions


def _games_per_second(players: int, treehouse: bool, seconds: float) -> tuple[float, float]:
    """(games per second, actions per game) over about `seconds`."""
    games = actions = 0
    start = time.perf_counter()
    while True:
        _, log = play_random_game(players, {"treehouse": treehouse}, seed=games)
        games, actions = games + 1, actions + len(log)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, actions / games


QUERIES = [(a, list(d), t) for a in (1, 2, 3) for d in ([1], [2], [3], [2, 1], [3, 2, 1], [1, 1, 3, 2])
           for t in ((False, True) if a > 1 else (False,))]


def _odds_microseconds(seconds: float, cached: bool) -> float:
    """Mean microseconds per `p_attack_succeeds` query over the QUERIES mix, warm or cold cache."""
    queries = 0
    total: Fraction | int = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for attacker, defenders, treehouse in QUERIES:
            if not cached:
                ded_odds._p_attack.cache_clear()
            total += ded_odds.p_attack_succeeds(attacker, defenders, treehouse)
        queries += len(QUERIES)
    return (time.perf_counter() - start) / queries * 1e6


def run(args) -> int:
    seconds = float(getattr(args, "seconds", 3.0))
    print(f"Dog Eat Dog engine, about {seconds:g} s per measurement")
    print("players  treehouse  games/s  actions/game")
    for players in range(2, 7):
        for treehouse in (False, True):
            rate, length = _games_per_second(players, treehouse, seconds)
            print(f"{players:7d}  {'yes' if treehouse else 'no':>9}  {rate:7.1f}  {length:12.1f}")
    print(f"odds query, cached: {_odds_microseconds(seconds, cached=True):.2f} µs")
    print(f"odds query, cold:   {_odds_microseconds(seconds, cached=False):.2f} µs")
    bench_battle_zone.run(seconds)
    bench_dog.run(seconds)
    return 0
