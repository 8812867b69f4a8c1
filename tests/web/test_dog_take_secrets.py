"""DOG for three (individual play, rules/dog.md 2.6): when a 2 takes a card from an opponent, only the
opponent's phone is offered its cards to hand over, and no phone, stream or log shows another seat's hand
(the card handed over is then the taker's and the giver's alone).

Each seat holds a rank no other seat holds (its marker: Ann K, Ben J, Cat Q; Ben's 9 is the card Ann's 2
takes), and each hands its right-hand neighbour a rank only it holds (Ann 5, Ben 6, Cat 8), so a card
seen where it should not be is told by its name alone.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.web.dog_seats import SeatedTable
from tests.web.test_live import call

NAMES = ["Ann", "Ben", "Cat"]
HANDS = [["K", "K", "2", "5", "3", "3"], ["J", "J", "9", "6", "3", "3"], ["Q", "Q", "A", "8", "4", "4"]]
MARKERS = [["K"], ["J", "9"], ["Q"]]
GIFTS = ["5", "6", "8"]


def foreign(text: str, seat: int | None, also_mine: tuple[str, ...] = ()) -> list[str]:
    """The cards of other seats named in `text` (a card travels as a quoted JSON string; "seen" keys are
    ranks, not cards), less those `seat` may know (`also_mine`)."""
    names = [m for s, marks in enumerate(MARKERS) if s != seat for m in marks if m not in also_mine]
    return [n for n in names if re.search(re.escape(json.dumps(n)) + r"(?!\s*:)", text)]


def check_every_route(table: SeatedTable, known: dict[int, tuple[str, ...]]) -> None:
    table.check_every_route(lambda text, seat: foreign(text, seat, known.get(seat, ())))


@pytest.fixture
def table(served):
    made = SeatedTable(served.server, NAMES)
    yield made
    made.close()


def test_only_the_phone_a_2_takes_from_is_offered_its_cards_and_no_phone_sees_another_hand(table):
    first = table.snap(0)["state"]["starter"]
    order = [(first + k) % 3 for k in range(3)]
    for seat in order:
        table.act(seat, {"type": "deal", "seat": seat, "cards": HANDS[seat]})
    for seat in order:  # each right-hand neighbour's phone enters the card taken from it
        table.act(seat, {"type": "give", "seat": seat, "card": GIFTS[seat]})
    check_every_route(table, {})
    ann = table.snap(0)
    assert ann["to_move"] == 0, "Ann starts: Cat deals"
    takes = [a for a in ann["legal"] if a["type"] == "take"]
    assert {a["from"] for a in takes} == {1, 2} and {a["card"] for a in takes} == {"2"}

    table.act(0, {"type": "take", "card": "2", "from": 1})
    ben = table.snap(1)
    assert ben["state"]["phase"] == "take" and ben["to_move"] == 1
    assert sorted(a["card"] for a in ben["legal"]) == sorted(set(ben["state"]["hands"][1]))
    assert all(a == {"type": "hand_over", "seat": 1, "card": a["card"]} for a in ben["legal"])
    assert table.snap(0)["legal"] == [] and table.snap(2)["legal"] == [] and table.snap(None)["legal"] == []
    check_every_route(table, {})

    table.act(1, {"type": "hand_over", "seat": 1, "card": "9"})
    assert "9" in table.snap(0)["state"]["hands"][0]
    check_every_route(table, {0: ("9",)})  # Ann took Ben's 9: Cat still sees neither hand


def test_a_phone_may_not_hand_over_for_another_seat(table):
    first = table.snap(0)["state"]["starter"]
    order = [(first + k) % 3 for k in range(3)]
    for seat in order:
        table.act(seat, {"type": "deal", "seat": seat, "cards": HANDS[seat]})
    for seat in order:
        table.act(seat, {"type": "give", "seat": seat, "card": GIFTS[seat]})
    table.act(0, {"type": "take", "card": "2", "from": 1})
    version = table.snap(2)["version"]
    status, data = call(table.web, "POST", f"/api/tables/{table.id}/actions",
                        {"version": version, "action": {"type": "hand_over", "seat": 1, "card": "9"}},
                        {"X-Seat-Token": table.tokens[2]})
    assert status == 403, data
