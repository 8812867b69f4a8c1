"""Read the dice in a frame: value, kind, colour, box and an honest confidence for each die.

    from vision.dice import read_dice
    for die in read_dice(frame):                 # frame: BGR uint8, e.g. 640 x 480
        print(die.value, die.kind, die.colour, die.box, die.confidence)

Classical pipeline, no learned weights: find round pips of either polarity (`vision.pips`), group
them into faces joined by die body and fit the standard 1..6 layouts (`vision.faces`); the grey
1-4 die is told by its grey body and smaller size; the Treehouse die by matching its symbol
against calibrated templates (`vision.treehouse`). A reading whose geometry is doubtful gets a low
confidence rather than being dropped or dressed up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from statistics import median

import cv2
import numpy as np

from vision.colours import colour_name
from vision.faces import FaceFit, fit_layout, group_pips, measure_side
from vision.pips import Pip, find_pips

ROUND = 1.45  # pips squashed more than this (major / minor axis) likely lie on a side face
MAX_ELONGATION = 2.2  # and beyond this they are not pips at all


@dataclass(frozen=True)
class Die:
    """One die read from a frame. box is (x1, y1, x2, y2) px of the top face; confidence 0..1."""

    value: int | str
    kind: str  # 'd6' | 'grey' | 'treehouse'
    colour: str
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict:
        return {"value": self.value, "kind": self.kind, "colour": self.colour, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


def _box(fit: FaceFit, width: int, height: int) -> tuple[int, int, int, int]:
    half = fit.side / 2 * (abs(math.cos(fit.angle)) + abs(math.sin(fit.angle)))
    if fit.value == 1:
        half = fit.side / 2
    x1, y1 = max(0, int(fit.cx - half)), max(0, int(fit.cy - half))
    x2, y2 = min(width - 1, int(math.ceil(fit.cx + half))), min(height - 1, int(math.ceil(fit.cy + half)))
    return x1, y1, x2, y2


def _body_colour(frame: np.ndarray, fit: FaceFit) -> np.ndarray:
    """Median BGR of the body just around the pips."""
    h, w = frame.shape[:2]
    samples = []
    for p in fit.pips:
        r = p.diameter * 1.05
        for a in np.linspace(0, 2 * math.pi, 8, endpoint=False):
            x, y = int(round(p.x + r * math.cos(a))), int(round(p.y + r * math.sin(a)))
            if 0 <= x < w and 0 <= y < h:
                samples.append(frame[y, x])
    return np.median(np.array(samples, np.float32), axis=0) if samples else np.zeros(3, np.float32)


def _kind(fit: FaceFit, colour: str, others: list[FaceFit]) -> str:
    """'grey' for the small grey 1-4 die, else 'd6'. Next to other dice its size tells: both its face
    and its pips are smaller (light can make grey look white, so a white-looking die must be clearly
    smaller). Alone, only its colour can tell."""
    if fit.value > 4 or colour not in ("grey", "white"):
        return "d6"
    if not others:
        return "grey" if colour == "grey" else "d6"
    limit = 0.85 if colour == "grey" else 0.76
    pips = _pip_size(fit) / float(np.percentile([_pip_size(o) for o in others], 75))
    sides = [o.side for o in others if o.measured_side > 0]
    measured = sides and fit.measured_side > 0
    face = fit.side / float(np.percentile(sides, 75)) if measured else pips
    if colour == "grey":
        return "grey" if min(pips, face) < limit else "d6"
    return "grey" if max(pips, face) < limit else "d6"


def _inside(x: float, y: float, box: tuple[int, int, int, int]) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _pip_size(fit: FaceFit) -> float:
    return median([p.diameter for p in fit.pips])


def _more_on_top(fit: FaceFit, conf: float, other: FaceFit, other_conf: float) -> bool:
    """Of two faces on one die, the top one has the larger, rounder pips (side faces are seen at a
    slant); prefer fit over the more confident other only when that is clearly so."""
    def elongation(f: FaceFit) -> float:
        return median([p.elongation for p in f.pips])

    bigger = _pip_size(fit) >= 1.15 * _pip_size(other)
    rounder = elongation(fit) <= elongation(other) - 0.15
    return conf >= 0.5 * other_conf and bigger and rounder


def _overlaps(fit: FaceFit, other: FaceFit) -> bool:
    """True when fit's centre or any of its pips lies within other's face (or close to it), or when fit
    has smaller pips and lies just beside other: a side face of the same die, seen at a slant."""
    points = [(fit.cx, fit.cy)] + [(p.x, p.y) for p in fit.pips]
    if any(math.hypot(x - other.cx, y - other.cy) < 0.7 * other.side for x, y in points):
        return True
    beside = math.hypot(fit.cx - other.cx, fit.cy - other.cy) < 1.0 * other.side
    elongation = median([p.elongation for p in fit.pips])
    squashed = elongation > median([p.elongation for p in other.pips]) + 0.15
    return beside and (_pip_size(fit) < 0.75 * _pip_size(other) or bool(squashed))


def _unit(value: float) -> float:
    """value clipped to 0..1 (faster than numpy on one number)."""
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else float(value)


def _confidence(gray: np.ndarray, fit: FaceFit, assume_edges: bool = False) -> float:
    """0..1 from layout residual, empty slots, pip size agreement and pip contrast."""
    geometry = _unit(1.0 - (fit.residual - 0.15) / 0.3)
    sizes = np.array([p.diameter for p in fit.pips])
    spread = float(sizes.std() / sizes.mean()) if len(sizes) > 1 else 0.0
    uniform = _unit(1.0 - (spread - 0.15) / 0.25)
    contrast = min(p.contrast for p in fit.pips)
    strong = _unit((contrast - 12) / 25)
    # pip diameter over grid pitch: about 0.65 on slim-pip dice, up to 1.2 on fat-pip ones
    ratio = median(sizes.tolist()) / fit.pitch if fit.value > 1 else 0.9
    scale = _unit(1.0 - (abs(ratio - 0.9) - 0.35) / 0.15)
    round_ = _unit(1.0 - (max(p.elongation for p in fit.pips) - 1.45) / 0.75)
    solid = _unit((median([p.solidity for p in fit.pips]) - 0.6) / 0.2)  # not glyphs
    conf = geometry * fit.empty_ok * uniform * strong * round_ * scale * solid
    edges = assume_edges or fit.measured_side > 0
    if fit.value == 1:  # one lone spot is the weakest evidence there is: it must at least lie on a face
        conf *= 0.9 if edges else 0.25
        if not assume_edges:  # and a 1 sits in the middle of its face (a key's letter often does not)
            conf *= _unit(1.0 - (fit.off_centre - 0.4) / 0.25)
    elif not edges:
        conf *= 0.6  # no die edge found around the pips: a die on its own colour, or print on paper
    h, w = gray.shape
    half = fit.side / 2
    if fit.cx - half < 0 or fit.cy - half < 0 or fit.cx + half > w or fit.cy + half > h:
        conf *= 0.3  # a die cut by the frame edge may show more pips than we see
    return _unit(conf)


def _split(group: list[Pip]) -> list[list[Pip]]:
    """Two touching dice whose seam hides: split the pips in two clusters (2-means on position, seeded
    with the two pips farthest apart, so the result never depends on a random generator)."""
    pts = np.array([(p.x, p.y) for p in group])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    i, j = np.unravel_index(int(d.argmax()), d.shape)
    centres = pts[[i, j]]
    labels = np.zeros(len(pts), int)
    for _ in range(8):
        labels = np.linalg.norm(pts[:, None] - centres[None], axis=2).argmin(axis=1)
        if labels.min() == labels.max():
            break
        centres = np.array([pts[labels == k].mean(axis=0) for k in (0, 1)])
    return [[p for p, k in zip(group, labels, strict=True) if k == c] for c in (0, 1)]


def _fit_group(gray: np.ndarray, group: list[Pip], depth: int = 0) -> list[FaceFit]:
    """Layout fits for a group: as a whole, without its odd pips, or split in two touching dice."""
    fit = fit_layout(gray, group) if len(group) <= 6 else None
    if fit is not None and fit.residual < 0.3:
        return [fit]
    best = fit
    if len(group) <= 9:
        # try without the pips that look least like the others (at most two)
        median_d = median([p.diameter for p in group])
        odd = sorted(group, key=lambda p: -(abs(p.diameter - median_d) / median_d + (p.elongation - 1)))
        for drop in (1, 2):
            if len(group) - drop < 2:
                break
            dropped = odd[:drop]
            if all(abs(p.diameter - median_d) < 0.25 * median_d and p.elongation < 1.3 for p in dropped):
                break  # nothing odd to drop
            candidate = fit_layout(gray, [p for p in group if p not in dropped])
            if candidate is not None and candidate.residual < 0.3:
                # a dropped pip may be the 1 of a die touching this one
                alone = [fit_layout(gray, [p]) for p in dropped if p.elongation <= 1.3]
                return [candidate, *(f for f in alone if f is not None)]
    if len(group) >= 3 and depth < 2:
        # a top face and the shaded side faces next to it: the top face's pips are the strongest
        strongest = max(p.contrast for p in group)
        top = [p for p in group if p.contrast >= 0.72 * strongest]
        if 1 <= len(top) < len(group):
            fits = _fit_group(gray, top, depth + 1)
            if fits and all(f.residual < 0.3 for f in fits):
                return fits
    if len(group) >= 4 and depth < 2:
        parts = [_fit_group(gray, part, depth + 1) for part in _split(group)]
        if all(parts) and all(f.residual < 0.3 for fits in parts for f in fits):
            return [f for fits in parts for f in fits]
    if len(group) >= 2 and depth < 2:
        # a 1 (its pip is larger) touching a die of its colour: read it apart from the others
        big = max(group, key=lambda p: p.diameter)
        rest = [p for p in group if p is not big]
        if big.diameter >= 1.2 * median([p.diameter for p in rest]):
            alone = fit_layout(gray, [big])
            others = _fit_group(gray, rest, depth + 1)
            if alone is not None and (others or len(rest) == 1):
                return [alone, *others]
    return [best] if best is not None else []


def read_pips(gray: np.ndarray, frame: np.ndarray | None = None, min_confidence: float = 0.0
              ) -> list[tuple[FaceFit, float]]:
    """Faces of pip dice in a grey frame with their confidence, those at or above min_confidence.

    Pips join a face only with pips as round as themselves, so that the slanted pips of a side face
    never join the top face next to them; squashed faces still count (blur, a slanted view) but score low.
    The face's edges are looked for only on faces that could still pass (it is the costly step).
    """
    found = find_pips(gray)
    pips = [p for p in found if p.elongation <= MAX_ELONGATION]
    marks = np.array([(p.x, p.y, p.contrast, p.diameter) for p in found]) if found else np.zeros((0, 4))
    colour = frame if frame is not None else cv2.merge([gray] * 3)
    out = []
    for group in group_pips(gray, pips, frame=frame):
        for fit in _fit_group(gray, group):
            if _confidence(gray, fit, assume_edges=True) < min_confidence:
                continue  # even with clear edges it would not pass
            side, off_centre = measure_side(colour, gray, fit)
            fit = replace(fit, measured_side=side, off_centre=off_centre)
            conf = _confidence(gray, fit) * _uncluttered(fit, marks)
            if conf >= min_confidence:
                out.append((fit, conf))
    return out


def _uncluttered(fit: FaceFit, marks: np.ndarray) -> float:
    """1 when the face holds no strong marks but its pips; less for each other one. A die's face is
    plain around its pips, while printed text has letters all round the dots it lends a 'face'."""
    if len(marks) == 0:
        return 1.0
    c, s = math.cos(fit.angle), math.sin(fit.angle)
    dx, dy = marks[:, 0] - fit.cx, marks[:, 1] - fit.cy
    u, v = dx * c + dy * s, -dx * s + dy * c  # in the face's frame
    half = 0.42 * fit.side
    # as strong and nearly as big as the pips (ghost pips of a translucent die are fainter)
    strong = (marks[:, 2] >= 0.7 * min(p.contrast for p in fit.pips)) & (marks[:, 3] >= 0.6 * _pip_size(fit))
    others = int(((np.abs(u) < half) & (np.abs(v) < half) & strong).sum()) - len(fit.pips)
    return (1.0, 0.6, 0.3)[others] if others < 3 else 0.0


WORK_SIDE_PX = 800  # larger photos are read shrunk to this longer side (pip sizes are tuned to ~640 px)


def read_dice(frame: np.ndarray, treehouse=None, min_confidence: float = 0.3) -> list[Die]:
    """All dice in a BGR frame, most confident first (see `read_frame`). A photo larger than
    WORK_SIDE_PX on its longer side is read shrunk, and the boxes are given in its own pixels."""
    if frame is None or frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise ValueError("read_dice needs a BGR image of shape (height, width, 3)")
    if frame.shape[2] == 4:
        frame = np.ascontiguousarray(frame[:, :, :3])  # BGRA / XRGB: drop the fourth channel
    longer = max(frame.shape[:2])
    if longer <= WORK_SIDE_PX * 1.2:
        return read_frame(frame, treehouse, min_confidence)
    scale = WORK_SIDE_PX / longer
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = frame.shape[:2]

    def back(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        x1, y1, x2, y2 = box
        return (int(x1 / scale), int(y1 / scale), min(w - 1, int(x2 / scale + 0.999)),
                min(h - 1, int(y2 / scale + 0.999)))

    return [replace(d, box=back(d.box)) for d in read_frame(small, treehouse, min_confidence)]


def read_frame(frame: np.ndarray, treehouse=None, min_confidence: float = 0.3) -> list[Die]:
    """All dice in a BGR frame of about 640 x 480 px, most confident first.

    treehouse: a `vision.treehouse.TreehouseTemplates` to also read the Treehouse die, or None.
    min_confidence: drop readings below this (0..1): below 0.3 a "die" is more often print, a key or a
        side face than a die. Between it and about 0.6 the caller should show the reading as unsure.
    """
    height, width = frame.shape[:2]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    symbols: list[Die] = []
    if treehouse is not None:
        from vision.treehouse import find_treehouse

        symbols = [d for d in find_treehouse(frame, gray, treehouse, []) if d.confidence >= min_confidence]
    scored = read_pips(gray, frame, min_confidence)
    # the symbol of a Treehouse face (the AIM target has a dot) is not a pip face
    def under_symbol(f: FaceFit, c: float) -> bool:
        return any(_inside(f.cx, f.cy, d.box) and (d.confidence >= c or f.value == 1 and d.confidence >= 0.3)
                   for d in symbols)

    scored = [(f, c) for f, c in scored if not under_symbol(f, c)]
    scored.sort(key=lambda fc: (-round(fc[1], 1), -_pip_size(fc[0])))  # at equal confidence, bigger pips
    # a face whose centre lies on a more confident face is a part of it (or of its side faces)
    kept: list[tuple[FaceFit, float]] = []
    for fit, conf in scored:
        clash = [i for i, (k, _) in enumerate(kept) if _overlaps(fit, k) or _overlaps(k, fit)]
        if not clash:
            kept.append((fit, conf))
        elif len(clash) == 1 and _more_on_top(fit, conf, *kept[clash[0]]):
            kept[clash[0]] = (fit, conf)
    dice = []
    for i, (fit, conf) in enumerate(kept):
        colour = colour_name(_body_colour(frame, fit))
        others = [k for j, (k, c) in enumerate(kept) if j != i and c >= 0.5]
        dice.append(Die(fit.value, _kind(fit, colour, others), colour, _box(fit, width, height), conf))
    for symbol in symbols:
        cx, cy = (symbol.box[0] + symbol.box[2]) / 2, (symbol.box[1] + symbol.box[3]) / 2
        if not any(_inside(cx, cy, d.box) for d in dice):
            dice.append(symbol)
    dice.sort(key=lambda d: -d.confidence)
    return dice

