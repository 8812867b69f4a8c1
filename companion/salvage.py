"""What the store does when its folder or file is not usable: say so plainly, set damage aside, keep data.

* A data folder that cannot be written: `check_writable` raises `StorageReadOnly` naming the folder and
  what to do, before anything else is tried.
* A database file SQLite cannot read (a damaged page, a truncated file, a text file in its place):
  `set_aside_file` renames it (and its `-wal` and `-shm` files, so they still pair) to
  `tables.sqlite.damaged-YYYYmmdd-HHMMSS`; nothing is deleted. `copy_readable` then copies every table
  that can still be read whole from a scratch copy of it into the fresh database, and names the ones
  that could not be.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .store import StorageReadOnly

if TYPE_CHECKING:
    from .store import EventStore

log = logging.getLogger(__name__)

COMPANIONS = ("-wal", "-shm")  # SQLite's files beside the database, named after it


def check_writable(folder: Path) -> None:
    """Make `folder` if needed and prove a file can be written in it; raise `StorageReadOnly` if not."""
    advice = (f"make it writable for the user that runs the companion (for the service: "
              f"sudo chown -R companion: {folder}), or start it with --data naming a folder it may write")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise StorageReadOnly(f"the data folder {folder} cannot be written ({err.strerror or err}): "
                              f"{advice}") from None
    for name in ("tables.sqlite", *(f"tables.sqlite{c}" for c in COMPANIONS)):
        path = folder / name
        if path.is_file() and not os.access(path, os.W_OK):
            raise StorageReadOnly(f"{path} in the data folder is read-only: {advice}")


def set_aside_file(path: Path, error: Exception) -> tuple[Path, str]:
    """Rename the damaged database `path` and its WAL files aside; returns the new name and a sentence."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    moved = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while moved.exists():
        n += 1
        moved = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    path.rename(moved)
    for suffix in COMPANIONS:
        beside = path.with_name(path.name + suffix)
        if beside.exists():
            beside.rename(moved.with_name(moved.name + suffix))
    note = (f"The database {path} could not be read ({error}). It was set aside, unchanged, as {moved}, "
            f"and a new one was started.")
    log.warning("%s", note)
    return moved, note


def copy_readable(moved: Path, store: EventStore) -> list[str]:
    """Copy every table of the set-aside file `moved` that reads whole into `store`; sentences for the page
    about what was copied and what stayed behind."""
    with tempfile.TemporaryDirectory() as scratch:  # reading may touch the file: read a copy
        copy = Path(scratch) / "damaged.sqlite"
        for suffix in ("", *COMPANIONS):
            if moved.with_name(moved.name + suffix).is_file():
                shutil.copyfile(moved.with_name(moved.name + suffix), copy.with_name(copy.name + suffix))
        _fit_header(copy)
        try:
            db = sqlite3.connect(str(copy), isolation_level=None)
        except sqlite3.Error as err:
            return [f"Nothing could be read from {moved} ({err})."]
        try:
            db.execute("PRAGMA writable_schema = ON")  # read past a schema entry whose pages are gone
            return _copy_tables(db, moved, store)
        finally:
            db.close()


def _fit_header(copy: Path) -> None:
    """A truncated file still says in its header how many pages it had, and SQLite then reads none of it:
    on the scratch copy, make the header say how many pages are there, so the ones left can be read."""
    try:
        with open(copy, "r+b") as f:
            header = f.read(100)
            if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
                return
            page = int.from_bytes(header[16:18], "big")
            page = 65536 if page == 1 else page
            pages = copy.stat().st_size // page
            if page and int.from_bytes(header[28:32], "big") > pages:
                f.seek(28)
                f.write(pages.to_bytes(4, "big"))
    except OSError as err:
        log.warning("could not read the header of %s: %s", copy, err)


def _copy_tables(db: sqlite3.Connection, moved: Path, store: EventStore) -> list[str]:
    try:
        tables = db.execute("SELECT id, code, game, players, options, created FROM tables").fetchall()
    except sqlite3.Error as err:
        return [f"No table could be read from {moved} ({err})."]
    copied, left = [], []
    for row in tables:
        try:
            records = db.execute("SELECT table_id, seq, kind, body, at FROM records WHERE table_id = ? "
                                 "ORDER BY seq", (row[0],)).fetchall()
            if [r[1] for r in records] != list(range(1, len(records) + 1)):
                raise ValueError("records are missing")
        except (sqlite3.Error, ValueError) as err:
            left.append(f"{row[0]} ({row[2]}: {err})")
            continue
        store.copy_in(row, records, _optional(db, "checkpoints", row[0]), _optional(db, "set_aside", row[0]))
        copied.append(row[0])
    notes = []
    if copied:
        notes.append(f"Copied from it, whole: {len(copied)} table(s) ({', '.join(copied)}).")
    if left:
        notes.append(f"Tables that could not be read whole stay only in {moved}: {'; '.join(left)}.")
    for note in notes:
        log.warning("%s", note)
    return notes


def _optional(db: sqlite3.Connection, name: str, table_id: str) -> tuple | None:
    """The table's row in `name` (its checkpoint, or its set-aside mark) if there is one that reads."""
    try:
        return db.execute(f"SELECT * FROM {name} WHERE table_id = ?", (table_id,)).fetchone()
    except sqlite3.Error:
        return None
