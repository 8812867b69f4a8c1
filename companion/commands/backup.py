"""`companion backup FILE`: one consistent copy of the game log, safe while the companion is serving.

It uses SQLite's backup API, which copies the database as one transaction sees it: every command
committed before the copy began, none half-written. A bare copy of `tables.sqlite` is not a backup:
the latest commands live in `tables.sqlite-wal` until SQLite moves them over, and a copy taken while
a command is being written may not open at all. The copy is one self-contained file (no WAL); to
restore it, stop the companion and put it in the data folder as `tables.sqlite`, with no `-wal` or
`-shm` file beside it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from companion.cli import CommandError

DATABASE = "tables.sqlite"


def add_parser(sub) -> None:
    p = sub.add_parser("backup", help="write one consistent copy of the game log to FILE (safe while "
                       "the companion serves)")
    p.add_argument("file", type=Path, help="where to write the copy (a folder: a dated file in it)")
    p.add_argument("--config", type=Path, help="a TOML config file (to find the data folder)")
    p.add_argument("--data", dest="data_dir", type=Path, help="the data folder (default: as `serve` uses)")
    p.set_defaults(handler=run)


def run(args) -> int:
    from companion.settings import SettingsError, load_settings

    try:
        settings = load_settings(args.config, {"data_dir": args.data_dir} if args.data_dir else {})
    except SettingsError as err:
        raise CommandError(str(err)) from None
    source = Path(settings.data_dir) / DATABASE
    if not source.is_file():
        raise CommandError(f"there is no game log to back up: {source} does not exist")
    target = Path(args.file)
    if target.is_dir():
        target = target / f"tables-{time.strftime('%Y%m%d-%H%M%S')}.sqlite"
    if target.resolve() == source.resolve():
        raise CommandError(f"{target} is the game log itself: name another file")
    tables, records = backup(source, target)
    size_kb = target.stat().st_size // 1024
    print(f"backed up {tables} table(s), {records} record(s) to {target} ({size_kb} kB)")
    return 0


def backup(source: Path, target: Path) -> tuple[int, int]:
    """Copy the database `source` into `target` (replaced only once the copy is whole and checked);
    returns (tables, records) in the copy."""
    partial = target.with_name(target.name + ".partial")
    try:
        partial.unlink(missing_ok=True)
        src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(str(partial))
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one file, no WAL beside it
                check = dst.execute("PRAGMA quick_check").fetchone()[0]
                counts = (dst.execute("SELECT count(*) FROM tables").fetchone()[0],
                          dst.execute("SELECT count(*) FROM records").fetchone()[0])
            finally:
                dst.close()
        finally:
            src.close()
        if check != "ok":
            partial.unlink()
            raise CommandError(f"the copy of {source} does not check out ({check}): the game log may be "
                               "damaged; start the companion to set the damage aside, then back up again")
        with open(partial, "rb") as f:
            os.fsync(f.fileno())
        partial.replace(target)
    except (sqlite3.Error, OSError) as err:
        partial.unlink(missing_ok=True)
        full = getattr(err, "sqlite_errorname", "") == "SQLITE_FULL" or getattr(err, "errno", 0) == 28
        raise CommandError(f"no backup written to {target}: "
                           f"{'the disk is full' if full else err}") from None
    return counts
