"""Server-sent events: each phone's stream gets a snapshot first, then one update per change.

The table session calls `Broadcaster.tell` after each committed change; every open stream of that
table wakes and sends its own phone's view (so a phone never receives another player's secrets).
A phone that falls behind loses intermediate wake-ups, never the latest state: every update carries
a whole snapshot, and the history rides inside it.

Streams are bounded: at most `per_client` open streams from one address and `most` in all; beyond
that `open` raises `StreamsBusy` (the app answers 503 with Retry-After), so a flood from one client
never starves the other phones. A view is computed once per change and per seat token, however many
streams show it, and shared as JSON text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator

KEEPALIVE_S = 15.0  # a comment line this often keeps proxies and phones from dropping an idle stream
QUEUE_SIZE = 32  # change notices kept for a phone that is behind; older ones are dropped (and counted)
MOST_STREAMS = 512  # open streams in all (800 measured cheap: see web/server.py)
STREAMS_PER_CLIENT = 8  # open streams from one address: a phone with a few tabs, or a few phones behind NAT
RETRY_AFTER_S = 5  # what a refused client is told to wait, in seconds
TAKE_WAIT_S = 5.0  # the most a stream waits for another to take the view they share, in seconds


class StreamsBusy(Exception):
    """No room for another stream now: answered 503 with `retry_after_s` in a Retry-After header."""

    def __init__(self, message: str, retry_after_s: int = RETRY_AFTER_S) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class LiveStream:
    """One phone's event stream. Iterate it in a thread (any WSGI server) or with `async for` on an
    event loop (the server's own loop: no thread is held while the phone waits)."""

    def __init__(self, hub: Broadcaster, table_id: str, client: str, view: str | None,
                 snapshot: Callable[[], dict]) -> None:
        self.hub, self.table_id, self.client, self.view = hub, table_id, client, view
        self._snapshot = snapshot
        self._notices: deque[tuple[int, str]] = deque()  # (version, the change's texts as JSON)
        self._lock = threading.Lock()
        self._wake: Callable[[], None] = lambda: None
        self.ended = False

    # ---- fed by the broadcaster (any thread) ----------------------------------------------------------
    def notify(self, version: int, texts_json: str) -> None:
        with self._lock:
            if len(self._notices) >= QUEUE_SIZE:
                self._notices.popleft()
                self.hub.dropped += 1
            self._notices.append((version, texts_json))
        self._wake()

    def end(self) -> None:
        """Stop at the next wake-up (shutdown)."""
        self.ended = True
        self._wake()

    # ---- frames -----------------------------------------------------------------------------------------
    def first(self) -> str:
        return "retry: 2000\nevent: snapshot\ndata: " + self.hub.view_json(self.table_id, self.view,
                                                                         self._snapshot) + "\n\n"

    def pending(self) -> str:
        """The update frames for the notices waiting, each carrying the phone's latest view."""
        with self._lock:
            notices = list(self._notices)
            self._notices.clear()
        if not notices:
            return ""
        view = self.hub.view_json(self.table_id, self.view, self._snapshot)
        return "".join(f'event: update\ndata: {{"version":{version},"texts":{texts},"snapshot":{view}}}\n\n'
                       for version, texts in notices)

    # ---- served by a thread (Flask's test client, or any WSGI server) ----------------------------------
    def __iter__(self) -> Iterator[str]:
        woken = threading.Event()
        self._wake = woken.set
        try:
            yield self.first()
            while not self.ended:
                woken.wait(KEEPALIVE_S)
                woken.clear()
                if self.ended:
                    return
                yield self.pending() or ": keepalive\n\n"
        finally:
            self.close()

    # ---- served on an event loop -------------------------------------------------------------------------
    async def frames(self) -> AsyncIterator[str]:
        """The frames, waited for on the running loop; the caller stops it when the phone goes away."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        self._wake = lambda: loop.call_soon_threadsafe(woken.set)
        try:
            yield await loop.run_in_executor(None, self.first)
            while not self.ended:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), KEEPALIVE_S)
                woken.clear()
                if self.ended:
                    return
                # a view already taken for this change is shared at once; taking one may wait on the
                # table's lock, so that happens on a worker thread, never on the loop
                shared = self.hub.has_view(self.table_id, self.view)
                frames = self.pending() if shared else await loop.run_in_executor(None, self.pending)
                yield frames or ": keepalive\n\n"
        finally:
            self.close()

    def close(self) -> None:
        self._wake = lambda: None
        self.hub.forget(self)


class Broadcaster:
    """Fans the session's change notices out to the open streams, by table, within the limits."""

    def __init__(self, most: int = MOST_STREAMS, per_client: int = STREAMS_PER_CLIENT) -> None:
        self.most, self.per_client = most, per_client
        self._lock = threading.Lock()
        self._streams: dict[str, set[LiveStream]] = {}
        self._clients: dict[str, int] = {}
        self._seq: dict[str, int] = {}  # change notices per table, to know when a shared view is stale
        self._views: dict[tuple[str, str | None], tuple[int, str]] = {}
        self._taking: dict[tuple[str, str | None], tuple[int, threading.Event]] = {}  # views being taken
        self.dropped = 0  # wake-ups lost to phones that were behind
        self.refused = 0  # streams refused for a limit
        self.closed = threading.Event()

    def open(self, table_id: str, client: str, view: str | None, snapshot: Callable[[], dict]) -> LiveStream:
        """A new stream for `client` (its address), showing `snapshot()`; `view` names whose view it is
        (the seat token) so streams with the same view share it. Raises StreamsBusy beyond a limit."""
        with self._lock:
            if self.closed.is_set():
                raise StreamsBusy("the companion is shutting down")
            if self._clients.get(client, 0) >= self.per_client:
                self.refused += 1
                raise StreamsBusy(f"this device already has {self.per_client} live streams open: "
                                  "close another tab of the table, or wait")
            if sum(self._clients.values()) >= self.most:
                self.refused += 1
                raise StreamsBusy(f"the companion is serving its most live streams ({self.most}): "
                                  "try again shortly")
            stream = LiveStream(self, table_id, client, view, snapshot)
            self._streams.setdefault(table_id, set()).add(stream)
            self._clients[client] = self._clients.get(client, 0) + 1
            return stream

    def forget(self, stream: LiveStream) -> None:
        with self._lock:
            group = self._streams.get(stream.table_id, set())
            if stream not in group:
                return
            group.discard(stream)
            if not group:
                del self._streams[stream.table_id]
            left = self._clients[stream.client] - 1
            if left:
                self._clients[stream.client] = left
            else:
                del self._clients[stream.client]

    def tell(self, table_id: str, version: int, texts: list[str]) -> None:
        """Wake the table's streams; the change's texts are encoded once here, not once per stream."""
        texts_json = json.dumps(texts, separators=(",", ":"))
        with self._lock:
            self._seq[table_id] = self._seq.get(table_id, 0) + 1
            streams = list(self._streams.get(table_id, ()))
        for stream in streams:
            stream.notify(version, texts_json)

    def has_view(self, table_id: str, view: str | None) -> bool:
        """Whether `view_json` would answer at once, from the view already taken for the last change."""
        with self._lock:
            cached = self._views.get((table_id, view))
            return cached is not None and cached[0] == self._seq.get(table_id, 0)

    def view_json(self, table_id: str, view: str | None, snapshot: Callable[[], dict]) -> str:
        """`snapshot()` as JSON, taken once per change for all the streams that share `view`: a stream
        that asks while another is taking it waits for that one instead of taking it again."""
        key = (table_id, view)
        with self._lock:
            seq = self._seq.get(table_id, 0)
            cached = self._views.get(key)
            if cached is not None and cached[0] == seq:
                return cached[1]
            taking = self._taking.get(key)
            mine = taking is None or taking[0] != seq
            if mine:
                taking = self._taking[key] = (seq, threading.Event())
        if not mine:
            taking[1].wait(TAKE_WAIT_S)
            with self._lock:
                cached = self._views.get(key)
            if cached is not None and cached[0] == seq:
                return cached[1]
        try:
            text = json.dumps(snapshot(), separators=(",", ":"))
            with self._lock:
                if self._seq.get(table_id, 0) == seq:  # no change came in while it was taken
                    if len(self._views) > 4 * self.most:
                        self._views.clear()
                    self._views[key] = (seq, text)
        finally:
            if mine:
                with self._lock:
                    if self._taking.get(key) is taking:
                        del self._taking[key]
                taking[1].set()
        return text

    def count(self, client: str | None = None) -> int:
        """Open streams in all, or from one client."""
        with self._lock:
            return sum(self._clients.values()) if client is None else self._clients.get(client, 0)

    def close(self) -> None:
        """End every stream (at its next wake-up, which this causes) and refuse new ones."""
        self.closed.set()
        with self._lock:
            streams = [s for group in self._streams.values() for s in group]
        for stream in streams:
            stream.end()


HANDOFF = "companion.live_handoff"  # ASGI scope key: a callable that takes a stream onto the server's loop


def live_body(stream: LiveStream, environ: dict) -> LiveStream | Iterator[str]:
    """The body of a stream's WSGI response. Our server (web/server.py) puts a HANDOFF callable in the
    request's ASGI scope and serves the stream on its loop, holding no thread; elsewhere (Flask's test
    client) the stream itself is the body, and its close() runs when the response ends."""
    handoff = environ.get("asgi.scope", {}).get(HANDOFF)
    if handoff is not None:
        handoff(stream)
        return iter(())  # not a list: a list would make the answer's Content-Length 0
    return stream
