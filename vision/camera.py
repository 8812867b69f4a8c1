"""One thread owns the camera and publishes its latest frame to any number of readers.

    camera = CameraThread(open_source("auto")).start()
    shot = camera.latest()          # Frame(image, number, time_s) or None before the first frame
    image = camera.latest_frame()   # just the image; None before the first frame or after an error
    shot = camera.wait_newer(shot.number, timeout_s=1.0)
    if camera.error: ...            # the camera vanished: a sentence for the page and the log
    camera.close()
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from vision.sources import FrameSource


@dataclass(frozen=True)
class Frame:
    """A published frame: BGR image (do not modify it), counter from 1, time.monotonic() seconds."""

    image: np.ndarray
    number: int
    time_s: float


class CameraThread:
    """Reads `source` in a daemon thread; readers get the newest frame without waiting for the camera.

    If read() raises or returns None, `error` holds a sentence and the thread stops reading (the
    last frame stays available); `restart()` clears the error and starts again.
    """

    def __init__(self, source: FrameSource, name: str = "camera"):
        self.source = source
        self.name = name
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> CameraThread:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        number = self._frame.number if self._frame else 0
        while not self._stop.is_set():
            try:
                image = self.source.read()
                if image is None:
                    raise RuntimeError("the camera returned no frame")
            except Exception as err:  # a vanished camera must not kill the process
                with self._cond:
                    self._error = f"camera stopped: {err}"
                    self._cond.notify_all()
                return
            number += 1
            with self._cond:
                self._frame = Frame(image, number, time.monotonic())
                self._cond.notify_all()

    @property
    def error(self) -> str | None:
        """None while the camera works; a sentence once it failed."""
        with self._cond:
            return self._error

    def latest(self) -> Frame | None:
        """The newest frame, or None before the first one."""
        with self._cond:
            return self._frame

    def latest_frame(self) -> np.ndarray | None:
        """The newest image, or None before the first frame or once the camera has vanished."""
        with self._cond:
            if self._error is not None or self._frame is None:
                return None
            return self._frame.image

    def wait_newer(self, number: int = 0, timeout_s: float = 1.0) -> Frame | None:
        """Block until a frame numbered above `number` exists (or error/timeout); return the newest."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while (self._frame is None or self._frame.number <= number) and self._error is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
            return self._frame if self._frame is not None and self._frame.number > number else None

    def restart(self) -> None:
        """Clear an error and read again (e.g. after the camera was plugged back in)."""
        with self._cond:
            self._error = None
        self.start()

    def stop(self, close: bool = True) -> None:
        """Stop the thread (waits up to 2 s) and close the source."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if close:
            self.source.close()

    def close(self) -> None:
        """Stop reading and close the source."""
        self.stop(close=True)

    def __enter__(self) -> CameraThread:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
