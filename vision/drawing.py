"""Draw dice readings on a frame: a box and the value per die, orange when unsure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.die import Die

SURE = 0.6  # at or above this confidence a box is drawn green, below it orange


def _as_die(die: Die | Mapping) -> Die:
    if isinstance(die, Die):
        return die
    return Die(die["value"], die.get("kind", "d6"), die.get("colour", ""), tuple(die["box"]),
               float(die.get("confidence", 0.0)))


def annotate(frame: np.ndarray, dice: Sequence[Die | Mapping], labels: bool = True,
             words: Sequence[str] | None = None) -> np.ndarray:
    """A copy of the BGR frame with each die's box, value and confidence drawn on it.

    dice: Die objects, or their JSON dicts (value, kind, colour, box, confidence).
    labels: False draws the boxes only (the phone page writes its own words over them: "Ann 6").
    words: what to write over each die instead of its value and confidence ("cream 3").
    """
    out = frame.copy()
    for k, die in enumerate(map(_as_die, dice)):
        colour = (60, 200, 60) if die.confidence >= SURE else (0, 140, 255)
        x1, y1, x2, y2 = die.box
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2)
        if not labels:
            continue
        label = f"{die.value} {die.confidence:.2f}"
        if die.kind != "d6":
            label = f"{die.kind}:{label}"
        if words is not None:
            label = words[k]
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
        ty = y1 - 4 if y1 - th - 6 >= 0 else y2 + th + 4
        cv2.rectangle(out, (x1, ty - th - 3), (x1 + tw + 4, ty + 3), colour, -1)
        cv2.putText(out, label, (x1 + 2, ty), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    return out
