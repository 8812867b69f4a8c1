"""The event store: every accepted command, appended to SQLite and committed before anyone is told.

One row per table (its game, players and options) and one row per record in that table's log.
WAL mode with `synchronous=FULL`: a commit that returned has reached the SD card, so a power cut
loses nothing that was confirmed. On start the table session replays each table's records.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
"""


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


class EventStore:
    """A thread-safe append-only log in one SQLite file (`:memory:` for tests)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def create_table(self, table_id: str, code: str, game: str, players: list[str],
                     options: dict[str, Any]) -> TableRow:
        row = TableRow(table_id, code, game, list(players), dict(options), time.time())
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                (row.id, row.code, row.game, json.dumps(row.players), json.dumps(row.options), row.created),
            )
        return row

    def append(self, table_id: str, seq: int, kind: str, body: dict[str, Any]) -> Record:
        """Commit record number `seq` (the table's log length + 1); a duplicate seq raises IntegrityError."""
        record = Record(seq, kind, body, time.time())
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO records VALUES (?, ?, ?, ?, ?)",
                (table_id, seq, kind, json.dumps(body), record.at),
            )
        return record

    def tables(self) -> list[TableRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, code, game, players, options, created FROM tables ORDER BY created")
            return [TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5]) for r in rows]

    def records(self, table_id: str) -> list[Record]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, body, at FROM records WHERE table_id = ? ORDER BY seq", (table_id,)
            )
            return [Record(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
