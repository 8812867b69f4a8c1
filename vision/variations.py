"""Labelled photos as another camera or another room would take them, for `companion bench vision --vary`.

The reader is also judged on photos we do not have: other cameras (more or fewer pixels on a die, more
JPEG loss, another white balance, out of focus, shaken), other light (a dim room, a bright lamp) and the
camera turned. Each variation changes a photo and moves its labelled boxes with it, so one labelled
folder measures how far the reader's figures hold up.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.smear import smear

Box = tuple[int, int, int, int]
Variation = Callable[[np.ndarray, list[Box]], tuple[np.ndarray, list[Box]]]


def _scaled(k: float) -> Variation:
    """The photo k times as wide (fewer or more pixels on each die)."""
    def vary(image: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, list[Box]]:
        shrink = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
        out = cv2.resize(image, None, fx=k, fy=k, interpolation=shrink)
        return out, [tuple(int(round(v * k)) for v in box) for box in boxes]
    return vary


def _turned(image: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, list[Box]]:
    """The camera turned a quarter clockwise: (x, y) goes to (height - 1 - y, x)."""
    h = image.shape[0]
    return (cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
            [(h - 1 - y2, x1, h - 1 - y1, x2) for x1, y1, x2, y2 in boxes])


def _gamma(g: float) -> Variation:
    """Levels raised to the power g (g > 1: a dim room, mid-greys darker; g < 1: a bright lamp)."""
    lut = (255.0 * (np.arange(256) / 255.0) ** g).round().astype(np.uint8)
    return lambda image, boxes: (cv2.LUT(image, lut), boxes)


def _jpeg(quality: int) -> Variation:
    """Saved again as a JPEG of this quality (0..100): a cheap camera's or a stream's blocks."""
    def vary(image: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, list[Box]]:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return (cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image), boxes
    return vary


def _warm(image: np.ndarray, boxes: list[Box]) -> tuple[np.ndarray, list[Box]]:
    """A warm lamp and no white balance: blue down a fifth, red up a tenth."""
    return (image * np.array([0.8, 0.95, 1.1])).clip(0, 255).astype(np.uint8), boxes


def _soft(sigma: float) -> Variation:
    """Out of focus: a Gaussian blur of sigma px (a fixed-focus camera set for farther away)."""
    return lambda image, boxes: (cv2.GaussianBlur(image, (0, 0), sigma), boxes)


def _shaken(length: int, degrees: float) -> Variation:
    """Smeared along a line of `length` px at `degrees` (a shaken camera, a long exposure in dim light)."""
    return lambda image, boxes: (smear(image, length, degrees), boxes)


VARIATIONS: dict[str, Variation] = {
    "smaller": _scaled(0.7),
    "larger": _scaled(1.4),
    "turned": _turned,
    "dim": _gamma(1.8),
    "bright": _gamma(0.6),
    "jpeg": _jpeg(30),
    "warm": _warm,
    "soft": _soft(1.5),
    "shaken": _shaken(9, 30.0),
}
