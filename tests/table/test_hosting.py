"""The host and the seats in the table session: the CONFIRM button's approvals, and a restart."""

from __future__ import annotations

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.store import EventStore
from companion.table import NotNow, NotYourSeat, TableSession


def hosted(session):
    table = session.create("race", ["Alice", "Bob"], token="host-phone")
    return table, session.claim_seat(table.id, 0), session.claim_seat(table.id, 1)


def test_a_press_of_confirm_on_the_table_approves_a_phone_as_host(session):
    table, alice, _ = hosted(session)
    asked = session.request_host(table.id, alice)
    assert not asked["granted"] and table.host == "host-phone"
    assert session.press_confirm(table.id) == ["New host: Alice's phone"]
    assert table.host == alice and table.requests == []


def test_the_button_hands_a_lost_phones_seat_to_the_new_one(session):
    table, alice, _ = hosted(session)
    answer = session.join(table.id, 0, table.code, "alices-new-phone")
    assert not answer["granted"]
    session.press_confirm(table.id)
    assert table.seats[0] == "alices-new-phone" and table.seats_of(alice) == []


def test_the_button_approves_nothing_when_two_phones_ask(session):
    table, alice, bob = hosted(session)
    session.request_host(table.id, alice)
    session.request_host(table.id, bob)
    with pytest.raises(NotNow, match="2 phones are asking"):
        session.press_confirm(table.id)
    assert table.host == "host-phone"


def test_with_no_request_the_button_confirms_the_reading(session):
    table, alice, _ = hosted(session)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    session.propose_reading(table.id, [{"value": 3, "kind": "d6", "confidence": 0.99}])
    assert session.press_confirm(table.id) == ["Alice moves 3"]


def test_a_phone_cannot_approve_its_own_request(session):
    table, alice, _ = hosted(session)
    request = session.request_host(table.id, alice)["request"]
    with pytest.raises(NotYourSeat):
        session.approve(table.id, request, alice)


def test_host_changes_hand_overs_and_the_end_survive_a_restart(db, session):
    table, alice, bob = hosted(session)
    session.pass_host(table.id, 1, "host-phone")
    session.join(table.id, 0, table.code, "alices-new-phone")
    session.press_confirm(table.id)
    session.free_seat(table.id, 1, bob)
    session.set_options(table.id, {"goal": 30}, bob)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, "alices-new-phone")
    second = session.create("race", ["Carol", "Dan"], token="carols-phone")
    session.use_here(second.id, None)
    session.use_here(table.id, bob)
    assert TableSession(EventStore(db)).current == table.id  # the way back survives a restart too
    session.end_game(table.id, bob)
    reborn = TableSession(EventStore(db))
    again = reborn.get(table.id)
    assert (again.host, again.seats, again.ended) == (bob, {0: "alices-new-phone"}, True)
    assert again.state == table.state
    assert again.state["goal"] == 30
    assert reborn.get(second.id).host == "carols-phone"
