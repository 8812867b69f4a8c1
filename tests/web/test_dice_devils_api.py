"""Dice Devils over the JSON API, as the phone page drives it: chance draws built by the page, the odds
query it sends, and a Putzteufel's blind exchange that the third phone must not see."""

from __future__ import annotations

import pytest

from tests.web.phones import new_table, take_seat

DRAW = {"type": "draw_ranks", "ranks": ["oberteufel", "putzteufel", "satansbraten"]}  # Alice, Bob, Carol


@pytest.fixture
def table(client):
    table = new_table(client, "dice-devils", ["Alice", "Bob", "Carol"])
    return table["id"], [take_seat(client, table, seat) for seat in range(3)]


def snap(client, table_id, phone=None):
    return client.get(f"/api/tables/{table_id}", headers=phone or {}).get_json()


def act(client, table_id, phone, action, status=200):
    version = snap(client, table_id, phone)["version"]
    res = client.post(f"/api/tables/{table_id}/actions", headers=phone or {},
                      json={"version": version, "action": action})
    assert res.status_code == status, res.get_json()
    return res.get_json()


def test_chance_draws_come_from_any_seated_phone_and_never_from_a_watcher(client, table):
    table_id, (alice, bob, carol) = table
    for phone in (alice, bob, carol):
        seen = snap(client, table_id, phone)
        assert seen["to_move"] == -1 and seen["legal"] == [] and seen["state"]["draw"]["kind"] == "ranks"
    act(client, table_id, None, DRAW, status=403)
    act(client, table_id, carol, DRAW)
    assert snap(client, table_id, bob)["state"]["you"]["title"] == "Putzteufel"
    wrong = act(client, table_id, alice, {"type": "reveal", "items": ["bed"]}, status=409)
    assert "exactly 2" in wrong["error"]
    act(client, table_id, bob, {"type": "reveal", "items": ["bed", "grill"]})
    assert snap(client, table_id, carol)["state"]["display"] == ["bed", "grill"]


def test_the_odds_query_the_page_sends_matches_the_engine(client, session, table):
    table_id, (alice, bob, carol) = table
    act(client, table_id, alice, DRAW)
    act(client, table_id, alice, {"type": "reveal", "items": ["bed", "grill"]})
    for phone, item in ((alice, 0), (bob, 1), (carol, 1)):
        act(client, table_id, phone, {"type": "claim", "item": item})
    seen = snap(client, table_id, carol)
    assert seen["roll"]["reason"] == (
        "Oberteufel (Alice), Putzteufel (Bob) and Satansbraten (Carol): "
        "roll under your cups, then reveal your dice")
    res = client.get(f"/api/tables/{table_id}/odds?fighters=putzteufel,satansbraten")
    assert res.status_code == 200
    engine = session.get(table_id).game.fight_odds(session.get(table_id).state)
    assert res.get_json()["p_win"] == {"putzteufel": float(engine[1]), "satansbraten": float(engine[2])}


def test_a_blind_exchange_is_entered_by_the_phones_involved_and_hidden_from_the_third(client, table):
    table_id, (alice, bob, carol) = table
    act(client, table_id, alice, DRAW)
    # Round 1: Alice takes the bed; Bob (Putzteufel) beats Carol to the grill and keeps his rank.
    act(client, table_id, alice, {"type": "reveal", "items": ["bed", "grill"]})
    for phone, item in ((alice, 0), (bob, 1), (carol, 1)):
        act(client, table_id, phone, {"type": "claim", "item": item})
    act(client, table_id, carol, {"type": "roll", "values": [1, 1, 1, 6, 6, 1, 1]})
    assert snap(client, table_id, bob)["legal"][-1] == {"type": "pass"}
    act(client, table_id, bob, {"type": "pass"})
    # Round 2: Bob beats Alice to the scarf, then trades his grill for one of her items, drawn blind.
    act(client, table_id, carol, {"type": "reveal", "items": ["scarf", "iron"]})
    for phone, item in ((alice, 0), (bob, 0), (carol, 1)):
        act(client, table_id, phone, {"type": "claim", "item": item})
    act(client, table_id, alice, {"type": "roll", "values": [1, 1, 1, 6, 6]})
    legal = snap(client, table_id, bob)["legal"]
    assert {"type": "exchange", "give": "grill", "from": 0} in legal
    assert snap(client, table_id, carol)["legal"] == []
    act(client, table_id, bob, {"type": "exchange", "give": "grill", "from": 0})

    draws = {name: snap(client, table_id, phone)["state"]["draw"]
             for name, phone in (("alice", alice), ("bob", bob), ("carol", carol))}
    assert draws["bob"]["give"] == draws["alice"]["give"] == "grill" and "give" not in draws["carol"]
    act(client, table_id, None, {"type": "pick", "item": "bed"}, status=403)
    act(client, table_id, alice, {"type": "pick", "item": "bed"})  # the page offers Alice her own items

    mine = {name: snap(client, table_id, phone)["state"]
            for name, phone in (("alice", alice), ("bob", bob), ("carol", carol))}
    assert sorted(mine["bob"]["you"]["collection"]) == ["bed", "scarf"]
    assert mine["alice"]["you"]["collection"] == ["grill"]
    assert mine["carol"]["collections"] == [None, None, ["iron"]]
    assert mine["carol"]["collection_sizes"] == [1, 2, 1]
    told = snap(client, table_id, carol)["history"][-1]["texts"][0]
    assert "picked blind" in told and "bed" not in told and "grill" not in told
