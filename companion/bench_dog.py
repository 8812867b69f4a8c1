"""DOG's part of `companion bench engine`: the worst-case time to list a 7's moves; random games a second.

Randomness lives here, outside the engine: a `random.Random(seed)` deals the cards from the stock and
plays every seat. The same player, `play_random_game`, drives the engine's property tests.
"""

from __future__ import annotations

import random
import time

from companion.games.dog import Dog
from companion.games.dog.board import FRESH, Board
from companion.games.dog.seven import outcomes

NAMES = ["Ann", "Ben", "Cat", "Dan"]
#: names for the other player counts (2.6): the first N of these.
MORE_NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
GAME = Dog()


def random_action(state: dict, rng: random.Random) -> dict:
    """A random deal from the stock while cards are dealt, else a uniformly random legal action."""
    if state["phase"] == "deal":
        seat = next(s for s in range(len(state["players"])) if state["hands"][s] is None)
        stock = [rank for rank, count in state["stock"].items() for _ in range(count)]
        return {"type": "deal", "seat": seat, "cards": rng.sample(stock, state["hand_size"])}
    return rng.choice(GAME.legal_actions(state))


def play_random_game(options: dict | None, seed: int, max_actions: int = 20_000,
                     players: int = 4) -> tuple[dict, list[dict]]:
    """Play one whole game of `players` with seeded random choices; returns the final state and the log."""
    rng = random.Random(seed)
    state = GAME.new_game(list(NAMES) if players == 4 else MORE_NAMES[:players], options)
    actions: list[dict] = []
    while not GAME.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"seed {seed}: no end after {max_actions} actions")
        action = random_action(state, rng)
        state, _ = GAME.apply(state, action)
        actions.append(action)
    return state, actions


#: Positions with many marbles out for the 7 (seat 0 moves red; green is its partner): internal boards,
#: marbles 0-3 red, 4-7 blue, 8-11 green, 12-15 yellow (board.py's codes; FRESH + c a fresh start marble).
SEVEN_POSITIONS: dict[str, Board] = {
    "red and green spread, others out": (3, 13, 24, 40, 20, 50, -1, -1, 8, 30, 45, 58, 36, 62, -1, -1),
    "red and green far apart, no others": (1, 10, 19, 28, 50, -1, -1, -1, 37, 46, 55, 63, -1, -1, -1, -1),
    "red and green in pairs": (2, 4, 22, 24, -1, -1, -1, -1, 34, 36, 50, 52, -1, -1, -1, -1),
    "red at its start and finish, green close": (0, 62, 65, 60, 9, -1, -1, -1, 5, 58, 56, 54, 40, -1, -1, -1),
    "red fresh, green spread": (FRESH, 5, 21, 37, -1, -1, -1, -1, 12, 28, 44, 53, 17, 33, -1, -1),
    "red nearly home, green out": (60, 66, 67, 64, -1, -1, -1, -1, 12, 20, 30, 40, -1, -1, -1, -1),
}


def seven_times(canadian: bool, repeats: int = 5) -> list[tuple[str, int, float]]:
    """(position, distinct 7 moves, best of `repeats` ms to list them) for each of SEVEN_POSITIONS."""
    rows = []
    for name, board in SEVEN_POSITIONS.items():
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            found = outcomes(board, 0, canadian)
            best = min(best, time.perf_counter() - start)
        rows.append((name, len(found), best * 1000))
    return rows


def games_per_second(options: dict, seconds: float, players: int = 4) -> tuple[float, float]:
    """(games per second, actions per game) of `players` over about `seconds`."""
    games = actions = 0
    start = time.perf_counter()
    while True:
        _, log = play_random_game(options, seed=games, players=players)
        games, actions = games + 1, actions + len(log)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, actions / games


def run(seconds: float) -> None:
    print("DOG: listing a 7's moves (seat 0, red; partner green), best of 5, ms")
    print(f"{'position':42} {'rules':9} {'moves':>6} {'ms':>8}")
    for canadian in (False, True):
        rows = seven_times(canadian)
        for name, count, ms in rows:
            print(f"{name:42} {'Canadian' if canadian else 'default':9} {count:6d} {ms:8.2f}")
        worst = max(r[2] for r in rows)
        print(f"{'worst case':42} {'Canadian' if canadian else 'default':9} {'':6} {worst:8.2f}")
    for hands in ("entered", "laid"):
        rate, length = games_per_second({"hands": hands}, seconds)
        print(f"DOG random games, hands {hands}: {rate:.2f} games/s, {length:.0f} actions/game")
    rate, length = games_per_second({"hands": "entered"}, seconds, players=6)
    print(f"DOG random games, 6 players in three pairs, hands entered: {rate:.2f} games/s, "
          f"{length:.0f} actions/game")
