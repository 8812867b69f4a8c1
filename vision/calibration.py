"""A table's calibration: what it knows, how it is learned from two photos, saved and loaded.

    from vision.calibration import learn_table, load_table
    table = learn_table(reader, empty_photo, roll_photo, [3, 5, 1])  # CalibrationError when it cannot
    table.save(data_dir / "table", save_atomically)   # a durable write(path, bytes)
    table = load_table(data_dir / "table")  # None, with the reason logged, when missing or damaged
    dice = reader.read(frame, table=table)

Both photos come from the table's own camera: the empty table, then one roll of the game's dice with
their values typed by the player. From them it learns
- `die_px`: the d6's top-face side in px, the median of the found dice's box sides; the learned
  reader's working scale follows it;
- `work_px`: their side at the scale the roll read as typed: the reader's own (`working_scale`) when
  it does, otherwise the first of looks closer each, then farther each, that does
  (`roll_scales`: dice read less well than they could at the reader's own scale on some tables);
  later frames are looked at there;
- each die's body colour (`dice`): its name, the one the player typed with its value or else the one the
  reader gives, and the reader's colour probabilities for it (`signature`). Later dice are named after
  the calibration die whose signature is nearest (`TableCalibration.name_of`): the table's dice are the
  sets of its roll, so a cream die the reader takes for white stays "cream", and the player's own
  names ("ivory", or "yellow" for the die Dice Devils calls yellow) are the ones the games see;
- each die's kind (`kind`: a d6, or Dice Devils' small grey die, as the reader judges it beside the
  roll's d6s): a table whose roll held no grey die never reads a later die as one;
- the empty table: `spots`, where the detector finds "dice" on the empty photo (specks, printed dots,
  the tray's edge), or on the roll photo where it looks just like the empty one, and `empty_cutoff`.
  A die found at a spot is dropped when the frame there still looks like the empty photo: the
  difference of the two looks (`difference`, grey levels 0..255) is below the cut-off. The cut-off
  is learned from the roll photo: the geometric mean of the smallest difference at a typed die and
  the largest at a spot the dice left free (clear of every die by CONTEXT box sides, so that its look
  takes in no die; or, with no free spot, the largest on the plain table;
  half the smallest die's difference where that is nothing at all).
A calibration applies to frames of its photos' size; the die size is scaled to frames of another
size, and the empty-table check is skipped there (the camera's view has changed).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.die import Die
from vision.errors import VisionError
from vision.images import turned
from vision.learned import (
    COLOURS,
    CONTEXT,
    VALUES,
    Found,
    confidence,
    face_value,
    frame_box,
)

if TYPE_CHECKING:
    from vision.learned import LearnedReader

log = logging.getLogger(__name__)

JSON_NAME = "calibration.json"
PHOTO_STEM = "empty"  # the empty table's photo: empty-<its hash>.png
VERSION = 1
LOOK_PX = 24  # crops are compared at this side, px: enough to see a die's edges and pips
NAME_CHARS = 24  # the longest colour name a player may type, characters
ORDERED = 6  # dice showing one value whose typed names are put in the likeliest order: 720 orders at most


class CalibrationError(VisionError, ValueError):
    """Two calibration photos and typed values that cannot be learned from; the message says why, and `dice`
    holds the dice the roll photo showed, as the reader read them, where it was read (for the player to
    see which die the camera missed, found where there is none, or read otherwise)."""

    def __init__(self, message: str, dice: Sequence[Die] = ()) -> None:
        super().__init__(message)
        self.dice = tuple(dice)


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

    def box(self, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """Its box (x1, y1, x2, y2 px) in a frame of `shape`, kept inside it, as the reader boxes dice."""
        return frame_box(self.cx, self.cy, self.side, self.side, shape)


@dataclass(frozen=True)
class CalibratedDie:
    """A die of the calibration roll: its typed value, body colour's name (the player's, or the reader's
    `read_as`) and place; `signature`: the reader's probabilities of its body colour (one per COLOURS),
    None in calibrations saved before they were kept."""

    value: int
    colour: str
    place: Place
    read_as: str = ""  # the colour the reader named it (one of COLOURS); "" where that is `colour`
    signature: tuple[float, ...] | None = None
    kind: str | None = None  # "d6" or "grey" (the small grey die); None in calibrations saved before kinds

    @property
    def reader_colour(self) -> str:
        """The colour the reader named it (one of COLOURS, or a name of an old calibration)."""
        return self.read_as or self.colour


@dataclass(frozen=True)
class TableCalibration:
    """What the table's calibration knows (see the module's docstring); `empty` is the BGR empty photo."""

    die_px: float
    dice: tuple[CalibratedDie, ...]
    spots: tuple[Place, ...]
    empty_cutoff: float | None
    empty: np.ndarray
    work_px: float | None = None  # the dice's side (px) where the roll read as typed (None: the reader's)

    @property
    def colours(self) -> list[str]:
        """The roll's body colours' names, left to right: ["red", "red", "cream"]."""
        return [d.colour for d in self.dice]

    @property
    def may_hold_grey(self) -> bool:
        """Whether the table's dice may include the small grey die: its roll held one (or its kinds were
        not kept). A table whose game has none never reads a white die as one."""
        return any(d.kind in (None, "grey") for d in self.dice)

    def roll_colours(self, colour_p: np.ndarray) -> np.ndarray:
        """A die's colour probabilities (one per COLOURS) among the colours the reader named the roll's
        dice only, summing to 1: the table's dice come in those."""
        shown = np.isin(COLOURS, [d.reader_colour for d in self.dice])
        if not shown.any():
            return colour_p
        kept = np.where(shown, colour_p, 0.0)
        return kept / max(float(kept.sum()), 1e-9)

    def name_of(self, colour_p: np.ndarray) -> str | None:
        """The name of a die's body colour, from the reader's probabilities for it (one per COLOURS): that
        of the calibration die whose signature is nearest (Hellinger distance, the distance of two
        distributions); None when the calibration keeps no signatures."""
        known = [d for d in self.dice if d.signature is not None]
        if not known:
            return None
        root = np.sqrt(np.clip(colour_p, 0.0, None))
        distances = [float(np.sum((root - np.sqrt(d.signature)) ** 2)) for d in known]
        return known[int(np.argmin(distances))].colour

    def die_px_for(self, frame: np.ndarray) -> float:
        """The d6's face side (px) in this frame: the calibrated one, scaled when the frame's size differs."""
        return self.die_px * max(frame.shape[:2]) / max(self.empty.shape[:2])

    def turned_clockwise(self, quarters: int) -> TableCalibration:
        """The same calibration for the camera's picture turned `quarters` quarter turns more clockwise
        (the host turned it on the page): the empty photo turned, and every place with it."""
        k = quarters % 4
        height, width = self.empty.shape[:2]

        def place(p: Place) -> Place:
            x, y, h, w = p.cx, p.cy, height, width
            for _ in range(k):  # a quarter clockwise: (x, y) goes to (h - y, x), and width and height swap
                x, y, h, w = h - y, x, w, h
            return replace(p, cx=x, cy=y)

        return replace(self, empty=turned(self.empty, -k), spots=tuple(place(s) for s in self.spots),
                       dice=tuple(replace(d, place=place(d.place)) for d in self.dice))

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
        colours = ", ".join(f"{d.colour} {d.value}" + (" (the small grey die)" if d.kind == "grey" else "")
                            for d in self.dice)
        spots = len(self.spots)
        alike = "looks like a die" if spots == 1 else "look like dice"
        empty = (f"{spots} place{'s' if spots != 1 else ''} on the empty table that {alike} "
                 "will not be read as dice" if spots else "nothing on the empty table looks like a die")
        return f"a die is {self.die_px:.0f} px across; the dice: {colours}; {empty}"

    def save(self, folder: Path, write: Callable[[Path, bytes], None]) -> None:
        """Write DATA/table/calibration.json and the empty table's photo with `write(path, data)`, the
        caller's durable write (companion's `save_atomically`: each file whole or not at all). The photo
        is named by its content's hash and the JSON, written last, names it, so a power cut between the
        two leaves the old calibration whole; photos no calibration names any more are then removed."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        ok, png = cv2.imencode(".png", self.empty)
        if not ok:
            raise OSError("could not encode the empty table's photo as PNG")
        data = png.tobytes()
        photo = f"{PHOTO_STEM}-{hashlib.sha256(data).hexdigest()[:12]}.png"
        height, width = self.empty.shape[:2]
        record = {
            "version": VERSION,
            "frame": [width, height],
            "die_px": round(self.die_px, 2),
            "work_px": None if self.work_px is None else round(self.work_px, 2),
            "dice": [_die_json(d) for d in self.dice],
            "spots": [_place_json(s) for s in self.spots],
            "empty_cutoff": None if self.empty_cutoff is None else round(self.empty_cutoff, 3),
            "empty_photo": photo,
        }
        write(folder / photo, data)
        write(folder / JSON_NAME, (json.dumps(record, indent=1) + "\n").encode())
        for old in folder.glob(f"{PHOTO_STEM}*.png"):
            if old.name != photo:
                old.unlink(missing_ok=True)


def _die_json(die: CalibratedDie) -> dict:
    record = {"value": die.value, "colour": die.colour, **_place_json(die.place)}
    if die.kind is not None:
        record["kind"] = die.kind
    if die.read_as:
        record["read_as"] = die.read_as
    if die.signature is not None:
        record["signature"] = [round(p, 4) for p in die.signature]
    return record


def _die(record: dict) -> CalibratedDie:
    """A calibration die from its JSON; `read_as`, `signature` and `kind` are absent before 2026-11-30."""
    signature = record.get("signature")
    if signature is not None:
        signature = tuple(float(p) for p in signature)
        if len(signature) != len(COLOURS) or not all(math.isfinite(p) and p >= 0 for p in signature):
            raise ValueError(f"a die's colour signature is not one probability per colour: {signature!r}")
    read_as = str(record.get("read_as", ""))
    if read_as and read_as not in COLOURS:
        raise ValueError(f"a die read as {read_as!r}, which is no colour the reader names")
    kind = record.get("kind")
    if kind not in (None, "d6", "grey"):
        raise ValueError(f"a die of kind {kind!r}: the calibration knows d6 and grey")
    colour = colour_name(str(record["colour"]))  # CalibrationError (a ValueError) for a name no page shows
    if colour is None:
        raise ValueError("a die of the calibration has no colour name")
    return CalibratedDie(int(record["value"]), colour, _place(record), read_as, signature, kind)


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
        name = str(record["empty_photo"])
        if Path(name).name != name:
            raise ValueError(f"the empty table's photo {name!r} is not a file in {folder}")
        photo = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        if photo is None:
            raise ValueError(f"the empty table's photo {name!r} is missing or not an image")
        if [photo.shape[1], photo.shape[0]] != list(record["frame"]):
            raise ValueError(f"the empty photo is {photo.shape[1]}x{photo.shape[0]} px, "
                             f"the calibration says {record['frame']}")
        die_px = _side(record["die_px"], "die_px")
        work_px = record.get("work_px")  # none in calibrations saved before 2026-11-30
        work_px = None if work_px is None else _side(work_px, "work_px")
        cutoff = None if record["empty_cutoff"] is None else float(record["empty_cutoff"])
        if cutoff is not None and not (math.isfinite(cutoff) and cutoff >= 0):
            raise ValueError(f"empty_cutoff {record['empty_cutoff']!r} is no difference")
        dice = tuple(_die(d) for d in record["dice"])
        spots = tuple(_place(s) for s in record["spots"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as err:
        log.warning("the table calibration in %s is damaged (%s): reading without it; "
                    "run 'companion calibrate table' again", folder, err)
        return None
    return TableCalibration(die_px, dice, spots, cutoff, photo, work_px)


def _side(value: object, key: str) -> float:
    """A side in px read from the calibration's JSON under `key`: a finite number above 0 (ValueError)."""
    side = float(value)
    if not math.isfinite(side) or side <= 0:
        raise ValueError(f"{key} {value!r} is no size")
    return side


def difference(frame: np.ndarray, empty: np.ndarray, cx: float, cy: float, side: float) -> float:
    """How unlike the empty photo the frame looks round (cx, cy): the mean absolute difference (grey
    levels 0..255, over pixels and colours) of the two photos' pixels on a LOOK_PX x LOOK_PX grid across
    CONTEXT x `side` px, each look's mean colour taken away first so a change of the light alone counts
    for little. The pixels are taken as they are (not averaged), so the camera's noise weighs the same
    in a small look and a large one."""
    a, b = (_look(image, cx, cy, CONTEXT * side) for image in (frame, empty))
    a -= a.mean(axis=(0, 1))
    b -= b.mean(axis=(0, 1))
    return float(np.abs(a - b).mean())


def _look(image: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """The image's pixels (float) at LOOK_PX x LOOK_PX points across the square of `side` px round (cx, cy),
    the nearest pixel to each; points off the image take its edge."""
    height, width = image.shape[:2]
    steps = (np.arange(LOOK_PX) + 0.5) / LOOK_PX - 0.5
    xs = np.clip(np.floor(cx + steps * side).astype(int), 0, width - 1)
    ys = np.clip(np.floor(cy + steps * side).astype(int), 0, height - 1)
    return image[np.ix_(ys, xs)].astype(np.float32)


def _count_error(found: int, typed: int, dice: Sequence[Die] = ()) -> CalibrationError:
    hint = ("roll them again where the camera sees them all" if found < typed else
            "clear everything else off the table, or take the empty photo again")
    return CalibrationError(f"found {found} {'die' if found == 1 else 'dice'}, you typed {typed} "
                            f"value{'s' if typed != 1 else ''}: {hint}", dice)


def learn_table(reader: LearnedReader, empty: np.ndarray, roll: np.ndarray,
                values: Sequence[int], names: Sequence[str | None] | None = None) -> TableCalibration:
    """Learn the table from a photo of it empty and one of a roll whose `values` (1-6) the player typed,
    with the name of each die's colour where they typed one (`names`, beside the values; None or "": the
    reader's name). A name goes to the die showing its value; where several dice show it, as `_named`
    shares them out.

    Of what the reader finds in the roll photo, the places that differ from the empty photo about as
    little as the plain table does (below the widest gap, see `_unlike_the_empty_table`) are the empty
    table, not dice: they join the spots. The others are the roll's dice. Both photos are looked at the
    scale the reader would read the roll at, and where the roll does not read as typed there, at
    closer ones, then farther ones (`roll_scales`), until it does. Where it reads as typed at none, the
    dice the reader is unsure of (below its sure bar, which the table would ask the player about) show the
    typed values (`as_typed`), at the first of those scales where the dice it is sure of read as typed.
    Raises CalibrationError with a sentence for the player when the photos differ in size, when there
    are more or fewer dice than values were typed, when a die the reader is sure of reads otherwise than
    typed, or when the empty table changed between the photos as much as under a die (at every scale:
    the sentence is that of the reader's own scale)."""
    values = [int(v) for v in values]
    if not values or any(not 1 <= v <= 6 for v in values):
        raise CalibrationError("type the value (1 to 6) on top of each die, e.g. 3 5 1")
    names = [None] * len(values) if names is None else [colour_name(n) for n in names]
    if len(names) != len(values):
        raise CalibrationError(f"{len(names)} colour names for {len(values)} values: type each name "
                               "after its value, e.g. 3 cream, 5 red")
    if empty.shape != roll.shape:
        raise CalibrationError(f"the empty photo is {empty.shape[1]}x{empty.shape[0]} px and the roll "
                               f"{roll.shape[1]}x{roll.shape[0]}: take both with the same camera")
    own, first = reader.scaled_detect(roll)  # as the reader reads the roll by itself
    if not first:
        raise _count_error(0, len(values))
    refused, looks = None, []
    for scale, found in reader.looks_round(roll, own, first):
        looks.append((scale, found))
        try:
            return _named(_learn_at(reader, empty, roll, values, names, scale, found, 0.0), values, names)
        except CalibrationError as err:
            refused = refused or err  # the sentence of the reader's own scale
    if reader.sure is not None:  # read as typed at no scale: the dice it is unsure of show the typed values
        for scale, found in looks:
            try:
                return _named(_learn_at(reader, empty, roll, values, names, scale, found, reader.sure),
                              values, names)
            except CalibrationError:
                pass
    raise refused


def _learn_at(reader: LearnedReader, empty: np.ndarray, roll: np.ndarray, values: list[int],
              names: list[str | None], scale: float, found: list[Found], bar: float = 0.0
              ) -> TableCalibration:
    """`learn_table` with both photos looked at `scale` (see there); `found`: what the roll shows there;
    `bar`: the dice read less probably than this show the typed values (`as_typed`)."""
    face_p, colour_p, sides = reader.classify(roll, found)
    read = [VALUES[int(p.argmax())] for p in face_p]
    kept = [i for i, r in enumerate(read) if r != "none"]  # what the reader would report as dice
    die_px = float(np.median([max(found[i].w, found[i].h) for i in kept])) if kept else 0.0
    spots = [_measured(roll, empty, Place(s.cx, s.cy, max(s.w, s.h))) for s in reader.detect_at(empty, scale)]
    places = {i: _measured(roll, empty, Place(found[i].cx, found[i].cy, max(found[i].w, found[i].h)))
              for i in kept}
    clear = _clear_places(roll.shape, [*places.values(), *spots], die_px)
    plain = max((difference(roll, empty, x, y, die_px) for x, y in clear), default=0.0)
    unlike = _unlike_the_empty_table(places, plain)  # the dice
    spots += [p for i, p in places.items() if i not in unlike
              and not any(s.covers(p.cx, p.cy, p.side) for s in spots)]  # found again in the roll photo

    def seen() -> list[Die]:  # the roll's dice as the reader read them, for the player to check a refusal by
        return [Die(*face_value(read[i]), COLOURS[int(colour_p[i].argmax())],
                    frame_box(found[i].cx, found[i].cy, found[i].w, found[i].h, roll.shape),
                    confidence(float(face_p[i].max()), reader.sure)) for i in sorted(unlike)]

    if len(unlike) != len(values):
        raise _count_error(len(unlike), len(values), seen())
    typed = as_typed(face_p, colour_p, unlike, list(zip(values, names, strict=True)), bar)
    if typed is None:
        shown = " ".join(sorted(read[i] for i in unlike))
        raise CalibrationError(f"the dice read {shown}, you typed {' '.join(map(str, sorted(values)))}: "
                               "check the values you typed, or roll again", seen())
    faces = [(replace(found[i], side=float(sides[i])), str(typed[i]), colour_p[i], 1.0) for i in unlike]
    dice = sorted((CalibratedDie(typed[i], COLOURS[int(colour_p[i].argmax())], places[i],
                                 signature=tuple(float(p) for p in colour_p[i]),
                                 kind=reader.kind_of(faces, k)[0])
                   for k, i in enumerate(unlike)),
                  key=lambda d: d.place.cx)
    die_px = float(np.median([d.place.side for d in dice]))
    free = [s for s in spots if _clear_of(s.cx, s.cy, s.side, [d.place for d in dice])]
    at_dice = min(d.place.difference for d in dice)
    at_empty = max((s.difference for s in free), default=plain)
    if at_empty >= at_dice:
        raise CalibrationError("the table changed between the photos as much as under a die: keep the "
                               "camera and the light still, and take both photos again")
    cutoff = math.sqrt(at_empty * at_dice) if at_empty > 0 else at_dice / 2
    return TableCalibration(die_px, tuple(dice), tuple(spots), cutoff if spots else None, empty,
                            die_px * scale)


def as_typed(face_p: np.ndarray, colour_p: np.ndarray, dice: Sequence[int],
             typed: Sequence[tuple[int, str | None]], bar: float) -> dict[int, int] | None:
    """The value each of the roll's dice (indices into the reader's face and colour probabilities) shows, as
    the player typed them (`typed`: value and colour name, or None): a die read at least as probably as
    `bar` shows the value it reads, as the table would take it; the dice read less surely, which the table
    would ask the player about, share out the other typed values in the order their probabilities find
    likeliest (of each value's face, and of each name's colour where the reader knows it; every order for
    up to ORDERED of them). None when a die read at the bar or above shows no value left typed, or more
    than ORDERED dice are read below it. At a bar of 0 every die must read as typed."""
    def likelihood(i: int, entry: tuple[int, str | None]) -> float:
        return _log_p(face_p[i][VALUES.index(str(entry[0]))]) + _named_log_p(colour_p[i], entry[1])

    left = list(typed)
    shown: dict[int, int] = {}
    for i in dice:
        if face_p[i].max() < bar:
            continue
        read = VALUES[int(face_p[i].argmax())]
        showing = [entry for entry in left if str(entry[0]) == read]
        if not showing:
            return None
        left.remove(max(showing, key=lambda entry: likelihood(i, entry)))
        shown[i] = int(read)
    unsure = [i for i in dice if i not in shown]
    if len(unsure) > ORDERED:
        return None
    order = max(itertools.permutations(left), default=(),
                key=lambda order: sum(likelihood(i, e) for i, e in zip(unsure, order, strict=True)))
    return {**shown, **{i: value for i, (value, _) in zip(unsure, order, strict=True)}}


def _log_p(p: float) -> float:
    """A probability's log, floored so that no order of dice is ruled out by one zero."""
    return math.log(max(float(p), 1e-9))


def _named_log_p(colour_p: Sequence[float], name: str | None) -> float:
    """The log of the reader's probability that a die with these colour probabilities is the colour typed;
    0.0 for a name it does not know (or none), which weighs nothing."""
    return _log_p(colour_p[COLOURS.index(name)]) if name in COLOURS else 0.0


def colour_name(typed: str | None) -> str | None:
    """A typed colour name as the games compare it: trimmed, lower case, one space between words; None for
    nothing typed. CalibrationError for a name no page could show plainly (too long, or not letters)."""
    if typed is None:
        return None
    name = " ".join(str(typed).lower().split())
    if not name:
        return None
    if len(name) > NAME_CHARS or not all(c.isalpha() or c in " -'" for c in name):
        raise CalibrationError(f"a colour name is a word or two of letters, at most {NAME_CHARS} characters: "
                               f"got {typed!r}")
    return name


def _named(table: TableCalibration, values: list[int], names: list[str | None]) -> TableCalibration:
    """The calibration with the player's typed names on its dice (the reader's name stays where none was
    typed): the names typed with a value go to the dice showing it; where several dice show it, each name
    of a colour the reader knows to the die it finds likeliest that colour (`_likeliest`), the others left
    to right (the dice are in that order)."""
    typed: dict[int, list[str | None]] = {}
    for value, name in zip(values, names, strict=True):
        typed.setdefault(value, []).append(name)
    given: dict[int, str | None] = {}
    for value, group in typed.items():
        showing = [i for i, d in enumerate(table.dice) if d.value == value]
        given.update(zip(showing, _likeliest([table.dice[i] for i in showing], group), strict=True))
    dice = [die if given[i] is None else replace(die, colour=given[i], read_as=die.colour)
            for i, die in enumerate(table.dice)]
    return replace(table, dice=tuple(dice))


def _likeliest(dice: list[CalibratedDie], names: list[str | None]) -> tuple[str | None, ...]:
    """The names in the order of the dice that makes the reader's colour probabilities of the named dice
    likeliest (names it does not know weigh nothing); of orders alike, the typed one. Every order is tried
    for up to ORDERED dice showing one value; more keep the typed order."""
    def likelihood(order: tuple[str | None, ...]) -> float:
        return sum(_named_log_p(d.signature, n) for d, n in zip(dice, order, strict=True)
                   if d.signature is not None)

    best, most = tuple(names), likelihood(tuple(names))
    if len(names) > ORDERED:
        return best
    for order in itertools.permutations(names):
        if (score := likelihood(order)) > most:
            best, most = order, score
    return best


def _unlike_the_empty_table(places: dict[int, Place], plain: float) -> list[int]:
    """Which places (keys) are dice: those above the widest gap (by ratio) in the chain of the plain
    table's largest difference and the places' differences, rising. Below it, the roll photo looks like
    the empty one: a speck or a printed dot, found again."""
    order = sorted(places, key=lambda i: places[i].difference)
    chain = [plain, *(places[i].difference for i in order)]
    split = int(np.argmax(np.diff(np.log(np.maximum(chain, 1e-3))))) if order else 0
    return sorted(order[split:])


def _measured(roll: np.ndarray, empty: np.ndarray, place: Place) -> Place:
    return Place(place.cx, place.cy, place.side, difference(roll, empty, place.cx, place.cy, place.side))


def _clear_places(shape: tuple[int, ...], avoid: list[Place], side: float) -> list[tuple[float, float]]:
    """The plain table: a grid of places two die sides apart, each clear of every found place by CONTEXT
    box sides (px in the frame)."""
    if side <= 0:
        return []
    height, width = shape[:2]
    step = 2 * side
    return [(float(x), float(y)) for y in np.arange(side, height - side, step)
            for x in np.arange(side, width - side, step)
            if _clear_of(x, y, side, avoid)]


def _clear_of(cx: float, cy: float, side: float, places: list[Place]) -> bool:
    """True when a box of `side` px centred at (cx, cy) is clear of every place by CONTEXT box sides, so
    that a look at it (`difference`) sees none of them."""
    return all(math.hypot(cx - p.cx, cy - p.cy) > CONTEXT * max(side, p.side) for p in places)
