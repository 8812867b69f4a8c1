"""A DOG table on the real server with a phone (token) and a live stream per seat, for the secrets tests:
every snapshot each stream carried is kept, so a test can look for a card where it must not be."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable

from tests.web.test_live import HOST, Stream, address, call
from web.server import WebServer


class SeatedTable:
    """A DOG table on the real server with a phone (token) per seat, each with its own live stream."""

    def __init__(self, web: WebServer, names: list[str]) -> None:
        self.web = web
        status, made = call(web, "POST", "/api/tables", {"game": "dog", "players": names})
        assert status == 201, made
        self.id, code = made["id"], made["code"]
        self.tokens = []
        for seat in range(len(names)):
            status, got = call(web, "POST", f"/api/tables/{self.id}/seats", {"seat": seat, "code": code},
                               source=address(seat))
            assert status == 201
            self.tokens.append(got["token"])
        self.streams = [Stream(web, self.id, address(seat), token) for seat, token in enumerate(self.tokens)]
        self.seen = [[s.event()[1]] for s in self.streams]  # every snapshot each stream carried

    def snap(self, seat: int | None) -> dict:
        headers = {"X-Seat-Token": self.tokens[seat]} if seat is not None else {}
        status, data = call(self.web, "GET", f"/api/tables/{self.id}", headers=headers)
        assert status == 200
        return data

    def act(self, seat: int, action: dict) -> None:
        version = self.snap(seat)["version"]
        status, data = call(self.web, "POST", f"/api/tables/{self.id}/actions",
                            {"version": version, "action": action}, {"X-Seat-Token": self.tokens[seat]})
        assert status == 200, data
        for seat_seen, stream in zip(self.seen, self.streams, strict=True):  # up to this version
            while seat_seen[-1]["version"] < data["version"]:
                name, event = stream.event()
                seat_seen.append(event["snapshot"] if name == "update" else event)

    def log(self, seat: int | None) -> str:
        conn_headers = {"X-Seat-Token": self.tokens[seat]} if seat is not None else {}
        conn = http.client.HTTPConnection(HOST, self.web.port, timeout=10)
        conn.request("GET", f"/api/tables/{self.id}/log.jsonl", headers=conn_headers)
        res = conn.getresponse()
        text = res.read().decode()
        conn.close()
        assert res.status == 200
        return text

    def close(self) -> None:
        for s in self.streams:
            s.close()

    def check_every_route(self, leaks: Callable[[str, int | None], list[str]]) -> None:
        """Every route each seat and a watcher (None) reads: its page, its log.jsonl and every snapshot its
        live stream carried, shows nothing `leaks(text, seat)` finds; each page shows at most one hand
        and offers only its own seat's actions."""
        for seat in [*range(len(self.tokens)), None]:
            view = self.snap(seat)
            assert leaks(json.dumps(view), seat) == [], f"seat {seat}'s page"
            assert [h is not None for h in view["state"]["hands"]].count(True) <= 1
            assert all(a.get("seat", seat) == seat for a in view["legal"])
            assert leaks(self.log(seat), seat) == [], f"seat {seat}'s log"
        for seat, carried in enumerate(self.seen):
            assert all(leaks(json.dumps(s), seat) == [] for s in carried), f"seat {seat}'s stream"
