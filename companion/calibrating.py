"""The calibration step on the page: the host has the camera take the empty table, then one roll whose
values they type, each with its colour's name if they like ("3 cream, 5 red, 1": `typed_roll`); the
companion learns the table from the two photos (`vision.calibration`).

Part of the composition root (built by `companion serve`), so it may import vision; the web part gets it
as a plain object, and the table session says who may use it (the host of the table the camera serves).
While the empty photo waits for its roll (at most `wait_s`), the tray watcher reads nothing
(`busy` pauses it), so the calibration roll is never taken for a game's roll.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from .refusals import BadCommand, NotNow
from .settings import Settings, save_atomically
from .tray import jpeg

WAIT_S = 300.0  # seconds an empty photo waits for its roll before the step is forgotten
TYPED_EXAMPLE = "3 cream, 5 red, 1"
VIEW_PX = 640  # widest camera picture (px) the page shows the host to turn it by (`TableCalibrator.view`)


def typed_roll(text: str) -> tuple[list[int], list[str | None]]:
    """A typed roll -> (the values, the colour name typed after each or None): "3 cream, 5 red, 1" ->
    ([3, 5, 1], ["cream", "red", None]). Each number 1-6 starts a die and the words after it name its
    colour. ValueError, with the sentence for the player, for anything else."""
    values: list[int] = []
    names: list[list[str]] = []
    for word in str(text).replace(",", " ").split():
        if word.isdigit() and 1 <= int(word) <= 6:
            values.append(int(word))
            names.append([])
        elif any(c.isdigit() for c in word) or not values:
            raise ValueError(f"type the number (1 to 6) on top of each die, each with its colour if you "
                             f"like, e.g. \"{TYPED_EXAMPLE}\": got {text!r}")
        else:
            names[-1].append(word)
    if not values:
        raise ValueError(f"type the number (1 to 6) on top of each die, e.g. \"{TYPED_EXAMPLE}\"")
    return values, [" ".join(n) or None for n in names]


class PhotoLabel(NamedTuple):
    """What the page writes over one die of a roll photo: the die's box (x1, y1, x2, y2 px in the photo),
    the words ("cream 3"; "cream 3?" where the reader was unsure) and whether the reader was unsure of it,
    said apart so that the page need not tell it from the words."""

    box: tuple[int, int, int, int]
    text: str
    unsure: bool = False


@dataclass(frozen=True)
class RollPhoto:
    """The calibration roll as the camera took it, for the host to check which die took which name: a
    JPEG with each die's box drawn, its address (`id`, new with each calibration, so no phone shows an
    older one from its cache) and the labels the page writes over the boxes."""

    id: str
    jpeg: bytes
    labels: tuple[PhotoLabel, ...]


def roll_labels(frame: np.ndarray, table: Any) -> tuple[PhotoLabel, ...]:
    """Each die of a calibration (`vision.calibration.TableCalibration`) learned from `frame`: its box and
    its name and value ("cream 3"); each as typed, so none is unsure."""
    return tuple(PhotoLabel(die.place.box(frame.shape), f"{die.colour} {die.value}") for die in table.dice)


def boxed_roll(frame: np.ndarray, table: Any, words: bool = False,
               labels: tuple[PhotoLabel, ...] | None = None) -> np.ndarray:
    """The calibration roll with each die's box drawn, and with `words` its name and value over it (for the
    command line, where no page writes them); `labels`: its `roll_labels`, where already made."""
    from vision.drawing import annotate

    labels = roll_labels(frame, table) if labels is None else labels
    return annotate(frame, [{"value": die.value, "box": label.box, "confidence": 1.0}
                            for die, label in zip(table.dice, labels, strict=True)],
                    labels=words, words=[label.text for label in labels])


def roll_photo(frame: np.ndarray, table: Any) -> RollPhoto | None:
    """The roll photo of a calibration (`vision.calibration.TableCalibration`) learned from `frame`."""
    labels = roll_labels(frame, table)
    return _photo(boxed_roll(frame, table, labels=labels), labels)


def refused_label(die: Any, certain: float) -> PhotoLabel:
    """One die a refused calibration roll counted: its box and what it read ("red 5"; "red 5?", and unsure,
    where less sure than `certain`, the table's confidence threshold)."""
    unsure = die.confidence < certain
    return PhotoLabel(die.box, f"{die.colour} {die.value}" + ("?" if unsure else ""), unsure)


def refused_labels(dice: Any, certain: float) -> tuple[PhotoLabel, ...]:
    """Each die a refused calibration roll counted (`CalibrationError.dice`), as `refused_label`."""
    return tuple(refused_label(die, certain) for die in dice)


def boxed_refusal(frame: np.ndarray, dice: Any, certain: float, words: bool = False,
                  labels: tuple[PhotoLabel, ...] | None = None) -> np.ndarray:
    """A refused calibration roll with each die it counted boxed, and with `words` what it read over each
    (for the command line, where no page writes them); `labels`: its `refused_labels`, where already made."""
    from vision.drawing import annotate

    labels = refused_labels(dice, certain) if labels is None else labels
    return annotate(frame, dice, labels=words, words=[label.text for label in labels])


def refused_photo(frame: np.ndarray, dice: Any, certain: float = Settings.confidence_threshold
                  ) -> RollPhoto | None:
    """A roll the calibration refused, with each die it counted boxed and read (`refused_labels`): the host
    sees which die the camera missed, or read otherwise, or found where there is none."""
    labels = refused_labels(dice, certain)
    return _photo(boxed_refusal(frame, dice, certain, labels=labels), labels)


def _photo(boxed: np.ndarray, labels: tuple[PhotoLabel, ...]) -> RollPhoto | None:
    data = jpeg(boxed)
    return None if data is None else RollPhoto(secrets.token_urlsafe(9), data, labels)


class TableCalibrator:
    """The two steps and what was learned.

    photo: the camera's newest frame (BGR), None when it sends none.
    reader: the learned reader, or a sentence saying why there is none to calibrate for.
    folder: where the calibration is saved (DATA/table).
    learned: called with the new calibration once it is saved (serve reads with it from then on).
    certain: the table's confidence threshold (a refused roll's photo marks the dice read less surely).
    turn: the camera's picture's turn (`companion.camera_turn.CameraTurn`), which the host may change before
    the empty photo; None where serve gives none.
    """

    def __init__(self, photo: Callable[[], np.ndarray | None], reader: Callable[[], Any], folder: Path,
                 learned: Callable[[Any], None] = lambda table: None, wait_s: float = WAIT_S,
                 clock: Callable[[], float] = time.monotonic,
                 certain: float = Settings.confidence_threshold, turn: Any = None) -> None:
        self.photo, self.reader, self.folder, self.learned = photo, reader, Path(folder), learned
        self.wait_s, self.clock, self.certain, self.turn = wait_s, clock, certain, turn
        self.table: Any = None  # the calibration the camera reads with (serve sets the saved one at start)
        self.photo_of_roll: RollPhoto | None = None  # the roll this step learned `table` from
        self.photo_refused: RollPhoto | None = None  # the last roll refused since the empty photo
        self._empty: np.ndarray | None = None
        self._taken_at = 0.0
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """True while an empty photo waits for its roll (and not longer than wait_s)."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> bool:
        if self._empty is not None and self.clock() - self._taken_at > self.wait_s:
            self._empty = None
        return self._empty is not None

    def _learned_reader(self):
        reader = self.reader()
        if isinstance(reader, str):
            raise NotNow(reader)
        return reader

    def _frame(self) -> np.ndarray:
        frame = self.photo()
        if frame is None:
            raise NotNow("the camera sends no pictures: check it, then try again")
        return frame

    def take_empty(self) -> str:
        """Step 1: the photo of the empty table."""
        self._learned_reader()
        frame = self._frame()
        with self._lock:
            self._empty, self._taken_at = frame.copy(), self.clock()
        self.photo_refused = None
        return "The empty table is taken: now roll one die of each set into the tray and type their values"

    def take_roll(self, values: Any, names: Any = None) -> str:
        """Step 2: the photo of the roll and its typed values: a list of numbers 1-6 (and `names`, a list of
        colour names or None beside them), or the text a player types (`typed_roll`); learns and saves."""
        from vision.calibration import CalibrationError, learn_table

        if isinstance(values, str):
            if names is not None:
                raise BadCommand('typed values name their colours themselves: send no "names" with them')
            try:
                values, names = typed_roll(values)
            except ValueError as err:
                raise BadCommand(str(err)) from None
        if not isinstance(values, list) or not values or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values):
            raise BadCommand('"values" must list the number (1 to 6) on top of each die, e.g. [3, 5, 1]')
        if names is not None and (not isinstance(names, list) or len(names) != len(values) or not all(
                n is None or isinstance(n, str) for n in names)):
            raise BadCommand('"names" must list a colour name (or null) for each value, e.g. ["cream", null]')
        reader = self._learned_reader()
        with self._lock:
            if not self._waiting():
                raise NotNow("take the photo of the empty table first")
            empty = self._empty
        frame = self._frame()
        try:
            table = learn_table(reader, empty, frame, values, names)
        except CalibrationError as err:
            self.photo_refused = refused_photo(frame, err.dice, self.certain)
            raise BadCommand(str(err)) from None
        table.save(self.folder, save_atomically)
        with self._lock:
            self._empty = None
        self.table, self.photo_of_roll, self.photo_refused = table, roll_photo(frame, table), None
        self.learned(table)
        return f"Calibrated: {table.describe()}"

    def turn_picture(self) -> str:
        """Turn the camera's picture a quarter clockwise (the players' edge of the table belongs at its
        bottom), and the calibration with it (its empty photo and places), saved; not while an empty photo
        waits for its roll, which was taken the other way round."""
        if self.turn is None:
            raise NotNow("this camera's picture cannot be turned from the page: set rotation in the config")
        if self.busy:
            raise NotNow("the empty table's photo waits for its roll: cancel, then turn the picture")
        degrees = self.turn.quarter()
        if self.table is None:
            return f"The camera's picture is turned {degrees} degrees."
        table = self.table.turned_clockwise(1)  # the empty table and its dice's places, turned with it
        try:
            table.save(self.folder, save_atomically)
        except OSError as err:
            return (f"The camera's picture is turned {degrees} degrees, but the calibration could not be "
                    f"turned with it ({err}): calibrate again.")
        self.table = table
        self.learned(table)
        return f"The camera's picture is turned {degrees} degrees, and the calibration with it."

    def view(self) -> bytes:
        """The camera's picture now, a JPEG at most VIEW_PX wide, for the host to see which way up it is."""
        frame = self._frame()
        scale = min(1.0, VIEW_PX / frame.shape[1])
        if scale < 1:
            frame = cv2.resize(frame, (VIEW_PX, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        data = jpeg(frame)
        if data is None:
            raise NotNow("the camera's picture could not be made a JPEG: try again")
        return data

    def cancel(self) -> str:
        with self._lock:
            self._empty = None
        self.photo_refused = None
        return "Calibration cancelled: the camera reads the game's rolls again"

    def state(self) -> dict[str, Any]:
        """For the page: the step due ("empty" or "roll"), what the last calibration learned, the colour
        names the camera gives dice: the calibration's (`calibrated`), or without one the learned reader's own
        (the page warns when the game asks for a colour that is not among them), and the roll this step
        learned from (`photo`: its address and each die's box and words; None before a calibration here),
        the camera's picture's turn (`rotation`, degrees clockwise; None where the page cannot turn it),
        and while the roll is due, the last one refused with what the camera read in it (`refused`, alike)."""
        from vision.learned import COLOURS

        known, step = self.table, "roll" if self.busy else "empty"
        return {"step": step,
                "learned": None if known is None else known.describe(),
                "names": list(COLOURS) if known is None else list(known.colours),
                "calibrated": known is not None,
                "rotation": None if self.turn is None else self.turn.degrees,
                "photo": _shown(self.photo_of_roll),
                "refused": _shown(self.photo_refused) if step == "roll" else None}

    def photo_at(self, photo_id: str) -> RollPhoto | None:
        """The roll photo (learned from, or refused) at this address, None when it is gone."""
        for photo in (self.photo_of_roll, self.photo_refused):
            if photo is not None and photo.id == photo_id:
                return photo
        return None


def _shown(photo: RollPhoto | None) -> dict[str, Any] | None:
    """A roll photo as the page gets it: its address and each die's box, words and whether it is unsure."""
    return None if photo is None else {
        "id": photo.id, "dice": [{"box": list(label.box), "text": label.text, "unsure": label.unsure}
                                 for label in photo.labels]}
