"""The tray watcher reads each settled tray once for the pending roll, again after a new settle or RETRY."""

from __future__ import annotations

import numpy as np
import pytest

import tests.race  # noqa: F401
from companion.store import EventStore
from companion.table import TableSession
from companion.tray import TrayParts, TrayWatcher


class StillAfter:
    """A stand-in settle detector: settled whenever `still` is True."""

    def __init__(self):
        self.still = False

    def update(self, frame, t_ms):
        return self.still


class Thrower:
    def __init__(self):
        self.thrown = []

    def throw(self, dice):
        self.thrown.append(dice)


@pytest.fixture
def rig():
    session = TableSession(EventStore(":memory:"))
    table = session.create("race", ["Alice", "Bob"])
    token = session.claim_seat(table.id, 0)
    settle, thrower, reads = StillAfter(), Thrower(), []
    frame = np.zeros((48, 64, 3), np.uint8)

    def read(image, kinds, colours, count):
        reads.append((image, kinds, colours, count))
        return [{"value": 5, "kind": "d6", "colour": "white", "box": [1, 1, 9, 9], "confidence": 0.99}]

    parts = TrayParts(frame=lambda: frame, settled=settle.update, read=read, annotate=lambda f, d: f,
                      thrower=thrower)
    return session, table, token, settle, thrower, reads, TrayWatcher(session, parts)


def test_nothing_is_read_while_no_roll_is_asked(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    settle.still = True
    assert not watcher.step(0)
    assert reads == [] and thrower.thrown == []


def test_a_settled_tray_is_read_once_and_proposed_with_its_photo(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    assert not watcher.step(0)  # the demo camera throws the die
    assert thrower.thrown == [[{"kind": "d6", "colour": None}]]
    assert not watcher.step(25)  # tumbling
    settle.still = True
    assert watcher.step(50)
    assert not watcher.step(100)
    assert len(reads) == 1 and reads[0][1:] == ({"d6"}, (), 1)  # the roll asks for one d6, by no colour
    assert table.proposal.values == [5] and table.photo.startswith(b"\xff\xd8")


def test_the_reader_is_told_how_many_dice_the_roll_holds(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    session.act(table.id, table.version, {"type": "bet", "dice": 2}, token)
    watcher.step(0)
    watcher.step(25)
    settle.still = True
    assert watcher.step(50)
    assert reads[0][1:] == ({"d6"}, (), 2)  # two d6s: where it reads otherwise, it looks at other scales


def test_a_new_settle_or_retry_reads_again(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    watcher.step(0)
    watcher.step(25)
    settle.still = True
    assert watcher.step(50)
    settle.still = False
    watcher.step(100)
    settle.still = True
    assert watcher.step(150)
    watcher.parts.thrower = None  # a real camera: RETRY reads the dice that lie there
    session.retry(table.id, table.version, token)
    assert watcher.step(200)
    assert len(reads) == 3 and len(thrower.thrown) == 1


def test_the_demo_camera_keeps_its_throw_when_a_phone_joins_and_throws_again_on_retry(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    watcher.step(0)
    watcher.step(25)  # tumbling
    settle.still = True
    assert watcher.step(50)
    shown = table.proposal
    session.claim_seat(table.id, 1)  # Bob joins: the table's version moves, the roll does not
    assert not watcher.step(100)
    assert len(thrower.thrown) == 1 and table.proposal is shown
    session.retry(table.id, table.version, token)
    assert not watcher.step(150)  # the dice are thrown again, and read when they settle
    assert len(thrower.thrown) == 2
    settle.still = False
    watcher.step(200)
    settle.still = True
    assert watcher.step(250) and table.proposal is not shown


def test_dice_left_from_the_last_roll_are_not_read_as_the_new_one(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    watcher.parts.thrower = None
    settle.still = True  # the previous roll's dice lie at rest in the tray
    watcher.step(0)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    assert not watcher.step(50)
    settle.still = False  # the player throws
    watcher.step(100)
    settle.still = True
    assert watcher.step(150) and len(reads) == 1


def test_a_vanished_camera_is_reported_not_fatal(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    watcher.parts.frame = lambda: None
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    assert not watcher.step(0)
    assert watcher.error == "the camera sends no pictures"


def test_a_reader_crash_asks_a_person(rig):
    session, table, token, settle, thrower, reads, watcher = rig

    def broken(frame, kinds, colours, count):
        raise RuntimeError("boom")

    watcher.parts.read = broken
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    watcher.step(0)
    watcher.step(25)
    settle.still = True
    assert watcher.step(50)
    assert not table.proposal.certain and "boom" in watcher.error


def test_a_reading_of_a_roll_typed_meanwhile_on_a_phone_is_not_offered_for_the_next_roll(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    bob = session.claim_seat(table.id, 1)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    watcher.step(0)
    watcher.step(25)  # tumbling
    settle.still = True
    original = watcher.parts.read

    def slow_read(image, *game):  # while the tray is read, Alice types her roll, Bob bets: a new roll awaits
        session.act(table.id, table.version, {"type": "roll", "values": [3]}, token)
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, bob)
        return original(image, *game)

    watcher.parts.read = slow_read
    watcher.step(50)
    assert len(reads) == 1 and table.state["turn"] == 1
    assert table.proposal is None  # Alice's dice were not offered as Bob's roll


def test_nothing_is_read_while_the_host_calibrates_nor_the_calibration_roll_after_it(rig):
    session, table, token, settle, thrower, reads, watcher = rig
    calibrating = {"now": False}
    watcher.parts.paused = lambda: calibrating["now"]
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    watcher.step(0)
    calibrating["now"] = True  # the host takes the table's photos: the dice rolled for it move and settle
    watcher.step(25)
    settle.still = True
    assert not watcher.step(50)
    calibrating["now"] = False
    assert not watcher.step(75)  # the calibration roll still lies there: not the game's roll
    assert reads == []
    settle.still = False  # the game's roll
    watcher.step(100)
    settle.still = True
    assert watcher.step(125) and len(reads) == 1


def test_the_pending_roll_says_the_colours_the_games_sets_go_by():
    session = TableSession(EventStore(":memory:"))
    table = session.create("dog-eat-dog", ["Ann", "Ben", "Cy"])
    pending = session.pending_roll()  # who goes first: a die each, in the seats' colours
    assert pending.table_id == table.id and pending.colours == ("red", "yellow", "green")
    assert [d.colour for d in pending.request.dice] == ["red", "yellow", "green"]
