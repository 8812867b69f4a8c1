"""DOG's hands are secret: through the page's snapshot, its live stream and the log download, a phone sees
its own cards only, while the cards are entered, while partners exchange one face down, and in play.

Each seat is dealt a rank no other seat holds (its marker: Ann K, Ben J, Cat Q, Dan 10) and gives its
partner a rank only it holds (Ann 5, Ben 6, Cat 8, Dan 9), so a card seen anywhere it should not be is
told by its name alone (a card travels as a quoted JSON string, "K"; the ranks are also the keys of the
public count of cards laid, "seen", which are not cards).
"""

from __future__ import annotations

import json
import re

import pytest

from companion.games.dog.cards import RANKS
from tests.web.dog_seats import SeatedTable

NAMES = ["Ann", "Ben", "Cat", "Dan"]
HANDS = [["K", "K", "A", "5", "2", "3"], ["J", "J", "A", "6", "2", "3"], ["Q", "Q", "A", "8", "2", "3"],
         ["10", "10", "A", "9", "2", "3"]]
MARKERS = ["K", "J", "Q", "10"]  # never leave their seat's hand in this test
GIFTS = ["5", "6", "8", "9"]  # each its giver's alone until the exchange ends


def foreign(text: str, seat: int | None, gifts_open: bool) -> list[str]:
    """The other seats' cards named in `text` (a snapshot or log as JSON text)."""
    names = [m for s, m in enumerate(MARKERS) if s != seat]
    if not gifts_open:  # before the exchange ends, a given card is its giver's alone
        names += [g for s, g in enumerate(GIFTS) if s != seat]
    return [n for n in names if re.search(re.escape(json.dumps(n)) + r"(?!\s*:)", text)]  # not a key


def check_every_route(table: SeatedTable, gifts_open: bool = False) -> None:
    table.check_every_route(lambda text, seat: foreign(text, seat, gifts_open))


@pytest.fixture
def table(served):
    made = SeatedTable(served.server, NAMES)
    yield made
    made.close()


def test_each_phone_sees_only_its_own_dealt_cards_on_every_route(table):
    for seat, hand in enumerate(HANDS):
        table.act(seat, {"type": "deal", "seat": seat, "cards": hand})
        check_every_route(table)
        assert table.snap(seat)["state"]["hands"][seat] == sorted(hand, key=RANKS.index)


def test_the_phone_giving_first_is_offered_only_its_own_cards_to_give(table):
    """Before: the seat to give first was listed every waiting seat's gives, so it read their hands."""
    for seat, hand in enumerate(HANDS):
        table.act(seat, {"type": "deal", "seat": seat, "cards": hand})
    ann = table.snap(0)
    assert ann["state"]["phase"] == "exchange" and ann["to_move"] == 0
    assert {json.dumps(a, sort_keys=True) for a in ann["legal"]} == {
        json.dumps({"card": c, "seat": 0, "type": "give"}, sort_keys=True) for c in set(HANDS[0])}
    assert all(table.snap(seat)["legal"] == [] for seat in (1, 2, 3, None))


def test_a_card_given_face_down_stays_with_its_giver_until_the_exchange_ends(table):
    for seat, hand in enumerate(HANDS):
        table.act(seat, {"type": "deal", "seat": seat, "cards": hand})
    for seat, card in enumerate(GIFTS[:3]):
        table.act(seat, {"type": "give", "seat": seat, "card": card})
        check_every_route(table)
        assert table.snap(seat)["state"]["given"][seat] == card
    table.act(3, {"type": "give", "seat": 3, "card": GIFTS[3]})
    check_every_route(table, gifts_open=True)
    cat = table.snap(2)["state"]["hands"][2]
    assert "5" in cat and "8" not in cat  # Cat took Ann's 5 and gave her 8


def test_in_play_a_phone_still_sees_only_its_own_hand(table):
    for seat, hand in enumerate(HANDS):
        table.act(seat, {"type": "deal", "seat": seat, "cards": hand})
    for seat, card in enumerate(GIFTS):
        table.act(seat, {"type": "give", "seat": seat, "card": card})
    table.act(0, {"type": "start", "card": "A"})
    check_every_route(table, gifts_open=True)
    ben = table.snap(1)
    assert ben["to_move"] == 1 and {a["card"] for a in ben["legal"] if "card" in a} <= set(HANDS[1]) | {"9"}
    assert table.snap(0)["legal"] == []
