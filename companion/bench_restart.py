"""`companion bench restart`: seconds from opening the data folder to serving, by the size of the history.

For each size (`--records`, default 15,000 and 100,000) it builds a history in a temporary folder by
playing seeded random Dog Eat Dog games through the real table session, as phones would: seats taken,
rolls typed, decisions made, now and then a decision undone or a roll corrected. Games are played to
the end one after another, and the last one is left running. A second history of the same size is one
running table whose log is long (a decision made and undone over and over), the worst case for replay.
The store does not wait for the disk while building (only to build faster). Then the folder is opened
as `serve` opens it (`EventStore` and `TableSession`), timed from a fresh process's point of view, the
median of `--repeats`. Prints records, tables served and archived, and the restart time in seconds.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.bench_engine import NAMES, random_action
from companion.games import FACES
from companion.store import EventStore
from companion.table import Table, TableSession

GAME = "dog-eat-dog"
HOST = "bench-host-phone"


def _play(session: TableSession, records: int, rng: random.Random, churn: bool) -> None:
    """Add games to `session` until its store holds `records` records; the last game is left running."""
    written = 0
    while written < records:
        players = NAMES[:rng.randint(2, 4)]
        table, tokens = _seated(session, players, {"treehouse": rng.random() < 0.5})
        start = table.version
        while written + table.version - start < records and not table.game.is_over(table.state):
            _move(session, table, tokens, rng, churn)
        written += table.version


def _seated(session: TableSession, players: list[str], options: dict) -> tuple[Table, list[str]]:
    """A new table with a phone in every seat; the first seat's phone made it, so it is the host and may
    enter, correct and undo whatever the seating rules keep from the others."""
    table = session.create(GAME, players, options, token=HOST)
    return table, [session.claim_seat(table.id, seat, HOST if seat == 0 else None)
                   for seat in range(len(players))]


def _move(session: TableSession, table: Table, tokens: list[str], rng: random.Random, churn: bool) -> None:
    """One command as a phone would send it: mostly a move, sometimes an undo or a correction; with
    `churn`, past the 20th step every decision is undone again (the log grows, the game does not)."""
    last = table.steps[-1] if table.steps else None
    undo_chance = 1.0 if churn and table.below + len(table.steps) > 20 else 0.05
    if last is not None and not last.chance and rng.random() < undo_chance:
        session.undo(table.id, table.version, tokens[0])
        return
    if last is not None and last.action.get("type") == "roll" and rng.random() < 0.03:
        request = session.snapshot(table.id)["last_roll"]["request"]
        values = [rng.choice(FACES[die["kind"]]) for die in request["dice"]]
        session.correct(table.id, table.version, values, tokens[0])
        return
    to_move = table.game.current_player(table.state)
    token = tokens[to_move] if isinstance(to_move, int) and 0 <= to_move < len(tokens) else tokens[0]
    session.act(table.id, table.version, random_action(table.game, table.state, rng), token)


def _restart_s(path: Path, repeats: int) -> tuple[float, int, int]:
    """Median seconds to open the store and the session; tables served and archived."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        store = EventStore(path)
        session = TableSession(store)
        times.append(time.perf_counter() - start)
        served, archived = len(session.tables), len(session.archived)
        store.close()
    return statistics.median(times), served, archived


def _history(folder: Path, records: int, churn: bool, seed: int) -> Path:
    path = folder / f"{'churn' if churn else 'games'}-{records}.sqlite"
    store = EventStore(path, durable=False)
    session = TableSession(store)
    rng = random.Random(seed)
    if churn:
        table, tokens = _seated(session, NAMES[:3], {"treehouse": True})
        while table.version < records:
            if table.game.is_over(table.state):
                break
            _move(session, table, tokens, rng, churn=True)
    else:
        _play(session, records, rng, churn=False)
    store.close()
    return path


def run(args) -> int:
    sizes = [int(n) for n in str(getattr(args, "records", "15000,100000")).split(",") if n.strip()]
    repeats = int(getattr(args, "repeats", 3))
    print(f"restart: open the data folder and replay, median of {repeats}")
    print("history                     records  served  archived  restart s  build s")
    with tempfile.TemporaryDirectory() as scratch:
        for records in sizes:
            for churn in (False, True):
                began = time.perf_counter()
                path = _history(Path(scratch), records, churn, seed=records)
                built = time.perf_counter() - began
                total = sum(EventStore(path).last_seqs().values())
                seconds, served, archived = _restart_s(path, repeats)
                name = "one long table (undo churn)" if churn else "games played to the end"
                print(f"{name:27} {total:8d}  {served:6d}  {archived:8d}  {seconds:9.3f}  {built:7.1f}",
                      flush=True)
    return 0
