"""The table session: versions, seats, the roll flow, undo, correction, and replay after a restart."""

from __future__ import annotations

import threading

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.store import EventStore
from companion.table import BadCommand, NotNow, NotYourSeat, TableSession, UnknownTable


def seated(session):
    table = session.create("race", ["Alice", "Bob"])
    return table, session.claim_seat(table.id, 0), session.claim_seat(table.id, 1)


def dice(*values, confidence=0.97, kind="d6"):
    return [{"value": v, "kind": kind, "colour": "white", "box": [0, 0, 10, 10], "confidence": confidence}
            for v in values]


def test_a_bet_then_a_confirmed_reading_moves_the_player(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
    proposal = session.propose_reading(table.id, dice(3, 5))
    assert proposal.certain and proposal.values == [3, 5]
    texts = session.confirm(table.id, table.version)
    assert texts == ["Alice moves 8"]
    assert table.state["scores"] == [8, 0]


def test_stale_version_is_refused_so_two_phones_confirm_once(session):
    table, alice, bob = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, dice(4))
    seen = table.version
    session.confirm(table.id, seen, alice)
    with pytest.raises(NotNow, match="moved on"):
        session.confirm(table.id, seen, bob)
    assert table.state["scores"] == [4, 0]


def test_concurrent_confirms_apply_exactly_once(session):
    table, alice, bob = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, dice(6))
    seen, results = table.version, []

    def press(token):
        try:
            session.confirm(table.id, seen, token)
            results.append("applied")
        except NotNow:
            results.append("refused")

    threads = [threading.Thread(target=press, args=(t,)) for t in (alice, bob) * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied"] + ["refused"] * 7
    assert table.state["scores"] == [6, 0]


def test_a_reading_with_the_wrong_number_of_dice_is_never_certain(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
    proposal = session.propose_reading(table.id, dice(3))
    assert not proposal.certain and "expected 2 dice, saw 1" in proposal.problems
    with pytest.raises(NotNow, match="uncertain"):
        session.confirm(table.id, table.version, alice)


def test_a_low_confidence_reading_asks_a_person(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    proposal = session.propose_reading(table.id, dice(5, confidence=0.4))
    assert not proposal.certain
    assert any("unclear" in p for p in proposal.problems)


def test_retry_forgets_the_reading_and_asks_the_camera_again(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, dice(2))
    session.retry(table.id, table.version, alice)
    assert table.proposal is None and table.read_requests == 1
    with pytest.raises(NotNow, match="no reading yet"):
        session.confirm(table.id, table.version)


def test_a_phone_may_type_the_dice(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.act(table.id, table.version, {"type": "roll", "values": [5]}, alice)
    assert table.state["scores"] == [5, 0]
    assert table.steps[-1].source == "phone"


def test_only_the_player_to_move_decides(session):
    table, _, bob = seated(session)
    with pytest.raises(NotYourSeat, match="Alice's turn"):
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, bob)
    with pytest.raises(NotYourSeat):
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, "not-a-token")


def test_a_phone_may_act_for_a_seat_nobody_took(session):
    table = session.create("race", ["Alice", "Bob"])
    bob = session.claim_seat(table.id, 1)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, bob)
    assert table.state["roll"] is not None


def test_a_taken_seat_cannot_be_taken_again(session):
    table, _, _ = seated(session)
    with pytest.raises(NotNow, match="taken"):
        session.claim_seat(table.id, 0)
    with pytest.raises(BadCommand):
        session.claim_seat(table.id, 7)


def test_an_illegal_action_changes_nothing(session):
    table, alice, _ = seated(session)
    before = (table.version, table.state)
    with pytest.raises(NotNow):
        session.act(table.id, table.version, {"type": "bet", "dice": 3}, alice)
    assert (table.version, table.state) == before


def test_undo_takes_back_a_decision_but_never_a_roll(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
    session.undo(table.id, table.version, alice)
    assert table.state["roll"] is None and table.state["turn"] == 0
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.act(table.id, table.version, {"type": "roll", "values": [3]}, alice)
    with pytest.raises(NotNow, match="cannot be undone"):
        session.undo(table.id, table.version, alice)


def test_a_confirmed_roll_is_corrected_and_resolved_again(session):
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, dice(2))
    session.confirm(table.id, table.version)
    session.correct(table.id, table.version, [6], alice)
    assert table.state["scores"] == [6, 0]
    with pytest.raises(BadCommand):
        session.correct(table.id, table.version, [9], alice)


def test_everything_confirmed_survives_a_restart(db, session):
    table, alice, bob = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
    session.undo(table.id, table.version, alice)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, dice(1))
    session.confirm(table.id, table.version)
    session.correct(table.id, table.version, [4], alice)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, bob)
    reborn = TableSession(EventStore(db))
    again = reborn.get(table.id)
    assert again.state == table.state and again.version == table.version
    assert again.seats == table.seats and again.code == table.code
    assert reborn.current == table.id
    assert reborn.actions_log(table.id) == session.actions_log(table.id)


def test_the_snapshot_of_a_watcher_lists_no_moves(session):
    table, alice, _ = seated(session)
    watcher = session.snapshot(table.id, None)
    assert watcher["seat"] is None and watcher["legal"] == []
    mine = session.snapshot(table.id, alice)
    assert mine["seat"] == 0 and {"type": "bet", "dice": 1} in mine["legal"]


def test_unknown_tables_and_games_are_clear_errors(session):
    with pytest.raises(UnknownTable):
        session.get("nope")
    with pytest.raises(BadCommand, match="unknown game"):
        session.create("chess", ["A", "B"])
    with pytest.raises(BadCommand, match="unknown option"):
        session.create("race", ["A", "B"], {"speed": 3})
    with pytest.raises(BadCommand, match="players"):
        session.create("race", "Alice")


def test_listeners_hear_of_each_change_after_it_is_stored(db, session):
    heard = []
    session.listen(lambda table_id, version, texts: heard.append((version, texts)))
    table, alice, _ = seated(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    assert heard[-1] == (3, ["Alice bets on 1 dice"])
    assert len(EventStore(db).records(table.id)) == 3


def test_confirm_applies_exactly_the_reading_the_phone_showed(session):
    table = session.create("race", ["Alice", "Bob"])
    alice = session.claim_seat(table.id, 0)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    shown = session.propose_reading(table.id, dice(4))
    session.propose_reading(table.id, dice(6))  # the dice were read again after Alice's phone showed 4
    with pytest.raises(NotNow, match="read again after your phone showed them"):
        session.confirm(table.id, None, alice, reading=shown.photo_id)
    assert table.state["scores"] == [0, 0]
    now = table.proposal
    session.claim_seat(table.id, 1)  # Bob joins: the version moves on, the reading Alice sees does not
    session.confirm(table.id, table.version - 1, alice, reading=now.photo_id)
    assert table.state["scores"] == [6, 0]


def test_every_reading_gets_its_own_photo_id(session):
    table, alice, _ = seated(session)
    ids = set()
    for _ in range(3):
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
        ids.add(session.propose_reading(table.id, dice(2)).photo_id)
        ids.add(session.propose_reading(table.id, dice(2)).photo_id)
        session.confirm(table.id, table.version, alice)
        session.act(table.id, table.version, {"type": "bet", "dice": 1}, table.seats[1])
        ids.add(session.propose_reading(table.id, dice(1)).photo_id)
        session.confirm(table.id, table.version, table.seats[1])
    assert len(ids) == 9 and all(ids)


def test_a_table_is_opened_only_for_the_player_counts_its_page_can_show(session):
    import companion.games  # noqa: F401  (registers the games)

    for count in (1, 7):  # the DOG engine and its page play 2 to 6 (2.6)
        with pytest.raises(BadCommand, match=f"DOG is played here by 2 to 6 players, not {count}"):
            session.create("dog", [f"P{k}" for k in range(count)])
    with pytest.raises(BadCommand, match="not 3"):
        session.create("battle-zone", ["Ann", "Ben", "Cat"])
    for count in (2, 3, 4, 5, 6):  # with the usual options: the first dealer is the last seat
        made = session.create("dog", [f"P{k}" for k in range(count)])
        assert made.players == [f"P{k}" for k in range(count)] and made.state["dealer"] == count - 1
    assert len(session.tables) == 5  # nothing was made by a refusal
