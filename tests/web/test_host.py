"""A host, and seats that stay with their phones: who may do what, joining by code, the camera's table."""

from __future__ import annotations

import tests.race  # noqa: F401  (registers the "race" game)
from tests.web.phones import new_table, phone, take_seat


def snap(client, table_id, headers=None):
    return client.get(f"/api/tables/{table_id}", headers=headers or {}).get_json()


def post(client, path, headers=None, **data):
    return client.post(f"/api/tables{path}", json=data, headers=headers or {})


def act(client, table_id, headers, action):
    version = snap(client, table_id)["version"]
    return post(client, f"/{table_id}/actions", headers, version=version, action=action)


def race(client):
    """A race table: its host phone (no seat), Alice's and Bob's phones."""
    table = new_table(client, "race", ["Alice", "Bob"])
    return table, phone(table["token"]), take_seat(client, table, 0), take_seat(client, table, 1)


def test_the_phone_that_makes_a_table_is_its_host(client):
    table, host, alice, _ = race(client)
    assert snap(client, table["id"], host)["phone"]["host"] is True
    assert snap(client, table["id"], alice)["phone"]["host"] is False
    assert snap(client, table["id"])["phone"] == {"host": False, "seats": [], "member": False,
                                                  "may_roll": False, "may_correct": False}


def test_only_the_host_ends_changes_options_frees_seats_and_starts_another_game(client):
    table, host, alice, bob = race(client)
    tid = table["id"]
    for path, data in ((f"/{tid}/options", {"options": {"goal": 20}}), (f"/{tid}/seats/1/free", {}),
                       (f"/{tid}/end", {}), (f"/{tid}/again", {}), (f"/{tid}/host/pass", {"seat": 0})):
        res = post(client, path, alice, **data)
        assert res.status_code == 403 and "only the table's host" in res.get_json()["error"], path
    assert post(client, f"/{tid}/options", host, options={"goal": 20}).status_code == 200
    assert snap(client, tid)["state"]["goal"] == 20
    assert post(client, f"/{tid}/seats/1/free", host).status_code == 200
    assert snap(client, tid, bob)["seat"] is None and not snap(client, tid)["seats"][1]["taken"]
    bob = take_seat(client, table, 1)
    assert act(client, tid, alice, {"type": "bet", "dice": 1}).status_code == 200
    res = post(client, f"/{tid}/options", host, options={"goal": 5})
    assert res.status_code == 409 and "fixed" in res.get_json()["error"]
    res = post(client, f"/{tid}/again", host, options={"goal": 5})
    assert res.status_code == 201
    again = res.get_json()["id"]
    assert snap(client, tid)["ended"] and snap(client, tid)["over"]  # the unfinished game ended
    assert snap(client, again, alice)["seat"] == 0 and snap(client, again, bob)["seat"] == 1
    assert snap(client, again, host)["phone"]["host"] and snap(client, again)["state"]["goal"] == 5
    assert post(client, f"/{again}/end", host).status_code == 200
    assert act(client, again, alice, {"type": "bet", "dice": 1}).status_code == 409


def test_the_host_passes_the_role_on(client):
    table, host, alice, _ = race(client)
    assert post(client, f"/{table['id']}/host/pass", host, seat=0).status_code == 200
    assert snap(client, table["id"], alice)["phone"]["host"]
    assert not snap(client, table["id"], host)["phone"]["host"]
    assert post(client, f"/{table['id']}/end", host).status_code == 403


def test_a_lost_phone_gets_its_seat_back_from_the_host(client):
    table, host, alice, _ = race(client)
    new = post(client, f"/{table['id']}/seats", seat=0, code=table["code"])  # Alice's new phone
    assert new.status_code == 202 and not new.get_json()["granted"]
    asked = snap(client, table["id"], host)["requests"]
    assert [r["text"] for r in asked] == ["A phone asks for Alice's seat (held by another phone)"]
    assert snap(client, table["id"], alice)["requests"] == []  # only the host and the asker see it
    res = post(client, f"/{table['id']}/requests/{asked[0]['id']}/approve", alice)
    assert res.status_code == 403
    assert post(client, f"/{table['id']}/requests/{asked[0]['id']}/approve", host).status_code == 200
    mine = phone(new.get_json()["token"])
    assert snap(client, table["id"], mine)["seat"] == 0 and snap(client, table["id"], alice)["seat"] is None


def test_a_phone_holds_one_seat_unless_the_host_gives_it_more(client):
    """Before: one client took all three seats of a table."""
    table = new_table(client, "race", ["Alice", "Bob", "Carol"])
    host = phone(table["token"])
    alice = take_seat(client, table, 0)
    res = post(client, f"/{table['id']}/seats", alice, seat=1, code=table["code"])
    assert res.status_code == 202
    assert snap(client, table["id"], alice)["phone"]["seats"] == [0]
    request = snap(client, table["id"], host)["requests"][0]
    assert request["text"] == "Alice's phone asks for Bob's seat"
    post(client, f"/{table['id']}/requests/{request['id']}/approve", host)
    assert snap(client, table["id"], alice)["phone"]["seats"] == [0, 1]  # one phone passed between two


def test_joining_needs_the_code_and_an_id_shows_no_code(client):
    table, host, alice, _ = race(client)
    tid = table["id"]
    for data in ({"seat": 1}, {"seat": 1, "code": "ZZZZ"}, {"seat": 1, "code": 1234}):
        res = post(client, f"/{tid}/seats", **data)
        assert res.status_code == 403 and "join code" in res.get_json()["error"]
    assert snap(client, tid)["table"]["code"] is None
    assert snap(client, tid, alice)["table"]["code"] == table["code"]
    assert client.get(f"/api/tables/{tid}/qr.svg").status_code == 403
    assert table["code"].encode() not in client.get(f"/t/{tid}").data
    assert table["code"].encode() not in client.get("/").data
    assert table["code"] not in str(client.get("/api/tables").get_json())
    res = post(client, f"/{tid}/seats", seat=1, code=f" {table['code'].lower()} ")
    assert res.status_code == 202  # the code is right; Bob's seat is taken, so the host decides


def test_the_token_travels_in_a_cookie_or_header_never_in_the_address(client):
    table, host, alice, _ = race(client)
    token = alice["X-Seat-Token"]
    assert snap(client, table["id"], {"Cookie": f"phone={token}"})["seat"] == 0
    assert client.get(f"/api/tables/{table['id']}?token={token}").get_json()["seat"] is None
    stream = client.get(f"/api/tables/{table['id']}/events?token={token}")
    assert '"seat":null' in next(stream.response).decode()
    stream.close()
    stream = client.get(f"/api/tables/{table['id']}/events", headers={"Cookie": f"phone={token}"})
    assert '"seat":0' in next(stream.response).decode()
    stream.close()
    made = client.post("/api/tables", json={"game": "race", "players": ["A", "B"]})
    cookie = made.headers["Set-Cookie"]
    assert cookie.startswith(f"phone={made.get_json()['token']}") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie


def test_only_the_seats_that_rolled_or_the_host_enter_confirm_or_correct_a_roll(client, session):
    """Before: any seated phone could rewrite another player's roll."""
    table, host, alice, bob = race(client)
    tid = table["id"]
    assert act(client, tid, alice, {"type": "bet", "dice": 1}).status_code == 200
    res = act(client, tid, bob, {"type": "roll", "values": [6]})
    assert res.status_code == 403
    assert res.get_json()["error"] == "only Alice (who rolled) or the host may enter this roll"
    session.propose_reading(tid, [{"value": 2, "kind": "d6", "confidence": 0.99}])
    assert not snap(client, tid, bob)["phone"]["may_roll"] and snap(client, tid, alice)["phone"]["may_roll"]
    assert post(client, f"/{tid}/confirm", bob, version=snap(client, tid)["version"]).status_code == 403
    assert post(client, f"/{tid}/confirm", alice, version=snap(client, tid)["version"]).status_code == 200
    res = post(client, f"/{tid}/correct", bob, version=snap(client, tid)["version"], values=[6])
    assert res.status_code == 403 and snap(client, tid)["state"]["scores"] == [2, 0]
    res = post(client, f"/{tid}/correct", host, version=snap(client, tid)["version"], values=[5])
    assert res.status_code == 200
    assert snap(client, tid)["state"]["scores"] == [5, 0]


def test_a_decision_is_undone_only_by_its_seat_or_the_host(client):
    table, host, alice, bob = race(client)
    tid = table["id"]
    act(client, tid, alice, {"type": "bet", "dice": 2})
    assert not snap(client, tid, bob)["can_undo"] and snap(client, tid, alice)["can_undo"]
    res = post(client, f"/{tid}/undo", bob, version=snap(client, tid)["version"])
    assert res.status_code == 403 and "only Alice or the host" in res.get_json()["error"]
    assert post(client, f"/{tid}/undo", alice, version=snap(client, tid)["version"]).status_code == 200
    act(client, tid, alice, {"type": "bet", "dice": 2})
    assert post(client, f"/{tid}/undo", host, version=snap(client, tid)["version"]).status_code == 200


def test_a_new_table_does_not_take_the_camera_from_a_game_in_progress(client, session):
    first, first_host, alice, _ = race(client)
    act(client, first["id"], alice, {"type": "bet", "dice": 1})
    second = new_table(client, "race", ["Carol", "Dan"])
    assert second["current"] is False and session.current == first["id"]
    assert snap(client, second["id"])["running"]["id"] == first["id"]
    res = post(client, f"/{second['id']}/use", phone(second["token"]))
    assert res.status_code == 403 and "in progress" in res.get_json()["error"]
    assert post(client, f"/{second['id']}/use", first_host).status_code == 200  # the running host's word
    assert session.current == second["id"]
    assert post(client, f"/{first['id']}/use", first_host).status_code == 200  # and the way back
    assert session.current == first["id"]


def test_creating_tables_is_rate_limited_per_client(client):
    """Before: one client made 2,000 tables in 5.8 s."""
    answers = [client.post("/api/tables", json={"game": "race", "players": ["A", "B"]}) for _ in range(10)]
    codes = [a.status_code for a in answers]
    assert codes[:6] == [201] * 6 and set(codes[6:]) == {429}
    assert int(answers[-1].headers["Retry-After"]) >= 1 and "try again" in answers[-1].get_json()["error"]
    other = client.post("/api/tables", json={"game": "race", "players": ["A", "B"]},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201


def test_the_front_page_lists_the_running_table_and_recent_ones(client, session):
    made = [session.create("race", [f"P{n}", "Q"]) for n in range(30)]
    session.use_here(made[3].id, None)
    listed = client.get("/api/tables").get_json()
    assert len(listed) == 9 and listed[0]["id"] == made[3].id and listed[0]["current"]
    assert [t["id"] for t in listed[1:]] == [t.id for t in reversed(made[-8:])]
    page = client.get("/").get_data(as_text=True)
    assert page.count("/t/") == 9
