"""The event store: every accepted command, appended to SQLite and committed before anyone is told.

One row per table (its game, players and options) and one row per record in that table's log.
WAL mode with `synchronous=FULL`: a commit that returned has reached the SD card, so a power cut
loses nothing that was confirmed. On start the table session replays each table's records, from its
last checkpoint (a saved copy of what replay builds, see `companion/checkpoint.py`) when it has one.

Faults are answered, never left as tracebacks (see `StorageError` and its kinds): a damaged database
file is set aside under a new name and what could be read is copied into a fresh one
(`companion/salvage.py`); a table whose rows cannot be read is marked set aside, its rows kept; a
full disk refuses the write and changes nothing.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS checkpoints (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    seq INTEGER NOT NULL,
    over INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS set_aside (
    table_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""

FULL_MESSAGE = "storage is full: nothing was changed"


class StorageError(Exception):
    """The data folder or its database cannot be used as asked; the message says what and what to do."""


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full: the write was refused and nothing changed."""

    def __init__(self, message: str = FULL_MESSAGE) -> None:
        super().__init__(message)


class StorageReadOnly(StorageError, PermissionError):
    """The data folder or its database cannot be written."""


class DamagedRecord(StorageError, ValueError):
    """A row that is not what the companion wrote (bad JSON); names the table and the record."""


class DamagedFile(StorageError):
    """SQLite found damage in the file's pages: the file is set aside at the next start (`salvage`)."""


@dataclass(frozen=True)
class TableRow:
    id: str
    code: str  # the four letters players type to join
    game: str
    players: list[str]
    options: dict[str, Any]
    created: float


@dataclass(frozen=True)
class Record:
    """One line of a table's log: `kind` is "action", "undo", "correction" or "seat"; `seq` counts from 1."""

    seq: int
    kind: str
    body: dict[str, Any]
    at: float


@dataclass(frozen=True)
class Checkpoint:
    """What replaying a table's records up to `seq` built, as JSON (`companion/checkpoint.py`)."""

    seq: int
    over: bool  # the game was over at `seq`
    body: dict[str, Any]


@dataclass(frozen=True)
class SetAside:
    """A table the companion could not read and no longer serves; its rows are kept as they were."""

    table_id: str
    reason: str
    at: float


def _writes(error: sqlite3.Error, where: str) -> StorageError:
    """The storage fault behind a failed write, in words a player or an operator can act on."""
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        return StorageFull()
    if name.startswith("SQLITE_READONLY"):
        return StorageReadOnly(f"the data folder {where} cannot be written ({error}): nothing was changed")
    return StorageError(f"the database in {where} could not be written ({error}): nothing was changed")


class Damaged(sqlite3.DatabaseError):
    """SQLite's own check of the file found damage (its first findings are the message)."""


def is_damage(error: sqlite3.Error) -> bool:
    """Whether `error` says the file is not a sound SQLite database (as opposed to full or read-only)."""
    return isinstance(error, Damaged) or \
        getattr(error, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")


class EventStore:
    """A thread-safe append-only log in one SQLite file (`:memory:` for tests).

    durable: False skips the wait for the disk at each commit (benchmarks that build long histories);
    a real table always runs durable. A file SQLite cannot open is set aside and replaced at once (see
    `problems`). Damage deeper in the file shows when a page is read (`DamagedFile`) or when `check()`
    reads them all, which `serve` runs beside the game: it is then noted in a file beside the database
    (`.check`), and the next start checks the whole file first and sets it aside, so that a start
    reads only what it replays however long the history.
    """

    def __init__(self, path: str | Path, durable: bool = True) -> None:
        from .salvage import check_writable

        self.path = str(path)
        self.problems: list[str] = []  # what was set aside at opening, in words for the page
        self._lock = threading.Lock()
        self._durable = durable
        if self.path != ":memory:":
            check_writable(Path(path).parent)
        in_place = self.path != ":memory:" and Path(path).exists() and not Path(path).is_file()
        try:
            if in_place:
                raise sqlite3.DatabaseError(f"{path} is not a file")
            self._db = self._open(whole=self._mark.exists())
        except sqlite3.DatabaseError as err:
            if not (in_place or is_damage(err)):
                raise _writes(err, str(Path(self.path).parent)) from None
            self._salvage(err)

    @property
    def _mark(self) -> Path:
        """Beside the database: its presence asks the next start to check every page first."""
        return Path(f"{self.path}.check")

    def _salvage(self, error: Exception) -> None:
        """Set the database file aside and start a new one holding every table that still reads whole."""
        from .salvage import copy_readable, set_aside_file

        moved, note = set_aside_file(Path(self.path), error)
        self.problems.append(note)
        self._db = self._open()
        self.problems.extend(copy_readable(moved, self))
        self._mark.unlink(missing_ok=True)

    def salvage(self, error: Exception) -> None:
        """Set the damaged file aside now (at start, before anything is served from it); see `_salvage`."""
        with self._lock:
            self._db.close()
        self._salvage(error)

    def check(self) -> str | None:
        """Read every page (SQLite's quick_check) on a connection of its own; None when sound, else what is
        wrong, also noted for the page and for the next start. Takes about 1 s per 400 MB."""
        if self.path == ":memory:":
            return None
        try:
            db = sqlite3.connect(self.path)
            try:
                found = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
            finally:
                db.close()
        except sqlite3.Error as err:
            found = [str(err)]
        if found == ["ok"]:
            return None
        damage = "; ".join(found)
        self._damaged(damage)
        return damage

    def _damaged(self, damage: str) -> None:
        note = (f"The database {self.path} is damaged ({damage}). The tables that read are still served; "
                "restart the companion (for the service: sudo systemctl restart companion) to set the file "
                "aside, unchanged, and carry every table that reads whole into a new one.")
        if note not in self.problems:
            log.warning("%s", note)
            self.problems.append(note)
        try:
            if self.path != ":memory:":
                self._mark.touch()
        except OSError as err:
            log.warning("could not note the damage for the next start: %s", err)

    def _open(self, whole: bool = False) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if self._durable else 'OFF'}")
            db.executescript(SCHEMA)
            damage = [row[0] for row in db.execute("PRAGMA quick_check(3)")] if whole else ["ok"]
            if damage != ["ok"]:
                raise Damaged("; ".join(damage))
        except sqlite3.Error:
            db.close()
            raise
        return db

    # ---- writing -----------------------------------------------------------------------------------
    def _write(self, statements: Iterable[tuple[str, tuple]]) -> None:
        """Run `statements` in one transaction; on any failure roll back and raise a `StorageError`."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for sql, params in statements:
                    self._db.execute(sql, params)
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._rollback()
                raise
            except sqlite3.Error as err:
                self._rollback()
                raise _writes(err, str(Path(self.path).parent)) from None

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as err:  # the transaction is gone already: nothing of it was kept
                log.warning("rollback after a failed write: %s", err)

    def create_table(self, table_id: str, code: str, game: str, players: list[str],
                     options: dict[str, Any]) -> TableRow:
        row = TableRow(table_id, code, game, list(players), dict(options), time.time())
        self._write([("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                      (row.id, row.code, row.game, json.dumps(row.players), json.dumps(row.options),
                       row.created))])
        return row

    def append(self, table_id: str, seq: int, kind: str, body: dict[str, Any]) -> Record:
        """Commit record number `seq` (the table's log length + 1); a duplicate seq raises IntegrityError,
        a full disk `StorageFull` (nothing written)."""
        record = Record(seq, kind, body, time.time())
        self._write([("INSERT INTO records VALUES (?, ?, ?, ?, ?)",
                      (table_id, seq, kind, json.dumps(body), record.at))])
        return record

    def save_checkpoint(self, table_id: str, checkpoint: Checkpoint) -> None:
        """Keep `checkpoint` as the table's latest (the one before it is replaced)."""
        self._write([("INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?, ?)",
                      (table_id, checkpoint.seq, int(checkpoint.over), json.dumps(checkpoint.body)))])

    def copy_in(self, table: tuple, records: list[tuple], checkpoint: tuple | None,
                set_aside: tuple | None) -> None:
        """Copy one table's rows, exactly as read from another database (salvage), in one transaction."""
        statements = [("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)", tuple(table))]
        statements += [("INSERT INTO records VALUES (?, ?, ?, ?, ?)", tuple(r)) for r in records]
        if checkpoint is not None:
            statements.append(("INSERT INTO checkpoints VALUES (?, ?, ?, ?)", tuple(checkpoint)))
        if set_aside is not None:
            statements.append(("INSERT INTO set_aside VALUES (?, ?, ?)", tuple(set_aside)))
        self._write(statements)

    def set_aside(self, table_id: str, reason: str) -> None:
        """Stop serving a table that cannot be read; every row of it stays in the database."""
        log.warning("table %s set aside: %s (its rows stay in %s)", table_id, reason, self.path)
        self._write([("INSERT OR IGNORE INTO set_aside VALUES (?, ?, ?)", (table_id, reason, time.time()))])

    # ---- reading -----------------------------------------------------------------------------------
    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as err:
                if is_damage(err):
                    self._damaged(str(err))
                    raise DamagedFile(f"{self.path} is damaged ({err})") from None
                raise StorageError(f"{self.path} cannot be read ({err})") from None

    def tables(self) -> list[TableRow]:
        """The tables served, oldest first: set-aside ones left out, and a row that cannot be read is set
        aside here (its reason names what is wrong)."""
        rows = self._rows("SELECT id, code, game, players, options, created FROM tables "
                          "WHERE id NOT IN (SELECT table_id FROM set_aside) ORDER BY created")
        out = []
        for r in rows:
            try:
                players, options = json.loads(r[3]), json.loads(r[4])
                if not isinstance(players, list) or not isinstance(options, dict):
                    raise ValueError("players must be a list and options an object")
            except ValueError as err:
                self._set_aside_quietly(str(r[0]), f"its players or options cannot be read ({err})")
                continue
            out.append(TableRow(r[0], r[1], r[2], players, options, r[5]))
        return out

    def _set_aside_quietly(self, table_id: str, reason: str) -> None:
        try:
            self.set_aside(table_id, reason)
        except StorageError as err:  # cannot write now: it is left out all the same, and said again
            log.warning("could not mark table %s set aside: %s", table_id, err)

    def set_aside_tables(self) -> list[SetAside]:
        return [SetAside(*r) for r in self._rows("SELECT table_id, reason, at FROM set_aside ORDER BY at")]

    def records(self, table_id: str, after: int = 0, until: int | None = None,
                except_kinds: tuple[str, ...] = ()) -> list[Record]:
        """The table's records with `after` < seq <= `until`, in order, leaving out `except_kinds`;
        a record that cannot be read raises `DamagedRecord` naming it."""
        sql = "SELECT seq, kind, body, at FROM records WHERE table_id = ? AND seq > ?"
        params: tuple = (table_id, after)
        if until is not None:
            sql, params = sql + " AND seq <= ?", (*params, until)
        if except_kinds:
            sql += f" AND kind NOT IN ({', '.join('?' * len(except_kinds))})"
            params = (*params, *except_kinds)
        out = []
        for seq, kind, body, at in self._rows(sql + " ORDER BY seq", params):
            try:
                data = json.loads(body)
            except (ValueError, TypeError) as err:
                raise DamagedRecord(f"record {seq} of table {table_id} is not valid JSON ({err})") from None
            if not isinstance(data, dict):
                raise DamagedRecord(f"record {seq} of table {table_id} is not a JSON object")
            out.append(Record(seq, kind, data, at))
        return out

    def last_seqs(self) -> dict[str, int]:
        """Each table's number of records (its last seq)."""
        return dict(self._rows("SELECT table_id, MAX(seq) FROM records GROUP BY table_id"))

    def checkpoint_marks(self) -> dict[str, tuple[int, bool]]:
        """Each table's latest checkpoint as (seq, game over), without reading the checkpoints themselves."""
        return {t: (seq, bool(over)) for t, seq, over in
                self._rows("SELECT table_id, seq, over FROM checkpoints")}

    def checkpoint(self, table_id: str) -> Checkpoint | None:
        """The table's latest checkpoint; None when it has none or it does not read (replay it all)."""
        rows = self._rows("SELECT seq, over, body FROM checkpoints WHERE table_id = ?", (table_id,))
        if not rows:
            return None
        seq, over, body = rows[0]
        try:
            data = json.loads(body)
        except (ValueError, TypeError) as err:
            log.warning("checkpoint of table %s cannot be read (%s): replaying its whole log", table_id, err)
            return None
        return Checkpoint(seq, bool(over), data) if isinstance(data, dict) else None

    def close(self) -> None:
        with self._lock:
            self._db.close()
