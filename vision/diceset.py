"""The learned reader's data: which real photos train and which measure, and the samples both networks learn.

Real photos (`../shared/datasets/dice/`) are split by whole sessions, never photo by photo, and the
split is fixed (no randomness): photos taken one after another look alike, so a photo beside a
measured one must not be trained on.
- wood-white-train: each value was photographed in its own session (`Train_two_N`: twos). Within a
  value, photos are taken in runs of ten by number ((N - 1) // 10); every third run (run % 3 == 2)
  is measured, the rest trains.
- phone-tables-train: photos in runs of 25 by number (N // 25); every third run (run % 3 == 2) is
  measured. A run holds photos of one table and set of dice.
- casino-crops-train: the source's own split: 'val' is measured, 'train' trains.
Rendered scenes that train come from `np.random.default_rng([seed, k])`; the measured renders of
`companion bench vision` from `np.random.default_rng(HELD_OUT_SEED + i)`: never the same scenes.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import cv2
import numpy as np

from vision.learned import CONTEXT, STRIDE, VALUES, crop
from vision.render import TruthDie
from vision.scenes import COLOUR_NAMES, random_scene

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "dice"
HELD_OUT_SEED = 1_000_000
TILE = 224  # px: the detector learns on square tiles of this side at the working scale


def measured(folder: str, image: str) -> bool:
    """Whether a labelled photo belongs to the measured (held-out) part of its set."""
    number = int(re.findall(r"\d+", image)[-1])
    if folder.startswith("wood"):
        return ((number - 1) // 10) % 3 == 2
    return (number // 25) % 3 == 2


# Sets that leave some dice in their photos without a label box, so a die read on no label there may be real
# (`companion bench vision compare` says so). The phone photos' README names dice far away, cut by the frame's
# edge or with numerals; some translucent, pink and red dice there have no box either. Training still learns
# such finds as "no die": without them (2026-11-30) the classifiers read those photos' lookalikes as dice (a
# printed map's harbour tokens, small white squares marked "3:1" beside its ships), 1.30 false dice a
# held-out photo against 0.19.
UNBOXED_DICE = ("phone-tables-train",)


def labelled(folder: Path) -> dict[str, list[tuple[int, tuple[int, int, int, int]]]]:
    """image name -> its dice (value, box x1, y1, x2, y2 px) from the folder's labels.csv."""
    photos: dict[str, list[tuple[int, tuple[int, int, int, int]]]] = {}
    with open(folder / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            box = (int(row["x1"]), int(row["y1"]), int(row["x2"]), int(row["y2"]))
            photos.setdefault(row["image"], []).append((int(row["value"]), box))
    return photos


def photo_split(folder: Path) -> tuple[list[str], list[str]]:
    """(training, measured) photo names of a labels.csv folder."""
    names = sorted(labelled(folder))
    held = [n for n in names if measured(folder.name, n)]
    return [n for n in names if n not in held], held


def crop_split(folder: Path) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """(training, measured) rows of a crops.csv folder."""
    with open(folder / "crops.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [r for r in rows if r["split"] != "val"], [r for r in rows if r["split"] == "val"]


# ---------------------------------------------------------------- detector samples

Box = tuple[float, float, float, float]  # centre x, y, width, height (px)


def working_die(rng: np.random.Generator, die_px: float) -> float:
    """A d6's side (px) at a working scale the reader may look at dice `die_px` across with: from a fifth
    of their size (a first look at a large frame, at least 5 px) up to their own size, at most 64 px."""
    return float(np.exp(rng.uniform(math.log(max(5.0, die_px / 5)), math.log(max(5.0, min(die_px, 64.0))))))


def render_tile(rng: np.random.Generator, oblique: float = 0.0) -> tuple[np.ndarray, list[Box]]:
    """A TILE x TILE rendered table at a working scale the reader uses, and its top faces' boxes there;
    `oblique`: the share of tables drawn as phones see them (`random_scene(oblique=True)`)."""
    die_px = float(np.exp(rng.uniform(math.log(15), math.log(150))))
    scale = working_die(rng, die_px) / die_px
    side = int(round(TILE / scale))
    image, truth = random_scene(rng, side, side, die_px=min(die_px, side / 3), oblique=drawn(rng, oblique))
    tile = cv2.resize(image, (TILE, TILE), interpolation=cv2.INTER_AREA)
    k = TILE / side
    return tile, [((t.box[0] + t.box[2]) / 2 * k, (t.box[1] + t.box[3]) / 2 * k,
                   (t.box[2] - t.box[0]) * k, (t.box[3] - t.box[1]) * k) for t in truth]


def photo_tile(rng: np.random.Generator, image: np.ndarray, boxes: list[tuple[int, tuple[int, int, int, int]]]
               ) -> tuple[np.ndarray, list[Box], list[bool]]:
    """A TILE x TILE piece of a real photo at a working scale the reader may use for its dice
    (`working_die` of their median side), most often round one of its dice, its dice's boxes there,
    and whether each box is the whole face (labels of 1-3 are often round the pips only)."""
    h, w = image.shape[:2]
    whole = [value >= 4 for value, _ in boxes]
    sides = [max(x2 - x1, y2 - y1) for value, (x1, y1, x2, y2) in boxes if value >= 4] or \
        [max(x2 - x1, y2 - y1) for _, (x1, y1, x2, y2) in boxes] or [min(h, w) / 10]
    die = float(np.median(sides))
    scale = min(1.0, working_die(rng, die) / die)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sh, sw = small.shape[:2]
    pad_y, pad_x = max(0, TILE - sh), max(0, TILE - sw)
    if pad_x or pad_y:
        small = cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT)
    if boxes and rng.random() < 0.8:  # round a die (a few of a large photo's tiles would hold none)
        _, (x1, y1, x2, y2) = boxes[int(rng.integers(0, len(boxes)))]
        x0 = int((x1 + x2) / 2 * scale - rng.uniform(0.1, 0.9) * TILE)
        y0 = int((y1 + y2) / 2 * scale - rng.uniform(0.1, 0.9) * TILE)
    else:
        x0 = int(rng.integers(0, small.shape[1] - TILE + 1))
        y0 = int(rng.integers(0, small.shape[0] - TILE + 1))
    x0 = min(max(x0, 0), small.shape[1] - TILE)
    y0 = min(max(y0, 0), small.shape[0] - TILE)
    tile = small[y0:y0 + TILE, x0:x0 + TILE]
    out = [((x1 + x2) / 2 * scale - x0, (y1 + y2) / 2 * scale - y0, (x2 - x1) * scale, (y2 - y1) * scale)
           for _, (x1, y1, x2, y2) in boxes]
    return np.ascontiguousarray(tile), out, whole


def targets(boxes: list[Box], whole: list[bool] | None = None, side: int = TILE) -> np.ndarray:
    """The detector's training target for one tile, (6, side/STRIDE, side/STRIDE) float32: heat, log w,
    log h, offset x, offset y (in cells), and a mask of the cells where the size is known."""
    n = side // STRIDE
    out = np.zeros((6, n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    for i, (cx, cy, w, h) in enumerate(boxes):
        gx, gy = cx / STRIDE, cy / STRIDE
        ix, iy = int(gx), int(gy)
        if not (0 <= ix < n and 0 <= iy < n):
            continue
        sigma = max(0.6, max(w, h) / STRIDE / 6)
        blob = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        out[0] = np.maximum(out[0], blob)
        out[0, iy, ix] = 1.0
        out[3, iy, ix], out[4, iy, ix] = gx - ix, gy - iy
        if whole is None or whole[i]:
            out[1, iy, ix], out[2, iy, ix] = math.log(max(w, 1) / STRIDE), math.log(max(h, 1) / STRIDE)
            out[5, iy, ix] = 1.0
    return out


# ---------------------------------------------------------------- classifier samples

COLOUR_INDEX = {name: k for k, name in enumerate(COLOUR_NAMES)}


def value_class(value: int | str) -> int:
    return VALUES.index(str(value))


def jittered_crop(rng: np.random.Generator, image: np.ndarray, cx: float, cy: float,
                  side: float, upright: bool = False) -> tuple[np.ndarray, float]:
    """A classifier crop round a die as a detector might place it: centre off by up to a tenth of the die,
    size off by a sixth; turned by quarter turns (unless `upright`: the frame's down is kept, and with it
    which way a tilted camera's side faces hang) and mirrored (a face's value does not change). Returns the
    crop and the side (px in the image) it covers."""
    cx += rng.normal(0, 0.05) * side
    cy += rng.normal(0, 0.05) * side
    side *= math.exp(rng.normal(0, 0.1))
    out = crop(image, cx, cy, CONTEXT * side)
    if not upright:
        out = np.rot90(out, int(rng.integers(0, 4)))
    if rng.random() < 0.5:
        out = out[:, ::-1]
    return np.ascontiguousarray(out), CONTEXT * side


def side_share(die_side: float, crop_side: float) -> float:
    """The classifier's side target: log of the die's side as a share of its crop's side; NaN where the
    die's side is not known (photos, no die), which teaches nothing (`train_classifier`)."""
    return math.log(die_side / crop_side) if die_side > 0 else math.nan


def boxed(rng: np.random.Generator, die: TruthDie) -> tuple[float, float, float]:
    """Where a detector may box a rendered die, as (centre x, centre y, side) px: anywhere from its top face
    alone to the whole die a tilted camera sees (top and side faces), since real photos are labelled both
    ways (the phone photos box whole dice). So the classifier learns to read the top face of either crop."""
    faces = np.array([die.box, *die.sides], np.float64)  # the top face first
    whole = np.r_[faces[:, :2].min(axis=0), faces[:, 2:].max(axis=0)]
    share = rng.uniform(0, 1)
    x1, y1, x2, y2 = (1 - share) * faces[0] + share * whole
    return (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1)


def drawn(rng: np.random.Generator, share: float) -> bool:
    """True for about `share` of the calls; with no share, never, and no number is drawn (the scenes of the
    committed weights stay as they were)."""
    return share > 0 and bool(rng.random() < share)


LARGE_NEGATIVES = 1  # crops of a scene, class 0, a few dice across (`scene_crops`)
LARGE_NEGATIVE = (1.5, 4.0)  # their size in the scene's dice's sides: as big as a board's hexes
LOOKALIKE_NEGATIVES = 1  # crops of a scene, class 0, centred on a thing drawn that may pass for a die
LOOKALIKE_SIZE = (0.8, 3.0)  # their size in that thing's widths: the token alone up to the hex round it


def scene_crops(rng: np.random.Generator, copies: int = 2, negatives: int = 3, oblique: float = 0.0,
                upright: bool = False) -> tuple[list[np.ndarray], list[int], list[int], list[float]]:
    """Crops of one rendered scene: each die `copies` times (value and colour class; each boxed as a detector
    may box it, `boxed`) and `negatives` crops of die size that show no top face (table, clutter, a side
    face, between dice), and
    `LARGE_NEGATIVES` a few dice across (a printed board's hex and its number token), and
    `LOOKALIKE_NEGATIVES` centred on a number token, a round token or a card: class 0.
    `upright` crops keep the frame's down (`jittered_crop`), and each die a tilted camera sees the sides
    of also gives a crop on one of them, class 0: an upright classifier can learn that a face with another
    above it is a side (turned crops cannot tell it from a top face with its side below).
    Also each crop's `side_share` (NaN for no die)."""
    lookalikes: list[tuple[float, float, float]] = []
    image, truth = random_scene(rng, oblique=drawn(rng, oblique), lookalikes=lookalikes)
    crops, values, colours, shares = [], [], [], []
    sides = []
    for t in truth:
        x1, y1, x2, y2 = t.box
        side = max(x2 - x1, y2 - y1)
        sides.append(((x1 + x2) / 2, (y1 + y2) / 2, side))
        for _ in range(copies):
            crop_of_die, crop_side = jittered_crop(rng, image, *boxed(rng, t), upright)
            crops.append(crop_of_die)
            values.append(value_class(t.value))
            colours.append(COLOUR_INDEX[t.colour])
            shares.append(side_share(t.side, crop_side))
    shown = [(t.sides[int(rng.integers(0, len(t.sides)))], i)  # a side face of each die, when upright
             for i, t in enumerate(truth) if upright and t.sides]
    h, w = image.shape[:2]

    def free(x: float, y: float, clear: float = 0.0, but: int = -1) -> bool:
        """No top face (but die `but`'s) within half a side of (x, y), nor within `clear` px."""
        return all(math.hypot(x - px, y - py) >= max(0.55 * ps, clear)
                   for j, (px, py, ps) in enumerate(sides) if j != but)

    def no_die(x: float, y: float, size: float) -> None:
        crops.append(jittered_crop(rng, image, x, y, size, upright)[0])
        values.append(0)
        colours.append(-1)
        shares.append(math.nan)

    for _ in range(negatives if sides else 0):
        cx, cy, side = sides[int(rng.integers(0, len(sides)))]
        if rng.random() < 0.5:  # beside a die: its side face, its edge, the gap to the next
            a = rng.uniform(0, 2 * math.pi)
            x = cx + math.cos(a) * side * rng.uniform(0.7, 1.3)
            y = cy + math.sin(a) * side * rng.uniform(0.7, 1.3)
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if free(x, y):
            no_die(x, y, side * math.exp(rng.normal(0, 0.3)))
    for _ in range(LARGE_NEGATIVES if sides else 0):  # what the detector may take for one big die: a patch
        x, y = rng.uniform(0, w), rng.uniform(0, h)    # of board, token or clutter some dice across
        size = sides[int(rng.integers(0, len(sides)))][2] * rng.uniform(*LARGE_NEGATIVE)
        if free(x, y, clear=0.35 * size):  # else a die at its middle: the die is what it shows
            no_die(x, y, size)
    for _ in range(LOOKALIKE_NEGATIVES if lookalikes else 0):  # a token, a card: centred, as the detector
        x, y, width = lookalikes[int(rng.integers(0, len(lookalikes)))]  # would box it or the hex round it
        size = width * rng.uniform(*LOOKALIKE_SIZE)
        if free(x, y):  # else a die lies on it
            no_die(x, y, size)
    for (x1, y1, x2, y2), i in shown:  # a die's side face, cropped as the detector would a die there
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        if free(x, y, but=i):  # else a nearer die's top face covers it
            no_die(x, y, sides[i][2])
    return crops, values, colours, shares

