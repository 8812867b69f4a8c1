"""The JSON API answers with honest status codes and never loses or half-applies a command."""

from __future__ import annotations

import json

import pytest


def create(client, players=("Alice", "Bob")):
    res = client.post("/api/tables", json={"game": "race", "players": list(players)})
    assert res.status_code == 201
    return res.get_json()


def seat(client, table, n):
    """A new phone takes seat `n` with the join code; returns its headers."""
    res = client.post(f"/api/tables/{table['id']}/seats", json={"seat": n, "code": table["code"]})
    assert res.status_code == 201, res.get_json()
    return {"X-Seat-Token": res.get_json()["token"]}


def host(table):
    return {"X-Seat-Token": table["token"]}


def snapshot(client, table_id, headers=None):
    return client.get(f"/api/tables/{table_id}", headers=headers or {}).get_json()


def test_create_join_and_play_a_turn(client, session):
    table = create(client)
    alice = seat(client, table, 0)
    snap = snapshot(client, table["id"], alice)
    assert snap["seat"] == 0 and snap["table"]["code"] == table["code"]
    res = client.post(f"/api/tables/{table['id']}/actions", headers=alice,
                      json={"version": snap["version"], "action": {"type": "bet", "dice": 1}})
    assert res.status_code == 200, res.get_json()
    session.propose_reading(table["id"], [{"value": 4, "kind": "d6", "colour": "white", "box": [0, 0, 9, 9],
                                           "confidence": 0.99}], b"\xff\xd8jpeg")
    snap = snapshot(client, table["id"], alice)
    assert snap["reading"]["values"] == [4] and snap["reading"]["certain"]
    photo = f"/api/tables/{table['id']}/photo/{snap['reading']['photo_id']}.jpg"
    assert client.get(photo).data == b"\xff\xd8jpeg"
    res = client.post(f"/api/tables/{table['id']}/confirm", headers=alice, json={"version": snap["version"]})
    assert res.get_json()["texts"] == ["Alice moves 4"]
    assert snapshot(client, table["id"])["history"][-1]["texts"] == ["Alice moves 4"]


def test_the_same_confirm_twice_applies_once(client, session):
    table = create(client)
    alice, bob = seat(client, table, 0), seat(client, table, 1)
    version = snapshot(client, table["id"])["version"]
    client.post(f"/api/tables/{table['id']}/actions", headers=alice,
                json={"version": version, "action": {"type": "bet", "dice": 1}})
    session.propose_reading(table["id"], [{"value": 2, "kind": "d6", "confidence": 0.99}])
    version = snapshot(client, table["id"])["version"]
    first = client.post(f"/api/tables/{table['id']}/confirm", headers=alice, json={"version": version})
    second = client.post(f"/api/tables/{table['id']}/confirm", headers=bob, json={"version": version})
    assert (first.status_code, second.status_code) == (200, 409)
    assert "moved on" in second.get_json()["error"]
    assert session.get(table["id"]).state["scores"] == [2, 0]


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "JSON object"),
    (b"[1, 2]", 400, "JSON object"),
    (json.dumps({"action": {"type": "bet", "dice": 1}}).encode(), 400, "version"),
    (json.dumps({"version": "3", "action": {"type": "bet"}}).encode(), 400, "version"),
    (json.dumps({"version": 3}).encode(), 400, "action"),
    (json.dumps({"version": 2, "action": {"type": "fly"}}).encode(), 400, "unknown action"),
    (json.dumps({"version": 2, "action": {"type": "bet", "dice": 1.0}}).encode(), 400, "whole number"),
    (json.dumps({"version": 2, "action": {"type": "bet", "dice": 9}}).encode(), 409, "1 or 2"),
    (json.dumps({"version": 99, "action": {"type": "bet", "dice": 1}}).encode(), 409, "moved on"),
])
def test_bad_commands_get_clear_4xx_and_change_nothing(client, body, status, words):
    table = create(client)
    alice = seat(client, table, 0)
    before = snapshot(client, table["id"], alice)
    res = client.post(f"/api/tables/{table['id']}/actions", data=body, headers=alice,
                      content_type="application/json")
    assert res.status_code == status
    assert words in res.get_json()["error"]
    assert snapshot(client, table["id"], alice) == before


def test_watchers_and_strangers_cannot_play(client):
    table = create(client)
    seat(client, table, 0)
    res = client.post(f"/api/tables/{table['id']}/actions", json={"version": 2, "action": {"type": "bet"}})
    assert res.status_code == 403
    res = client.post(f"/api/tables/{table['id']}/actions", headers={"X-Seat-Token": "forged"},
                      json={"version": 2, "action": {"type": "bet", "dice": 1}})
    assert res.status_code == 403
    bob = seat(client, table, 1)
    res = client.post(f"/api/tables/{table['id']}/actions", headers=bob,
                      json={"version": 3, "action": {"type": "bet", "dice": 1}})
    assert res.status_code == 403 and "Alice's turn" in res.get_json()["error"]


def test_unknown_things_are_404_or_400(client):
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/confirm", json={"version": 0}).status_code == 404
    assert client.get("/api/no-such-route").status_code == 404
    assert client.get("/j/ZZZZ").status_code == 404
    res = client.post("/api/tables", json={"game": "chess", "players": ["A", "B"]})
    assert res.status_code == 400 and "unknown game" in res.get_json()["error"]
    res = client.post("/api/tables", json={"game": "race", "players": "Alice"})
    assert res.status_code == 400
    table = create(client)
    assert client.post(f"/api/tables/{table['id']}/seats", json={"seat": 5}).status_code == 400
    assert client.post(f"/api/tables/{table['id']}/seats", json={"seat": "x"}).status_code == 400


def test_a_huge_body_is_refused_with_413(client):
    table = create(client)
    res = client.post(f"/api/tables/{table['id']}/actions", data=b"x" * (1024 * 1024),
                      content_type="application/json")
    assert res.status_code == 413
    assert "error" in res.get_json()


def test_confirm_without_a_reading_says_what_to_do(client):
    table = create(client)
    alice = seat(client, table, 0)
    client.post(f"/api/tables/{table['id']}/actions", headers=alice,
                json={"version": 2, "action": {"type": "bet", "dice": 1}})
    res = client.post(f"/api/tables/{table['id']}/confirm", headers=alice, json={"version": 3})
    assert res.status_code == 409 and "roll the dice" in res.get_json()["error"]


def test_join_by_code_and_qr(client):
    table = create(client)
    res = client.get(f"/j/{table['code'].lower()}")
    assert res.status_code == 302
    assert res.headers["Location"].endswith(f"/t/{table['id']}#code={table['code']}")
    svg = client.get(f"/api/tables/{table['id']}/qr.svg", headers=host(table))
    assert svg.status_code == 200 and b"<svg" in svg.data


def test_the_game_log_downloads_in_replay_format(client):
    from companion import gamelog

    table = create(client)
    alice = seat(client, table, 0)
    client.post(f"/api/tables/{table['id']}/actions", headers=alice,
                json={"version": 2, "action": {"type": "bet", "dice": 2}})
    text = client.get(f"/api/tables/{table['id']}/log.jsonl").get_data(as_text=True)
    log = gamelog.parse(text)
    assert log.game == "race" and [a for _, a in log.actions] == [{"type": "bet", "dice": 2}]


def test_pages_render(client):
    table = create(client)
    assert b"New table" in client.get("/").data
    page = client.get(f"/t/{table['id']}", headers=host(table))
    assert page.status_code == 200 and table["code"].encode() in page.data
    assert client.get("/t/nope").status_code == 404


def test_the_event_stream_starts_with_a_snapshot(client):
    table = create(client)
    res = client.get(f"/api/tables/{table['id']}/events", headers=host(table))
    first = next(res.response)
    first = first.decode() if isinstance(first, bytes) else first
    assert "event: snapshot" in first and table["code"] in first
    res.close()
