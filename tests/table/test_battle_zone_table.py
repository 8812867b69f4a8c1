"""Battle Zone at a live table: the camera's roll, a die's action from the phone to move, and a board
correction from the host's phone, logged and rebuilt after a restart."""

from __future__ import annotations

import pytest

from companion.store import EventStore
from companion.table import NotYourSeat, TableSession


def reading(*values):
    return [{"value": v, "kind": "d6", "colour": "white", "box": [0, 0, 10, 10], "confidence": 0.97}
            for v in values]


def test_a_battle_zone_roll_an_action_and_a_host_correction_survive_a_restart(tmp_path):
    db = tmp_path / "table.sqlite"
    session = TableSession(EventStore(db))
    table = session.create("battle-zone", ["Alice", "Bob"], token="bobs-phone")  # Bob hosts
    alice, bob = session.claim_seat(table.id, 0), session.claim_seat(table.id, 1, "bobs-phone")
    session.propose_reading(table.id, reading(1, 2, 3))
    session.confirm(table.id, table.version)
    snap = session.snapshot(table.id, alice)
    assert {"type": "place", "die": 0, "colour": "red", "square": "c1"} in snap["legal"]
    texts = session.act(table.id, table.version, {"type": "place", "die": 0, "colour": "red", "square": "c1"},
                        alice)
    assert "Alice places a small red on c1, lying and pointing at Bob." in texts
    with pytest.raises(NotYourSeat):
        session.act(table.id, table.version, {"type": "end"}, bob)
    fix = {"type": "correct", "square": "c1", "piece": {"colour": "red", "size": 1, "controller": None}}
    with pytest.raises(NotYourSeat, match="only the host"):
        session.act(table.id, table.version, fix, alice)
    session.act(table.id, table.version, fix, bob)  # not Bob's turn, but Bob hosts
    before = session.get(table.id).state
    assert before["board"]["c1"]["controller"] is None

    again = TableSession(EventStore(db))
    assert again.get(table.id).state == before
    assert again.actions_log(table.id)[-1] == fix
