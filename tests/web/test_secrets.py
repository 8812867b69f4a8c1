"""No route tells a phone another seat's secrets: the log download, refusals, and the choices listed."""

from __future__ import annotations

import pytest

import tests.whisper  # noqa: F401  (registers the "whisper" game)
from companion import gamelog
from tests.web.phones import new_table, take_seat

DRAW = {"type": "draw_ranks", "ranks": ["oberteufel", "putzteufel", "satansbraten"]}  # Alice, Bob, Carol


def snap(client, table_id, phone=None):
    return client.get(f"/api/tables/{table_id}", headers=phone or {}).get_json()


def post(client, table_id, phone, action, status=200):
    version = snap(client, table_id, phone)["version"]
    res = client.post(f"/api/tables/{table_id}/actions", headers=phone or {},
                      json={"version": version, "action": action})
    assert res.status_code == status, res.get_json()
    return res.get_json()


def devils(client, seats=(0, 1, 2)):
    """A Dice Devils table with these seats taken; returns its id and a phone (headers) per seat."""
    table = new_table(client, "dice-devils", ["Alice", "Bob", "Carol"])
    return table["id"], {seat: take_seat(client, table, seat) for seat in seats}


def to_the_exchange(client, table_id, phones, driver):
    """Round 1: Bob (Putzteufel) wins the grill from Carol; round 2 he beats Alice to the scarf and may
    exchange. Each seat's steps are entered on its phone; `driver` (a seated phone) acts for seats nobody
    took and enters the public draws."""
    def by(seat):
        return phones.get(seat, driver)

    post(client, table_id, driver, DRAW)
    post(client, table_id, driver, {"type": "reveal", "items": ["bed", "grill"]})
    for seat, item in ((0, 0), (1, 1), (2, 1)):
        post(client, table_id, by(seat), {"type": "claim", "item": item})
    post(client, table_id, by(2), {"type": "roll", "values": [1, 1, 1, 6, 6, 1, 1]})
    post(client, table_id, by(1), {"type": "pass"})
    post(client, table_id, driver, {"type": "reveal", "items": ["scarf", "iron"]})
    for seat, item in ((0, 0), (1, 0), (2, 1)):
        post(client, table_id, by(seat), {"type": "claim", "item": item})
    post(client, table_id, by(0), {"type": "roll", "values": [1, 1, 1, 6, 6]})


def log_of(client, table_id, phone=None):
    res = client.get(f"/api/tables/{table_id}/log.jsonl", headers=phone or {})
    assert res.status_code == 200
    return gamelog.parse(res.get_data(as_text=True))


@pytest.fixture
def blind_pick(client):
    """Bob gave his grill and drew Alice's bed blind; the game runs on."""
    table_id, phones = devils(client)
    to_the_exchange(client, table_id, phones, phones[0])
    post(client, table_id, phones[1], {"type": "exchange", "give": "grill", "from": 0})
    post(client, table_id, phones[1], {"type": "pick", "item": "bed"})
    return table_id, phones


def test_a_phone_downloads_only_what_its_seat_may_know_while_the_game_runs(client, blind_pick):
    table_id, phones = blind_pick
    logs = {seat: log_of(client, table_id, phones[seat]) for seat in range(3)}
    logs[None] = log_of(client, table_id)
    assert logs[2].header() == {"game": "dice-devils", "players": ["Alice", "Bob", "Carol"], "options": {},
                                "view": "seat", "seat": 2, "player": "Carol"}
    assert logs[None].header()["view"] == "spectator"
    picks = {seat: [a for _, a in log.actions if a["type"] == "pick"] for seat, log in logs.items()}
    trades = {seat: [a for _, a in log.actions if a["type"] == "exchange"] for seat, log in logs.items()}
    assert picks[0] == picks[1] == [{"type": "pick", "item": "bed"}]  # the two who saw the tile drawn
    assert picks[2] == picks[None] == [{"type": "pick"}]
    assert trades[1] == [{"type": "exchange", "give": "grill", "from": 0}]  # Bob's own choice
    assert trades[0] == trades[2] == trades[None] == [{"type": "exchange", "from": 0}]
    assert {len(log.actions) for log in logs.values()} == {len(logs[1].actions)}  # every line is there
    assert "grill" not in client.get(f"/api/tables/{table_id}/log.jsonl").get_data(as_text=True).split(
        '"scarf"')[-1]


def test_the_whole_log_is_for_everyone_once_the_game_is_over(client):
    table = new_table(client, "whisper", ["Alice", "Bob"])
    table_id, alice = table["id"], take_seat(client, table, 0)
    post(client, table_id, alice, {"type": "bet", "dice": 2, "whisper": "I need two sixes"})
    assert [a for _, a in log_of(client, table_id).actions] == [{"type": "bet", "dice": 2}]
    assert log_of(client, table_id, alice).actions[0][1]["whisper"] == "I need two sixes"
    post(client, table_id, alice, {"type": "roll", "values": [6, 6]})
    assert snap(client, table_id)["over"]
    log = log_of(client, table_id)
    assert log.header()["view"] == "everyone"
    assert [a for _, a in log.actions] == [{"type": "bet", "dice": 2, "whisper": "I need two sixes"},
                                           {"type": "roll", "values": [6, 6]}]


def test_a_hidden_draw_is_entered_only_by_the_seats_it_concerns_with_one_refusal(client):
    """Before: any seat entering "grill" heard "Oberteufel (Alice) has no grill to draw"."""
    table_id, phones = devils(client)
    to_the_exchange(client, table_id, phones, phones[0])
    post(client, table_id, phones[1], {"type": "exchange", "give": "grill", "from": 0})
    before = snap(client, table_id)["version"]
    outsider = {post(client, table_id, phones[2], {"type": "pick", "item": item}, status=403)["error"]
                for item in ("bed", "grill", "iron", "hot_bath")}  # Alice holds a bed, nothing else
    assert outsider == {"only Bob or Alice may enter this: it is a hidden draw"}
    insider = {post(client, table_id, phone, {"type": "pick", "item": item}, status=409)["error"]
               for phone in (phones[0], phones[1]) for item in ("grill", "iron", "hot_bath", "chili_pepper")}
    assert len(insider) == 1
    assert not any(name in next(iter(insider)) for name in ("grill", "iron", "bath", "chili"))
    assert snap(client, table_id)["version"] == before


def test_a_phone_deciding_for_a_seat_nobody_took_never_sees_its_hidden_items(client):
    """Bob (the Putzteufel) has no phone: Carol's phone decides for him but sees none of his items."""
    table_id, phones = devils(client, seats=(0, 2))
    to_the_exchange(client, table_id, phones, phones[2])
    carol = snap(client, table_id, phones[2])
    assert carol["to_move"] == 1 and carol["legal"] == [{"type": "pass"}] and carol["hidden_choices"]
    assert carol["state"]["collections"][1] is None and carol["state"]["you"]["seat"] == 2
    refusals = {post(client, table_id, phones[2], {"type": "exchange", "give": item, "from": 0},
                     status=403)["error"] for item in ("grill", "scarf", "iron", "bed")}
    assert refusals == {"this choice uses Bob's hidden items: only Bob's own phone may make it"}
    post(client, table_id, phones[2], {"type": "pass"})
