"""Server-sent events: each phone's stream gets a snapshot first, then one update per change.

The table session calls `Broadcaster.tell` after each committed change; every open stream of that
table wakes and sends its own phone's view (so a phone never receives another player's secrets).
A phone that falls behind loses intermediate wake-ups, never the latest state: every update carries
a whole snapshot, and the history rides inside it.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

KEEPALIVE_S = 15.0
QUEUE_SIZE = 32


def sse(event: str, data: Any) -> str:
    """One server-sent event frame."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Broadcaster:
    """Fans the session's change notices out to the open streams, by table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, set[queue.Queue]] = {}
        self.dropped = 0  # wake-ups lost to phones that were behind
        self.closed = threading.Event()

    def tell(self, table_id: str, version: int, texts: list[str]) -> None:
        with self._lock:
            streams = list(self._streams.get(table_id, ()))
        for q in streams:
            try:
                q.put_nowait((version, texts))
            except queue.Full:
                self.dropped += 1

    def stream(self, table_id: str, snapshot: Callable[[], dict]) -> Iterator[str]:
        """The event stream of one phone: `snapshot()` is that phone's view, taken at each change."""
        q: queue.Queue = queue.Queue(QUEUE_SIZE)
        with self._lock:
            self._streams.setdefault(table_id, set()).add(q)
        try:
            yield "retry: 2000\n" + sse("snapshot", snapshot())
            while not self.closed.is_set():
                try:
                    version, texts = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if self.closed.is_set():
                    break
                yield sse("update", {"version": version, "texts": texts, "snapshot": snapshot()})
        finally:
            with self._lock:
                self._streams.get(table_id, set()).discard(q)

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._streams.values())

    def close(self) -> None:
        """Ask every stream to end (they notice within KEEPALIVE_S, or at their next update)."""
        self.closed.set()
        with self._lock:
            streams = [q for group in self._streams.values() for q in group]
        for q in streams:
            with contextlib.suppress(queue.Full):
                q.put_nowait((-1, []))
