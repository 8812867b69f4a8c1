"""Group pips into die faces and fit the standard pip layouts (1..6) to each group.

Pips of one face have one size, lie on one body colour and sit on a 3 x 3 grid; the fit gives a
proposal's centre, size and turn, and how well its spots match a layout. What a proposal really is
(a face, a side face, print) is for the face classifier (`vision.faceclass`) to say.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

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
# root mean square distance of each layout's slots from its centre, in pitches
LAYOUT_RMS: dict[int, float] = {n: math.sqrt((slots ** 2).sum(axis=1).mean()) for n, slots in LAYOUT.items()}
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
    loose: bool = False  # pips grouping kept apart (`Pairing.loose_pairs`): a face only if read as this many
    squared: bool = False  # placed by the square of its body's colour (`vision.dice`), not by its pips

    @property
    def side(self) -> float:
        """Face side, px, estimated from the pips."""
        if self.value == 1:
            return self.pips[0].diameter / ONE_PIP_PER_SIDE
        return self.pitch / PITCH_PER_SIDE


_RING_12 = np.linspace(0, 2 * math.pi, 12, endpoint=False)
_COS_12, _SIN_12 = np.cos(_RING_12), np.sin(_RING_12)


def _pip_columns(pips: list[Pip]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """x, y, diameter (px) and polarity of each pip, as arrays."""
    v = np.array([(p.x, p.y, p.diameter, p.polarity) for p in pips], float).reshape(-1, 4)
    return v[:, 0], v[:, 1], v[:, 2], v[:, 3]


def _ring_points(x: np.ndarray, y: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixel columns and rows (N, 12) of 12 points on a circle of radius r px around each (x, y) px."""
    xs = (x[:, None] + r[:, None] * _COS_12 + 0.5).astype(int)
    ys = (y[:, None] + r[:, None] * _SIN_12 + 0.5).astype(int)
    return xs, ys


def body_levels(gray: np.ndarray, pips: list[Pip], ring: float = 0.85) -> np.ndarray:
    """Grey level of the die body next to each pip (NaN when its ring is all outside the image): on a
    ring just outside it (ring in pip diameters from its centre), taking the side of the ring away from
    the pip's level, since on fat-pip dice part of the ring falls on neighbouring pips. All pips at once:
    a frame has dozens."""
    x, y, diameter, polarity = _pip_columns(pips)
    h, w = gray.shape
    xs, ys = _ring_points(x, y, diameter * ring)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    values = np.full(xs.shape, np.nan)
    values[ok] = gray[ys[ok], xs[ok]]
    values.sort(axis=1)  # the NaNs (outside the image) go last
    count = ok.sum(axis=1)
    rank = np.rint((count - 1) * np.where(polarity > 0, 0.3, 0.7)).astype(int).clip(0, None)
    level = values[np.arange(len(values)), rank]
    return np.where(count > 0, level, np.nan)


def body_colours(frame: np.ndarray, pips: list[Pip], levels: np.ndarray, ring: float = 0.85) -> np.ndarray:
    """(N, 3) BGR of the die body next to each pip: the mean of the 4 of its 12 ring samples whose grey
    is nearest its body level (a mean: cheaper than a median, as good). All pips at once."""
    x, y, diameter, _ = _pip_columns(pips)
    h, w = frame.shape[:2]
    xs, ys = _ring_points(x, y, diameter * ring)
    samples = frame[ys.clip(0, h - 1), xs.clip(0, w - 1)].astype(np.float64)
    grey = samples @ np.array([0.114, 0.587, 0.299])
    nearest = np.argsort(np.abs(grey - np.asarray(levels, float)[:, None]), axis=1)[:, :4]
    return np.take_along_axis(samples, nearest[:, :, None], axis=1).sum(axis=1) / 4


@functools.cache
def _line_steps(steps: int) -> np.ndarray:
    """The inner points of a line cut in `steps` equal parts, as fractions 0..1 of its length (cached:
    the same few counts come up again and again). Read-only."""
    t = np.linspace(0, 1, steps + 1)[1:-1]
    t.flags.writeable = False
    return t


def _connected_by_body(gray: np.ndarray, a: Pip, b: Pip, body: float, pip_level: float, cover_x: np.ndarray,
                       cover_y: np.ndarray, cover_r2: np.ndarray, frame: np.ndarray | None,
                       colour: np.ndarray | None) -> bool:
    """True when the straight line between pips a and b crosses only die body and the face's pips
    (a and b among them: centres cover_x, cover_y px, squared radii cover_r2 px^2, where the line
    may cross something else). With the colour frame and the body's BGR, colour must match too: a
    red die and a green one can have the same grey level."""
    dist = math.hypot(b.x - a.x, b.y - a.y)
    contrast = abs(body - pip_level)
    t = _line_steps(max(4, int(dist / 2)))
    xs, ys = a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t
    free = ((xs - cover_x[:, None]) ** 2 + (ys - cover_y[:, None]) ** 2 >= cover_r2[:, None]).all(axis=0)
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


def _cover_r2(pips: list[Pip]) -> np.ndarray:
    """Squared radius (px^2) around each pip's centre where a line counts as on the pip."""
    return np.array([(p.diameter * 0.75) ** 2 for p in pips], float)


SIZE_ALIKE = 1.45  # pips of one face: the larger at most this much wider than the smaller
STRENGTH_ALIKE = 1.5  # ... and its contrast at most this much stronger
SHAPE_ALIKE = 0.3  # ... and their elongations (major / minor axis) at most this far apart
LOOSE_SIZE_ALIKE = 1.35  # pips paired in spite of their shapes must be more alike in size than SIZE_ALIKE
LOOSE_STRENGTH_ALIKE = 1.25  # ... and in contrast than STRENGTH_ALIKE


SQUASHED = 0.15  # a side face's pips are at least this much more elongated than its top face's
SIDE_FACE_SHADE = (0.7, 0.93)  # a side face's body is this much as bright as its top face's (lit from above)
SIDE_FACE_LIGHT = 140  # told on light dice only: the top face's mean level (0..255) is at least this


def in_shade(level: float, top_level: float) -> bool:
    """Whether a body of this grey level (0..255) is a side face in shade beside a top face of top_level:
    lit from above, it is SIDE_FACE_SHADE as bright. Told on light dice only: on a dark or deep-coloured
    die, uneven light shades a neighbour as much."""
    low, high = SIDE_FACE_SHADE
    return top_level >= SIDE_FACE_LIGHT and low * top_level <= level <= high * top_level


def more_squashed(pips: Sequence[Pip], than: Sequence[Pip]) -> bool:
    """Whether pips are squashed more than `than` by SQUASHED (medians of their elongations): a side face
    beside its top face, seen at a slant."""
    return median([p.elongation for p in pips]) > median([p.elongation for p in than]) + SQUASHED


def common_axis(pips: Sequence[Pip]) -> tuple[float, float]:
    """The pips' long axes put together: their mean direction (rad) and how well they agree (0: every
    way, 1: all one way), the mean of their doubled angles (an axis at 0 and one at pi are one axis)."""
    c = sum(math.cos(2 * p.axis) for p in pips) / len(pips)
    s = sum(math.sin(2 * p.axis) for p in pips) / len(pips)
    return math.atan2(s, c) / 2, math.hypot(c, s)


def drawn_across(pips: Sequence[Pip], direction: float) -> bool:
    """True when the pips' long axes, on the whole, lie more across `direction` (rad) than along it: a
    side face seen at a slant is squashed along the way from its top face, not across it."""
    return angle_apart(common_axis(pips)[0], direction) > math.pi / 4


HUES_APART = 0.25  # bodies whose chromaticities are this far apart are dice of two colours, however lit


def chromaticity(bgr: np.ndarray) -> np.ndarray:
    """The hue of BGR colours (..., 3) whatever their light: each channel's share of their sum, steadied
    for dark colours (on a black die, noise of a few levels is a large share)."""
    c = np.asarray(bgr, float) + 10.0
    return c / c.sum(axis=-1, keepdims=True)


class Pairing:
    """Which of a frame's pips may share a face, measured once for both `groups` and `loose_pairs`: the die
    body beside each pip (level, and colour with the BGR frame) and the pips' sizes, strengths and
    distances."""

    def __init__(self, gray: np.ndarray, pips: list[Pip], reach: float = 5.2,
                 frame: np.ndarray | None = None):
        self.gray, self.pips, self.frame = gray, pips, frame
        self.index = {id(p): k for k, p in enumerate(pips)}
        n = len(pips)
        v = np.array([(p.x, p.y, p.diameter, p.contrast, p.polarity) for p in pips], float).reshape(-1, 5)
        h, w = gray.shape
        bodies = body_levels(gray, pips) if n else np.zeros(0)
        col, row = (v[:, 0] + 0.5).astype(int), (v[:, 1] + 0.5).astype(int)  # the pixel under each centre
        inside = (col >= 0) & (col < w) & (row >= 0) & (row < h)
        centre_levels = np.full(n, np.nan)
        centre_levels[inside] = gray[row[inside], col[inside]]
        self.bodies, self.levels = bodies.tolist(), centre_levels.tolist()
        self.colours = body_colours(frame, pips, bodies) if frame is not None and n else None
        self.hues = chromaticity(self.colours) if self.colours is not None else None
        self.cover_r2 = _cover_r2(pips)
        self.v = v
        self.dist = np.hypot(v[:, None, 0] - v[None, :, 0], v[:, None, 1] - v[None, :, 1])
        self.big = np.maximum(v[:, None, 2], v[None, :, 2])
        self.small = np.minimum(v[:, None, 2], v[None, :, 2])
        self.strong = np.maximum(v[:, None, 3], v[None, :, 3])
        self.weak = np.minimum(v[:, None, 3], v[None, :, 3])
        self.near = ((v[:, None, 4] == v[None, :, 4]) & (self.dist <= reach * self.big)
                     & (self.dist >= 1.1 * self.small))  # same polarity, near, not on top of each other

    def alike(self, size: float, strength: float) -> np.ndarray:
        """(N, N) bool, cheap tests on every pair at once: near, diameters at most `size` times and
        contrasts at most `strength` times apart."""
        return self.near & (self.big <= size * self.small) & (self.strong <= strength * self.weak)

    def joined(self, i: int, j: int) -> bool:
        """Whether pips i and j sit on one body, of one level (and colour, with the BGR frame), and the
        line between them crosses only that body and pips."""
        bodies, levels, v = self.bodies, self.levels, self.v
        contrast = max(abs(bodies[i] - levels[i]), 1.0)
        if abs(bodies[i] - bodies[j]) > 0.2 * contrast + 8:
            return False
        colour = None
        if self.colours is not None:
            if np.abs(self.colours[i] - self.colours[j]).max() > 0.5 * contrast + 25:
                return False  # two dice of different colours
            if np.abs(self.hues[i] - self.hues[j]).max() > HUES_APART:
                return False  # ... of different hues (a red die and a black one), however lit
            colour = (self.colours[i] + self.colours[j]) / 2
        a, b, d = self.pips[i], self.pips[j], self.dist[i, j]
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        face = (np.abs(v[:, 0] - mx) < d) & (np.abs(v[:, 1] - my) < d)  # pips that may lie on the line
        face[[i, j]] = True
        body = (bodies[i] + bodies[j]) / 2
        return _connected_by_body(self.gray, a, b, body, (levels[i] + levels[j]) / 2, v[face, 0], v[face, 1],
                                  self.cover_r2[face], self.frame, colour)

    def groups(self) -> list[list[Pip]]:
        """Pips that could share a face: same polarity, similar size, strength and shape, near, joined by
        body colour."""
        pips, n = self.pips, len(self.pips)
        if n < 2:
            return [[p] for p in pips]
        parent = list(range(n))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        alike = self.alike(SIZE_ALIKE, STRENGTH_ALIKE)
        elongation = np.array([p.elongation for p in pips])
        alike &= np.abs(elongation[:, None] - elongation[None, :]) <= SHAPE_ALIKE  # top and side face pips
        for i, j in zip(*np.nonzero(np.triu(alike, 1)), strict=True):
            if find(i) == find(j):
                continue  # joined already through other pips: the groups do not change
            if _side_pip_beside(pips[i], pips[j]) or self._side_pip_in_shade(i, j):
                continue  # a top-face pip next to a side-face pip
            if self.joined(i, j):
                parent[find(i)] = find(j)
        groups: dict[int, list[Pip]] = {}
        for i in range(n):
            groups.setdefault(find(i), []).append(pips[i])
        return list(groups.values())

    def _side_pip_in_shade(self, i: int, j: int) -> bool:
        """Whether the more squashed of pips i and j, SQUASHED more and across the line between them, lies
        on a light die's body in shade beside the other's: a side-face pip beside a top-face pip, however
        alike their axes (the camera's slant stretches the top face's pips too: an oblique 1 and its side
        face made a 2)."""
        side, top = (i, j) if self.pips[i].elongation >= self.pips[j].elongation else (j, i)
        s, t = self.pips[side], self.pips[top]
        # (drawn out along the line instead: a glint or a slide, not a slant)
        return (more_squashed([s], [t]) and drawn_across([s], math.atan2(t.y - s.y, t.x - s.x))
                and in_shade(self.bodies[side], self.bodies[top]))

    def loose_pairs(self, lone: list[Pip]) -> list[tuple[Pip, Pip]]:
        """Pairs among `lone` (pips `groups` left alone) kept apart for their shapes alone: a glint bites
        the edge of a small dark pip, so of a 2's two pips one may look squashed and the pair like a top
        and a side face. Such pairs must be closer in size and strength instead; whether one is a 2 is for
        the face classifier."""
        if len(lone) < 2:
            return []
        at = np.array([self.index[id(p)] for p in lone])
        alike = self.alike(LOOSE_SIZE_ALIKE, LOOSE_STRENGTH_ALIKE)[np.ix_(at, at)]
        pairs = [(int(at[i]), int(at[j])) for i, j in zip(*np.nonzero(np.triu(alike, 1)), strict=True)]
        return [(self.pips[i], self.pips[j]) for i, j in pairs
                if not self._side_pip_in_shade(i, j) and self.joined(i, j)]


def group_pips(gray: np.ndarray, pips: list[Pip], reach: float = 5.2,
               frame: np.ndarray | None = None) -> list[list[Pip]]:
    """Pips that could share a face (`Pairing.groups`)."""
    return Pairing(gray, pips, reach, frame).groups()


def angle_apart(a: float, b: float, period: float = math.pi) -> float:
    """How far apart two directions are (radians, 0..period / 2), for lines that repeat every period: an
    axis every half turn, a face's grid every quarter turn."""
    return abs((a - b + period / 2) % period - period / 2)


def _side_pip_beside(a: Pip, b: Pip) -> bool:
    """True when the more squashed of two pips is squashed along the line between them: the mark of a
    side-face pip seen at a slant next to a top-face pip (blur stretches pips along a line instead)."""
    s, t = (a, b) if a.elongation >= b.elongation else (b, a)
    if s.elongation < 1.25 or s.elongation - t.elongation < 0.12:
        return False
    apart = angle_apart(s.axis, t.axis)  # between the long axes
    if t.elongation >= 1.15 and apart < math.radians(25):
        return False  # both stretched the same way (the camera's slant, blur): one face
    pair = math.atan2(b.y - a.y, b.x - a.x)
    off = angle_apart(s.axis, pair)  # 0: long axis along the pair line
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
    if n == 1:
        p = pips[0]
        return FaceFit(1, float(p.x), float(p.y), 0.0, p.diameter / ONE_PIP_PER_SIDE * PITCH_PER_SIDE, 0.0,
                       (p,))
    xy = np.array([(p.x, p.y) for p in pips])
    centre = xy.mean(axis=0)
    rel = xy - centre
    layout = LAYOUT[n]
    rms = math.sqrt((rel ** 2).sum(axis=1).mean())
    if rms < 1.0:
        return None  # pips on top of each other
    pitch = rms / LAYOUT_RMS[n]
    base = _orientation(rel)
    # the grid's four turns at once: each pip's distance (in pitches) to each slot
    angles = [base + k * math.pi / 2 for k in range(4)]
    turns = np.array([[[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]] for a in angles])
    local = rel @ turns / pitch  # (4, n, 2): rotated by -angle into grid units
    d = np.linalg.norm(local[:, :, None, :] - layout[None, None, :, :], axis=3)  # (4, pips, slots)
    pip_orders = np.argsort(d.min(axis=2), axis=1).tolist()
    slot_orders = np.argsort(d, axis=2).tolist()
    best: tuple[float, float] | None = None
    for angle, dk, pip_order, slot_order in zip(angles, d.tolist(), pip_orders, slot_orders, strict=True):
        # the surest pips first, each to its nearest slot not yet taken
        used: set[int] = set()
        worst = 0.0
        for i in pip_order:
            j = next(j for j in slot_order[i] if j not in used)
            used.add(j)
            worst = max(worst, dk[i][j])
        if best is None or worst < best[0]:
            best = (worst, angle)
    assert best is not None
    residual, angle = best
    return FaceFit(n, float(centre[0]), float(centre[1]), angle % (math.pi / 2), pitch, residual, tuple(pips))
