"""Say when a roll has settled: something lies in the tray and nothing has moved for settle_ms.

    detector = SettleDetector(settle_ms=700)
    detector.set_empty(empty_tray_frame)        # optional: else learnt from a still view with no dice
    if detector.update(frame, time_ms):         # True once dice lie still for settle_ms
        ...
    detector.state                              # 'empty' | 'moving' | 'still' | 'settled' | 'hand'

Works on a small blurred grey copy of each frame (160 px wide), so it costs well under 1 ms; until the
empty tray is known, the dice reader reads one frame of each still period to tell dice from an empty tray.
A hand is told from dice by its size: a changed region touching the frame border, or one far
larger than a die, keeps the state at 'hand' however still it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import cv2
import numpy as np

log = logging.getLogger(__name__)

WORK_WIDTH_PX = 160


class SettleDetector:
    """Frame-to-frame motion and difference from the empty tray, with a settle timer in ms."""

    def __init__(self, settle_ms: float = 700.0, motion_level: int = 14, motion_fraction: float = 0.002,
                 occupied_fraction: float = 0.001, hand_fraction: float = 0.12,
                 read: Callable[[np.ndarray], Sequence[object]] | None = None):
        self.settle_ms = settle_ms
        self.motion_level = motion_level  # grey-level change that counts as motion
        self.motion_fraction = motion_fraction  # share of pixels moving that counts as 'moving'
        self.occupied_fraction = occupied_fraction  # share differing from the empty tray: 'not empty'
        self.hand_fraction = hand_fraction  # one changed blob this large is a hand or an arm
        # the dice reader (frame -> dice), asked whether a still view holds dice or is the empty tray; by
        # default `vision.readers.open_reader`'s: the learned one, or the rules without its models
        self.read = read
        self._checked: tuple[float, bool] | None = None  # (still since, had dice) of the last check
        self._empty: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._still_since: float | None = None
        self.state = "empty"

    @staticmethod
    def _small(frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(gray, (WORK_WIDTH_PX, max(1, round(h * WORK_WIDTH_PX / w))),
                           interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0)

    def set_empty(self, frame: np.ndarray) -> None:
        """Remember how the empty tray looks (call when nobody has rolled yet)."""
        self._empty = self._small(frame)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return (cv2.absdiff(a, b) > self.motion_level).astype(np.uint8)

    def _hand_in_view(self, changed: np.ndarray) -> bool:
        count, _, stats, _ = cv2.connectedComponentsWithStats(changed)
        h, w = changed.shape
        for i in range(1, count):
            x, y, bw, bh, area = stats[i]
            touches = x == 0 or y == 0 or x + bw >= w or y + bh >= h
            if area > self.hand_fraction * h * w or (touches and area > 0.01 * h * w):
                return True
        return False

    def update(self, frame: np.ndarray, time_ms: float) -> bool:
        """Feed one frame taken at time_ms (ms, any clock); True when settled. See `state` for why not."""
        return self._update(frame, time_ms) == "settled"

    def _update(self, frame: np.ndarray, time_ms: float) -> str:
        small = self._small(frame)
        if self._prev is not None and self._prev.shape != small.shape:  # another view (the picture turned):
            self._prev = self._empty = self._checked = self._still_since = None  # learn it afresh
        prev, self._prev = self._prev, small
        moving = prev is not None and self._changed(prev, small).mean() > self.motion_fraction
        if moving or prev is None:
            self._still_since = None if moving else time_ms
            self.state = "moving" if moving else "still"
            return self.state
        if self._still_since is None:
            self._still_since = time_ms
        still_long = time_ms - self._still_since >= self.settle_ms
        if self._empty is None:
            # no picture of the empty tray yet: learn one from a still view in which no die can be read
            if not still_long:
                self.state = "still"
            elif self._has_dice(frame):
                self.state = "settled"
            else:
                self._empty = small
                self.state = "empty"
            return self.state
        changed = self._changed(self._empty, small)
        if changed.mean() <= self.occupied_fraction:
            self.state = "empty"
            if still_long:
                self._empty = small  # follow slow changes of the light
        elif self._hand_in_view(changed):
            self.state = "hand"
        elif still_long:
            self.state = "settled"
        else:
            self.state = "still"
        return self.state

    def _has_dice(self, frame: np.ndarray) -> bool:
        """Whether this still view holds dice; asked once per still period. Where the reader fails, it holds
        dice: the roll is read (and, failing again, a person is asked) and the failure is logged once, not
        every frame until the view moves."""
        if self._checked is not None and self._checked[0] == self._still_since:
            return self._checked[1]
        if self.read is None:
            from vision.readers import open_reader

            self.read = open_reader().read
        try:
            found = bool(self.read(frame))
        except Exception:  # a reader bug: the view is taken for a roll, whose reading asks a person
            log.exception("the dice reader failed on a still view: taking it for a roll")
            found = True
        self._checked = (self._still_since or 0.0, found)
        return found

    @property
    def settled(self) -> bool:
        return self.state == "settled"
