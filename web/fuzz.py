"""`companion bench fuzz`: random requests at every route of the web app; prints how many were sent and
how many were answered with a 5xx (the goal: none).

The app runs in this process with a fresh data folder and Flask's test client (no network). Three
tables (Dice Devils, Dog Eat Dog, Battle Zone) are made with every seat taken. Each request picks a
route from the app's URL map and a method, then fills it at random: real or made-up table ids and
codes, a seat token that is real, made up, non-ASCII or huge, a query string, and a body that is
random JSON, bytes that are not JSON, JSON nested 1,000 deep, or a command with the table's version
and an action copied from `legal` with one field swapped for random JSON (so the engines are reached
deep in real games, and the games move on). A clear refusal is a status under 500, with a JSON
`{"error": ...}` on the API. Seeded: the same `--seed` sends the same requests.
"""

from __future__ import annotations

import json
import logging
import random
import string
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from werkzeug.test import Client

from companion.games import FACES

#: Words the fuzzer likes: real names from the games, and the strings that break careless code.
WORDS = (
    "", " ", "bed", "grill", "sofa", "oberteufel", "putzteufel", "red-L-1", "yellow-M-1", "a1", "h8", "z9",
    "N", "NE", "up", "roll", "pass", "attack", "claim", "swap", "é", "Ω", "\x00", "\x7f", "0", "-1",
    "6.0", "true", "null", "NaN", "../../etc/passwd", "<script>", "a" * 300, "%", "%00", "€" * 40,
)
METHODS = ("GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD")
GAMES = (("dice-devils", ["Ann", "Ben", "Cid"]), ("dog-eat-dog", ["Ann", "Ben"]),
         ("battle-zone", ["Ann", "Ben"]))


@dataclass
class Report:
    sent: int = 0
    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)  # the first few 5xx, as "METHOD path: body"
    unclear: list[str] = field(default_factory=list)  # the first few API 4xx without a JSON error
    unclear_count: int = 0
    versions: dict[str, int] = field(default_factory=dict)  # game -> records in its last table's log

    @property
    def five_xx(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def clear_answer(method: str, path: str, status: int, body: bytes, content_type: str) -> bool:
    """Whether an answer is a success or a clear refusal: under 500, and on the API a 4xx carries
    `{"error": "..."}` as JSON."""
    if status >= 500:
        return False
    if status < 400 or not path.startswith("/api/") or method == "HEAD":  # HEAD: headers only
        return True
    if "json" not in content_type:
        return False
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and isinstance(data.get("error"), str) and bool(data["error"])


def random_json(rnd: random.Random, depth: int = 0) -> Any:
    """A random JSON value, nested at most 4 deep, biased towards the games' own words and numbers."""
    kind = rnd.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rnd.random() < 0.5
    if kind == 2:
        return rnd.choice((0, 1, 2, 3, 5, 6, 7, -1, 2**31, 2**64, 10**30))
    if kind == 3:
        return rnd.choice((0.0, 1.0, 6.0, 0.5, -1.5, 1e308, float("nan"), float("inf")))
    if kind in (4, 5):
        return rnd.choice(WORDS) if rnd.random() < 0.8 else "".join(
            rnd.choice(string.printable) for _ in range(rnd.randrange(12)))
    if kind in (6, 7):
        return [random_json(rnd, depth + 1) for _ in range(rnd.randrange(5))]
    keys = ("type", "version", "action", "values", "item", "items", "seat", "with", "from", "game",
            "players", "options", "square", "die") + WORDS[:6]
    return {rnd.choice(keys): random_json(rnd, depth + 1) for _ in range(rnd.randrange(5))}


def mutated(rnd: random.Random, action: dict[str, Any]) -> dict[str, Any]:
    """A legal action with one field replaced by random JSON, one added, or one dropped (or as it was)."""
    out = dict(action)
    choice = rnd.randrange(4)
    if choice == 0 and len(out) > 1:
        out[rnd.choice([k for k in out if k != "type"])] = random_json(rnd, 2)
    elif choice == 1:
        out[rnd.choice(("extra", "seat", "item", "values", "type"))] = random_json(rnd, 2)
    elif choice == 2 and len(out) > 1:
        out.pop(rnd.choice([k for k in out if k != "type"]))
    return out


class Fuzzer:
    """Random requests at one app; `tables` are (id, code, seat tokens) of the tables made at the start."""

    def __init__(self, client: Client, rules: list[tuple[str, tuple[str, ...]]], seed: int,
                 draws: Callable[[str], list[dict[str, Any]]]) -> None:
        """`draws(table_id)`: the outcomes of the hidden draw a table waits for (the page builds those
        from what the players see; the fuzzer asks the engine)."""
        self.client, self.rules, self.rnd, self.draws = client, rules, random.Random(seed), draws
        self.tables: list[tuple[str, str, list[str]]] = []
        self.made = 0  # tables made so far
        self.report = Report()

    def setup(self) -> None:
        self.tables = [self._new_table(game, players) for game, players in GAMES]

    def _new_table(self, game: str, players: list[str]) -> tuple[str, str, list[str]]:
        self.made += 1  # each table from its own address: tables are rate-limited per client
        address = {"REMOTE_ADDR": f"10.8.{self.made // 256 % 256}.{self.made % 256}"}
        made = self.client.post("/api/tables", json={"game": game, "players": players},
                                environ_base=address).get_json()
        tokens = []
        for seat in range(len(players)):
            claim = {"seat": seat, "code": made["code"]}
            answer = self.client.post(f"/api/tables/{made['id']}/seats", json=claim)
            if answer.status_code == 201:
                tokens.append(answer.get_json()["token"])
        return made["id"], made["code"], tokens

    def play_one(self) -> None:
        """Move a game on: a roll or a legal action (often mutated), from the seats in turn until one is
        let to send it; a finished game is replaced by a new table of the same game."""
        index = self.rnd.randrange(len(self.tables))
        table_id, _, tokens = self.tables[index]
        seen = self._request("GET", f"/api/tables/{table_id}", None, {}).get_json()
        if seen["over"]:
            self.tables[index] = self._new_table(*GAMES[index])
            return
        for token in tokens:
            headers = {"X-Seat-Token": token}
            mine = self._request("GET", f"/api/tables/{table_id}", None, headers).get_json()
            if mine["roll"]:
                values = [self.rnd.choice(FACES[d["kind"]]) for d in mine["roll"]["dice"]]
                action: Any = {"type": "roll", "values": values}
                action = action if self.rnd.random() < 0.8 else mutated(self.rnd, action)
            elif mine["legal"] or mine["to_move"] == -1 and self.draws(table_id):
                action = self.rnd.choice(mine["legal"] or self.draws(table_id))
                action = action if self.rnd.random() < 0.6 else mutated(self.rnd, action)
            else:
                continue
            body = json.dumps({"version": mine["version"], "action": action}).encode()
            if self._request("POST", f"/api/tables/{table_id}/actions", body, headers).status_code != 403:
                return

    def _request(self, method: str, url: str, data: bytes | None, headers: dict[str, str],
                 content_type: str = "application/json") -> Any:
        """Send one request, count it and check its answer; returns the response (body read, closed)."""
        res = self.client.open(url, method=method, data=data, headers=headers, content_type=content_type)
        body = b"" if "event-stream" in (res.content_type or "") else res.get_data()
        res.close()
        self.report.sent += 1
        self.report.statuses[res.status_code] += 1
        if not clear_answer(method, url.split("?")[0], res.status_code, body, res.content_type or ""):
            sample = f"{method} {url[:120]}: {(data or b'')[:200]!r} -> {res.status_code} {body[:200]!r}"
            target = self.report.server_errors if res.status_code >= 500 else self.report.unclear
            self.report.unclear_count += res.status_code < 500
            if len(target) < 5:
                target.append(sample)
        return res

    def _token(self, tokens: list[str]) -> str | None:
        pick = self.rnd.randrange(5)
        if pick in (0, 1) and tokens:
            return self.rnd.choice(tokens)
        if pick == 2:
            return None
        return self.rnd.choice(WORDS[18:]) if pick == 3 else "".join(
            self.rnd.choice(string.printable[:94] + "éÿ") for _ in range(self.rnd.randrange(1, 30)))

    def _fill(self, rule: str, table: tuple[str, str, list[str]]) -> str:
        """The rule's path with each <arg> filled: mostly the real table, sometimes a made-up one."""
        table_id, code, _ = table
        real = {"table_id": table_id, "code": code, "press": self.rnd.choice(("confirm", "retry", "undo")),
                "photo_id": str(self.rnd.randrange(3))}
        parts = []
        for piece in rule.strip("/").split("/"):
            if piece.startswith("<"):
                name = piece.strip("<>").split(":")[-1].split(".")[0]
                value = real.get(name, "x") if self.rnd.random() < 0.75 else self.rnd.choice(WORDS) or "x"
                piece = quote(value, safe="") + (".jpg" if piece.endswith(".jpg") else "")
            parts.append(piece)
        return "/" + "/".join(parts)

    def _body(self, path: str, token: str | None) -> bytes:
        pick = self.rnd.randrange(10)
        if pick == 0:
            return bytes(self.rnd.randrange(256) for _ in range(self.rnd.randrange(40)))
        if pick == 1:
            return ("[" * 1000 + "]" * 1000).encode()
        if pick in (2, 3):
            return json.dumps(random_json(self.rnd)).encode()
        snapshot = self.client.get(path.split("/actions")[0].split("/correct")[0],
                                   headers={"X-Seat-Token": token} if token else {})
        seen = snapshot.get_json(silent=True) if snapshot.status_code == 200 else None
        version = seen.get("version") if isinstance(seen, dict) else self.rnd.randrange(5)
        legal = seen.get("legal") if isinstance(seen, dict) else None
        roll = seen.get("roll") if isinstance(seen, dict) else None
        if roll and self.rnd.random() < 0.6:
            action: Any = {"type": "roll", "values": [self.rnd.choice((1, 2, 3, 4, 5, 6, "AIM", 6.0, True))
                                                      for _ in roll.get("dice", [])]}
        elif legal:
            action = mutated(self.rnd, self.rnd.choice(legal))
        else:
            action = random_json(self.rnd, 1)
        command = {"version": version, "action": action, "values": action.get("values")
                   if isinstance(action, dict) else None, "seat": self.rnd.randrange(-1, 4)}
        return json.dumps(command).encode()

    def send_one(self) -> None:
        rule, methods = self.rnd.choice(self.rules)
        table = self.rnd.choice(self.tables)
        path = self._fill(rule, table)
        method = self.rnd.choice(METHODS if self.rnd.random() < 0.3 else methods)
        token = self._token(table[2])
        headers = {"X-Seat-Token": token} if token is not None else {}
        query = {}
        if self.rnd.random() < 0.4:
            keys = ("token", "attacker", "target", "treehouse", "fighters", "oberteufel", "x")
            query = {self.rnd.choice(keys): str(random_json(self.rnd, 4))
                     for _ in range(self.rnd.randrange(4))}
        data = self._body(path, token) if method in ("POST", "PUT") else None
        url = path + ("?" + urlencode(query) if query else "")
        self._request(method, url, data, headers, self.rnd.choice(("application/json", "text/plain", "")))


def fuzz(requests: int, seed: int = 0) -> Report:
    """Send `requests` random requests to a fresh app (data in a temporary folder); the report."""
    from companion.store import EventStore
    from companion.table import TableSession
    from web.app import create_app

    logging.getLogger("web.app").setLevel(logging.CRITICAL)  # 5xx are counted here, not logged
    with tempfile.TemporaryDirectory() as folder:
        session = TableSession(EventStore(Path(folder) / "table.sqlite"))
        app = create_app(session, status=lambda: {"camera": "sim", "buttons": "on screen"})
        rules = [(r.rule, tuple(sorted(r.methods - {"OPTIONS", "HEAD"}))) for r in app.url_map.iter_rules()
                 if r.endpoint != "static"]
        def draws(table_id: str) -> list[dict[str, Any]]:
            table = session.get(table_id)
            return table.game.legal_actions(table.state)

        fuzzer = Fuzzer(app.test_client(), rules, seed, draws)
        fuzzer.setup()
        while fuzzer.report.sent < requests:
            if fuzzer.rnd.random() < 0.3:
                fuzzer.play_one()
            else:
                fuzzer.send_one()
        for (game, _), (table_id, _, _) in zip(GAMES, fuzzer.tables, strict=True):
            fuzzer.report.versions[game] = session.get(table_id).version
        session.store.close()
        return fuzzer.report


def run(args) -> int:
    report = fuzz(args.requests, args.seed)
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(report.statuses.items()))
    print(f"fuzz: {report.sent} requests sent (seed {args.seed}), {report.five_xx} answered 5xx, "
          f"{report.unclear_count} API refusals without a JSON error")
    print(f"statuses: {statuses}")
    print("games moved on to versions: " + ", ".join(f"{g} {v}" for g, v in report.versions.items()))
    for sample in report.server_errors + report.unclear:
        print(f"  {sample}")
    return 0
