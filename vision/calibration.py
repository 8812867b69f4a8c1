"""A table's calibration: what it knows, how it is learned from two photos, saved and loaded.

    from vision.calibration import learn_table, load_table
    table = learn_table(reader, empty_photo, roll_photo, [3, 5, 1])  # CalibrationError when it cannot
    table.save(data_dir / "table")
    table = load_table(data_dir / "table")  # None, with the reason logged, when missing or damaged
    dice = reader.read(frame, table=table)

Both photos come from the table's own camera: the empty table, then one roll of the game's dice with
their values typed by the player. From them it learns
- `die_px`: the d6's top-face side in px, the median of the found dice's box sides; the learned
  reader's working scale follows it;
- each die's body colour as the reader names it (`dice`), so a player can check "red, red, cream";
- the empty table: `spots`, where the detector finds "dice" on the empty photo (specks, printed dots,
  the tray's edge), and `empty_cutoff`. A die found at a spot is dropped when the frame there still
  looks like the empty photo: the difference of the two crops (`difference`, grey levels 0..255) is
  below the cut-off. The cut-off is learned from the roll photo: the geometric mean of the smallest
  difference at a typed die and the largest at a spot the dice left free (half the smallest die's
  difference when there is no free spot to measure, or it differs by nothing at all).
A calibration applies to frames of its photos' size; the die size is scaled to frames of another
size, and the empty-table check is skipped there (the camera's view has changed).
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.errors import VisionError
from vision.learned import COLOURS, CONTEXT, VALUES, Found, crop

if TYPE_CHECKING:
    from vision.learned import LearnedReader

log = logging.getLogger(__name__)

JSON_NAME = "calibration.json"
PHOTO_NAME = "empty.png"
VERSION = 1
LOOK_PX = 24  # crops are compared at this side, px: enough to see a die's edges and pips


class CalibrationError(VisionError, ValueError):
    """Two calibration photos and typed values that cannot be learned from; the message says why."""


@dataclass(frozen=True)
class Place:
    """A place in the frame: the centre and box side of something found there (px), and how much the
    roll photo differed from the empty one there (`difference`, grey levels)."""

    cx: float
    cy: float
    side: float
    difference: float = 0.0

    def covers(self, cx: float, cy: float, side: float) -> bool:
        """True when a box of `side` px centred at (cx, cy) lies on this place (centres within half a box)."""
        return math.hypot(cx - self.cx, cy - self.cy) <= max(side, self.side) / 2


@dataclass(frozen=True)
class CalibratedDie:
    """A die of the calibration roll: its typed value, body colour (as the reader names it) and place."""

    value: int
    colour: str
    place: Place


@dataclass(frozen=True)
class TableCalibration:
    """What the table's calibration knows (see the module's docstring); `empty` is the BGR empty photo."""

    die_px: float
    dice: tuple[CalibratedDie, ...]
    spots: tuple[Place, ...]
    empty_cutoff: float | None
    empty: np.ndarray

    @property
    def colours(self) -> list[str]:
        """The roll's body colours, left to right: ["red", "red", "cream"]."""
        return [d.colour for d in self.dice]

    def die_px_for(self, frame: np.ndarray) -> float:
        """The d6's face side (px) in this frame: the calibrated one, scaled when the frame's size differs."""
        return self.die_px * max(frame.shape[:2]) / max(self.empty.shape[:2])

    def keep(self, frame: np.ndarray, found: list[Found]) -> list[Found]:
        """The found dice less those at a spot of the empty table where the frame still looks empty."""
        if self.empty_cutoff is None or not self.spots or frame.shape[:2] != self.empty.shape[:2]:
            return found
        kept = []
        for f in found:
            side = max(f.w, f.h)
            if any(s.covers(f.cx, f.cy, side) for s in self.spots) \
                    and difference(frame, self.empty, f.cx, f.cy, side) < self.empty_cutoff:
                continue
            kept.append(f)
        return kept

    def describe(self) -> str:
        """One line for a player: the die size, the roll's colours and what the empty table holds."""
        colours = ", ".join(f"{d.colour} {d.value}" for d in self.dice)
        spots = len(self.spots)
        empty = (f"{spots} place{'s' if spots != 1 else ''} on the empty table that look like dice "
                 "will not be read as dice" if spots else "nothing on the empty table looks like a die")
        return f"a die is {self.die_px:.0f} px across; the dice: {colours}; {empty}"

    def save(self, folder: Path) -> None:
        """Write DATA/table/calibration.json and empty.png, each whole or not at all."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        height, width = self.empty.shape[:2]
        record = {
            "version": VERSION,
            "frame": [width, height],
            "die_px": round(self.die_px, 2),
            "dice": [{"value": d.value, "colour": d.colour, **_place_json(d.place)} for d in self.dice],
            "spots": [_place_json(s) for s in self.spots],
            "empty_cutoff": None if self.empty_cutoff is None else round(self.empty_cutoff, 3),
            "empty_photo": PHOTO_NAME,
        }
        photo_tmp = folder / f".{PHOTO_NAME}.tmp.png"
        if not cv2.imwrite(str(photo_tmp), self.empty):
            raise OSError(f"could not write {photo_tmp}")
        os.replace(photo_tmp, folder / PHOTO_NAME)
        json_tmp = folder / f".{JSON_NAME}.tmp"
        json_tmp.write_text(json.dumps(record, indent=1))
        os.replace(json_tmp, folder / JSON_NAME)


def _place_json(place: Place) -> dict:
    return {"cx": round(place.cx, 1), "cy": round(place.cy, 1), "side": round(place.side, 1),
            "difference": round(place.difference, 3)}


def _place(record: dict) -> Place:
    cx, cy, side, diff = (float(record[k]) for k in ("cx", "cy", "side", "difference"))
    if not all(math.isfinite(v) for v in (cx, cy, side, diff)) or side <= 0:
        raise ValueError(f"a place is not a box: {record!r}")
    return Place(cx, cy, side, diff)


def load_table(folder: Path) -> TableCalibration | None:
    """The calibration saved in `folder` (DATA/table), or None when there is none or it is damaged;
    the reason is logged, so the reader goes on without it."""
    folder = Path(folder)
    path = folder / JSON_NAME
    if not path.is_file():
        log.info("no table calibration in %s (run 'companion calibrate table')", folder)
        return None
    try:
        record = json.loads(path.read_text())
        if record.get("version") != VERSION:
            raise ValueError(f"version {record.get('version')!r}, this reader knows {VERSION}")
        photo = cv2.imread(str(folder / str(record["empty_photo"])), cv2.IMREAD_COLOR)
        if photo is None:
            raise ValueError(f"the empty table's photo {record['empty_photo']!r} is missing or not an image")
        if [photo.shape[1], photo.shape[0]] != list(record["frame"]):
            raise ValueError(f"the empty photo is {photo.shape[1]}x{photo.shape[0]} px, "
                             f"the calibration says {record['frame']}")
        die_px = float(record["die_px"])
        if not math.isfinite(die_px) or die_px <= 0:
            raise ValueError(f"die_px {record['die_px']!r} is no size")
        cutoff = record["empty_cutoff"]
        if cutoff is not None and (not math.isfinite(float(cutoff)) or float(cutoff) < 0):
            raise ValueError(f"empty_cutoff {cutoff!r} is no difference")
        dice = tuple(CalibratedDie(int(d["value"]), str(d["colour"]), _place(d)) for d in record["dice"])
        spots = tuple(_place(s) for s in record["spots"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as err:
        log.warning("the table calibration in %s is damaged (%s): reading without it; "
                    "run 'companion calibrate table' again", folder, err)
        return None
    return TableCalibration(die_px, dice, spots, None if cutoff is None else float(cutoff), photo)


def difference(frame: np.ndarray, empty: np.ndarray, cx: float, cy: float, side: float) -> float:
    """How unlike the empty photo the frame looks round (cx, cy): the mean absolute difference (grey
    levels 0..255, over pixels and colours) of their crops of CONTEXT x `side` px, each crop's mean
    colour taken away first so a change of the light alone counts for little."""
    a, b = (crop(image, cx, cy, CONTEXT * side, LOOK_PX).astype(np.float32) for image in (frame, empty))
    a -= a.mean(axis=(0, 1))
    b -= b.mean(axis=(0, 1))
    return float(np.abs(a - b).mean())


def _count_error(found: int, typed: int) -> CalibrationError:
    hint = ("roll them again where the camera sees them all" if found < typed else
            "clear everything else off the table, or take the empty photo again")
    return CalibrationError(f"found {found} {'die' if found == 1 else 'dice'}, you typed {typed} "
                            f"value{'s' if typed != 1 else ''}: {hint}")


def learn_table(reader: LearnedReader, empty: np.ndarray, roll: np.ndarray,
                values: Sequence[int]) -> TableCalibration:
    """Learn the table from a photo of it empty and one of a roll whose `values` (1-6) the player typed.

    Raises CalibrationError with a sentence for the player when the photos differ in size, when the
    detector finds more or fewer dice than values were typed, when the dice read differently from the
    typed values, or when a die looks no different from the empty table."""
    values = [int(v) for v in values]
    if not values or any(not 1 <= v <= 6 for v in values):
        raise CalibrationError("type the value (1 to 6) on top of each die, e.g. 3 5 1")
    if empty.shape != roll.shape:
        raise CalibrationError(f"the empty photo is {empty.shape[1]}x{empty.shape[0]} px and the roll "
                               f"{roll.shape[1]}x{roll.shape[0]}: take both with the same camera")
    first = reader.detect(roll)
    if not first:
        raise _count_error(0, len(values))
    found = reader.detect(roll, float(np.median([max(f.w, f.h) for f in first])))
    die_px = float(np.median([max(f.w, f.h) for f in found])) if found else 0.0
    spots = [Place(s.cx, s.cy, max(s.w, s.h)) for s in reader.detect(empty, die_px or None)]
    spots = [_measured(roll, empty, s) for s in spots]
    places = [_measured(roll, empty, Place(f.cx, f.cy, max(f.w, f.h))) for f in found]
    plain = _plain_difference(roll, empty, [*places, *spots], die_px)
    dice_at = _dice_among(places, [any(s.covers(p.cx, p.cy, p.side) for s in spots) for p in places], plain)
    if len(dice_at) != len(values):
        raise _count_error(len(dice_at), len(values))
    dice_found = [found[i] for i in dice_at]
    die_px = float(np.median([max(f.w, f.h) for f in dice_found]))
    face_p, colour_p = reader.classify(roll, dice_found)
    read = [VALUES[int(p.argmax())] for p in face_p]
    if Counter(read) != Counter(str(v) for v in values):
        shown = " ".join("?" if r == "none" else r for r in sorted(read))
        raise CalibrationError(f"the dice read {shown}, you typed {' '.join(map(str, sorted(values)))}: "
                               "check the values you typed, or roll again")
    dice = sorted((CalibratedDie(int(r), COLOURS[int(c.argmax())], places[i])
                   for i, r, c in zip(dice_at, read, colour_p, strict=True)), key=lambda d: d.place.cx)
    free = [s for s in spots if not any(s.covers(d.place.cx, d.place.cy, d.place.side) for d in dice)]
    at_dice = min(d.place.difference for d in dice)
    at_empty = max((s.difference for s in free), default=plain or 0.0)
    if at_empty >= at_dice:
        raise CalibrationError("the table changed between the photos as much as under a die: keep the "
                               "camera and the light still, and take both photos again")
    cutoff = math.sqrt(at_empty * at_dice) if at_empty > 0 else at_dice / 2
    return TableCalibration(die_px, tuple(dice), tuple(spots), cutoff if spots else None, empty)


def _measured(roll: np.ndarray, empty: np.ndarray, place: Place) -> Place:
    return Place(place.cx, place.cy, place.side, difference(roll, empty, place.cx, place.cy, place.side))


def _plain_difference(roll: np.ndarray, empty: np.ndarray, avoid: list[Place], side: float) -> float | None:
    """The median difference between the photos where nothing was found in either: on a grid of places
    two die sides apart, each clear of every found place. None when there is no such place."""
    if side <= 0:
        return None
    height, width = roll.shape[:2]
    step = 2 * side
    clear = [(x, y) for y in np.arange(side, height - side, step) for x in np.arange(side, width - side, step)
             if all(math.hypot(x - p.cx, y - p.cy) > CONTEXT * max(side, p.side) for p in avoid)]
    if not clear:
        return None
    return float(np.median([difference(roll, empty, x, y, side) for x, y in clear]))


def _dice_among(places: list[Place], at_spot: list[bool], plain: float | None) -> list[int]:
    """Which found places (indices) are dice. A place away from the empty table's spots is one. Of the
    places at a spot, those whose difference lies above the widest gap (by ratio) in the chain: the plain
    table's difference, the at-spot differences rising, then the smallest difference of a sure die."""
    sure = [i for i, spot in enumerate(at_spot) if not spot]
    maybe = sorted((i for i, spot in enumerate(at_spot) if spot), key=lambda i: places[i].difference)
    if not maybe:
        return sure
    chain = [plain or 0.0, *(places[i].difference for i in maybe)]
    if sure:
        chain.append(min(places[i].difference for i in sure))
    logs = np.log(np.maximum(chain, 1e-3))
    gaps = np.diff(logs)
    if plain is None:  # no plain table to measure: the first gap (from 0) says nothing
        gaps[0] = -np.inf
    split = int(np.argmax(gaps))
    return sorted(sure + maybe[split:])
