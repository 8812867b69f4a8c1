"""Frame sources: anything that gives BGR numpy frames. One small interface, four kinds of camera.

    with open_source("sim") as camera:
        frame = camera.read()          # H x W x 3 uint8, BGR

* `Picamera2Source`: the Pi's ribbon camera (picamera2 is imported only here, only when chosen);
* `OpenCVSource`: a USB webcam by index, or a stream URL;
* `ReplaySource`: a folder of images or a video file, looping, at a chosen rate;
* `SyntheticSource`: the renderer's dice on a table; `throw(dice)` (alias `show`) rolls the asked-for
  dice, `clear()` empties the table.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import CameraError, ImageReadError, SourceSpecError
from vision.images import load_image, turned
from vision.render import GREY_FACES, STYLES, DieSpec, background, render_scene
from vision.symbols import TREEHOUSE_FACES

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


class FrameSource:
    """The interface: `read()` returns the next BGR frame or raises CameraError; `close()` lets go."""

    name = "camera"

    def read(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (from apt: python3-picamera2), `RGB888` = BGR in memory.

    After `warmup_s` seconds of automatic exposure and white balance, both are fixed at the values found,
    so the dice keep their colours from roll to roll.
    """

    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (640, 480), warmup_s: float = 1.5) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi
        except ImportError as err:
            raise CameraError("picamera2 is not installed (on a Pi: apt install python3-picamera2)") from err
        try:
            self._camera = Picamera2()
            config = self._camera.create_video_configuration(main={"size": size, "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
        except Exception as err:  # picamera2 raises many kinds when no camera is attached
            raise CameraError(f"the Pi camera did not start: {err}") from err
        time.sleep(warmup_s)
        meta = self._camera.capture_metadata()
        fixed = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in meta:
                fixed[key] = meta[key]
        self._camera.set_controls(fixed)

    def read(self) -> np.ndarray:
        try:
            return self._camera.capture_array("main")
        except Exception as err:
            raise CameraError(f"the Pi camera stopped: {err}") from err

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


class OpenCVSource(FrameSource):
    """A USB webcam (`index` 0, 1, ...) or a stream URL, through cv2.VideoCapture."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (640, 480)) -> None:
        self.name = f"opencv:{device}"
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise CameraError(f"no camera at {device!r} (is it plugged in? a ribbon camera needs picamera2)")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"{self.name} sends no pictures")
        return frame

    def close(self) -> None:
        self._capture.release()


class ReplaySource(FrameSource):
    """Recorded frames: every image of a folder in name order, or a video file; loops; `fps` per second.
    An image that cannot be read (too many pixels, damaged) is passed over and noted in `skipped`."""

    def __init__(self, path: str | Path, fps: float = 5.0, loop: bool = True) -> None:
        self.path = Path(path)
        self.name = f"replay:{self.path}"
        self.fps, self.loop = fps, loop
        self._last = 0.0
        self._video: cv2.VideoCapture | None = None
        self._files: list[Path] = []
        self._index = 0
        self.skipped: dict[str, str] = {}  # file name -> why it could not be read (too large, damaged)
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"no images in {self.path}")
        elif self.path.is_file():
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                raise CameraError(f"cannot open the video {self.path}")
        else:
            raise CameraError(f"nothing to replay at {self.path}")

    def _pace(self) -> None:
        if self.fps > 0:
            wait = self._last + 1 / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        self._last = time.monotonic()

    def read(self) -> np.ndarray:
        self._pace()
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                raise CameraError(f"{self.path} has no more frames")
            return frame
        problem = "no images"
        for _ in range(len(self._files)):
            if self._index >= len(self._files):
                if not self.loop:
                    raise CameraError(f"{self.path} has no more images")
                self._index = 0
            path = self._files[self._index]
            self._index += 1
            try:  # load_image's pixel limit holds here too: a recorded frame is a file like any photo
                return load_image(path)
            except ImageReadError as err:  # one bad file is passed over, not the end of the replay
                problem = str(err)
                self.skipped[path.name] = problem
        raise CameraError(f"no readable image in {self.path} (last: {problem})")

    def close(self) -> None:
        if self._video is not None:
            self._video.release()


def _spec(die: dict[str, Any] | DieSpec, rng: random.Random) -> DieSpec:
    """The renderer's DieSpec for a die the games ask for ({"kind", "colour"}), with a random face."""
    if isinstance(die, DieSpec):
        if die.value is not None:
            return die
        return _spec({"kind": die.kind, "style": die.style}, rng)
    kind, colour = die.get("kind", "d6"), die.get("style") or die.get("colour")
    if kind == "grey":
        return DieSpec("grey", "grey", rng.choice(GREY_FACES))
    if kind == "treehouse":
        return DieSpec("treehouse", "treehouse", rng.choice(TREEHOUSE_FACES))
    style = colour if colour in STYLES and colour not in ("grey", "treehouse") else "white"
    return DieSpec("d6", style, rng.randint(1, 6))


class SyntheticSource(FrameSource):
    """The demo camera: an empty table until `throw(dice)` (or `show(specs)`); then a hand passes and
    the dice tumble for `roll_s` seconds, and settle with random faces until `clear()`.

    Frames come at `fps` per second (0: unpaced); `seed` makes it repeatable. `truth` lists what the
    settled dice really show (vision.render.TruthDie), for tests that compare a reading with it.
    """

    name = "sim"

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 15.0, roll_s: float = 0.8,
                 seed: int | None = None, hand: bool = True) -> None:
        self.size, self.fps, self.roll_s, self.hand = size, fps, roll_s, hand
        self._rng = random.Random(seed)
        self._table = background(np.random.default_rng(self._rng.getrandbits(32)), size[0], size[1],
                                 clutter=False)
        self._lock = threading.Lock()
        self._specs: list[DieSpec] = []
        self._thrown_at = 0.0
        self._settled: np.ndarray | None = None
        self._last = 0.0
        self.truth: list = []  # what the dice really show once settled

    def throw(self, dice: list[dict[str, Any]] | list[DieSpec]) -> None:
        """Roll these dice now: dicts with `kind` and `colour` as the games ask, or renderer DieSpecs
        (a DieSpec with a value keeps that face)."""
        with self._lock:
            self._specs = [_spec(d, self._rng) for d in dice]
            self._thrown_at = time.monotonic()
            seed = self._rng.getrandbits(32)
            image, self.truth = render_scene(np.random.default_rng(seed), self._specs, width=self.size[0],
                                             height=self.size[1], variations=False, backdrop=self._table)
            self._settled = image

    show = throw

    def clear(self) -> None:
        """Take the dice off the table."""
        with self._lock:
            self._specs, self._settled, self.truth = [], None, []

    @property
    def rolling(self) -> bool:
        """True while the thrown dice still tumble."""
        with self._lock:
            return self._settled is not None and time.monotonic() - self._thrown_at < self.roll_s

    def _draw_hand(self, img: np.ndarray, t: float) -> None:
        """A hand and forearm sweeping across the tray, t = 0..1 of the roll."""
        w, h = self.size
        x = int(w * (0.2 + 0.6 * t))
        y = int(h * (0.75 - 0.25 * np.sin(np.pi * t)))
        skin = (120, 150, 205)
        cv2.rectangle(img, (x - 45, y), (x + 45, h), (110, 140, 190), -1)
        cv2.ellipse(img, (x, y), (60, 85), 15, 0, 360, skin, -1, cv2.LINE_AA)

    def read(self) -> np.ndarray:
        if self.fps > 0:
            wait = self._last + 1 / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        self._last = time.monotonic()
        with self._lock:
            if self._settled is None:
                return self._table.copy()
            elapsed = time.monotonic() - self._thrown_at
            if elapsed < self.roll_s:  # still tumbling: new places and faces each frame
                rng = np.random.default_rng(self._rng.getrandbits(32))
                tumbling = [DieSpec(s.kind, s.style) for s in self._specs]
                img = render_scene(rng, tumbling, width=self.size[0], height=self.size[1], variations=False,
                                   backdrop=self._table)[0]
                if self.hand and elapsed < self.roll_s * 0.6:
                    self._draw_hand(img, elapsed / (self.roll_s * 0.6))
                return img
            return self._settled.copy()


def _quiet_usb_camera() -> OpenCVSource:
    """USB camera 0, probed with OpenCV's own log silenced: "auto" looking for a camera that is not there
    is normal, not the warnings OpenCV prints for it (can't open camera by index, libavdevice)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        return OpenCVSource(0)
    finally:
        cv2.utils.logging.setLogLevel(level)


ROTATIONS = (0, 90, 180, 270)  # degrees clockwise a camera's frames may be turned (`TurnedSource`;
# companion.settings checks the setting against its own copy, to load no cv2 when it reads a file)


def quarter_turns(degrees: int) -> int:
    """Clockwise quarter turns in `degrees` (one of ROTATIONS); SourceSpecError for any other angle."""
    if degrees not in ROTATIONS:
        raise SourceSpecError(f"a camera turns by 0, 90, 180 or 270 degrees, not {degrees!r}")
    return degrees // 90


class TurnedSource(FrameSource):
    """Another source's frames turned `degrees` clockwise (0, 90, 180 or 270), so that a camera mounted on
    its side or upside down still gives frames whose down is the table's near edge: the learned reader knows
    that a slanted camera sees a die's side faces below its top face, never above it. `turn_to` changes the
    turn while frames are read (the host's page does)."""

    def __init__(self, source: FrameSource, degrees: int) -> None:
        self.source, self.turns = source, quarter_turns(degrees)
        self.name = source.name

    def turn_to(self, degrees: int) -> None:
        """Turn the frames read from now on `degrees` clockwise (SourceSpecError for another angle)."""
        self.turns = quarter_turns(degrees)

    def read(self) -> np.ndarray:
        return turned(self.source.read(), -self.turns)

    def close(self) -> None:
        self.source.close()

    def __getattr__(self, name: str) -> Any:
        """What else the turned source can do (the synthetic camera's `throw`) is its own."""
        return getattr(self.source, name)


def open_source(spec: str, fps: float | None = None, seed: int | None = None, rotation: int = 0
                ) -> FrameSource:
    """A source from its name: "auto", "picamera2", "opencv:N" or "opencv:URL", "replay:PATH", "sim",
    its frames turned `rotation` degrees clockwise (0, 90, 180 or 270; `TurnedSource`).

    "auto" tries the Pi camera, then USB camera 0, then falls back to the synthetic camera.
    """
    quarter_turns(rotation)  # a wrong angle is refused before any camera is opened
    source = _named_source(spec, fps, seed)
    return TurnedSource(source, rotation) if rotation else source


def _named_source(spec: str, fps: float | None, seed: int | None) -> FrameSource:
    """The source `open_source` names, unturned."""
    spec = (spec or "auto").strip()
    kind, _, arg = spec.partition(":")
    if kind == "sim":
        return SyntheticSource(fps=15.0 if fps is None else fps, seed=seed)
    if kind == "picamera2":
        return Picamera2Source()
    if kind == "opencv":
        return OpenCVSource(int(arg) if arg.isdigit() else (arg or 0))
    if kind == "replay":
        if not arg:
            raise SourceSpecError("replay needs a folder or video: replay:PATH")
        return ReplaySource(arg, fps=5.0 if fps is None else fps)
    if kind == "auto":
        for attempt in (Picamera2Source, _quiet_usb_camera):
            try:
                return attempt()
            except CameraError:
                continue
        return SyntheticSource(fps=15.0 if fps is None else fps, seed=seed)
    raise SourceSpecError(f"unknown camera {spec!r}: use auto, picamera2, opencv:N, replay:DIR or sim")
