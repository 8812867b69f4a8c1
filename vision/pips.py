"""Find pip-like blobs: small round spots clearly darker or lighter than their surroundings.

A pip is found in either polarity (dark pips on light dice, light pips on dark dice), so the
same code reads white, black, coloured and translucent dice. Repairs make it robust: holes are
filled (a glare spot inside a dark pip); pips merged by blur are split by thresholding the merged
blob again at a higher level or, a line of three that no level parts, at the waves along it; a pip
grown into a dim neighbour is cut back to its bright core, but a pip smeared or slanted alike both
ways (its core at its centre) is kept whole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np

OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
WINDOW_PX = 25  # a spot's level is compared with the mean of a square this many px across round it


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
    solidity: float = 1.0  # blob area over its convex hull's area (a disk: about 1; a glyph: less)
    axis: float = 0.0  # direction of the blob's long axis, radians


def local_contrast(gray: np.ndarray, window_px: int) -> np.ndarray:
    """gray minus its box mean over window_px (int16): > 0 lighter than around, < 0 darker."""
    mean = cv2.blur(gray, (window_px, window_px), borderType=cv2.BORDER_REPLICATE)
    return gray.astype(np.int16) - mean.astype(np.int16)


def _ellipse(blob: np.ndarray) -> tuple[float, float, float, float, float]:
    """Centroid x, y (px, in the blob's frame), the variances (px^2) of its points along and across its
    long axis, and that axis's direction (radians), of a binary blob."""
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] == 0:
        return 0.0, 0.0, 99.0 ** 2, 1.0, 0.0  # (elongation 99)
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2)
    major = (mu20 + mu02) / 2 + common
    minor = max((mu20 + mu02) / 2 - common, 1e-3)
    axis = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    return m["m10"] / m["m00"], m["m01"] / m["m00"], major, minor, axis


def _shape(blob: np.ndarray) -> tuple[float, float, float, float]:
    """Centroid x, y (px, in the blob's frame), elongation (major / minor axis) and long-axis direction
    (radians) of a binary blob."""
    x, y, major, minor, axis = _ellipse(blob)
    return x, y, math.sqrt(major / minor), axis


CENTRED = 0.1  # a core this near its blob's centre (share of the blob's size, the root of its area) ...
DRAWN_OUT = 1.9  # ... in a blob at most this elongated (major / minor axis) is a pip smeared or slanted


def _drawn_out_alike(cores: list[Pip], x: float, y: float, area: int, elongation: float) -> bool:
    """Whether a blob (centroid x, y px, area px, elongation) whose bright cores are `cores` is one pip
    drawn out alike both ways, by a slide or a slant: one core, at its centre. Such a pip is the whole
    blob, not its core: cut to its core, a smeared pip shrank or not by how far it slid, and pips of one
    face came out of two sizes. A pip grown into a dim neighbour has its core off centre. (Smeared past
    DRAWN_OUT, its core is all of it that still looks like a pip.)"""
    return (len(cores) == 1 and elongation <= DRAWN_OUT
            and math.hypot(cores[0].x - x, cores[0].y - y) < CENTRED * math.sqrt(area))


def _upper_quartile(values: np.ndarray) -> float:
    """np.percentile(values, 75) (linear interpolation) of integer values, without its overhead. Exact:
    the interpolation is by quarters."""
    ordered = np.sort(values, axis=None)
    at = 0.75 * (len(ordered) - 1)
    low = int(at)
    if low == at:
        return float(ordered[low])
    return float(ordered[low]) + (float(ordered[low + 1]) - float(ordered[low])) * (at - low)


def _blobs(mask: np.ndarray, signed: np.ndarray, polarity: int, min_area: int, max_diameter_px: float,
           x0: int = 0, y0: int = 0, depth: int = 0, raw: np.ndarray | None = None,
           threshold: int = 18) -> list[Pip]:
    """Pips among the outer contours of mask (holes filled: a glare spot in a pip does not break it);
    signed = diff * polarity over the same area. Repairs, by depth: blobs that look like pips merged
    by blur are thresholded again at a higher level, or split at their waves (`_along_line`) (depth 0),
    and squashed pips grown into a dim neighbour are cut back to their bright core (depth 0 and 1)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    pips: list[Pip] = []
    if hierarchy is None:
        return pips
    for contour, link in zip(contours, hierarchy[0], strict=True):
        if link[3] != -1:
            continue  # a hole
        bx, by, bw, bh = cv2.boundingRect(contour)
        longest = max(bw, bh)
        if bw * bh < min_area or longest > 3.2 * max_diameter_px:
            continue
        aspect = longest / max(min(bw, bh), 1)
        box_ok = longest <= max_diameter_px and aspect <= 2.2  # the box of one pip
        if depth > 0 and not box_ok:
            continue  # only the top level splits merged pips: no pip here, and no need to draw it
        blob = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(blob, [contour], 0, 1, -1, offset=(-bx, -by))
        if raw is not None:  # measure the blob before the opening rounded it (but without its bridges)
            raw_box = raw[by:by + bh, bx:bx + bw]
            blob = cv2.dilate(blob, OPEN_KERNEL) & raw_box | blob
        area = int(cv2.countNonZero(blob))
        if raw is not None and cv2.countNonZero(blob & raw_box) < 0.62 * area:
            continue  # mostly hole: a ring (the letter o), not a pip with a glint in it
        if area < min_area:
            continue
        fill = area / (bw * bh)
        shape_ok = box_ok and fill >= 0.45
        # (a pip touching a die's dark outline makes a thin L with it: a fifth of its box or more)
        may_split = (not shape_ok and depth == 0 and 2 * min_area <= area <= 3 * max_diameter_px ** 2
                     and fill >= 0.2)
        if not (shape_ok or may_split):
            continue
        values = signed[by:by + bh, bx:bx + bw]
        inside = values[blob > 0]
        contrast = float(inside.sum()) / inside.size  # the mean (sums of integers are exact), faster
        # repairs are for strong blobs only (weak ones are grain and shadow; the repairs cost time)
        strong = depth < 2 and contrast >= 2.5 * threshold
        if shape_ok:
            cx, cy, elongation, axis = _shape(blob)
            if strong and elongation > 1.6:
                # a pip grown into a dim neighbour (a ghost pip, the die's edge), or two pips joined by
                # blur: keep the bright cores
                core = ((values > 0.7 * float(inside.max())) & (blob > 0)).astype(np.uint8)
                pieces = _blobs(core, values, polarity, min_area, max_diameter_px, x0 + bx, y0 + by,
                                depth=2, threshold=threshold)
                # one rounder core, or two round pips that blur had joined
                rounder = 0 < len(pieces) <= 3 and all(p.elongation < elongation - 0.2 for p in pieces)
                if rounder and not _drawn_out_alike(pieces, cx + bx + x0, cy + by + y0, area, elongation):
                    pips.extend(pieces)
                    continue
            # the blob is the part past the threshold; the visible pip is a little larger
            diameter = float(2.0 * np.sqrt(area / np.pi)) + 1.0
            if contrast < 0.6 * threshold:
                continue  # a ring around a pip of the other polarity, filled in
            hull = cv2.contourArea(cv2.convexHull(contour)) + 0.5 * cv2.arcLength(contour, True) + 1.0
            solidity = min(1.0, area / hull)  # pixel area vs polygon area: half a perimeter apart
            pips.append(Pip(cx + bx + x0, cy + by + y0, diameter, area, polarity, contrast, elongation,
                            solidity, axis))
        elif contrast >= LINE_CONTRAST * threshold:  # (may_split: the top level only)
            pieces = []
            if strong:  # pips merged by blur: threshold the blob again, higher
                level = int(_upper_quartile(inside) * 0.75)
                sub = ((values > level) & (blob > 0)).astype(np.uint8)
                pieces = _blobs(sub, values, polarity, min_area, max_diameter_px, x0 + bx, y0 + by, depth=1,
                                threshold=threshold)
            if len(pieces) < 2:  # no gap deep enough between them: a line of pips has waves along it
                pieces = _along_line(blob, values, polarity, x0 + bx, y0 + by) or pieces
            pips.extend(pieces)  # one piece: a pip freed from what it touched
    return pips


LINE_CONTRAST = 2.0  # a line of pips blurred into one streak is split when this many thresholds strong
LINE_DIP = 0.8  # ... at waves along it: its profile dips between pips to this share of the lower peak
LINE_GAP = 0.8  # ... pips at least this many streak widths apart
LINE_ELONGATION = 2.4  # ... and only a streak at least this drawn out (major / minor axis)
LINE_EVEN = 1.5  # ... into three pips evenly spaced: one gap at most this many times the other


def _along_line(blob: np.ndarray, values: np.ndarray, polarity: int, x0: int, y0: int) -> list[Pip]:
    """The pips of a line of three merged into one even streak (a 6's column in a small, soft photo),
    where no higher threshold parts them: three evenly spaced peaks of the streak's strength summed
    across it, each at least LINE_GAP widths from the next, with a dip of LINE_DIP or less between them.
    Not two: a plain bar's strength, measured against its surroundings, peaks at both its ends. Positions
    in px of the frame (x0, y0 is the blob's corner); [] when the streak has no such waves."""
    cx, cy, major, minor, axis = _ellipse(blob)
    if major < LINE_ELONGATION ** 2 * minor:
        return []
    ys, xs = np.nonzero(blob)
    strength = values[ys, xs].astype(np.float64)
    along = (xs - cx) * math.cos(axis) + (ys - cy) * math.sin(axis)
    width = 4.0 * math.sqrt(minor)  # a disc's diameter is 4 sd of its points across
    start = math.floor(along.min())
    profile = np.bincount((along - start).astype(int), weights=strength)
    profile = np.convolve(profile, (0.25, 0.5, 0.25), mode="same")
    inner = profile[1:-1]
    peaks = np.flatnonzero((profile[:-2] < inner) & (inner >= profile[2:])) + 1
    if len(peaks) < 3:
        return []
    kept: list[int] = []
    for i in peaks[np.argsort(-profile[peaks])].tolist():  # strongest first; nearer ones are its shoulders
        if all(abs(i - j) >= LINE_GAP * width for j in kept):
            kept.append(i)
    kept.sort()
    gaps = [b - a for a, b in pairwise(kept)]
    if len(kept) != 3 or max(gaps) > LINE_EVEN * min(gaps):
        return []
    if any(profile[a:b + 1].min() > LINE_DIP * min(profile[a], profile[b]) for a, b in pairwise(kept)):
        return []
    cuts = [start, *(start + (a + b) / 2 + 0.5 for a, b in pairwise(kept)), start + len(profile)]
    pips = []
    for low, high in pairwise(cuts):
        part = (along >= low) & (along < high)
        piece = np.zeros_like(blob)
        piece[ys[part], xs[part]] = 1
        px, py, piece_elongation, piece_axis = _shape(piece)
        contrast = float(strength[part].mean())
        pips.append(Pip(px + x0, py + y0, width, int(part.sum()), polarity, contrast, piece_elongation,
                        axis=piece_axis))
    return pips


def find_pips(gray: np.ndarray, window_px: int = WINDOW_PX, threshold: int = 18, min_area: int = 10,
              max_diameter_px: float = 26.0) -> list[Pip]:
    """Round blobs in `gray` that differ from their window_px surroundings by more than threshold."""
    diff = local_contrast(gray, window_px)
    pips: list[Pip] = []
    for polarity in (-1, 1):
        signed = diff * polarity
        raw = (signed > threshold).astype(np.uint8)
        mask = cv2.morphologyEx(raw, cv2.MORPH_OPEN, OPEN_KERNEL)  # cut 1 px bridges and grain lines
        pips.extend(_blobs(mask, signed, polarity, min_area, max_diameter_px, raw=raw, threshold=threshold))
    return pips
