"""`companion backup`, one companion per data folder, and storage problems shown on the page."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.cli import CommandError, main
from companion.folderlock import FolderInUse, FolderLock
from companion.store import EventStore
from companion.table import TableSession

ROOT = Path(__file__).resolve().parents[1]


def busy_table(folder: Path) -> tuple[TableSession, str, str]:
    session = TableSession(EventStore(folder / "tables.sqlite"))
    table = session.create("race", ["Alice", "Bob"], {"goal": 10**6})
    return session, table.id, session.claim_seat(table.id, 0)


# ---- backup ------------------------------------------------------------------------------------------------
def test_a_backup_holds_what_is_still_in_the_wal_where_a_bare_copy_does_not(tmp_path, capsys):
    session, table_id, alice = busy_table(tmp_path)  # the store stays open: its commits sit in the WAL
    for _ in range(20):
        session.act(table_id, session.get(table_id).version, {"type": "bet", "dice": 1}, alice)
        session.undo(table_id, session.get(table_id).version, alice)
    shutil.copyfile(tmp_path / "tables.sqlite", tmp_path / "bare.sqlite")
    try:
        bare = sqlite3.connect(tmp_path / "bare.sqlite").execute("SELECT count(*) FROM records").fetchone()[0]
    except sqlite3.OperationalError:  # not even the tables are there yet: they are in the WAL too
        bare = 0
    assert main(["backup", str(tmp_path / "copy.sqlite"), "--data", str(tmp_path)]) == 0
    assert "41 record(s)" in capsys.readouterr().out
    mode = sqlite3.connect(tmp_path / "copy.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "delete"  # one file: nothing needed beside it
    assert TableSession(EventStore(tmp_path / "copy.sqlite")).get(table_id).version == 41 and bare < 41


def test_a_backup_taken_while_commands_are_written_is_consistent(tmp_path):
    session, table_id, alice = busy_table(tmp_path)
    stop = threading.Event()

    def play():
        while not stop.is_set():
            session.act(table_id, session.get(table_id).version, {"type": "bet", "dice": 2}, alice)
            session.undo(table_id, session.get(table_id).version, alice)

    writer = threading.Thread(target=play)
    writer.start()
    try:
        time.sleep(0.2)
        for n in range(3):
            assert main(["backup", str(tmp_path / f"b{n}.sqlite"), "--data", str(tmp_path)]) == 0
    finally:
        stop.set()
        writer.join()
    for n in range(3):
        db = sqlite3.connect(tmp_path / f"b{n}.sqlite")
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seqs = [r[0] for r in db.execute("SELECT seq FROM records ORDER BY seq")]
        assert seqs == list(range(1, len(seqs) + 1))  # a prefix of the log, no gap
        db.close()
        assert TableSession(EventStore(tmp_path / f"b{n}.sqlite")).get(table_id).version == len(seqs)


def test_backup_refuses_to_overwrite_the_log_itself_and_says_when_there_is_none(tmp_path, capsys):
    assert main(["backup", str(tmp_path / "copy.sqlite"), "--data", str(tmp_path / "empty")]) == 2
    assert "no game log" in capsys.readouterr().err
    busy_table(tmp_path)
    assert main(["backup", str(tmp_path / "tables.sqlite"), "--data", str(tmp_path)]) == 2
    assert "the game log itself" in capsys.readouterr().err


def test_the_docs_say_to_back_up_with_the_command_not_a_file_copy():
    for doc in (ROOT / "README.md", ROOT / "deploy" / "README.md"):
        text = doc.read_text(encoding="utf-8")
        assert "companion backup" in text and "-wal" in text, doc


# ---- one companion per data folder -------------------------------------------------------------------------
def test_a_second_companion_on_the_same_data_folder_refuses_and_says_why(tmp_path):
    held = FolderLock(tmp_path)
    try:
        with pytest.raises(FolderInUse, match=f"process {os.getpid()}.*{tmp_path}.*--data"):
            FolderLock(tmp_path)
    finally:
        held.release()
    FolderLock(tmp_path).release()  # let go: the folder is free again


def test_the_lock_of_a_killed_companion_is_let_go_by_the_system(tmp_path):
    script = ("import sys, time; from pathlib import Path; from companion.folderlock import FolderLock; "
              "held = FolderLock(Path(sys.argv[1])); print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                              cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(FolderInUse, match=f"process {holder.pid}"):
            FolderLock(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    FolderLock(tmp_path).release()


def test_serve_refuses_a_data_folder_another_companion_serves(tmp_path):
    from companion.commands.serve import Companion
    from companion.settings import Settings

    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="off")
    first = Companion(settings)
    try:
        with pytest.raises(CommandError, match="another companion .* is serving the data folder"):
            Companion(settings)
    finally:
        first.close()
    Companion(settings).close()  # once the first has stopped, a new one starts


# ---- the page ----------------------------------------------------------------------------------------------
def test_the_page_and_the_status_say_what_was_set_aside_and_where(tmp_path):
    from web.app import create_app

    (tmp_path / "tables.sqlite").write_text("not a database")
    session = TableSession(EventStore(tmp_path / "tables.sqlite"))
    client = create_app(session).test_client()
    status = client.get("/api/status").get_json()
    assert any("set aside" in p and ".damaged-" in p for p in status["storage_problems"])
    page = client.get("/").get_data(as_text=True)
    assert "storage-problems" in page and ".damaged-" in page
    clean = TableSession(EventStore(tmp_path / "other" / "tables.sqlite"))
    assert "storage-problems" not in create_app(clean).test_client().get("/").get_data(as_text=True)
