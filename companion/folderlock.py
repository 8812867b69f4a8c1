"""One companion per data folder: an OS lock on `companion.lock` in it, held while the server runs.

Two servers on one folder would each replay the log and then append to it on their own, and their
tables would drift apart. `fcntl.flock` is let go by the operating system when the process ends,
however it ends (a crash, SIGKILL, a power cut), so a stale lock never blocks a restart. The file
holds the holder's process id, only to say who holds it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .store import StorageError

LOCK_NAME = "companion.lock"


class FolderInUse(StorageError):
    """Another companion is serving this data folder."""


class FolderLock:
    """Hold the data folder `folder` for this process until `release()` (or the process ends)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_NAME
        self._file = open(self.path, "a+", encoding="ascii")  # noqa: SIM115  held open while serving
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.seek(0)
            holder = self._file.read().strip() or "unknown"
            self._file.close()
            raise FolderInUse(
                f"another companion (process {holder}) is serving the data folder {folder}: stop it first "
                f"(for the service: sudo systemctl stop companion), or start this one with --data naming "
                f"another folder") from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"{os.getpid()}\n")
        self._file.flush()

    def release(self) -> None:
        if not self._file.closed:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
