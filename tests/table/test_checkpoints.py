"""Checkpoints and archived tables: a restart replays only what came after a table's last checkpoint and
never a finished table, and a restarted table behaves exactly as one that never stopped (undo and
correction included)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.race  # noqa: F401  (registers the "race" game)
from companion.bench_engine import random_action
from companion.games import CHANCE, FACES
from companion.store import EventStore
from companion.table import TableError, TableSession

NEVER = 10**9  # checkpoint_every for a reference session that never checkpoints


def count_replays(monkeypatch) -> list[int]:
    """Count the records the session replays from now on."""
    seen: list[int] = []
    replay = TableSession._replay

    def counted(self, table, record):
        seen.append(record.seq)
        return replay(self, table, record)

    monkeypatch.setattr(TableSession, "_replay", counted)
    return seen


def churn(session, table, token, pairs):
    """Bet and undo `pairs` times: the log grows, the game does not."""
    for _ in range(pairs):
        session.act(table.id, table.version, {"type": "bet", "dice": 2}, token)
        session.undo(table.id, table.version, token)


def test_a_restart_replays_only_the_records_after_the_last_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "t.sqlite"
    session = TableSession(EventStore(path), checkpoint_every=50)
    table = session.create("race", ["Alice", "Bob"], {"goal": 1000})
    alice = session.claim_seat(table.id, 0)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.act(table.id, table.version, {"type": "roll", "values": [3]}, alice)
    churn(session, table, alice, 500)  # 1,003 records
    replayed = count_replays(monkeypatch)
    reborn = TableSession(EventStore(path), checkpoint_every=50)
    again = reborn.get(table.id)
    assert again.version == table.version == 1003 and again.state == table.state
    assert len(replayed) < 50 + 1  # what came after the checkpoint, and the one seat taken


def test_a_finished_table_is_archived_at_start_and_loaded_when_opened(tmp_path, monkeypatch):
    path = tmp_path / "t.sqlite"
    session = TableSession(EventStore(path))
    done = session.create("race", ["Alice", "Bob"])
    alice, bob = session.claim_seat(done.id, 0), session.claim_seat(done.id, 1)
    while not done.game.is_over(done.state):
        token = (alice, bob)[done.state["turn"]]
        session.act(done.id, done.version, {"type": "bet", "dice": 2}, token)
        session.act(done.id, done.version, {"type": "roll", "values": [6, 6]}, token)
    running = session.create("race", ["Carol", "Dave"])
    replayed = count_replays(monkeypatch)
    reborn = TableSession(EventStore(path))
    assert done.id in reborn.archived and done.id not in reborn.tables
    assert replayed == []  # neither the finished table nor the empty running one needed a record
    assert running.id in reborn.tables and reborn.current == running.id
    opened = reborn.by_code(done.code)
    assert opened.id == done.id and opened.state == done.state and opened.version == done.version
    assert done.id in reborn.tables and reborn.actions_log(done.id) == session.actions_log(done.id)


def test_a_long_game_holds_only_the_steps_undo_can_reach(tmp_path):
    session = TableSession(EventStore(tmp_path / "t.sqlite"), checkpoint_every=20)
    table = session.create("race", ["Alice", "Bob"], {"goal": 10_000})
    alice, bob = session.claim_seat(table.id, 0), session.claim_seat(table.id, 1)
    for turn in range(200):
        token = (alice, bob)[turn % 2]
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
        session.act(table.id, table.version, {"type": "roll", "values": [1]}, token)
    assert len(table.steps) < 20 + 2 and table.below + len(table.steps) == 400
    history = session.snapshot(table.id)["history"]
    assert [line["seq"] for line in history] == list(range(203, 403))  # the page's history is whole
    assert len(session.actions_log(table.id)) == 400


# ---- a restarted table is the table that never stopped ------------------------------------------------
commands = st.lists(st.one_of(
    st.tuples(st.just("bet"), st.integers(1, 2)),
    st.tuples(st.just("roll"), st.lists(st.integers(1, 6), min_size=1, max_size=2)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("correct"), st.lists(st.integers(1, 6), min_size=1, max_size=2)),
    st.tuples(st.just("seat"), st.integers(0, 1)),
    st.tuples(st.just("restart")),
), max_size=120)


def apply(session, table_id, tokens, command):
    """Send one command as the player to move would; the outcome, or the refusal's kind and words."""
    table = session.get(table_id)
    to_move = table.game.current_player(table.state)
    token = tokens.get(to_move if isinstance(to_move, int) and to_move >= 0 else 0) or tokens.get(1)
    name, *args = command
    try:
        if name == "bet":
            return session.act(table_id, table.version, {"type": "bet", "dice": args[0]}, token)
        if name == "roll":
            return session.act(table_id, table.version, {"type": "roll", "values": args[0]}, token)
        if name == "undo":
            return session.undo(table_id, table.version, token)
        if name == "correct":
            return session.correct(table_id, table.version, args[0], token)
        tokens[args[0]] = session.claim_seat(table_id, args[0])
        return "seated"
    except TableError as err:
        return (type(err).__name__, str(err))


def seen_by(session, table_id, token):
    """What a phone sees, less the table's id and code (the two sessions' tables differ only there)."""
    snap = session.snapshot(table_id, token)
    snap["table"] = {k: v for k, v in snap["table"].items() if k not in ("id", "code")}
    return snap


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=commands, every=st.integers(1, 6), goal=st.integers(6, 40))
def test_a_table_restarted_anywhere_behaves_as_one_never_stopped(tmp_path_factory, script, every, goal):
    folder = tmp_path_factory.mktemp("restart")
    steady = TableSession(EventStore(folder / "steady.sqlite"), checkpoint_every=NEVER)
    path = folder / "restarted.sqlite"
    restarted = TableSession(EventStore(path), checkpoint_every=every)
    ids = [s.create("race", ["Alice", "Bob"], {"goal": goal}).id for s in (steady, restarted)]
    tokens: list[dict[int, str]] = [{0: steady.claim_seat(ids[0], 0)}, {0: restarted.claim_seat(ids[1], 0)}]
    for command in script:
        if command == ("restart",):
            restarted.store.close()
            restarted = TableSession(EventStore(path), checkpoint_every=every)
            continue
        assert apply(restarted, ids[1], tokens[1], command) == apply(steady, ids[0], tokens[0], command)
        for seat in (None, 0):
            assert seen_by(restarted, ids[1], tokens[1].get(seat) if seat is not None else None) == \
                seen_by(steady, ids[0], tokens[0].get(seat) if seat is not None else None)
    assert restarted.actions_log(ids[1]) == steady.actions_log(ids[0])


def test_a_dog_eat_dog_game_restarted_often_ends_as_the_one_never_stopped(tmp_path):
    rng = random.Random(3)
    steady = TableSession(EventStore(tmp_path / "steady.sqlite"), checkpoint_every=NEVER)
    path = tmp_path / "restarted.sqlite"
    restarted = TableSession(EventStore(path), checkpoint_every=7)
    sessions = [steady, restarted]
    ids = [s.create("dog-eat-dog", ["Alice", "Bob", "Carol"], {"treehouse": True}, token="host").id
           for s in sessions]  # the host enters every roll, undoes and corrects
    tokens = [[s.claim_seat(i, seat) for seat in range(3)] for s, i in zip(sessions, ids, strict=True)]
    for _ in range(400):
        table = steady.get(ids[0])
        if table.game.is_over(table.state):
            break
        last = table.steps[-1] if table.steps else None
        if last is not None and not last.chance and rng.random() < 0.15:
            command = ("undo", None)
        elif last is not None and last.action.get("type") == "roll" and rng.random() < 0.1:
            request = steady.snapshot(ids[0])["last_roll"]["request"]
            command = ("correct", [rng.choice(FACES[d["kind"]]) for d in request["dice"]])
        else:
            command = ("act", random_action(table.game, table.state, rng))
        to_move = table.game.current_player(table.state)
        seat = to_move if isinstance(to_move, int) and to_move >= 0 else 0
        for n, session in enumerate(sessions):
            t = session.get(ids[n])
            if command[0] == "undo":
                session.undo(ids[n], t.version, "host")
            elif command[0] == "correct":
                session.correct(ids[n], t.version, command[1], "host")
            else:
                session.act(ids[n], t.version, command[1], tokens[n][seat] if to_move != CHANCE else "host")
        if rng.random() < 0.1:
            restarted.store.close()
            restarted = sessions[1] = TableSession(EventStore(path), checkpoint_every=7)
    assert restarted.get(ids[1]).state == steady.get(ids[0]).state
    assert restarted.actions_log(ids[1]) == steady.actions_log(ids[0])
    assert restarted.store.checkpoint(ids[1]) is not None and restarted.get(ids[1]).below > 0
    for seat in (0, None):  # the download, rebuilt from the log below the checkpoint, is the same
        assert restarted.log_view(ids[1], None if seat is None else tokens[1][seat])[1] == \
            steady.log_view(ids[0], None if seat is None else tokens[0][seat])[1]


def test_the_restart_bench_builds_its_histories_under_the_seating_rules(tmp_path):
    from companion.bench_restart import _history, _restart_s

    for churned in (False, True):
        path = _history(tmp_path, 300, churned, seed=300)
        assert sum(EventStore(path).last_seqs().values()) >= 300
        seconds, served, archived = _restart_s(path, repeats=1)
        assert served >= 1 and seconds > 0
