"""Top-down dice scenes with known truth, for tests, benchmarks and the synthetic camera.

    rng = np.random.default_rng(7)
    image, truth = render_scene(rng)                       # random dice, every variation
    image, truth = render_scene(rng, [DieSpec("d6", "red", 5)], variations=False)

Everything random comes from the numpy Generator passed in, so a seed gives the same scene.
Sizes are in pixels of the output image (default 640 x 480, dice 34..70 px across).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.smear import smear
from vision.symbols import TREEHOUSE_FACES, draw_symbol

# style -> (body BGR, pip BGR, truth colour name, opacity of the body)
STYLES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], str, float]] = {
    "white": ((232, 236, 238), (25, 25, 25), "white", 1.0),
    "black": ((28, 28, 30), (235, 235, 235), "black", 1.0),
    "yellow": ((40, 205, 240), (20, 20, 20), "yellow", 1.0),
    "red": ((40, 35, 190), (240, 240, 240), "red", 1.0),
    "green": ((70, 150, 40), (240, 240, 240), "green", 1.0),
    "translucent-red": ((45, 40, 200), (245, 245, 245), "red", 0.8),
    "translucent-blue": ((150, 60, 20), (245, 245, 245), "blue", 0.8),
    "grey": ((150, 150, 152), (25, 25, 25), "grey", 1.0),
    "treehouse": ((25, 25, 25), (230, 230, 230), "black", 1.0),
}
D6_STYLES = ("white", "black", "yellow", "red", "green", "translucent-red", "translucent-blue")
GREY_FACES = (1, 2, 3, 3, 4, 4)
# The small grey die's side as a share of a d6's, as the renderers draw it (an assumption about Dice Devils'
# dice, not a measurement: a table's calibration roll is where the true share shows).
GREY_SIDE = 0.72

# pip centres in units of the face side, origin at the face centre
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
PIP_OFFSET = 0.26  # pip centre offset from the face centre, in face sides
PIP_RADIUS = 0.085  # pip radius in face sides (the single pip of a 1 is larger)


@dataclass(frozen=True)
class DieSpec:
    """A die to draw: kind 'd6' | 'grey' | 'treehouse', a style from STYLES, and a face (None: random)."""

    kind: str = "d6"
    style: str = "white"
    value: int | str | None = None


@dataclass(frozen=True)
class TruthDie:
    """What is really in a rendered scene: the face up, kind, colour name and face box (x1, y1, x2, y2) px,
    the boxes of the side faces a tilted camera sees (each may be covered by a nearer die), and the die's
    side (px where it lies; 0.0 where the scene does not say), which its face box shows only through its
    turn: a box is up to 1.41 sides wide."""

    value: int | str
    kind: str
    colour: str
    box: tuple[int, int, int, int]
    sides: tuple[tuple[int, int, int, int], ...] = ()
    side: float = 0.0


def random_specs(rng: np.random.Generator, count: int) -> list[DieSpec]:
    """`count` dice of mixed kinds and styles, as the tests and benchmark use them."""
    specs = []
    for _ in range(count):
        r = rng.random()
        if r < 0.08:
            specs.append(DieSpec("grey", "grey"))
        elif r < 0.14:
            specs.append(DieSpec("treehouse", "treehouse"))
        else:
            specs.append(DieSpec("d6", str(rng.choice(D6_STYLES))))
    return specs


def _face_value(rng: np.random.Generator, spec: DieSpec) -> int | str:
    if spec.value is not None:
        return spec.value
    if spec.kind == "grey":
        return int(rng.choice(GREY_FACES))
    if spec.kind == "treehouse":
        return str(rng.choice(TREEHOUSE_FACES))
    return int(rng.integers(1, 7))


# ---------------------------------------------------------------- backgrounds


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in -1..1, shape (h, w)."""
    small = rng.uniform(-1, 1, (max(2, h * cells // w), cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.choice([(150, 190, 215), (95, 140, 185), (60, 90, 130), (170, 200, 220)]), np.float32)
    angle = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * math.cos(angle) + yy * math.sin(angle)
    warp = _smooth_noise(rng, h, w, 6) * rng.uniform(10, 40)
    stripes = np.sin((u + warp) / rng.uniform(3, 9)) * 0.5 + np.sin((u + warp * 1.7) / 23.0) * 0.5
    shade = 1.0 + 0.07 * stripes[..., None]
    return np.clip(base * shade, 0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.choice([(45, 110, 25), (110, 60, 20), (30, 30, 120), (40, 40, 40)]), np.float32)
    grain = rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    return np.clip(base + grain, 0, 255).astype(np.uint8)


def _plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    colour = rng.integers(20, 236, 3).astype(np.float32)
    return np.clip(colour + _smooth_noise(rng, h, w, 4)[..., None] * 10, 0, 255).astype(np.uint8)


WORDS = ("ATTACK", "stack", "Dice Devils", "roll 3d6", "tip", "CONFIRM", "Treehouse", "page 12", "o o o")


def _add_text(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    x0, y0 = int(rng.integers(0, w // 2)), int(rng.integers(0, h // 2))
    cv2.rectangle(img, (x0, y0), (x0 + int(rng.integers(150, 320)), y0 + int(rng.integers(80, 200))),
                  (235, 240, 240), -1)
    for line in range(int(rng.integers(2, 7))):
        text = " ".join(str(rng.choice(WORDS)) for _ in range(3))
        cv2.putText(img, text, (x0 + 5, y0 + 22 + 24 * line), cv2.FONT_HERSHEY_SIMPLEX,
                    float(rng.uniform(0.4, 0.8)), (20, 20, 20), int(rng.integers(1, 3)), cv2.LINE_AA)


def _add_cable(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    p = rng.uniform([0, 0], [w, h], (4, 2))
    t = np.linspace(0, 1, 60)[:, None]
    curve = ((1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1] + 3 * (1 - t) * t ** 2 * p[2] + t ** 3 * p[3])
    colour = tuple(int(c) for c in rng.choice([(20, 20, 20), (230, 230, 230), (90, 90, 90)]))
    cv2.polylines(img, [curve.astype(np.int32)], False, colour, int(rng.integers(4, 12)), cv2.LINE_AA)


KEY_GLYPHS = ("A", "S", "Z", "Q", "W", "E", "R", "fn", "alt", "esc", "ctrl", "tab", "1", "2", "-", "^")


def _add_keys(rng: np.random.Generator, img: np.ndarray) -> None:
    """A corner of a keyboard: rounded keys the size of dice with light letters and dots on them (the
    look-alike of a dark die that real photos of a table have)."""
    h, w = img.shape[:2]
    key = float(rng.uniform(28, 60))
    dark = rng.random() < 0.75
    panel = (60, 60, 64) if dark else (200, 200, 205)
    cap, ink = ((25, 25, 28), (225, 225, 225)) if dark else ((235, 235, 238), (30, 30, 30))
    x0, y0 = int(rng.integers(-w // 3, w // 2)), int(rng.integers(-h // 3, h // 2))
    cols, rows = int(rng.integers(3, 9)), int(rng.integers(2, 5))
    pitch = key * 1.15
    x1, y1 = int(x0 + cols * pitch + key * 0.3), int(y0 + rows * pitch + key * 0.3)
    cv2.rectangle(img, (x0, y0), (x1, y1), panel, -1)
    for r in range(rows):
        for c in range(cols):
            kx, ky = int(x0 + key * 0.15 + c * pitch), int(y0 + key * 0.15 + r * pitch)
            cv2.rectangle(img, (kx, ky), (int(kx + key), int(ky + key)), cap, -1)
            glyph = str(rng.choice(KEY_GLYPHS))
            size = key / 60 * float(rng.uniform(0.5, 1.1))
            at = (int(kx + key * rng.uniform(0.1, 0.5)), int(ky + key * rng.uniform(0.35, 0.8)))
            weight = max(1, int(key / 25))
            cv2.putText(img, glyph, at, cv2.FONT_HERSHEY_SIMPLEX, size, ink, weight, cv2.LINE_AA)


def background(rng: np.random.Generator, width: int, height: int, clutter: bool = True) -> np.ndarray:
    """A table surface (wood, felt or plain) with, optionally, printed text and cables on it."""
    kind = rng.choice(["wood", "felt", "plain"])
    img = {"wood": _wood, "felt": _felt, "plain": _plain}[str(kind)](rng, height, width)
    if clutter:
        if rng.random() < 0.3:
            _add_text(rng, img)
        if rng.random() < 0.2:
            _add_keys(rng, img)
        for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.4 else 0):
            _add_cable(rng, img)
    return img


# ---------------------------------------------------------------- dice


def _square(cx: float, cy: float, side: float, angle: float) -> np.ndarray:
    """Corners (4, 2) of a square face, clockwise from top-left before rotation."""
    c, s = math.cos(angle), math.sin(angle)
    half = side / 2
    local = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return local @ np.array([[c, s], [-s, c]]) + (cx, cy)


def _to_face(cx: float, cy: float, side: float, angle: float, u: float, v: float) -> tuple[float, float]:
    """Image point of face coordinates (u, v) in face sides."""
    c, s = math.cos(angle), math.sin(angle)
    return cx + side * (u * c - v * s), cy + side * (u * s + v * c)


SHIFT = 4  # fixed-point bits for sub-pixel drawing


def _fx(points: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points) * (1 << SHIFT)).astype(np.int32)


def _draw_pips(img: np.ndarray, value: int, cx: float, cy: float, side: float, angle: float,
               colour: tuple[int, int, int], squash: tuple[float, float] | None = None,
               glare: bool = False, pip_radius: float = PIP_RADIUS) -> None:
    radius = side * (pip_radius * 1.35 if value == 1 else pip_radius)
    for u, v in PIP_LAYOUT[value]:
        x, y = _to_face(cx, cy, side, angle, u * PIP_OFFSET, v * PIP_OFFSET)
        axes = (radius, radius) if squash is None else (radius * squash[0], radius * squash[1])
        cv2.ellipse(img, (round(x * 16), round(y * 16)), (round(axes[0] * 16), round(axes[1] * 16)),
                    math.degrees(angle), 0, 360, colour, -1, cv2.LINE_AA, SHIFT)
        if glare:
            gx, gy = x - radius * 0.35, y - radius * 0.35
            cv2.circle(img, (round(gx * 16), round(gy * 16)), round(radius * 0.35 * 16),
                       (250, 250, 250), -1, cv2.LINE_AA, SHIFT)


def _side_value(kind: str, top: int, pick: int) -> int:
    """One of the four values a side face of a die showing `top` may show (pick 0..3): never the top's
    value nor the one opposite it (opposite faces of a d6 sum to 7)."""
    sides = [v for v in range(1, 7) if v not in (top, 7 - top)]
    if kind == "grey":  # its faces 1..4 taken as the d6's 1..4 (a 3 or 4 may stand for a 5 or 6)
        sides = [GREY_FACES[v - 1] for v in sides]
    return sides[pick]


def _draw_die(img: np.ndarray, rng: np.random.Generator, spec: DieSpec, value: int | str,
              cx: float, cy: float, side: float, angle: float, vary: bool, side_face: bool) -> np.ndarray:
    """Draw one die on img in place; return the top-face corners (4, 2)."""
    body, pip, _, alpha = STYLES[spec.style]
    layer = img.copy()
    corners = _square(cx, cy, side, angle)
    if vary:  # soft shadow
        shadow = np.zeros(img.shape[:2], np.float32)
        off = rng.uniform(2, 6, 2)
        cv2.fillPoly(shadow, [_fx(corners + off)], 1.0, cv2.LINE_AA, SHIFT)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 3)
        img[:] = (img * (1 - 0.4 * shadow[..., None])).astype(np.uint8)
        layer = img.copy()
    if side_face and rng.random() < 0.5:  # a side face seen under slight perspective, with its own pips
        k = int(rng.integers(0, 4))
        depth = side * rng.uniform(0.08, 0.22)
        a, b = corners[k], corners[(k + 1) % 4]
        normal = np.array([(b - a)[1], -(b - a)[0]]) / side
        side_poly = np.array([a, b, b + normal * depth, a + normal * depth])
        dark = tuple(int(c * 0.7) for c in body)
        cv2.fillPoly(layer, [_fx(side_poly)], dark, cv2.LINE_AA, SHIFT)
        if spec.kind != "treehouse":
            mid = (a + b) / 2 + normal * depth / 2
            squash = depth / side
            sv = _side_value(spec.kind, int(value), int(rng.integers(0, 4)))
            radius = side * PIP_RADIUS
            along = (b - a) / side
            for u, _v in PIP_LAYOUT[sv]:
                p = mid + along * u * PIP_OFFSET * side
                ang = math.degrees(math.atan2(normal[1], normal[0]))
                cv2.ellipse(layer, (round(p[0] * 16), round(p[1] * 16)),
                            (round(radius * squash * 16 + 8), round(radius * 16)), ang, 0, 360,
                            tuple(int(c * 0.8) for c in pip), -1, cv2.LINE_AA, SHIFT)
    cv2.fillPoly(layer, [_fx(corners)], body, cv2.LINE_AA, SHIFT)
    # rounded edges: a dark rim on light dice, a highlight on dark ones
    edge = tuple(int(c * 0.6) for c in body) if sum(body) > 250 else tuple(min(255, c + 70) for c in body)
    cv2.polylines(layer, [_fx(corners)], True, edge, max(1, round(side / 25)), cv2.LINE_AA, SHIFT)
    if alpha < 1.0:
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.fillPoly(mask, [_fx(corners)], 255, cv2.LINE_AA, SHIFT)
        m = (mask.astype(np.float32) / 255 * (1 - alpha))[..., None]
        layer = (layer * (1 - m) + img * m).astype(np.uint8)
        # pips of the opposite face show through, faintly and a little offset
        ghost = layer.copy()
        if isinstance(value, int):
            _draw_pips(ghost, 7 - value, cx + side * 0.06, cy + side * 0.04, side, -angle, pip)
        layer = cv2.addWeighted(layer, 0.8, ghost, 0.2, 0)
    if spec.kind == "treehouse":
        sym_size = max(8, round(side * 0.75))
        sym = draw_symbol(str(value), sym_size)
        rot = cv2.getRotationMatrix2D(((sym_size - 1) / 2, (sym_size - 1) / 2), -math.degrees(angle), 1.0)
        rot[:, 2] += (cx - (sym_size - 1) / 2, cy - (sym_size - 1) / 2)
        ink = cv2.warpAffine(sym, rot, (img.shape[1], img.shape[0])).astype(np.float32)[..., None] / 255
        layer = (layer * (1 - ink) + np.array(pip, np.float32) * ink).astype(np.uint8)
    else:
        pip_radius = PIP_RADIUS * (rng.uniform(0.85, 1.3) if vary else 1.0)
        _draw_pips(layer, int(value), cx, cy, side, angle, pip, glare=vary and rng.random() < 0.3,
                   pip_radius=pip_radius)
    img[:] = layer
    return corners


# ---------------------------------------------------------------- scenes


def _place(rng: np.random.Generator, count: int, width: int, height: int, side: float,
           touching: bool) -> list[tuple[float, float, float]]:
    """Centres and angles (x px, y px, radians) of `count` dice that do not overlap."""
    placed: list[tuple[float, float, float]] = []
    margin = side * 0.9
    for i in range(count):
        for _ in range(200):
            if touching and placed and i % 2 == 1:
                x0, y0, a0 = placed[-1]
                a = a0 + rng.uniform(-0.05, 0.05)
                k = int(rng.integers(0, 4)) * math.pi / 2 + a
                gap = side * rng.uniform(1.02, 1.1)
                x, y = x0 + gap * math.cos(k), y0 + gap * math.sin(k)
                min_d = side * 1.0
            else:
                x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
                a = rng.uniform(0, math.pi / 2)
                min_d = side * 1.5
            if not (margin <= x <= width - margin and margin <= y <= height - margin):
                continue
            ok = True
            for j, (px, py, _) in enumerate(placed):
                need = min_d if j == len(placed) - 1 else side * 1.5
                if math.hypot(x - px, y - py) < need:
                    ok = False
            if ok:
                placed.append((x, y, a))
                break
        else:
            break
    return placed


def _perspective(rng: np.random.Generator, width: int, height: int, amount: float) -> np.ndarray:
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    dst = (src + rng.uniform(-amount, amount, (4, 2)) * (width, height)).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _finish(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Uneven light, blur, noise and JPEG artefacts."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    if rng.random() < 0.7:
        gain = 1.0 + _smooth_noise(rng, h, w, 2) * rng.uniform(0.1, 0.3)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = 1.0 + rng.uniform(-0.25, 0.25) * (xx / w - 0.5) + rng.uniform(-0.25, 0.25) * (yy / h - 0.5)
        out *= (gain * ramp)[..., None]
    if rng.random() < 0.5:
        r = rng.random()
        if r < 0.6:
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.4))
        else:
            out = smear(out, int(rng.integers(3, 6)), rng.uniform(0, 180))
    if rng.random() < 0.6:
        out += rng.normal(0, rng.uniform(2, 8), out.shape).astype(np.float32)
    img = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def render_scene(rng: np.random.Generator, dice: Sequence[DieSpec] | int | None = None, *,
                 width: int = 640, height: int = 480, variations: bool = True,
                 side_px: float | None = None, backdrop: np.ndarray | None = None
                 ) -> tuple[np.ndarray, list[TruthDie]]:
    """Draw dice on a table; return the BGR image and the truth, one TruthDie per visible die.

    dice: the dice to draw (None: 1..6 random dice; an int: that many random dice).
    variations: clutter, shadows, side faces, touching dice, perspective, light, blur, noise, JPEG.
    side_px: face side in px (default random 34..70 px, scaled with the image width over 640).
    backdrop: draw on this image instead of a random table.
    """
    if dice is None:
        dice = int(rng.integers(1, 7))
    specs = random_specs(rng, dice) if isinstance(dice, int) else list(dice)
    scale = width / 640
    side = side_px if side_px is not None else rng.uniform(34, 70) * scale
    img = backdrop.copy() if backdrop is not None else background(rng, width, height, clutter=variations)
    touching = variations and rng.random() < 0.25
    places = _place(rng, len(specs), width, height, side, touching)
    truth_faces = []
    for spec, (x, y, a) in zip(specs, places, strict=False):
        value = _face_value(rng, spec)
        die_side = side * (GREY_SIDE if spec.kind == "grey" else 1.0)
        corners = _draw_die(img, rng, spec, value, x, y, die_side, a, variations, variations and not touching)
        truth_faces.append((spec, value, corners))
    if variations and rng.random() < 0.6:
        warp = _perspective(rng, width, height, 0.04)
        img = cv2.warpPerspective(img, warp, (width, height), borderMode=cv2.BORDER_REPLICATE)
    else:
        warp = np.eye(3)
    truth = []
    for spec, value, corners in truth_faces:
        pts = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), warp).reshape(-1, 2)
        x1, y1 = np.floor(pts.min(axis=0)).astype(int)
        x2, y2 = np.ceil(pts.max(axis=0)).astype(int)
        truth.append(TruthDie(value, spec.kind, STYLES[spec.style][2], (int(x1), int(y1), int(x2), int(y2))))
    if variations:
        img = _finish(rng, img)
    return img, truth
