"""Domain-randomised dice scenes with known truth: the training and test data of the learned reader.

    rng = np.random.default_rng(seed)
    image, truth = random_scene(rng)              # BGR frame, one TruthDie per die (top face box px)

Far wider than any real table, so the reader learns dice rather than one camera: body colours
(white, cream, black, dark, every hue, translucent, marbled, glitter), pip colours (black, white,
red, gold, any that shows), pip sizes and shapes (round, square, a big 1, a ring in the 1), rounded
or sharp edges, dice 15-150 px across, the camera from straight down to 50 degrees (side faces with
their own pips show; `oblique` scenes: down to 65 degrees, nearer dice larger, dice in a heap, nearer
ones covering the sides and edges of farther ones), dice apart or touching in huddles, surfaces (wood,
felt, cloth, granite, a tray, printed boards with dots and numbers, busy hex maps with number tokens),
clutter (crumbs, tokens, cards, printed dots, a hand), light (warm, cold, dim, glare, hard shadows), blur,
noise (also specks) and JPEG.
Everything random comes from the Generator passed in: a seed gives one scene.

Truth colour names are those players use (`COLOURS`); a translucent or marbled die is named by its
main colour.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision.render import GREY_FACES, GREY_SIDE, PIP_LAYOUT, TruthDie, _wood
from vision.smear import smear
from vision.symbols import TREEHOUSE_FACES, draw_symbol

# colour name -> ranges of (hue 0..180, saturation 0..255, value 0..255) a body of that name may take
COLOURS: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    "white": ((0, 180), (0, 25), (200, 255)),
    "cream": ((18, 30), (40, 90), (200, 250)),
    "grey": ((0, 180), (0, 25), (105, 170)),
    "black": ((0, 180), (0, 80), (10, 55)),
    "red": ((172, 184), (150, 255), (120, 235)),
    "orange": ((8, 16), (170, 255), (190, 255)),
    "yellow": ((22, 32), (150, 255), (200, 255)),
    "green": ((40, 85), (120, 255), (70, 220)),
    "blue": ((95, 125), (130, 255), (70, 230)),
    "purple": ((128, 155), (90, 230), (60, 200)),
    "pink": ((158, 172), (70, 170), (190, 255)),
}
COLOUR_NAMES = tuple(COLOURS)
COLOUR_WEIGHTS = (0.2, 0.08, 0.05, 0.12, 0.11, 0.06, 0.08, 0.08, 0.09, 0.07, 0.06)
PIP_COLOURS = {"black": (22, 22, 22), "white": (240, 240, 240), "red": (40, 30, 200), "gold": (40, 170, 215),
               "blue": (160, 70, 20), "green": (50, 140, 30)}


@dataclass(frozen=True)
class SceneDie:
    """How one die looks: kind, top value, body and pip BGR, its colour name and its finish."""

    kind: str
    value: int | str
    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    colour: str
    alpha: float  # body opacity (translucent dice < 1)
    marble: tuple[int, int, int] | None  # a second body colour swirled in
    glitter: bool
    pip_scale: float  # pip radius relative to the usual
    square_pips: bool
    big_one: float  # radius factor of the 1's pip (1.35 is usual)
    ring_one: bool  # a ring (a logo) round the 1
    corner: float  # rounding of the face's corners, in face sides (0 sharp .. 0.25)


def hsv_to_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    pixel = np.array([[[h % 180, s, v]]], np.uint8)
    return tuple(int(c) for c in cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0])


def body_colour(rng: np.random.Generator, name: str) -> tuple[int, int, int]:
    """A random BGR body of the named colour."""
    (h0, h1), (s0, s1), (v0, v1) = COLOURS[name]
    return hsv_to_bgr(rng.uniform(h0, h1), rng.uniform(s0, s1), rng.uniform(v0, v1))


def _luma(bgr: tuple[int, int, int]) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def pip_colour(rng: np.random.Generator, body: tuple[int, int, int]) -> tuple[int, int, int]:
    """A pip colour that shows on the body: black, white, red, gold or another, never too close to it;
    or (`TINTED_PIPS` of dice) a paler or darker tint of the body itself, as on glow, frosted and
    translucent dice, whose pips show by little more than their shade."""
    if rng.random() < TINTED_PIPS:
        return tinted_pip(rng, body)
    for _ in range(20):
        r = rng.random()
        if r < 0.75:
            pip = PIP_COLOURS[str(rng.choice(["black", "white", "red", "gold", "blue", "green"],
                                             p=[0.38, 0.38, 0.1, 0.06, 0.04, 0.04]))]
        else:
            pip = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(0, 255))
        pip = tuple(int(np.clip(c + rng.normal(0, 8), 0, 255)) for c in pip)
        distance = float(np.linalg.norm(np.subtract(pip, body, dtype=np.float32)))
        if distance > 110 or (distance > 80 and abs(_luma(pip) - _luma(body)) > 35):
            return pip
    return (240, 240, 240) if _luma(body) < 128 else (22, 22, 22)


def tinted_pip(rng: np.random.Generator, body: tuple[int, int, int]) -> tuple[int, int, int]:
    """The body's colour taken 40-70 % of the way to white or to black: whichever way leaves the pips at
    least TINT_LUMA apart from the body in brightness (0..255)."""
    towards = [255.0, 0.0] if rng.random() < 0.5 else [0.0, 255.0]
    share = rng.uniform(0.4, 0.7)
    for end in towards:
        pip = tuple(int(round(c + share * (end - c))) for c in body)
        if abs(_luma(pip) - _luma(body)) >= TINT_LUMA:
            return pip
    return pip


def random_die(rng: np.random.Generator, kind: str | None = None) -> SceneDie:
    """A die of random look (kind None: mostly d6, some grey 1-4 dice and Treehouse dice)."""
    if kind is None:
        r = rng.random()
        kind = "grey" if r < 0.06 else "treehouse" if r < 0.1 else "d6"
    if kind == "grey":
        name, value = "grey", int(rng.choice(GREY_FACES))
    elif kind == "treehouse":
        name, value = "black", str(rng.choice(TREEHOUSE_FACES))
    else:
        name, value = str(rng.choice(COLOUR_NAMES, p=COLOUR_WEIGHTS)), int(rng.integers(1, 7))
    body = body_colour(rng, name)
    pip = (225, 225, 225) if kind == "treehouse" else pip_colour(rng, body)
    if kind == "grey":
        pip = (25, 25, 25)
    alpha = float(rng.uniform(0.55, 0.85)) if kind == "d6" and rng.random() < 0.15 else 1.0
    marble = None
    if kind == "d6" and rng.random() < 0.12:
        other = body_colour(rng, str(rng.choice(COLOUR_NAMES)))
        marble = tuple(int(0.5 * a + 0.5 * b) for a, b in zip(body, other, strict=True))
    return SceneDie(kind=kind, value=value, body=body, pip=pip, colour=name, alpha=alpha, marble=marble,
                    glitter=kind == "d6" and rng.random() < 0.06,
                    pip_scale=float(rng.uniform(0.7, 1.35)), square_pips=rng.random() < 0.08,
                    big_one=float(rng.uniform(1.0, 2.2)) if rng.random() < 0.5 else 1.35,
                    ring_one=rng.random() < 0.05, corner=float(rng.uniform(0, 0.25)))


# ---------------------------------------------------------------- one face, drawn square


def face_texture(rng: np.random.Generator, die: SceneDie, value: int | str,
                 size: int) -> tuple[np.ndarray, np.ndarray]:
    """One face (value up, unturned), size x size float BGR, and its mask 0..1 (rounded corners)."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = die.body
    if die.marble is not None:
        swirl = cv2.resize(rng.uniform(-1, 1, (5, 5)).astype(np.float32), (size, size),
                           interpolation=cv2.INTER_CUBIC)
        veins = (np.sin(swirl * rng.uniform(4, 10)) * 0.5 + 0.5)[..., None]
        img = img * (1 - veins) + np.array(die.marble, np.float32) * veins
    if die.glitter:
        sparks = rng.random((size, size)) < 0.03
        img[sparks] = np.minimum(255, img[sparks] + rng.uniform(60, 140))
    # rounded edge: the rim falls off in light
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    edge = np.minimum.reduce([xx, yy, size - 1 - xx, size - 1 - yy]) / size
    rim = float(rng.uniform(0.02, 0.12))
    img *= (0.75 + 0.25 * np.clip(edge / rim, 0, 1))[..., None]
    s = float(size)
    if die.kind == "treehouse":
        sym = draw_symbol(str(value), size).astype(np.float32)[..., None] / 255 * 0.8
        img = img * (1 - sym) + np.array(die.pip, np.float32) * sym
    else:
        radius = s * 0.085 * die.pip_scale * (0.82 if die.kind == "grey" else 1.0)
        offset = s * rng.uniform(0.23, 0.28)
        for u, v in PIP_LAYOUT[int(value)]:
            r = radius * (die.big_one / 1.0 if value == 1 else 1.0)
            x, y = s / 2 + u * offset, s / 2 + v * offset
            if die.square_pips and value != 1:
                cv2.rectangle(img, (round((x - r) * 16), round((y - r) * 16)),
                              (round((x + r) * 16), round((y + r) * 16)), die.pip, -1, cv2.LINE_AA, 4)
            else:
                cv2.circle(img, (round(x * 16), round(y * 16)), max(8, round(r * 16)), die.pip, -1,
                           cv2.LINE_AA, 4)
                if value == 1 and die.ring_one:
                    cv2.circle(img, (round(x * 16), round(y * 16)), round(r * 1.5 * 16), die.pip,
                               max(1, round(s / 40)), cv2.LINE_AA, 4)
    mask = np.zeros((size, size), np.float32)
    corner = die.corner * s
    inner = (round(corner * 16), round(corner * 16), round((s - corner) * 16), round((s - corner) * 16))
    if corner >= 1:
        for cx in (inner[0], inner[2]):
            for cy in (inner[1], inner[3]):
                cv2.circle(mask, (cx, cy), round(corner * 16), 1.0, -1, cv2.LINE_AA, 4)
        cv2.rectangle(mask, (inner[0], 0), (inner[2], size * 16), 1.0, -1, cv2.LINE_AA, 4)
        cv2.rectangle(mask, (0, inner[1]), (size * 16, inner[3]), 1.0, -1, cv2.LINE_AA, 4)
    else:
        mask[:] = 1.0
    return img, mask


def side_value(kind: str, top: int | str, rng: np.random.Generator) -> int | str:
    """A value a side face may show: never the top's nor the one opposite it."""
    if kind == "treehouse":
        return str(rng.choice([f for f in TREEHOUSE_FACES if f != top]))
    value = int(rng.choice([v for v in range(1, 7) if v not in (int(top), 7 - int(top))]))
    return GREY_FACES[value - 1] if kind == "grey" and value > 4 else value


# ---------------------------------------------------------------- a cube seen from a tilted camera


def cube_faces(cx: float, cy: float, side: float, yaw: float, tilt: float) -> list[tuple[str, np.ndarray]]:
    """The visible faces of a die standing on the table, as (name, corners (4, 2) px), farthest first.

    Orthographic view from a camera tilted `tilt` radians from straight down; the die is turned `yaw`
    about its vertical axis; (cx, cy) is the top face's centre. Corners run round the face so that the
    first corner is the face's own top-left.
    """
    c, s = math.cos(yaw), math.sin(yaw)
    ct, st = math.cos(tilt), math.sin(tilt)

    def project(x: float, y: float, z: float) -> tuple[float, float]:
        rx, ry = x * c - y * s, x * s + y * c
        return cx + side * rx, cy + side * (ry * ct - z * st)

    top = [(-0.5, -0.5, 0.0), (0.5, -0.5, 0.0), (0.5, 0.5, 0.0), (-0.5, 0.5, 0.0)]
    faces = [("top", np.array([project(*p) for p in top]))]
    if tilt > 0.02:
        for k in range(4):  # each side below a top edge; visible when its normal turns to the camera
            (x0, y0, _), (x1, y1, _) = top[k], top[(k + 1) % 4]
            nx, ny = (y1 - y0), -(x1 - x0)
            if (nx * s + ny * c) * st <= 1e-3:
                continue
            quad = np.array([project(x0, y0, 0), project(x1, y1, 0), project(x1, y1, -1),
                             project(x0, y0, -1)])
            faces.insert(0, ("side", quad))
    return faces


def _paste(img: np.ndarray, texture: np.ndarray, mask: np.ndarray, quad: np.ndarray, alpha: float,
           shade: float) -> None:
    """Warp a square face picture onto the quad (an affine view) of the float image, in place."""
    size = texture.shape[0]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [size, 0], [size, size]])
    dst = (quad[:3] - (x0, y0)).astype(np.float32)
    m = cv2.getAffineTransform(src, dst)
    roi = (x1 - x0, y1 - y0)
    face = cv2.warpAffine(texture, m, roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cover = cv2.warpAffine(mask, m, roi, flags=cv2.INTER_LINEAR)[..., None] * alpha
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - cover) + face * shade * cover


def draw_die(img: np.ndarray, rng: np.random.Generator, die: SceneDie, cx: float, cy: float, side: float,
             yaw: float, tilt: float, light: float) -> list[tuple[str, np.ndarray]]:
    """Draw a die (its shadow, visible sides, top) on the float image; return its faces as `cube_faces`
    gives them (the top last), in the image's px.

    Works on the die's own neighbourhood of the image only (a view of it), so a die costs what its
    size costs, whatever the frame's."""
    h, w = img.shape[:2]
    reach = side * 2.2 + 4
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, int(cx + reach) + 1), min(h, int(cy + reach * 1.6) + 1)
    local = img[y0:y1, x0:x1]
    faces = [(name, quad - (x0, y0)) for name, quad in cube_faces(cx, cy, side, yaw, tilt)]
    hull = cv2.convexHull(np.concatenate([q for _, q in faces]).astype(np.float32))
    shadow = np.zeros(local.shape[:2], np.float32)
    throw = side * rng.uniform(0.05, 0.5) * np.array([math.cos(light), math.sin(light)])
    cv2.fillPoly(shadow, [np.round((hull.reshape(-1, 2) + throw) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    softness = rng.uniform(0.5, 0.25 * side + 1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), softness)
    local *= (1 - rng.uniform(0.2, 0.6) * shadow)[..., None]
    size = int(np.clip(side * 1.25, 24, 160))
    top_corners = faces[-1][1]
    for name, quad in faces:
        if name == "top":
            value, shade = die.value, 1.0
        else:
            value, shade = side_value(die.kind, die.value, rng), float(rng.uniform(*SIDE_SHADE))
        texture, mask = face_texture(rng, die, value, size)
        turn = int(rng.integers(0, 4))
        texture, mask = np.rot90(texture, turn).copy(), np.rot90(mask, turn).copy()
        if die.alpha < 1:  # the opposite face's pips show through, faint and offset
            ghost, _ = face_texture(rng, die, _opposite(die, value), size)
            texture = 0.8 * texture + 0.2 * np.roll(ghost, (size // 16, size // 20), axis=(0, 1))
        _paste(local, texture, mask, quad, die.alpha if name == "top" else min(1.0, die.alpha + 0.1), shade)
    if rng.random() < 0.25:  # a glint on the top face
        gx, gy = top_corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * side
        spot = np.zeros(local.shape[:2], np.float32)
        cv2.circle(spot, (round(gx * 16), round(gy * 16)), round(side * rng.uniform(0.05, 0.2) * 16), 1.0, -1,
                   cv2.LINE_AA, 4)
        spot = cv2.GaussianBlur(spot, (0, 0), side * 0.05 + 0.5)
        local += (spot * rng.uniform(60, 180))[..., None]
    return [(name, quad + (x0, y0)) for name, quad in faces]


def _opposite(die: SceneDie, value: int | str) -> int | str:
    if die.kind == "treehouse":
        return value
    return 7 - int(value) if die.kind == "d6" else value


# ---------------------------------------------------------------- tables

#: things drawn that may pass for a die: (centre x, centre y, width), px (`random_scene`); None: not kept
Lookalikes = list[tuple[float, float, float]] | None


def _noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.uniform(-1, 1, (max(2, h * cells // w), cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(body_colour(rng, str(rng.choice(COLOUR_NAMES))), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2, 6)
    weave = np.sin(xx * math.pi / period) * np.sin(yy * math.pi / period)
    folds = _noise(rng, h, w, 3) * rng.uniform(0, 0.25)
    out = base * (1 + 0.08 * weave[..., None] + folds[..., None])
    return out + rng.normal(0, rng.uniform(2, 10), (h, w, 1)).astype(np.float32)


def _granite(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(body_colour(rng, str(rng.choice(["white", "grey", "black", "cream"]))), np.float32)
    out = np.broadcast_to(base, (h, w, 3)).copy()
    for scale in (1, 2, 4):
        speck = cv2.resize(rng.normal(0, 1, (h // scale + 1, w // scale + 1)).astype(np.float32), (w, h),
                           interpolation=cv2.INTER_NEAREST)
        out += speck[..., None] * rng.uniform(5, 30)
    return out


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(body_colour(rng, str(rng.choice(["green", "blue", "red", "black", "purple", "grey"]))),
                    np.float32)
    return base + rng.normal(0, rng.uniform(3, 8), (h, w, 1)).astype(np.float32) + \
        _noise(rng, h, w, 4)[..., None] * 10


def _plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    colour = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(20, 255))
    return np.array(colour, np.float32) + _noise(rng, h, w, 4)[..., None] * rng.uniform(0, 20)


def _board(rng: np.random.Generator, h: int, w: int, die_px: float) -> np.ndarray:
    """A printed game board: coloured cells, lines, dots like pips and numbers."""
    out = np.clip(_plain(rng, h, w), 0, 255).astype(np.uint8)
    cell = die_px * rng.uniform(0.8, 3)
    palette = [hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(60, 255)) for _ in range(4)]
    for y in np.arange(rng.uniform(-cell, 0), h, cell):
        for x in np.arange(rng.uniform(-cell, 0), w, cell):
            if rng.random() < 0.5:
                colour = palette[int(rng.integers(0, 4))]
                cv2.rectangle(out, (int(x), int(y)), (int(x + cell), int(y + cell)), colour, -1)
            if rng.random() < 0.5:
                cv2.rectangle(out, (int(x), int(y)), (int(x + cell), int(y + cell)), (30, 30, 30), 1)
    ink = [(20, 20, 20), (240, 240, 240), (30, 30, 200)]
    for _ in range(int(rng.integers(5, 40))):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        colour = ink[int(rng.integers(0, 3))]
        if rng.random() < 0.5:
            cv2.circle(out, (int(x), int(y)), max(1, int(die_px * rng.uniform(0.05, 0.15))), colour, -1,
                       cv2.LINE_AA)
        else:
            cv2.putText(out, str(int(rng.integers(1, 13))), (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                        die_px / 40 * rng.uniform(0.4, 1.2), colour, max(1, int(die_px / 25)), cv2.LINE_AA)
    return out


def _hex_map(rng: np.random.Generator, h: int, w: int, die_px: float, lookalikes: Lookalikes = None
             ) -> np.ndarray:
    """A busy printed map board on a table: hexes of textured land (specks, strokes, a colour each),
    light or dark borders, and round number tokens whose numbers have dots beneath them like pips (each
    token's centre and width, px, added to `lookalikes` when given)."""
    out = np.clip(_plain(rng, h, w) if rng.random() < 0.5 else _granite(rng, h, w), 0, 255).astype(np.uint8)
    radius = die_px * rng.uniform(1.2, 4)  # px: centre to corner
    lands = [hsv_to_bgr(rng.uniform(0, 180), rng.uniform(60, 255), rng.uniform(60, 230)) for _ in range(6)]
    border = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(120, 240) if rng.random() < 0.7
                        else rng.uniform(20, 80))
    token = body_colour(rng, str(rng.choice(["cream", "white"])))
    turn = rng.uniform(0, math.pi / 3)
    corners = [(math.cos(turn + k * math.pi / 3), math.sin(turn + k * math.pi / 3)) for k in range(6)]
    across = radius * math.sqrt(3)  # between the centres of neighbouring hexes
    step = (across * math.cos(turn + math.pi / 6), across * math.sin(turn + math.pi / 6))
    row = (across * math.cos(turn + math.pi / 2), across * math.sin(turn + math.pi / 2))
    map_x, map_y = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h  # the map's middle (px)
    reach = rng.uniform(0.3, 1.0) * math.hypot(w, h)  # the map ends this far from its middle (px)
    lines = max(1, int(radius * rng.uniform(0.04, 0.12)))
    count = int(math.hypot(w, h) / across) + 2
    for i, j in itertools.product(range(-count, count + 1), repeat=2):
        cx, cy = map_x + i * step[0] + j * row[0], map_y + i * step[1] + j * row[1]
        if not (-radius < cx < w + radius and -radius < cy < h + radius) or \
                math.hypot(cx - map_x, cy - map_y) > reach:
            continue
        hexagon = np.array([(cx + radius * c, cy + radius * s) for c, s in corners], np.int32)
        land = np.array(lands[int(rng.integers(0, len(lands)))], np.float32)
        cv2.fillPoly(out, [hexagon], land.tolist(), cv2.LINE_AA)
        _land_marks(rng, out, cx, cy, radius, land)
        cv2.polylines(out, [hexagon], True, border, lines, cv2.LINE_AA)
        if rng.random() < 0.7:
            r = radius * rng.uniform(0.25, 0.4)
            _number_token(rng, out, cx, cy, r, token)
            if lookalikes is not None and 0 <= cx < w and 0 <= cy < h:
                lookalikes.append((cx, cy, 2 * r))
    return out.astype(np.float32) * (1 + _noise(rng, h, w, max(4, int(w / radius)))[..., None] * 0.15)


def _land_marks(rng: np.random.Generator, img: np.ndarray, cx: float, cy: float, radius: float,
                land: np.ndarray) -> None:
    """Up to 11 dots and strokes (trees, rocks, waves, fields) in shades of a hex's `land` colour, round
    its centre (`radius` px: centre to corner), in place."""
    for _ in range(int(rng.integers(0, 12))):
        x, y = cx + rng.uniform(-0.7, 0.7) * radius, cy + rng.uniform(-0.7, 0.7) * radius
        shade = (land * rng.uniform(0.4, 1.5)).clip(0, 255).tolist()
        size = max(1, int(radius * rng.uniform(0.03, 0.15)))
        if rng.random() < 0.5:
            cv2.circle(img, (int(x), int(y)), size, shade, -1, cv2.LINE_AA)
        else:
            angle = rng.uniform(0, math.pi)
            end = (int(x + 3 * size * math.cos(angle)), int(y + 3 * size * math.sin(angle)))
            cv2.line(img, (int(x), int(y)), end, shade, max(1, size // 2), cv2.LINE_AA)


def _number_token(rng: np.random.Generator, img: np.ndarray, cx: float, cy: float, r: float,
                  disc: tuple[int, int, int]) -> None:
    """A map's number token (in place): a disc `r` px round, a number 2-12 and as many dots beneath it as
    the number's ways to be rolled with two dice, which look like pips."""
    cv2.circle(img, (int(cx), int(cy)), int(r), disc, -1, cv2.LINE_AA)
    number = int(rng.integers(2, 13))
    ink = (30, 30, 180) if number in (6, 8) else (30, 30, 30)
    font, stroke = r / 30, max(1, int(r / 10))
    (tw, th), _ = cv2.getTextSize(str(number), cv2.FONT_HERSHEY_SIMPLEX, font, stroke)
    cv2.putText(img, str(number), (int(cx - tw / 2), int(cy + th / 3)), cv2.FONT_HERSHEY_SIMPLEX, font, ink,
                stroke, cv2.LINE_AA)
    dots = 6 - abs(7 - number)
    for k in range(dots):
        cv2.circle(img, (int(cx + (k - (dots - 1) / 2) * r * 0.22), int(cy + r * 0.6)), max(1, int(r * 0.07)),
                   ink, -1, cv2.LINE_AA)


def _tray(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A tray: a floor (felt, plain or cloth) inside a raised rim, a table beyond it."""
    out = _wood(rng, h, w).astype(np.float32)
    floor = (_felt if rng.random() < 0.5 else _plain)(rng, h, w)
    x0, y0 = int(rng.uniform(-0.2, 0.2) * w), int(rng.uniform(-0.2, 0.2) * h)
    x1, y1 = int(w * rng.uniform(0.8, 1.2)), int(h * rng.uniform(0.8, 1.2))
    rim = int(rng.uniform(4, 25))
    cv2.rectangle(out, (x0, y0), (x1, y1), tuple(float(c) * 0.7 for c in floor[h // 2, w // 2]), -1)
    inside = np.zeros((h, w), np.float32)
    cv2.rectangle(inside, (x0 + rim, y0 + rim), (x1 - rim, y1 - rim), 1.0, -1)
    inside = cv2.GaussianBlur(inside, (0, 0), 2)[..., None]
    return out * (1 - inside) + floor * inside


def _tiled_floor(rng: np.random.Generator, h: int, w: int, die_px: float) -> np.ndarray:
    """Glazed square tiles, each its own shade, with grout lines between them: a held-out surface."""
    side = die_px * rng.uniform(2, 6)
    base = np.array(hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 160), rng.uniform(90, 245)), np.float32)
    grout = np.array(hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(40, 200)), np.float32)
    out = np.empty((h, w, 3), np.float32)
    ox, oy = rng.uniform(0, side, 2)
    for y in np.arange(-oy, h, side):
        for x in np.arange(-ox, w, side):
            y0, x0 = max(0, int(y)), max(0, int(x))
            out[y0:int(y + side) + 1, x0:int(x + side) + 1] = base * rng.uniform(0.85, 1.15)
    line = max(1, int(die_px * rng.uniform(0.04, 0.12)))
    for y in np.arange(-oy, h, side):
        out[max(0, int(y)):max(0, int(y)) + line] = grout
    for x in np.arange(-ox, w, side):
        out[:, max(0, int(x)):max(0, int(x)) + line] = grout
    return out + _noise(rng, h, w, 3)[..., None] * rng.uniform(0, 25)


def table(rng: np.random.Generator, h: int, w: int, die_px: float, held_out: bool = False,
          lookalikes: Lookalikes = None) -> np.ndarray:
    """A random table surface, uint8 BGR (h, w, 3); held out: half of them a tiled floor, a surface
    never trained on."""
    if held_out and rng.random() < 0.5:
        return np.clip(_tiled_floor(rng, h, w, die_px), 0, 255).astype(np.uint8)
    return np.clip(_surface(rng, h, w, die_px, lookalikes), 0, 255).astype(np.uint8)


def _surface(rng: np.random.Generator, h: int, w: int, die_px: float, lookalikes: Lookalikes = None
             ) -> np.ndarray:
    kind = str(rng.choice(["wood", "felt", "cloth", "granite", "plain", "board", "map", "tray"],
                          p=[0.17, 0.13, 0.13, 0.13, 0.13, 0.09, 0.09, 0.13]))
    if kind == "wood":
        return _wood(rng, h, w).astype(np.float32)
    if kind == "board":
        return _board(rng, h, w, die_px).astype(np.float32)
    if kind == "map":
        return _hex_map(rng, h, w, die_px, lookalikes)
    makers = {"felt": _felt, "cloth": _cloth, "granite": _granite, "plain": _plain, "tray": _tray}
    return makers[kind](rng, h, w)


def clutter(rng: np.random.Generator, img: np.ndarray, die_px: float, lookalikes: Lookalikes = None) -> None:
    """Crumbs, tokens, cards and printed dots on the table (in place); each token's and card's centre and
    width (px) added to `lookalikes` when given."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 30)) if rng.random() < 0.5 else 0):  # crumbs and specks
        colour = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(0, 255))
        axes = (max(1, int(die_px * rng.uniform(0.03, 0.15))), max(1, int(die_px * rng.uniform(0.03, 0.15))))
        cv2.ellipse(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), axes, rng.uniform(0, 180), 0, 360,
                    colour, -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 5)) if rng.random() < 0.3 else 0):  # round tokens
        colour = hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(30, 255))
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(die_px * rng.uniform(0.3, 0.8))
        cv2.circle(img, centre, r, tuple(c * 0.6 for c in colour), -1, cv2.LINE_AA)
        cv2.circle(img, centre, max(1, int(r * 0.85)), colour, -1, cv2.LINE_AA)
        if lookalikes is not None:
            lookalikes.append((float(centre[0]), float(centre[1]), 2.0 * r))
    for _ in range(int(rng.integers(1, 3)) if rng.random() < 0.2 else 0):  # cards with print
        cw, ch = die_px * rng.uniform(1.5, 4), die_px * rng.uniform(2, 6)
        box = cv2.boxPoints(((rng.uniform(0, w), rng.uniform(0, h)), (cw, ch), rng.uniform(0, 180)))
        cv2.fillPoly(img, [box.astype(np.int32)], body_colour(rng, str(rng.choice(["white", "cream"]))),
                     cv2.LINE_AA)
        cx, cy = box.mean(axis=0)
        if lookalikes is not None and 0 <= cx < w and 0 <= cy < h:
            lookalikes.append((float(cx), float(cy), float(max(cw, ch))))
        cv2.putText(img, str(rng.choice(["7", "Q", "ATK", "2x", "o o"])), (int(cx - cw / 4), int(cy)),
                    cv2.FONT_HERSHEY_SIMPLEX, die_px / 50, (30, 30, 30), max(1, int(die_px / 30)),
                    cv2.LINE_AA)
    if rng.random() < HAND_SHARE:
        hand(rng, img, die_px)


HAND_SHARE = 0.1  # share of tables with a player's hand resting on them (`clutter`)
SKIN = ((4, 22), (35, 160), (60, 245))  # HSV ranges of a hand's skin, dark to pale
HAND_WIDTH = (3.5, 7.0)  # a palm's width in d6 sides: about 85 mm beside dice of 12-25 mm


def hand(rng: np.random.Generator, img: np.ndarray, die_px: float) -> None:
    """A player's hand resting on the table, reaching in from one edge of the frame (in place): a palm, four
    fingers and a thumb in one skin colour, shaded, with lighter nails and a soft shadow under it."""
    h, w = img.shape[:2]
    palm_w = die_px * rng.uniform(*HAND_WIDTH)
    edge = int(rng.integers(0, 4))
    along = rng.uniform(0.15, 0.85)
    start = np.array([(along * w, 0.0), (w, along * h), (along * w, h), (0.0, along * h)][edge])
    angle = (math.pi / 2, math.pi, -math.pi / 2, 0.0)[edge] + rng.normal(0, 0.35)
    ahead, side = np.array([math.cos(angle), math.sin(angle)]), np.array([-math.sin(angle), math.cos(angle)])
    palm = start + ahead * palm_w * rng.uniform(0.2, 0.7)  # the palm's centre, part of it past the edge
    knuckles = palm + ahead * palm_w * 0.5
    fingers = []  # (base, tip) of each finger and the thumb, px
    for k, reach in enumerate((0.85, 1.0, 0.95, 0.75)):  # index to little finger
        base = knuckles + side * palm_w * (k - 1.5) * 0.26
        bend = ahead * math.cos(rng.normal(0, 0.15)) + side * math.sin(rng.normal(0, 0.15))
        fingers.append((base, base + bend * palm_w * reach * rng.uniform(0.75, 0.95)))
    thumb_base = palm - side * palm_w * 0.4
    fingers.append((thumb_base, thumb_base + (ahead - side) / math.sqrt(2) * palm_w * 0.6))
    finger = max(2, int(palm_w * 0.22))  # a finger's width, px
    mask = np.zeros((h, w), np.float32)
    nails = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(palm_w * 0.55), int(palm_w * 0.5)),
                math.degrees(angle), 0, 360, 1.0, -1, cv2.LINE_AA)
    for base, tip in fingers:
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 1.0, finger, cv2.LINE_AA)
        nail = tip - (tip - base) / max(float(np.linalg.norm(tip - base)), 1.0) * finger * 0.5
        cv2.ellipse(nails, (int(nail[0]), int(nail[1])), (max(1, finger // 3), max(1, finger // 4)),
                    math.degrees(math.atan2(*(tip - base)[::-1])), 0, 360, 1.0, -1, cv2.LINE_AA)
    down, right = int(finger * 0.4), int(finger * 0.3)  # the hand's shadow falls a little off it, px
    under = np.zeros_like(mask)  # shifted, not rolled: a hand at the bottom edge shades nothing at the top
    under[down:, right:] = mask[:h - down, :w - right]
    shadow = cv2.GaussianBlur(under, (0, 0), finger * 0.5)
    out = img.astype(np.float32) * (1 - 0.45 * shadow)[..., None]
    skin = np.array(hsv_to_bgr(*(rng.uniform(*r) for r in SKIN)), np.float32)
    rim = 1 - cv2.GaussianBlur(mask, (0, 0), finger * 0.4)  # the edges of palm and fingers fall off in light
    shade = 1 + _noise(rng, h, w, max(2, int(w / palm_w))) * 0.15 - 0.25 * rim
    colour = skin * shade[..., None] * (1 + 0.25 * (nails * mask))[..., None]
    img[:] = np.clip(out * (1 - mask[..., None]) + colour * mask[..., None], 0, 255).astype(img.dtype)


# ---------------------------------------------------------------- light and camera


def finish(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Light (warm, cold, dim, glare, hard shadow), blur, noise, specks and JPEG; float in, uint8 BGR out."""
    h, w = img.shape[:2]
    tint = np.array([rng.uniform(0.75, 1.2), 1.0, rng.uniform(0.75, 1.2)], np.float32)
    gain = float(np.exp(rng.normal(0, 0.3)))
    img = img * tint * gain
    if rng.random() < 0.6:
        img *= (1 + _noise(rng, h, w, 2) * rng.uniform(0.1, 0.35))[..., None]
    if rng.random() < 0.2:  # a hard shadow (an arm, a lamp's edge)
        poly = rng.uniform((0, 0), (w, h), (4, 2)).astype(np.int32)
        dark = np.ones((h, w), np.float32)
        cv2.fillPoly(dark, [poly], float(rng.uniform(0.35, 0.75)))
        img *= cv2.GaussianBlur(dark, (0, 0), rng.uniform(0.5, 4))[..., None]
    if rng.random() < 0.2:  # glare
        spot = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.circle(spot, centre, int(rng.uniform(0.05, 0.3) * w), 1.0, -1)
        img += (cv2.GaussianBlur(spot, (0, 0), w * 0.05) * rng.uniform(40, 160))[..., None]
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    elif r < 0.45:
        img = smear(img, int(rng.integers(3, 9)), rng.uniform(0, 180))
    if rng.random() < 0.7:
        img += rng.normal(0, rng.uniform(1, 10), img.shape).astype(np.float32)
    if rng.random() < SPECKLED:  # dust, dead pixels, a sharing app's salt-and-pepper
        specks = rng.random((h, w)) < rng.uniform(0.002, 0.02)
        img[specks] = np.where(rng.random(int(specks.sum())) < 0.5, 0.0, 255.0)[:, None]
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


TINTED_PIPS = 0.12  # share of dice whose pips are a tint of their body (`pip_colour`)
TINT_LUMA = 30  # a tinted pip's least difference in brightness from its body, 0..255
SIDE_SHADE = (0.45, 1.1)  # a side face's light as a share of the top's: darker, or lit by a low lamp brighter
SPECKLED = 0.15  # share of frames with black and white specks a pixel each (`finish`)
SIZES = ((640, 480), (640, 480), (480, 640), (800, 600), (640, 853), (1280, 720))
# settings never used in training, for renders that measure: frame sizes and a surface (a tiled floor)
HELD_OUT_SIZES = ((1024, 768), (960, 720), (720, 960))


TILT = 50  # degrees from straight down: the steepest camera of an ordinary scene
OBLIQUE_TILT = 65  # degrees: the steepest camera of an oblique scene, as phones photograph a table
HEAP_SHARE = 0.3  # share of oblique scenes whose dice lie in one heap, the nearer covering the farther
HUDDLE_SHARE = 0.3  # share of other scenes whose dice stop in touching huddles, as dice rolled together do
HUDDLED = 0.75  # in a huddle scene, the share of dice put against one already down
MIN_VISIBLE = 0.8  # a die is put down only where nearer dice leave at least this share of its top face
DEPTH = 2.0  # a tilted camera's dice grow at most exp(DEPTH * sin(tilt)) times from the frame's top to bottom
# (up to 6.1 at 65 degrees; the training phone photos' dice grow 1.45 times at the median, 3.5 at the 90th
# percentile and 6.6 at most, where DEPTH 1.0 reached 2.5)


def random_scene(rng: np.random.Generator, width: int | None = None, height: int | None = None,
                 die_px: float | None = None, count: int | None = None, held_out: bool = False,
                 oblique: bool = False, lookalikes: Lookalikes = None, dice: Sequence[SceneDie] | None = None,
                 surface: np.ndarray | None = None, lamp: np.random.Generator | None = None
                 ) -> tuple[np.ndarray, list[TruthDie]]:
    """A random table with dice; the BGR frame and one TruthDie per die (its top face's box, px).

    width, height: the frame (default one of `SIZES`, or of `HELD_OUT_SIZES` when held out); die_px: a
    d6's face side (at the frame's middle; default 15..150 px, log-uniform, kept to what the frame holds);
    count: dice (default as many as fit, 1..25; fewer where a heap covers some); held_out: also draw the
    settings training never sees (`table`); oblique: as a phone sees a table, the camera down to
    OBLIQUE_TILT, nearer dice (lower in the frame) larger, and some scenes' dice in a heap, each nearer die
    covering part of the farther (`companion train dice --oblique SHARE` draws that share of them, 0.5);
    lookalikes: when a list, it gains the centre and width (px) of each thing drawn that a reader may take
    for a die (a map's number token, a round token, a card), with no draw of its own, so the scene is the
    same with it or without.
    A table's later rolls: `dice`, the dice to throw (their looks and values, instead of random ones; as
    many as fit); `surface`, the table with its clutter (uint8 BGR; sets the frame's size); `lamp`, the
    generator of the room's light and the camera's finish (`finish`): a generator in the same state each
    roll is the same lamp and camera.
    """
    if surface is not None:
        height, width = surface.shape[:2]
    if width is None or height is None:
        sizes = HELD_OUT_SIZES if held_out else SIZES
        width, height = sizes[int(rng.integers(0, len(sizes)))]
    if die_px is None:
        die_px = float(np.exp(rng.uniform(math.log(15), math.log(min(150, min(width, height) / 3)))))
    tilt = math.radians(rng.uniform(0, OBLIQUE_TILT if oblique else TILT)) if rng.random() < 0.7 else 0.0
    if dice is not None:
        count = len(dice)
    elif count is None:
        room = width * height / (die_px * 2.2) ** 2
        count = int(rng.integers(1, max(2, min(25, room) + 1)))
    if surface is None:
        surface = table(rng, height, width, die_px, held_out, lookalikes)
        clutter(rng, surface, die_px, lookalikes)
    img = surface.astype(np.float32)
    light = rng.uniform(0, 2 * math.pi)
    depth = rng.uniform(0, DEPTH) * math.sin(tilt) if oblique and rng.random() < 0.7 else 0.0
    size_at = perspective(die_px, depth, height)
    heap = oblique and rng.random() < HEAP_SHARE
    huddle = not heap and rng.random() < HUDDLE_SHARE
    truth: list[TruthDie] = []

    def put(d: Placed) -> None:
        faces = draw_die(img, rng, d.die, d.cx, d.cy, d.side, d.yaw, d.tilt, light)
        top, *sides = (box_of(quad) for _, quad in reversed(faces))
        truth.append(TruthDie(d.die.value, d.die.kind, d.die.colour, top, tuple(sides), d.side))

    pending = []  # an oblique scene's dice, put down once it is known which of them show
    for k, (cx, cy, yaw) in enumerate(sorted(spread(rng, count, width, height, size_at, tilt, heap, huddle),
                                             key=lambda p: p[1])):
        die = random_die(rng) if dice is None else dice[k]  # far dice first, near ones over them
        side = size_at(cy) * (GREY_SIDE if die.kind == "grey" else 1.0) * rng.uniform(0.95, 1.05)
        lean = tilt + rng.normal(0, 0.03) if tilt else 0.0
        if oblique:
            pending.append(Placed(die, cx, cy, side, yaw, lean))
        else:
            put(Placed(die, cx, cy, side, yaw, lean))
    for placed in uncovered(pending):
        put(placed)
    return finish(rng if lamp is None else lamp, img), truth


def box_of(quad: np.ndarray) -> tuple[int, int, int, int]:
    """The whole-px box (x1, y1, x2, y2) round a face's corners."""
    x1, y1 = np.floor(quad.min(axis=0)).astype(int)
    x2, y2 = np.ceil(quad.max(axis=0)).astype(int)
    return int(x1), int(y1), int(x2), int(y2)


class Placed(NamedTuple):
    """A die where it lies in a scene: its top face's centre and side (px), its yaw and the camera's tilt
    (radians)."""

    die: SceneDie
    cx: float
    cy: float
    side: float
    yaw: float
    tilt: float


def perspective(die_px: float, depth: float, height: int) -> Callable[[float], float]:
    """A die's side (px) by the height y (px) of its top face's centre in a frame `height` px high: `die_px`
    at the middle, exp(depth) times larger at the bottom (nearer a tilted camera) than at the top."""
    return lambda y: die_px * math.exp(depth * (y / height - 0.5))


def uncovered(dice: list[Placed]) -> list[Placed]:
    """The dice (far to near) whose top face the nearer dice put down leave at least MIN_VISIBLE of, far to
    near: the nearest is always put down, a farther one only where it shows."""
    kept: list[Placed] = []
    hulls: list[np.ndarray] = []  # the outlines of the dice put down, nearer than the one looked at
    for d in reversed(dice):
        faces = cube_faces(d.cx, d.cy, d.side, d.yaw, d.tilt)
        top = faces[-1][1]
        if hulls:
            x0, y0 = np.floor(top.min(axis=0)).astype(int) - 1
            x1, y1 = np.ceil(top.max(axis=0)).astype(int) + 2
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(mask, [np.round(top - (x0, y0)).astype(np.int32)], 1)
            whole = int(mask.sum())
            for hull in hulls:
                cv2.fillPoly(mask, [np.round(hull - (x0, y0)).astype(np.int32)], 0)
            if mask.sum() < MIN_VISIBLE * whole:
                continue
        kept.append(d)
        hulls.append(cv2.convexHull(np.concatenate([q for _, q in faces]).astype(np.float32)).reshape(-1, 2))
    return kept[::-1]


def spread(rng: np.random.Generator, count: int, width: int, height: int, size_at: Callable[[float], float],
           tilt: float, heap: bool, huddle: bool = False) -> list[tuple[float, float, float]]:
    """Where dice stop: each die's top-face centre (x, y px, inside the frame; size_at(y): its side px
    there) and yaw (radians). Their bases never overlap on the table, but may touch. Apart, a few dice lie
    near another; in a `huddle`, most lie against one already down, face to face or corner to face, as
    dice rolled together stop; in a `heap`, round one spot, so nearer dice cover the sides and edges of
    farther ones."""
    placed: list[tuple[float, float, float]] = []
    flat = math.cos(tilt)  # the table seen at a slant: distances up the frame are this much shorter
    reach = min(size_at(height / 2) * (0.75 + math.sin(tilt)), width / 2, height / 2)  # a die's margin, px
    if heap:  # the heap's middle and how far round it its dice lie (px)
        hx, hy = rng.uniform(0.25, 0.75) * width, rng.uniform(0.3, 0.7) * height
        scatter = size_at(hy) * math.sqrt(count) * rng.uniform(0.4, 0.8)
    for _ in range(count):
        for _ in range(60):
            yaw = rng.uniform(0, math.pi / 2)
            if heap:
                x, y = hx + rng.normal(0, scatter), hy + rng.normal(0, scatter * flat)
            elif placed and rng.random() < (HUDDLED if huddle else 0.2):
                x0, y0, yaw0 = placed[int(rng.integers(0, len(placed)))]
                x, y, yaw = beside(rng, x0, y0, yaw0, size_at(y0), flat, huddle)
            else:
                x, y = rng.uniform(reach, width - reach), rng.uniform(reach, height - reach)
            s = size_at(y)
            below = s * (0.75 + math.sin(tilt))  # from the top face's centre down, with a margin
            if not (s * 0.75 <= x <= width - s * 0.75 and s * 0.75 <= y <= height - below):
                continue
            if all(bases_apart((x, y / flat, s, yaw), (px, py / flat, size_at(py), pyaw))
                   for px, py, pyaw in placed):
                placed.append((x, y, yaw))
                break
    return placed


def beside(rng: np.random.Generator, x0: float, y0: float, yaw0: float, side: float, flat: float,
           touching: bool) -> tuple[float, float, float]:
    """A spot (x, y px in the frame) and yaw (radians) for a die next to one at (x0, y0) turned yaw0, of
    `side` px: `touching`, most often against one of its faces (turned almost alike, slid along it, a gap
    of a twentieth to a seventh of a side); else 1.1-1.6 sides away, turned any way (a corner may touch)."""
    if not touching or rng.random() < 0.25:
        a, away, yaw = rng.uniform(0, 2 * math.pi), side * rng.uniform(1.1, 1.6), rng.uniform(0, math.pi / 2)
        return x0 + away * math.cos(a), y0 + away * math.sin(a) * flat, yaw
    a = yaw0 + math.pi / 2 * int(rng.integers(0, 4))  # the face it lies against
    away, along = side * rng.uniform(1.05, 1.15), side * rng.uniform(-0.6, 0.6)
    dx, dy = away * math.cos(a) - along * math.sin(a), away * math.sin(a) + along * math.cos(a)
    return x0 + dx, y0 + dy * flat, yaw0 + rng.normal(0, 0.06)


def bases_apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two dice's bases, squares (x, y, side px on the table, yaw radians), do not overlap."""
    def square(x: float, y: float, side: float, yaw: float) -> tuple:
        return (x, y), (side, side), math.degrees(yaw)

    return cv2.rotatedRectangleIntersection(square(*a), square(*b))[0] == cv2.INTERSECT_NONE
