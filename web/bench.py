"""`companion bench web`: the live channel under load, and confirm-to-phone latency.

Starts `companion serve` (synthetic camera, no GPIO, a fresh data folder) in its own process and, on
loopback only (each simulated phone from its own 127.x.y.z address, as phones at a table have their own):
1. opens `--streams` idle event streams on a table (no seat, no code: watchers), counts those held,
   and the server's CPU use while they sit idle for 5 s;
2. while they stay open, times `--requests` API calls (a phone's snapshot, the status) from 4 clients:
   median and 99th percentile in ms;
3. plays Dog Eat Dog through the API with `--phones` seated live phones: each roll is CONFIRMed from the
   camera's reading when it is certain (typed on a phone otherwise), each decision sent as a phone
   would; for every command, the time from sending it until the last phone has the update carrying the
   new version (the idle streams get every update too);
4. floods from one client: asks for more streams than one client may hold, counts 503s with
   Retry-After, and checks another client still opens a stream and the API still answers; then new
   clients open streams until the cap in all refuses one, and the API is asked again;
5. reports the server's resident memory (RSS now, and its peak) in MB;
6. closes every idle stream at once and times how soon the API answers and a new stream opens.
Prints figures; never fails on speed.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HOST = "127.0.0.1"


def _address(n: int) -> str:
    """The n-th simulated phone's own loopback address (127.0.0.0/8 all reaches this machine)."""
    return f"127.{10 + n // 62500}.{n // 250 % 250}.{n % 250 + 2}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
          source: str = HOST):
    conn = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    res = conn.getresponse()
    data = json.loads(res.read() or b"{}")
    conn.close()
    return res.status, data


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Phone(threading.Thread):
    """One live phone: reads its event stream and notes when each version arrived."""

    def __init__(self, port: int, table: str, source: str) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.source = port, table, source
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60, source_address=(self.source, 0))
        conn.request("GET", f"/api/tables/{self.table}/events")
        res = conn.getresponse()
        while True:
            line = res.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith("data: "):
                data = json.loads(line[6:])
                self.arrived.setdefault(data["version"], time.perf_counter())
                self.ready.set()


class IdleStreams(threading.Thread):
    """Many watchers' event streams on raw sockets, read (and thrown away) by one selector thread."""

    def __init__(self, port: int, table: str, count: int, first: int) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.status: dict[socket.socket, bytes] = {}  # the status line once it came; the bytes so far before
        self.gone: set[socket.socket] = set()  # closed by the server
        self.started = time.monotonic()
        request = f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
        for n in range(first, first + count):
            sock = socket.create_connection((HOST, port), timeout=10, source_address=(_address(n), 0))
            sock.sendall(request)
            sock.setblocking(False)
            self.status[sock] = b""
            self.selector.register(sock, selectors.EVENT_READ)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(0.1):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.selector.unregister(sock)
                    self.gone.add(sock)
                    continue
                if not self.status[sock].startswith(b"HTTP"):
                    self.status[sock] += chunk
                    if b"event: snapshot" in self.status[sock] or b"\r\n\r\n" in self.status[sock]:
                        self.status[sock] = self.status[sock].split(b"\r\n", 1)[0]

    def held(self) -> int:
        return sum(s.startswith(b"HTTP/1.1 200") for sock, s in self.status.items() if sock not in self.gone)

    def wait(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and any(not s.startswith(b"HTTP") and sock not in self.gone
                                                   for sock, s in self.status.items()):
            time.sleep(0.05)

    def close(self) -> None:
        self.stop.set()
        self.join(2)
        for sock in self.status:
            sock.close()


def _rss_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _cpu_s(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(args) -> int:
    port = _free_port()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--camera", "sim", "--gpio", "off", "--host", HOST,
             "--port", str(port), "--data", data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            return _measure(port, server, args, rng)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _new_table(port: int, phones: int) -> tuple[str, list[str], list[Phone]]:
    """A fresh three-player table, its seats taken, and `phones` live streams on it."""
    _, table = _call(port, "POST", "/api/tables", {"game": "dog-eat-dog", "players": ["Ann", "Ben", "Cy"]})
    tid = table["id"]
    seats = [{"seat": s, "code": table["code"]} for s in range(3)]
    tokens = [_call(port, "POST", f"/api/tables/{tid}/seats", seat)[1]["token"] for seat in seats]
    tokens.append(table["token"])  # the host's phone, last: it enters and confirms every roll
    streams = [Phone(port, tid, _address(50_000 + n)) for n in range(phones)]
    for phone in streams:
        phone.start()
    for phone in streams:
        phone.ready.wait(10)
    return tid, tokens, streams


def _api_latency(port: int, tid: str, token: str, requests: int) -> list[float]:
    """`requests` API calls from 4 clients at once, in ms each."""
    times: list[float] = []
    paths = [f"/api/tables/{tid}", "/api/status"]

    def client(n: int) -> None:
        for i in range(requests // 4):
            sent = time.perf_counter()
            _call(port, "GET", paths[i % 2], token=token, source=_address(60_000 + n))
            times.append((time.perf_counter() - sent) * 1000)

    workers = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return times


def _next_command(port: int, tid: str, tokens: list[str], snap: dict, rng: random.Random):
    """(path, body, token, how) for the next move: confirm the camera, type a roll, or decide."""
    if snap["roll"]:
        deadline = time.monotonic() + 3
        while not (snap["reading"] and snap["reading"]["certain"]) and time.monotonic() < deadline:
            time.sleep(0.05)
            _, snap = _call(port, "GET", f"/api/tables/{tid}", token=tokens[0])
        body = {"version": snap["version"]}
        if snap["reading"] and snap["reading"]["certain"]:
            return f"/api/tables/{tid}/confirm", body, tokens[-1], "camera"
        values = [rng.randint(1, 6) if d["kind"] == "d6" else "HOP" for d in snap["roll"]["dice"]]
        body["action"] = {"type": "roll", "values": values}
        return f"/api/tables/{tid}/actions", body, tokens[-1], "typed"
    seat = snap["to_move"]
    _, mine = _call(port, "GET", f"/api/tables/{tid}", token=tokens[seat])
    attacks = [a for a in mine["legal"] if a["type"] == "attack"] or mine["legal"]
    body = {"version": snap["version"], "action": rng.choice(attacks)}
    return f"/api/tables/{tid}/actions", body, tokens[seat], "decision"


def _confirm_latency(port: int, phones: int, confirms: int, rng: random.Random) -> tuple[list[float], dict]:
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
    return latencies, kinds


def _flood(port: int, tid: str, asks: int) -> tuple[int, list[str], int, int]:
    """One client asks for `asks` streams and keeps those it gets: (opened, Retry-After of each 503,
    another client's status, the API's status) while it holds them."""
    flooder = _address(70_000)
    held, refusals = [], []
    for _ in range(asks):
        conn = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(flooder, 0))
        conn.request("GET", f"/api/tables/{tid}/events")
        res = conn.getresponse()
        if res.status == 200:
            held.append(conn)
        else:
            refusals.append(f"{res.status} Retry-After {res.getheader('Retry-After')}")
            res.read()
            conn.close()
    other = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(_address(70_001), 0))
    other.request("GET", f"/api/tables/{tid}/events")
    other_status = other.getresponse().status
    api_status, _ = _call(port, "GET", f"/api/tables/{tid}")
    for conn in [*held, other]:
        conn.close()
    return len(held), refusals, other_status, api_status


def _fill(port: int, tid: str, first: int, most: int = 5000) -> tuple[int, str, int]:
    """New clients open one stream each until one is refused: (streams opened, the refusal, the API's
    status while the server is full). All of them are closed again."""
    held, refusal = [], "no refusal"
    for n in range(first, first + most):
        conn = http.client.HTTPConnection(HOST, port, timeout=10, source_address=(_address(n), 0))
        conn.request("GET", f"/api/tables/{tid}/events")
        res = conn.getresponse()
        if res.status != 200:
            error = json.loads(res.read() or b"{}").get("error")
            refusal = f"{res.status} Retry-After {res.getheader('Retry-After')}: {error!r}"
            conn.close()
            break
        held.append(conn)
    api_status, _ = _call(port, "GET", f"/api/tables/{tid}")
    for conn in held:
        conn.close()
    return len(held), refusal, api_status


def _measure(port: int, server: subprocess.Popen, args, rng: random.Random) -> int:
    for _ in range(100):
        try:
            _call(port, "GET", "/api/status")
            break
        except OSError:
            time.sleep(0.1)
    tid, tokens, _ = _new_table(port, phones=0)  # seats are taken with the table's code (seating rules)
    token = tokens[0]

    idle = IdleStreams(port, tid, args.streams, first=0)
    idle.start()
    idle.wait(30)
    opened_s = time.monotonic() - idle.started
    print(f"idle streams: {idle.held()} of {args.streams} held open (each from its own address; "
          f"all answered in {opened_s:.1f} s)")

    before, idle_s = _cpu_s(server.pid), 5.0
    time.sleep(idle_s)
    print(f"server CPU while they sit idle: {100 * (_cpu_s(server.pid) - before) / idle_s:.1f} % of one core "
          f"(over {idle_s:.0f} s)")

    api = _api_latency(port, tid, token, args.requests)
    print(f"API with them open ({len(api)} GETs of a snapshot or the status, 4 clients at once):\n  "
          f"median {statistics.median(api):.1f} ms, p99 {_percentile(api, 0.99):.1f} ms, "
          f"max {max(api):.1f} ms")

    latencies, kinds = _confirm_latency(port, args.phones, args.confirms, rng)
    print(f"command -> every phone has the update ({args.phones} seated phones, the idle streams too; "
          f"{len(latencies)} commands: {kinds['camera']} camera readings confirmed, {kinds['typed']} rolls "
          f"typed, {kinds['decision']} decisions): median {statistics.median(latencies):.1f} ms, "
          f"p99 {_percentile(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms")

    asks = args.flood
    opened, refusals, other, api_status = _flood(port, tid, asks)
    print(f"flood from one client: asked for {asks} streams, {opened} opened, {len(refusals)} refused "
          f"({', '.join(sorted(set(refusals))) or 'none'}); meanwhile another client's stream got {other} "
          f"and the API answered {api_status}")

    filled, refusal, api_status = _fill(port, tid, first=80_000)
    print(f"cap in all: {filled} more clients opened a stream each, then the next got {refusal}; "
          f"the API answered {api_status}")

    rss, peak = _rss_mb(server.pid)
    print(f"server memory: RSS {rss:.0f} MB now, peak {peak:.0f} MB (with {idle.held()} idle streams "
          f"and {args.phones} phones open)")

    idle.close()
    closed = time.perf_counter()
    _call(port, "GET", f"/api/tables/{tid}")
    api_ms = (time.perf_counter() - closed) * 1000
    again = IdleStreams(port, tid, args.streams, first=args.streams)
    again.start()
    again.wait(30)
    print(f"after all {args.streams} idle streams closed at once: the API answered in {api_ms:.1f} ms; "
          f"{again.held()} of {args.streams} new streams opened in {(time.perf_counter() - closed):.1f} s")
    again.close()
    return 0
