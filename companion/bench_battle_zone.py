"""Battle Zone in `companion bench engine`: seeded random games per second, and the worst time to list
the legal actions of a roll, over every order the three dice can be used in.

Randomness lives here, outside the engine: a `random.Random(seed)` plays both seats and throws the
dice. The same player, `play_random_game`, drives the engine's property tests.
"""

from __future__ import annotations

import itertools
import random
import time

from companion.games import FACES
from companion.games.battle_zone import BattleZone
from companion.games.battle_zone.board import SQUARES

GAME = BattleZone()
#: Steps that decline something (the dice left, the rest of a transport, the game as a draw).
DECLINES = ("end", "stop", "draw")


def random_action(state: dict, rng: random.Random, decline_chance: float = 0.05) -> dict:
    """A uniformly random legal action; a roll is fair dice; a decline only with `decline_chance`
    (always when it is the only choice)."""
    request = GAME.roll_request(state)
    if request is not None:
        return {"type": "roll", "values": [rng.choice(FACES[die.kind]) for die in request.dice]}
    actions = GAME.legal_actions(state)
    others = [a for a in actions if a["type"] not in DECLINES]
    declines = [a for a in actions if a["type"] in DECLINES]
    if declines and (not others or rng.random() < decline_chance):
        return rng.choice(declines)
    return rng.choice(others)


def play_random_game(seed: int, options: dict | None = None, max_actions: int = 20_000,
                     decline_chance: float = 0.05) -> tuple[dict, list[dict]]:
    """One whole game with seeded random choices: the final state and the action log."""
    rng = random.Random(seed)
    state = GAME.new_game(["Alice", "Bob"], options)
    log: list[dict] = []
    while not GAME.is_over(state):
        if len(log) >= max_actions:
            raise RuntimeError(f"seed {seed}: no end after {max_actions} actions")
        action = random_action(state, rng, decline_chance)
        state, _ = GAME.apply(state, action)
        log.append(action)
    return state, log


def games_per_second(seconds: float, options: dict | None = None) -> tuple[float, float, float]:
    """(games per second, actions per game, share of games won rather than drawn) over about `seconds`."""
    games = actions = won = 0
    start = time.perf_counter()
    while True:
        state, log = play_random_game(games, options)
        games, actions, won = games + 1, actions + len(log), won + (state["winner"] is not None)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, actions / games, won / games


def _positions(games: int) -> list[dict]:
    """Mid-game states just after a roll, from seeded random games (a crowded board is the slow case)."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_game(["Alice", "Bob"])
        for _ in range(400):
            if GAME.is_over(state):
                break
            fresh = state["phase"] == "act" and not any(d["used"] for d in state["dice"])
            if fresh and state["pending"] is None:
                out.append(state)
            state, _ = GAME.apply(state, random_action(state, rng))
    return out


def _crowded() -> dict:
    """All 45 pyramids on ranks 2-7, lying for either player or upright in turn: the most to list."""
    state = GAME.new_game(["Alice", "Bob"])
    pieces = [(c, size) for c in state["colours"] for size in (1, 2, 3) for _ in range(3)]
    for i, (colour, size) in enumerate(pieces):
        state["supply"][colour][size - 1] -= 1
        state["board"][SQUARES[8 + i]] = {"colour": colour, "size": size, "controller": (0, 1, None)[i % 3]}
    return dict(state, roll=None, phase="act")


def _listing_ms(state: dict, repeats: int = 5) -> float:
    """One `legal_actions` call in ms: the fastest of `repeats`, so a busy machine's pauses are not
    counted."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        GAME.legal_actions(state)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def worst_listing_ms(games: int = 10, rolls: tuple[tuple[int, ...], ...] = ((6, 6, 6), (4, 3, 6))) -> float:
    """The slowest `legal_actions` call, in ms, over random positions with these rolls in place, for
    every order of using the three dice (each die's first listed action, one die after another)."""
    worst = 0.0
    for position in [_crowded()] + _positions(games)[::5]:
        for values in rolls:
            state = dict(position, dice=[{"value": v, "used": False} for v in values])
            for order in itertools.permutations(range(3)):
                current = state
                for die in order:
                    worst = max(worst, _listing_ms(current))
                    listed = GAME.legal_actions(current)
                    mine = [a for a in listed if a.get("die") == die]
                    if current["phase"] != "act" or current["pending"] is not None or not mine:
                        break
                    current, _ = GAME.apply(current, mine[0])
    return worst


def run(seconds: float) -> None:
    print(f"Battle Zone engine, about {seconds:g} s per measurement")
    rate, length, won = games_per_second(seconds)
    print(f"random games: {rate:.1f} games/s, {length:.0f} actions/game, {won:.0%} won (others drawn)")
    print(f"legal actions of a roll, worst over every order of the dice: {worst_listing_ms():.2f} ms")
