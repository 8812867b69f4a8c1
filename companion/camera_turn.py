"""Which way up the camera's picture is: the host turns it from the page until the players' edge of the
table is at the bottom, as the learned reader expects (a slanted camera shows a die's side faces below
its top face; turned a quarter, the held-out phone photos lose a third of their dice).

The turn the host chose is kept in DATA/camera.json and outlives a restart; until there is one, the
settings' `rotation` (config or `--rotation`) is the picture's turn. Part of the composition root's side:
it imports no vision; serve gives it the function that turns the camera's frames.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

from .refusals import NotNow
from .settings import Settings, SettingsError, checked, save_atomically

log = logging.getLogger("companion")
FILE = "camera.json"  # in the data folder: {"rotation": degrees clockwise}


def rotation(settings: Settings) -> int:
    """The turn (degrees clockwise) every camera of this companion is opened with: the host's choice on the
    page (DATA/camera.json), else the settings' `rotation`; serve and `companion calibrate` alike, so a
    calibration is learned the way round serve reads."""
    chosen = saved_rotation(settings.data_dir)
    return settings.rotation if chosen is None else chosen


def saved_rotation(data: Path) -> int | None:
    """The turn (degrees clockwise) the host chose on the page, None where none was chosen; a damaged
    file is said in the log and read as none (the settings' turn is used, nothing is lost)."""
    path = Path(data) / FILE
    if not path.is_file():
        return None
    try:
        return checked("rotation", str(path), json.loads(path.read_text(encoding="utf-8"))["rotation"])
    except (OSError, ValueError, KeyError, TypeError, SettingsError) as err:
        log.warning("%s: not read (%s); the picture is turned as the settings say", path, err)
        return None


class CameraTurn:
    """The camera's picture's turn (`degrees` clockwise) and the host's way to change it.

    turn_frames: makes the camera's frames turn `degrees` from now on (serve's `TurnedSource.turn_to`).
    data: the data folder the choice is saved in.
    """

    def __init__(self, degrees: int, turn_frames: Callable[[int], None], data: Path) -> None:
        self.degrees, self.turn_frames, self.data = degrees, turn_frames, Path(data)

    def quarter(self) -> int:
        """Turn the picture a quarter clockwise more, save the choice, and return the new turn (degrees);
        NotNow, the picture as it was, where the choice cannot be saved."""
        degrees = (self.degrees + 90) % 360
        try:
            save_atomically(self.data / FILE, json.dumps({"rotation": degrees}) + "\n")
        except OSError as err:  # a full or read-only card: the picture stays as it is, and says why
            raise NotNow(f"the turn could not be saved in {self.data / FILE} ({err}): the picture is not "
                         "turned") from None
        self.turn_frames(degrees)
        self.degrees = degrees
        log.info("the camera's picture is turned %d degrees clockwise (chosen on the page)", degrees)
        return degrees
