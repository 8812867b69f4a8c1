"""Which dice reader reads the frames: the learned one, with the table's calibration, or the rules.

    from vision.readers import open_reader
    reader = open_reader("learned", data_dir)  # the rules when the learned models are not in vision/data/
    print(reader.name)                          # "learned, calibrated", "learned", "rules", ...
    dice = reader.read(frame)                   # list of vision.die.Die
    dice = reader.read(frame, {"d6"}, ("red", "yellow"))  # d6s alone may lie there, red or yellow
    dice = reader.read(frame, {"d6"}, ("red", "yellow"), 2)  # and the roll holds two of them

"learned" is `vision.learned.LearnedReader` with the calibration in DATA/table/ when there is one
(`vision.calibration`); "rules" is the rule-tuned `vision.dice.read_dice`, with the Treehouse faces.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.calibration import TableCalibration
    from vision.die import Die

log = logging.getLogger(__name__)

READERS = ("learned", "rules")


@dataclass(frozen=True)
class DiceReader:
    """A chosen reader: its name for logs and status, how it reads a BGR frame (and the kinds of dice that
    may lie there, None for any, the colour names the game's sets go by, and how many dice the roll holds,
    None when unknown: `LearnedReader.read`'s `kinds`, `colours` and `count`; the rules take no notice), and
    the calibration."""

    name: str
    read: Callable[[np.ndarray, Collection[str] | None, Sequence[str], int | None], list[Die]]
    table: TableCalibration | None = None


def open_reader(choice: str = "learned", data: Path | None = None, treehouse=None) -> DiceReader:
    """The reader `choice` names ("learned" or "rules"); `data`: the data folder holding the table's
    calibration (DATA/table/); `treehouse`: the Treehouse faces for the rules. "learned" falls back to
    the rules, saying why in its name, when its models are missing or cannot be loaded."""
    if choice not in READERS:
        raise ValueError(f"unknown dice reader {choice!r}: use {' or '.join(READERS)}")
    why = ""
    if choice == "learned":
        from vision.learned import LearnedReader

        if LearnedReader.available():
            try:
                learned = LearnedReader.default()
            except Exception as err:  # a damaged model file (ONNX Runtime raises its own errors): go on
                log.warning("the learned dice reader could not be loaded (%s): reading with the rules", err)
                why = " (the learned reader's models could not be loaded)"
            else:
                return _learned(learned, data)
        else:
            why = " (the learned reader's models are not in vision/data/)"
    from vision.dice import read_dice

    def read_by_rules(frame: np.ndarray, kinds=None, colours=(), count=None) -> list[Die]:  # no notice taken
        return read_dice(frame, treehouse=treehouse)

    return DiceReader("rules" + why, read_by_rules)


def _learned(learned, data: Path | None) -> DiceReader:
    from vision.calibration import load_table

    table = load_table(Path(data) / "table") if data is not None else None

    def read(frame: np.ndarray, kinds: Collection[str] | None = None, colours: Sequence[str] = (),
             count: int | None = None) -> list[Die]:
        return learned.read(frame, table=table, kinds=kinds, colours=colours, count=count)

    return DiceReader("learned" if table is None else f"learned, calibrated (a die {table.die_px:.0f} px)",
                      read, table)
