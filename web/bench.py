"""`companion bench web`: confirm-to-phone latency with many live phones, and the server's memory.

Starts `companion serve` (synthetic camera, no GPIO, a fresh data folder) in its own process, opens
`--phones` event streams on loopback, and plays Dog Eat Dog through the API: each roll is CONFIRMed
from the camera's reading when it is certain (typed on a phone otherwise), each decision sent as a
phone would. For every command it times the moment the POST is sent until the last phone has the
update carrying the new version. Prints median and 99th percentile in ms, and the server's resident
memory (RSS now, and its peak) in MB. Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HOST = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    res = conn.getresponse()
    data = json.loads(res.read() or b"{}")
    conn.close()
    return res.status, data


class Phone(threading.Thread):
    """One live phone: reads its event stream and notes when each version arrived."""

    def __init__(self, port: int, table: str) -> None:
        super().__init__(daemon=True)
        self.port, self.table = port, table
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        conn.request("GET", f"/api/tables/{self.table}/events")
        res = conn.getresponse()
        while True:
            line = res.fp.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith("data: "):
                data = json.loads(line[6:])
                self.arrived.setdefault(data["version"], time.perf_counter())
                self.ready.set()


def _rss_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(args) -> int:
    port = _free_port()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--camera", "sim", "--gpio", "off", "--host", HOST,
             "--port", str(port), "--data", data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            return _measure(port, server, args.phones, args.confirms, rng)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _new_table(port: int, phones: int) -> tuple[str, list[str], list[Phone]]:
    """A fresh three-player table, its seats taken, and `phones` live streams on it."""
    _, table = _call(port, "POST", "/api/tables", {"game": "dog-eat-dog", "players": ["Ann", "Ben", "Cy"]})
    tid = table["id"]
    tokens = [_call(port, "POST", f"/api/tables/{tid}/seats", {"seat": s})[1]["token"] for s in range(3)]
    streams = [Phone(port, tid) for _ in range(phones)]
    for phone in streams:
        phone.start()
    for phone in streams:
        phone.ready.wait(10)
    return tid, tokens, streams


def _next_command(port: int, tid: str, tokens: list[str], snap: dict, rng: random.Random):
    """(path, body, token, how) for the next move: confirm the camera, type a roll, or decide."""
    if snap["roll"]:
        deadline = time.monotonic() + 3
        while not (snap["reading"] and snap["reading"]["certain"]) and time.monotonic() < deadline:
            time.sleep(0.05)
            _, snap = _call(port, "GET", f"/api/tables/{tid}", token=tokens[0])
        body = {"version": snap["version"]}
        if snap["reading"] and snap["reading"]["certain"]:
            return f"/api/tables/{tid}/confirm", body, tokens[0], "camera"
        values = [rng.randint(1, 6) if d["kind"] == "d6" else "HOP" for d in snap["roll"]["dice"]]
        body["action"] = {"type": "roll", "values": values}
        return f"/api/tables/{tid}/actions", body, tokens[0], "typed"
    seat = snap["to_move"]
    _, mine = _call(port, "GET", f"/api/tables/{tid}", token=tokens[seat])
    attacks = [a for a in mine["legal"] if a["type"] == "attack"] or mine["legal"]
    body = {"version": snap["version"], "action": rng.choice(attacks)}
    return f"/api/tables/{tid}/actions", body, tokens[seat], "decision"


def _measure(port: int, server: subprocess.Popen, phones: int, confirms: int, rng: random.Random) -> int:
    for _ in range(100):
        try:
            _call(port, "GET", "/api/status")
            break
        except OSError:
            time.sleep(0.1)
    tid, tokens, streams = _new_table(port, phones)
    latencies: list[float] = []
    kinds = {"camera": 0, "typed": 0, "decision": 0}
    while len(latencies) < confirms:
        _, snap = _call(port, "GET", f"/api/tables/{tid}", token=tokens[0])
        if snap["over"]:
            tid, tokens, streams = _new_table(port, phones)
            continue
        path, body, token, how = _next_command(port, tid, tokens, snap, rng)
        sent = time.perf_counter()
        status, _ = _call(port, "POST", path, body, token)
        if status != 200:
            continue
        target = body["version"] + 1
        deadline = time.monotonic() + 5
        while any(target not in p.arrived for p in streams) and time.monotonic() < deadline:
            time.sleep(0.0005)
        if all(target in p.arrived for p in streams):
            latencies.append((max(p.arrived[target] for p in streams) - sent) * 1000)
            kinds[how] += 1
    rss, peak = _rss_mb(server.pid)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    print(f"phones: {phones} live event streams on loopback; commands timed: {len(latencies)} "
          f"({kinds['camera']} camera readings confirmed, {kinds['typed']} rolls typed, "
          f"{kinds['decision']} decisions)")
    print(f"command -> every phone has the update: median {statistics.median(latencies):.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms")
    print(f"server memory: RSS {rss:.0f} MB now, peak {peak:.0f} MB")
    return 0
