"""Bad input over HTTP gets a 400 with a clear message, never a 500: seat tokens no phone was given,
JSON nested too deep, and Dice Devils actions of the wrong shape (the issue's examples)."""

from __future__ import annotations

import pytest

from tests.web.phones import new_table, take_seat

RANKS = ["oberteufel", "putzteufel", "satansbraten"]
DEEP_LIST = ("[" * 1000 + "]" * 1000).encode()
DEEP_OBJECT = ('{"a":' * 1000 + "1" + "}" * 1000).encode()
DEEP_ACTION = ('{"version": 1, "action": {"type": "pass", "x": ' + "[" * 900 + "]" * 900 + "}}").encode()


@pytest.fixture
def table(client):
    made = new_table(client, "dice-devils", ["Ann", "Ben", "Cid"])
    return made["id"], take_seat(client, made, 0)


def act(client, table_id, phone, action):
    version = client.get(f"/api/tables/{table_id}", headers=phone).get_json()["version"]
    return client.post(f"/api/tables/{table_id}/actions", headers=phone,
                       json={"version": version, "action": action})


@pytest.mark.parametrize("token", ["é", "Ω", "tok\x7fen", "x" * 500])
@pytest.mark.parametrize("method, path", [("GET", ""), ("GET", "/events"),
                                          ("POST", "/actions"), ("POST", "/confirm"), ("POST", "/undo")])
def test_a_seat_token_no_phone_was_given_is_a_400(client, table, token, method, path):
    table_id, _ = table
    res = client.open(f"/api/tables/{table_id}{path}", method=method, headers={"X-Seat-Token": token},
                      json={"version": 1, "action": {"type": "pass"}})
    assert res.status_code == 400
    assert res.get_json()["error"] == "that seat token is not one this companion gives: take a seat again"


@pytest.mark.parametrize("body", [DEEP_LIST, DEEP_OBJECT, DEEP_ACTION])
@pytest.mark.parametrize("path", ["", "/{id}/seats", "/{id}/actions", "/{id}/confirm", "/{id}/correct"])
def test_json_nested_too_deep_is_a_400_on_every_post(client, table, body, path):
    table_id, phone = table
    res = client.post("/api/tables" + path.format(id=table_id), data=body, headers=phone,
                      content_type="application/json")
    assert res.status_code == 400
    assert res.get_json()["error"] == "JSON nested too deep: at most 16 levels"


@pytest.mark.parametrize("action, words", [
    ({"type": "reveal", "items": [{}, "bed"]}, 'reveal "items": entry 1: an item is named by its text id'),
    ({"type": "reveal", "items": [["bed"], "grill"]}, 'reveal "items": entry 1: an item is named by its'),
    ({"type": "pick", "item": []}, 'pick "item": an item is named by its text id, not a list'),
    ({"type": "pick", "item": "sofa"}, "pick \"item\": unknown item 'sofa'; items: bed,"),
    ({"type": "swap", "with": 0.0}, 'swap "with": a seat is a whole number from 0 to 2, not 0.0'),
    ({"type": "roll", "values": [6.0, 1]}, 'roll "values": entry 1: a die shows a whole number'),
    ({"type": "draw_ranks", "ranks": RANKS, "seat": 1}, "draw_ranks has no field 'seat'"),
])
def test_dice_devils_actions_of_the_wrong_shape_are_a_400(client, table, action, words):
    table_id, phone = table
    before = client.get(f"/api/tables/{table_id}", headers=phone).get_json()
    if action["type"] != "draw_ranks":
        assert act(client, table_id, phone, {"type": "draw_ranks", "ranks": RANKS}).status_code == 200
        before = client.get(f"/api/tables/{table_id}", headers=phone).get_json()
    res = act(client, table_id, phone, action)
    assert res.status_code == 400 and words in res.get_json()["error"]
    assert client.get(f"/api/tables/{table_id}", headers=phone).get_json() == before


def test_an_action_of_the_right_shape_that_is_not_allowed_now_is_still_a_409(client, table):
    table_id, phone = table
    res = act(client, table_id, phone, {"type": "reveal", "items": ["bed", "grill"]})
    assert res.status_code == 409 and "waiting for the rank draw" in res.get_json()["error"]


@pytest.mark.parametrize("game, players", [("dice-devils", ["Ann", "Ben", "Cid"]),
                                           ("battle-zone", ["Ann", "Ben"])])
def test_the_log_of_a_table_where_nobody_has_moved_yet_downloads(client, game, players):
    """Found by `companion bench fuzz`: it answered 500 before the first move."""
    table_id = client.post("/api/tables", json={"game": game, "players": players}).get_json()["id"]
    res = client.get(f"/api/tables/{table_id}/log.jsonl")
    assert res.status_code == 200
    assert res.get_data(as_text=True).count("\n") == 1  # the header only
