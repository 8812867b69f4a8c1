"""Find pip-like blobs: small round spots clearly darker or lighter than their surroundings.

A pip is found in either polarity (dark pips on light dice, light pips on dark dice), so the
same code reads white, black, coloured and translucent dice.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Pip:
    """One pip candidate. Positions and sizes in px, levels in grey levels (0..255)."""

    x: float
    y: float
    diameter: float
    area: int
    polarity: int  # +1 lighter than its surroundings, -1 darker
    contrast: float  # mean |pip - local mean| over the blob
    elongation: float  # major / minor axis of the blob's ellipse (1 = round)


def local_contrast(gray: np.ndarray, window_px: int) -> np.ndarray:
    """gray minus its box mean over window_px (int16): > 0 lighter than around, < 0 darker."""
    mean = cv2.blur(gray, (window_px, window_px), borderType=cv2.BORDER_REPLICATE)
    return gray.astype(np.int16) - mean.astype(np.int16)


def find_pips(gray: np.ndarray, window_px: int = 25, threshold: int = 18, min_area: int = 7,
              max_diameter_px: float = 26.0) -> list[Pip]:
    """Round blobs in `gray` that differ from their window_px surroundings by more than threshold."""
    diff = local_contrast(gray, window_px)
    pips: list[Pip] = []
    for polarity in (-1, 1):
        mask = ((diff * polarity) > threshold).astype(np.uint8)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if count <= 1:
            continue
        w = stats[:, cv2.CC_STAT_WIDTH]
        h = stats[:, cv2.CC_STAT_HEIGHT]
        area = stats[:, cv2.CC_STAT_AREA]
        fill = area / np.maximum(w * h, 1)
        box_aspect = np.maximum(w, h) / np.maximum(np.minimum(w, h), 1)
        keep = (area >= min_area) & (np.maximum(w, h) <= max_diameter_px)
        keep &= (fill >= 0.45) & (box_aspect <= 2.2)
        keep[0] = False
        index = np.nonzero(keep)[0]
        if len(index) == 0:
            continue
        sums = np.bincount(labels.ravel(), weights=np.abs(diff).ravel(), minlength=count)
        for i in index:
            x0, y0, bw, bh = (int(v) for v in stats[i, :4])
            blob = labels[y0:y0 + bh, x0:x0 + bw] == i
            m = cv2.moments(blob.astype(np.uint8), binaryImage=True)
            mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
            common = np.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2)
            major = (mu20 + mu02) / 2 + common
            minor = max((mu20 + mu02) / 2 - common, 1e-3)
            elongation = float(np.sqrt(major / minor))
            # the blob is the part past the threshold; the visible pip is a little larger
            diameter = float(2.0 * np.sqrt(area[i] / np.pi)) + 1.0
            pips.append(Pip(float(centroids[i][0]), float(centroids[i][1]), diameter, int(area[i]), polarity,
                            float(sums[i] / area[i]), elongation))
    return pips
