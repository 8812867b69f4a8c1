"""The live channel under load, against the real server on loopback: bounded streams per client and in
all (503 with Retry-After beyond), the API free while streams are open, no stall after streams close,
streams that end cleanly on shutdown, and each phone's stream carrying only its own view.

Each simulated phone connects from its own loopback address (127.0.0.0/8 all reaches this machine), as
phones at a table do from theirs. No test asserts speed; waits have generous deadlines.
"""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from companion.store import EventStore
from companion.table import TableSession
from web import live
from web.app import create_app
from web.server import WebServer

HOST = "127.0.0.1"


@pytest.fixture
def server(tmp_path):
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    web = WebServer(create_app(session), host=HOST, port=0)
    web.live.most, web.live.per_client = 6, 3
    web.start()
    yield web
    web.close()


def call(web: WebServer, method: str, path: str, body: dict | None = None, headers: dict | None = None,
         source: str = HOST) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, web.port, timeout=10, source_address=(source, 0))
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json", **(headers or {})})
    res = conn.getresponse()
    data = json.loads(res.read() or b"{}")
    conn.close()
    return res.status, data


def join_code(web: WebServer, table_id: str) -> str:
    """The table's join code, as the host's phone shows it."""
    return web.app.extensions["session"].get(table_id).code


def new_table(web: WebServer) -> str:
    status, table = call(web, "POST", "/api/tables", {"game": "race", "players": ["Alice", "Bob"]})
    assert status == 201
    return table["id"]


class Stream:
    """One phone's event stream, opened from `source`."""

    def __init__(self, web: WebServer, table_id: str, source: str, token: str | None = None) -> None:
        self.conn = http.client.HTTPConnection(HOST, web.port, timeout=10, source_address=(source, 0))
        self.conn.request("GET", f"/api/tables/{table_id}/events",
                          headers={"X-Seat-Token": token} if token else {})
        self.res = self.conn.getresponse()
        self.status = self.res.status

    def event(self) -> tuple[str, dict]:
        """The next event: its name and data (comment lines skipped)."""
        name = ""
        while True:
            line = self.res.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith("event: "):
                name = line[7:].strip()
            elif line.startswith("data: "):
                return name, json.loads(line[6:])

    def close(self) -> None:
        self.conn.close()


def address(n: int) -> str:
    return f"127.0.{n // 250}.{n % 250 + 2}"


def wait_until(check, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_client_over_its_stream_limit_gets_503_with_retry_after(server):
    table = new_table(server)
    held = [Stream(server, table, address(0)) for _ in range(3)]
    assert [s.status for s in held] == [200, 200, 200]
    extra = Stream(server, table, address(0))
    assert extra.status == 503
    assert int(extra.res.getheader("Retry-After")) > 0
    assert "live streams open" in json.loads(extra.res.read())["error"]
    for s in held:
        s.close()


def test_other_clients_open_streams_and_the_api_answers_while_one_client_holds_its_most(server):
    table = new_table(server)
    flood = [Stream(server, table, address(0)) for _ in range(5)]
    assert [s.status for s in flood].count(200) == 3
    others = [Stream(server, table, address(n)) for n in (1, 2, 3)]
    assert [s.status for s in others] == [200, 200, 200]
    assert [s.event()[0] for s in others] == ["snapshot"] * 3
    assert call(server, "GET", f"/api/tables/{table}")[0] == 200
    seat = {"seat": 0, "code": join_code(server, table)}
    assert call(server, "POST", f"/api/tables/{table}/seats", seat, source=address(4))[0] == 201
    assert all(s.event()[1]["snapshot"]["seats"][0]["taken"] for s in others)  # and they hear of it
    for s in flood + others:
        s.close()


def test_past_the_cap_in_all_a_new_client_gets_503_saying_the_companion_is_full(server):
    table = new_table(server)
    held = [Stream(server, table, address(n)) for n in range(6)]
    assert all(s.status == 200 for s in held)
    late = Stream(server, table, address(6))
    assert late.status == 503 and late.res.getheader("Retry-After")
    assert "most live streams (6)" in json.loads(late.res.read())["error"]
    assert call(server, "GET", f"/api/tables/{table}", source=address(6))[0] == 200
    for s in held:
        s.close()


def test_streams_close_and_the_server_takes_new_ones_at_once(server, monkeypatch):
    monkeypatch.setattr(live, "KEEPALIVE_S", 600.0)  # no keepalive write will reveal the closed phones
    table = new_table(server)
    for round_ in range(3):  # fill every place, close, and fill again: places come back without a stall
        streams = [Stream(server, table, address(10 * round_ + n)) for n in range(6)]
        assert [s.status for s in streams] == [200] * 6
        assert all(s.event()[0] == "snapshot" for s in streams)
        for s in streams:
            s.close()
        assert wait_until(lambda: server.live.count() == 0)
        assert call(server, "GET", f"/api/tables/{table}")[0] == 200


def test_streams_end_cleanly_on_shutdown(tmp_path):
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    web = WebServer(create_app(session), host=HOST, port=0).start()
    table = new_table(web)
    streams = [Stream(web, table, address(n)) for n in range(4)]
    assert all(s.event()[0] == "snapshot" for s in streams)
    web.close()
    for s in streams:
        rest = s.res.read()  # the whole chunked body, up to its last chunk: no IncompleteRead
        assert b"event: update" not in rest
    assert web.live.count() == 0
    with pytest.raises(OSError):
        call(web, "GET", "/api/status")


def test_each_phone_stream_carries_only_its_own_view(server):
    table = new_table(server)
    seats = [{"seat": n, "code": join_code(server, table)} for n in (0, 1)]
    tokens = [call(server, "POST", f"/api/tables/{table}/seats", seat)[1]["token"] for seat in seats]
    alice, bob = (Stream(server, table, address(n), token) for n, token in enumerate(tokens))
    watcher = Stream(server, table, address(2))
    firsts = [s.event()[1] for s in (alice, bob, watcher)]
    assert [snap["seat"] for snap in firsts] == [0, 1, None]
    status, _ = call(server, "POST", f"/api/tables/{table}/actions",
                     {"version": firsts[0]["version"], "action": {"type": "bet", "dice": 2}},
                     headers={"X-Seat-Token": tokens[0]})
    assert status == 200
    updates = [s.event()[1]["snapshot"] for s in (alice, bob, watcher)]
    assert [snap["seat"] for snap in updates] == [0, 1, None]
    assert updates[2]["legal"] == []
    for s in (alice, bob, watcher):
        s.close()


def test_one_view_is_taken_once_per_change_however_many_streams_show_it():
    hub = live.Broadcaster()
    taken = []

    def snapshot() -> dict:
        taken.append(1)
        return {"n": len(taken)}

    streams = [hub.open("t", f"10.0.0.{n}", "token-a", snapshot) for n in range(5)]
    assert {s.first() for s in streams} == {'retry: 2000\nevent: snapshot\ndata: {"n":1}\n\n'}
    hub.tell("t", 2, ["Alice bets"])
    frames = {s.pending() for s in streams}
    assert len(taken) == 2 and len(frames) == 1 and '"snapshot":{"n":2}' in frames.pop()
    other = hub.open("t", "10.0.0.9", "token-b", snapshot)
    other.first()
    assert len(taken) == 3  # another seat's view is its own


def test_streams_woken_together_take_their_shared_view_once():
    hub = live.Broadcaster()
    taken = []

    def snapshot() -> dict:
        taken.append(1)
        time.sleep(0.05)  # a slow view: the other streams ask while it is being taken
        return {"n": len(taken)}

    streams = [hub.open("t", f"10.0.0.{n}", None, snapshot) for n in range(12)]
    streams[0].first()
    hub.tell("t", 2, ["Alice bets"])
    frames: list[str] = []
    workers = [threading.Thread(target=lambda s=s: frames.append(s.pending())) for s in streams]
    for w in workers:
        w.start()
    for w in workers:
        w.join(10)
    assert len(taken) == 2 and len(set(frames)) == 1 and '"snapshot":{"n":2}' in frames[0]
