"""The six Treehouse die faces drawn as simple, distinct light symbols on black.

Used by the renderer (to draw the die) and by the Treehouse reader (as default templates when no
calibration has been captured).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

TREEHOUSE_FACES = ("AIM", "TIP", "HOP", "DIG", "SWAP", "WILD")


def _pts(points: list[tuple[float, float]], size: int) -> np.ndarray:
    """Map unit coordinates (-1..1, y down) to pixel points of a size x size image."""
    half = size / 2.0
    return np.array([[half + x * half, half + y * half] for x, y in points], dtype=np.int32)


def draw_symbol(face: str, size: int = 64, ink: int = 255) -> np.ndarray:
    """A size x size uint8 image (0 background) with the symbol of `face` drawn in `ink`."""
    img = np.zeros((size, size), np.uint8)
    t = max(2, round(size * 0.09))  # stroke width, px
    c = size // 2
    if face == "AIM":  # ring with a centre dot: a target
        cv2.circle(img, (c, c), round(size * 0.30), ink, t, cv2.LINE_AA)
        cv2.circle(img, (c, c), round(size * 0.09), ink, -1, cv2.LINE_AA)
    elif face == "TIP":  # filled triangle
        cv2.fillPoly(img, [_pts([(0, -0.55), (0.5, 0.4), (-0.5, 0.4)], size)], ink, cv2.LINE_AA)
    elif face == "HOP":  # two chevrons
        for dy in (-0.2, 0.2):
            pts = _pts([(-0.45, 0.2 + dy), (0, -0.2 + dy), (0.45, 0.2 + dy)], size)
            cv2.polylines(img, [pts], False, ink, t, cv2.LINE_AA)
    elif face == "DIG":  # a plus sign
        cv2.line(img, (c, round(size * 0.2)), (c, round(size * 0.8)), ink, t + 1, cv2.LINE_AA)
        cv2.line(img, (round(size * 0.2), c), (round(size * 0.8), c), ink, t + 1, cv2.LINE_AA)
    elif face == "SWAP":  # two bars, offset like opposite arrows
        cv2.rectangle(img, _pts([(-0.5, -0.35)], size)[0], _pts([(0.25, -0.12)], size)[0], ink, -1)
        cv2.rectangle(img, _pts([(-0.25, 0.12)], size)[0], _pts([(0.5, 0.35)], size)[0], ink, -1)
    elif face == "WILD":  # five-pointed star
        pts = []
        for k in range(10):
            r = 0.55 if k % 2 == 0 else 0.22
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((r * math.cos(a), r * math.sin(a)))
        cv2.fillPoly(img, [_pts(pts, size)], ink, cv2.LINE_AA)
    else:
        raise ValueError(f"unknown Treehouse face {face!r}; expected one of {', '.join(TREEHOUSE_FACES)}")
    return img
