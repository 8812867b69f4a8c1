"""Group pips into die faces and fit the standard pip layouts (1..6) to each group.

Pips of one face have one size, lie on one body colour and sit on a 3 x 3 grid; the fit gives a
proposal's centre, size and turn, and how well its spots match a layout. What a proposal really is
(a face, a side face, print) is for the face classifier (`vision.faceclass`) to say.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.pips import Pip

# pip slots of each value on a 3 x 3 grid, in pitches from the face centre
LAYOUT: dict[int, np.ndarray] = {
    1: np.array([(0, 0)], float),
    2: np.array([(-1, -1), (1, 1)], float),
    3: np.array([(-1, -1), (0, 0), (1, 1)], float),
    4: np.array([(-1, -1), (1, -1), (-1, 1), (1, 1)], float),
    5: np.array([(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], float),
    6: np.array([(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)], float),
}
PITCH_PER_SIDE = 0.26  # grid pitch over face side, for a typical die
ONE_PIP_PER_SIDE = 0.25  # diameter of a lone pip (the 1) over face side


@dataclass(frozen=True)
class FaceFit:
    """A group of pips read as one face: value, centre (px), angle (rad), pitch (px) and fit quality."""

    value: int
    cx: float
    cy: float
    angle: float
    pitch: float
    residual: float  # worst pip distance from its slot, in pitches (0 = perfect)
    pips: tuple[Pip, ...]

    @property
    def side(self) -> float:
        """Face side, px, estimated from the pips."""
        if self.value == 1:
            return self.pips[0].diameter / ONE_PIP_PER_SIDE
        return self.pitch / PITCH_PER_SIDE


def _sample(gray: np.ndarray, x: float, y: float, r: int = 1) -> float:
    """Grey level at (x, y) px (mean of a (2r+1)^2 square); NaN outside the image."""
    h, w = gray.shape
    xi, yi = int(x + 0.5), int(y + 0.5)
    if not (r <= xi < w - r and r <= yi < h - r):
        return float("nan")
    if r == 0:
        return float(gray[yi, xi])
    return float(gray[yi - r:yi + r + 1, xi - r:xi + r + 1].sum()) / (2 * r + 1) ** 2


_RING_12 = np.linspace(0, 2 * math.pi, 12, endpoint=False)
_COS_12, _SIN_12 = np.cos(_RING_12), np.sin(_RING_12)


def _ring_values(gray: np.ndarray, x: float, y: float, r: float) -> np.ndarray:
    """Grey levels at 12 points on a circle of radius r px; NaN where outside the image."""
    h, w = gray.shape
    xs = (x + r * _COS_12 + 0.5).astype(int)
    ys = (y + r * _SIN_12 + 0.5).astype(int)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    out = np.full(12, np.nan)
    out[ok] = gray[ys[ok], xs[ok]]
    return out


def body_level(gray: np.ndarray, pip: Pip, ring: float = 0.85) -> float:
    """Grey level of the die body next to a pip: on a ring just outside it (ring in pip diameters from
    its centre), taking the side of the ring away from the pip's level, since on fat-pip dice part of
    the ring falls on neighbouring pips."""
    values = _ring_values(gray, pip.x, pip.y, pip.diameter * ring)
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return float("nan")
    values.sort()
    return float(values[int(round((len(values) - 1) * (0.3 if pip.polarity > 0 else 0.7)))])


def body_colour(frame: np.ndarray, pip: Pip, level: float, ring: float = 0.85) -> np.ndarray:
    """BGR of the die body next to a pip: the ring samples whose grey is nearest the body level."""
    h, w = frame.shape[:2]
    r = pip.diameter * ring
    xs = (pip.x + r * _COS_12 + 0.5).astype(int).clip(0, w - 1)
    ys = (pip.y + r * _SIN_12 + 0.5).astype(int).clip(0, h - 1)
    samples = frame[ys, xs].astype(np.float64)
    grey = samples @ np.array([0.114, 0.587, 0.299])
    nearest = np.argsort(np.abs(grey - level))[:4]  # their mean: cheaper than a median, as good
    return samples[nearest].sum(axis=0) / len(nearest)


def connected_by_body(gray: np.ndarray, a: Pip, b: Pip, body: float, pip_level: float,
                      others: list[Pip], frame: np.ndarray | None = None,
                      colour: np.ndarray | None = None) -> bool:
    """True when the straight line between two pips crosses only die body (and other pips).

    With the colour frame and the body's BGR, colour must match too: a red die and a green one can
    have the same grey level."""
    dist = math.hypot(b.x - a.x, b.y - a.y)
    contrast = abs(body - pip_level)
    steps = max(4, int(dist / 2))
    t = np.linspace(0, 1, steps + 1)[1:-1]
    xs, ys = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
    free = np.ones(len(t), bool)
    for p in (a, b, *others):  # points on a pip of the face do not count
        free &= (xs - p.x) ** 2 + (ys - p.y) ** 2 >= (p.diameter * 0.75) ** 2
    h, w = gray.shape
    xi, yi = (xs[free] + 0.5).astype(int), (ys[free] + 0.5).astype(int)
    if ((xi < 0) | (xi >= w) | (yi < 0) | (yi >= h)).any():
        return False
    if not (np.abs(gray[yi, xi].astype(np.float64) - body) <= 0.5 * contrast).all():
        return False
    if frame is None or colour is None:
        return True
    off = np.abs(frame[yi, xi].astype(np.float64) - colour).max(axis=1)
    return bool((off <= max(30.0, 0.5 * contrast)).all())


def group_pips(gray: np.ndarray, pips: list[Pip], reach: float = 5.2,
               frame: np.ndarray | None = None) -> list[list[Pip]]:
    """Pips that could share a face: same polarity, similar size, near, joined by body colour
    (grey level, and hue too when the BGR frame is given)."""
    n = len(pips)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    bodies = [body_level(gray, p) for p in pips]
    levels = [_sample(gray, p.x, p.y, 0) for p in pips]
    if n < 2:
        return [[p] for p in pips]
    colours = [body_colour(frame, p, bodies[k]) for k, p in enumerate(pips)] if frame is not None else None
    # cheap tests on every pair at once: same polarity, similar size and strength, near enough
    v = np.array([(p.x, p.y, p.diameter, p.contrast, p.elongation, p.polarity) for p in pips])
    dist = np.hypot(v[:, None, 0] - v[None, :, 0], v[:, None, 1] - v[None, :, 1])
    big = np.maximum(v[:, None, 2], v[None, :, 2])
    small = np.minimum(v[:, None, 2], v[None, :, 2])
    strong = np.maximum(v[:, None, 3], v[None, :, 3])
    weak = np.minimum(v[:, None, 3], v[None, :, 3])
    ok = (v[:, None, 5] == v[None, :, 5]) & (big <= 1.45 * small) & (strong <= 1.5 * weak)
    ok &= np.abs(v[:, None, 4] - v[None, :, 4]) <= 0.3  # one round, one squashed: top and side face
    ok &= (dist <= reach * big) & (dist >= 1.1 * small)
    for i, j in zip(*np.nonzero(np.triu(ok, 1)), strict=True):
        a, b = pips[i], pips[j]
        if _side_pip_beside(a, b):
            continue  # a top-face pip next to a side-face pip
        contrast = max(abs(bodies[i] - levels[i]), 1.0)
        if abs(bodies[i] - bodies[j]) > 0.2 * contrast + 8:
            continue
        colour = None
        if colours is not None:
            if np.abs(colours[i] - colours[j]).max() > 0.5 * contrast + 25:
                continue  # two dice of different colours
            colour = (colours[i] + colours[j]) / 2
        d = dist[i, j]
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        near = [pips[k] for k in np.nonzero((np.abs(v[:, 0] - mx) < d) & (np.abs(v[:, 1] - my) < d))[0]
                if k != i and k != j]
        body = (bodies[i] + bodies[j]) / 2
        if connected_by_body(gray, a, b, body, (levels[i] + levels[j]) / 2, near, frame, colour):
            parent[find(i)] = find(j)
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(pips[i])
    return list(groups.values())


def _side_pip_beside(a: Pip, b: Pip) -> bool:
    """True when the more squashed of two pips is squashed along the line between them: the mark of a
    side-face pip seen at a slant next to a top-face pip (blur stretches pips along a line instead)."""
    s, t = (a, b) if a.elongation >= b.elongation else (b, a)
    if s.elongation < 1.25 or s.elongation - t.elongation < 0.12:
        return False
    apart = abs((s.axis - t.axis + math.pi / 2) % math.pi - math.pi / 2)  # between the long axes
    if t.elongation >= 1.15 and apart < math.radians(25):
        return False  # both stretched the same way (the camera's slant, blur): one face
    pair = math.atan2(b.y - a.y, b.x - a.x)
    off = abs((s.axis - pair + math.pi / 2) % math.pi - math.pi / 2)  # 0: long axis along the pair line
    return off > math.radians(55)


def _orientation(rel: np.ndarray) -> float:
    """Grid angle (rad, 0..pi/2) from pip offsets, using the layouts' four-fold symmetry."""
    r2 = (rel ** 2).sum(axis=1)
    phi = np.arctan2(rel[:, 1], rel[:, 0])
    z = (r2 * np.exp(4j * phi)).sum()
    if abs(z) < 1e-9:
        return 0.0
    return (float(np.angle(z)) / 4 - math.pi / 4) % (math.pi / 2)


def fit_layout(pips: list[Pip]) -> FaceFit | None:
    """Fit the layout of len(pips) to the group; None when there is no such layout."""
    n = len(pips)
    if not 1 <= n <= 6:
        return None
    xy = np.array([(p.x, p.y) for p in pips])
    centre = xy.mean(axis=0)
    rel = xy - centre
    if n == 1:
        return FaceFit(1, float(centre[0]), float(centre[1]), 0.0, pips[0].diameter / ONE_PIP_PER_SIDE
                       * PITCH_PER_SIDE, 0.0, tuple(pips))
    layout = LAYOUT[n]
    rms = math.sqrt((rel ** 2).sum(axis=1).mean())
    if rms < 1.0:
        return None  # pips on top of each other
    pitch = rms / math.sqrt((layout ** 2).sum(axis=1).mean())
    base = _orientation(rel)
    best: tuple[float, float] | None = None
    for k in range(4):
        angle = base + k * math.pi / 2
        c, s = math.cos(angle), math.sin(angle)
        local = rel @ np.array([[c, -s], [s, c]]) / pitch  # rotate by -angle into grid units
        d = np.linalg.norm(local[:, None, :] - layout[None, :, :], axis=2)
        # every pip must take a different slot
        used = set()
        worst = 0.0
        for i in np.argsort(d.min(axis=1)):
            order = [j for j in np.argsort(d[i]) if j not in used]
            j = order[0]
            used.add(j)
            worst = max(worst, float(d[i, j]))
        if best is None or worst < best[0]:
            best = (worst, angle)
    assert best is not None
    residual, angle = best
    return FaceFit(n, float(centre[0]), float(centre[1]), angle % (math.pi / 2), pitch, residual, tuple(pips))
