"""A scripted Dog Eat Dog table for the crash test: `python -m tests.table.crash_player DB SEED`.

Opens (or reopens) the table in DB and plays on from wherever its log stands. Each move is chosen by a
generator seeded with (SEED, version), so a run that is killed and restarted plays the very same game
as one that never crashed. After each committed command it prints the table's version.
"""

from __future__ import annotations

import random
import sys

from companion.store import EventStore
from companion.table import TableSession

PLAYERS = ["Alice", "Bob", "Carol"]


def play(db: str, seed: int, out=sys.stdout) -> dict:
    session = TableSession(EventStore(db))
    if session.current is None:
        table = session.create("dog-eat-dog", PLAYERS, {"treehouse": True})
        for seat in range(len(PLAYERS)):
            session.claim_seat(table.id, seat)
    table = session.get(session.current)
    tokens = dict(table.seats)
    while not table.game.is_over(table.state):
        rng = random.Random(f"{seed}:{table.version}")
        request = table.game.roll_request(table.state)
        if request is not None:
            action = {"type": "roll", "values": rng.choice(request.outcomes())}
            rollers = table.game.chance_seats(table.state)
            token = tokens[rollers[0] if rollers else 0]  # a seat that rolled enters the dice
        else:
            actions = table.game.legal_actions(table.state)
            attacks = [a for a in actions if a["type"] == "attack"]
            action = rng.choice(attacks) if attacks and rng.random() < 0.9 else rng.choice(actions)
            token = tokens[table.game.current_player(table.state)]
        session.act(table.id, table.version, action, token)
        print(table.version, flush=True, file=out)
    return table.state


if __name__ == "__main__":
    play(sys.argv[1], int(sys.argv[2]))
    print("done", flush=True)
