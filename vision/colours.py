"""Name a die's body colour from its BGR value."""

from __future__ import annotations

import cv2
import numpy as np


def colour_name(bgr: np.ndarray | tuple[float, float, float]) -> str:
    """'white', 'grey', 'black', 'red', 'orange', 'yellow', 'green', 'blue' or 'purple' for one BGR colour."""
    pixel = np.clip(np.asarray(bgr, np.float32), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = (int(c) for c in cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0])
    if v < 60 or (v < 90 and s < 110):
        return "black"
    if s < 60:
        return "white" if v >= 165 else "grey"
    if h < 8 or h >= 165:
        return "red"
    if h < 18:
        return "orange"
    if h < 36:
        return "yellow"
    if h < 86:
        return "green"
    if h < 132:
        return "blue"
    return "purple"
