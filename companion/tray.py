"""The tray watcher: joins the camera, the settle detector and the dice reader to the table session.

Part of the composition root (built by `companion serve`), so it may import vision; the table session
itself never does. While the current table waits for a roll, each settled tray is read once and the
reading proposed with its annotated photo. A new settle (the dice were rolled again) or RETRY reads
again. With the synthetic camera it also plays the players' part: when a roll is asked for, it has
the renderer throw the asked-for dice with random faces.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from .table import TableSession

log = logging.getLogger(__name__)

JPEG_QUALITY = 80



def jpeg(image: np.ndarray) -> bytes | None:
    """A BGR image as the page's photos are sent (JPEG at JPEG_QUALITY); None where it cannot be encoded."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return data.tobytes() if ok else None

class Thrower(Protocol):
    def throw(self, dice: list[dict[str, Any]]) -> None: ...


@dataclass
class TrayParts:
    """What the watcher needs from vision, as plain callables so tests can stand in for the camera."""

    frame: Callable[[], np.ndarray | None]  # the camera's next frame (BGR), None if it has vanished
    settled: Callable[[np.ndarray, float], bool]  # (frame, ms) -> the tray holds dice at rest
    # dice as dicts (value, kind, colour, box, confidence), from a frame, the kinds the roll asks for, the
    # colour names the game's sets go by and how many dice the roll holds
    read: Callable[[np.ndarray, frozenset[str], tuple[str, ...], int], list[dict[str, Any]]]
    annotate: Callable[[np.ndarray, list[dict[str, Any]]], np.ndarray]
    thrower: Thrower | None = None  # the synthetic camera, which throws dice when a roll is asked for
    paused: Callable[[], bool] = lambda: False  # True while the host calibrates: the tray is not a game's


class TrayWatcher:
    """Reads the dice for the current table's pending roll; `step()` once per camera frame."""

    def __init__(self, session: TableSession, parts: TrayParts, interval_s: float = 0.05) -> None:
        self.session = session
        self.parts = parts
        self.interval_s = interval_s
        self.read_ms: list[float] = []  # time of each reading, for the status line
        self.error: str | None = None
        self._wanted: tuple | None = None  # (table, roll, retries) of the roll being read
        self._armed = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self, now_ms: float | None = None) -> bool:
        """Look at the tray once; True if a reading was proposed.

        The settle detector sees every frame, so it knows the empty tray. A reading is armed by motion
        (dice thrown after the roll was asked for) or by RETRY, and each settle is read once: dice left
        in the tray from the previous roll are never read as the new one.
        """
        now_ms = time.monotonic() * 1000 if now_ms is None else now_ms
        frame = self.parts.frame()
        if frame is None:
            self.error = "the camera sends no pictures"
            return False
        self.error = None
        settled = self.parts.settled(frame, now_ms)
        if self.parts.paused():  # calibrating: what lies in the tray now is never read as the game's roll
            self._armed = False
            return False
        if not settled:
            self._armed = True
        pending = self.session.pending_roll()
        if pending is None:
            self._wanted = None
            return False
        table_id, roll, read_requests, request, colours = pending
        wanted = (table_id, roll, read_requests)
        if wanted != self._wanted:
            new_roll = self._wanted is None or self._wanted[:2] != wanted[:2]
            self._wanted = wanted
            # RETRY reads what is there; a new roll waits for the dice to be thrown. The demo camera
            # throws once per roll and again only on RETRY (a player would pick the dice up): never
            # because a phone joined.
            self._armed = not new_roll or not settled
            if self.parts.thrower is not None:
                self.parts.thrower.throw([{"kind": d.kind, "colour": d.colour} for d in request.dice])
                self._armed = False
        if not (settled and self._armed):
            return False
        self._armed = False
        started = time.perf_counter()
        try:
            dice = self.parts.read(frame, frozenset(d.kind for d in request.dice), colours, len(request.dice))
        except Exception as err:  # a reader bug must not stop the table: ask a person instead
            log.exception("the dice reader failed")
            self.error = f"the dice reader failed: {err}"
            dice = []
        self.read_ms.append((time.perf_counter() - started) * 1000)
        self.session.propose_reading(table_id, dice, jpeg(self.parts.annotate(frame, dice)), roll)
        return True

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:
                log.exception("tray watcher step failed")
            if self.interval_s:
                self._stop.wait(self.interval_s)

    def start(self) -> TrayWatcher:
        self._thread = threading.Thread(target=self.run, name="tray", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
