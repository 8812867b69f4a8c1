"""Storage faults: a damaged database or table is set aside (never deleted) and the rest is served; a full
disk refuses the write and changes nothing; a read-only folder is named with what to do."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.store import EventStore, StorageReadOnly
from companion.table import StorageIsFull, TableSession, UnknownTable

ROOT = Path(__file__).resolve().parents[2]


def seated(session, players=("Alice", "Bob")):
    table = session.create("race", list(players))
    return table, session.claim_seat(table.id, 0), session.claim_seat(table.id, 1)


def play_a_turn(session, table, token):
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, token)
    session.act(table.id, table.version, {"type": "roll", "values": [4]}, token)


def two_tables(path: Path) -> tuple[str, str]:
    """A database with two tables, the second one's records filling the pages after the first's; the
    second's last record is Erin taking her seat. The store is closed (its WAL folded in)."""
    store = EventStore(path)
    session = TableSession(store)
    first, alice, _ = seated(session)
    play_a_turn(session, first, alice)
    second, carol, _ = seated(session, ("Carol", "Dave", "Erin"))
    for _ in range(60):
        session.act(second.id, second.version, {"type": "bet", "dice": 2}, carol)
        session.undo(second.id, second.version, carol)
    session.claim_seat(second.id, 2)
    store.close()
    return first.id, second.id


def page_of_last_record(path: Path, table_id: str, page_size: int = 4096) -> int:
    """The offset of the page holding the table's last record (found by its seat token's bytes)."""
    token = EventStore(path).records(table_id)[-1].body["token"].encode()
    return path.read_bytes().index(token) // page_size * page_size


def aside(folder: Path) -> list[Path]:
    """The database files set aside in `folder` (their WAL files left out)."""
    return sorted(p for p in folder.iterdir()
                  if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm")))


# ---- damaged files --------------------------------------------------------------------------------------
def test_a_text_file_in_place_of_the_database_is_set_aside_and_a_new_one_started(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    path.write_text("these are my notes, not a database\n" * 50)
    with caplog.at_level(logging.WARNING):
        session = TableSession(EventStore(path))
    moved = aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_text().startswith("these are my notes")
    assert any(str(moved[0]) in p and "set aside" in p for p in session.problems)
    assert any("set aside" in r.getMessage() for r in caplog.records)
    table, alice, _ = seated(session)  # the new database takes commands
    play_a_turn(session, table, alice)
    assert TableSession(EventStore(path)).get(table.id).state == table.state


def test_a_truncated_database_keeps_every_table_that_still_reads(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    cut = page_of_last_record(path, second)
    os.truncate(path, cut)
    left = path.read_bytes()
    session = TableSession(EventStore(path))
    moved = aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == left  # kept as it was
    assert session.get(first).state["scores"] == [4, 0]  # the table on the pages left is served
    with pytest.raises(UnknownTable):
        session.get(second)
    assert any(second in p and str(moved[0]) in p for p in session.problems)


def test_a_database_with_a_damaged_page_is_set_aside_and_the_readable_tables_served(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    data = bytearray(path.read_bytes())
    at = page_of_last_record(path, second)
    data[at:at + 4096] = b"\x5a" * 4096  # scribble over the page
    path.write_bytes(bytes(data))
    session = TableSession(EventStore(path))
    moved = aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == bytes(data)
    assert session.get(first).state["scores"] == [4, 0]
    with pytest.raises(UnknownTable):
        session.get(second)
    assert any(second in p and str(moved[0]) in p for p in session.problems)


def test_one_bad_json_record_sets_only_its_table_aside(tmp_path, caplog):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE records SET body = ? WHERE table_id = ? AND seq = 111",
                   ('{"action": {"type": "be', second))
    db.close()
    with caplog.at_level(logging.WARNING):
        session = TableSession(EventStore(path))
    assert session.get(first).state["scores"] == [4, 0]
    with pytest.raises(UnknownTable, match="set aside"):
        session.get(second)
    assert any(second in p and "record 111" in p and "not valid JSON" in p for p in session.problems)
    assert any(second in r.getMessage() for r in caplog.records)
    db = sqlite3.connect(path)  # nothing thrown away: every row of the table set aside is still there
    assert db.execute("SELECT count(*) FROM records WHERE table_id = ?", (second,)).fetchone()[0] == 123
    db.close()
    assert TableSession(EventStore(path)).problems  # and the page still says so after another restart


def test_an_unknown_game_sets_only_its_table_aside(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE tables SET game = 'chess' WHERE id = ?", (second,))
    db.close()
    session = TableSession(EventStore(path))
    assert session.get(first).state["scores"] == [4, 0]
    assert second not in session.tables
    assert any(second in p and "chess" in p for p in session.problems)


def test_a_table_row_that_is_not_json_sets_only_that_table_aside(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE tables SET players = 'Carol, Dave' WHERE id = ?", (second,))
    db.close()
    session = TableSession(EventStore(path))
    assert session.get(first).state["scores"] == [4, 0]
    assert any(second in p and "players" in p for p in session.problems)


def test_a_record_the_engine_refuses_sets_only_its_table_aside(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = two_tables(path)
    db = sqlite3.connect(path)
    with db:
        body = json.dumps({"action": {"type": "bet", "dice": 9}, "by": "Carol", "source": "phone"})
        db.execute("UPDATE records SET body = ? WHERE table_id = ? AND seq = 111", (body, second))
    db.close()
    session = TableSession(EventStore(path))
    assert session.get(first).state["scores"] == [4, 0]
    assert any(second in p and "record 111" in p for p in session.problems)


# ---- a full disk ------------------------------------------------------------------------------------------
class CappedStore(EventStore):
    """The store with SQLite's own size limit set low: writes beyond it fail with SQLITE_FULL."""

    pages = 0

    def _open(self, whole=False):
        db = super()._open(whole)
        db.execute(f"PRAGMA max_page_count = {self.pages}")
        return db


def test_a_full_database_refuses_the_command_and_changes_nothing(tmp_path):
    path = tmp_path / "tables.sqlite"
    EventStore(path).close()
    CappedStore.pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0] + 2
    session = TableSession(CappedStore(path))
    table, alice, _ = seated(session)
    with pytest.raises(StorageIsFull, match="storage is full: nothing was changed") as refused:
        for _ in range(1000):
            session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
            session.undo(table.id, table.version, alice)
    assert refused.value.status == 507
    before = table.version
    assert len(session.store.records(table.id)) == before  # what was acknowledged is all there, no more
    assert session.snapshot(table.id, alice)["version"] == before  # reads go on
    assert TableSession(EventStore(path)).get(table.id).state == table.state


def full_disk(folder: Path, size_kb: int):
    """Mount a tmpfs of `size_kb` on `folder` (root only); skip where mounting is not allowed."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")


def fill(folder: Path) -> Path:
    """Write a ballast file until the disk is full; returns it."""
    ballast = folder / "ballast"
    with open(ballast, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return ballast


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "disk"
    full_disk(folder, 512)
    yield folder
    subprocess.run(["umount", "--lazy", str(folder)], check=False)


def test_on_a_full_disk_writes_are_refused_reads_go_on_and_writes_resume(small_disk):
    path = small_disk / "data" / "tables.sqlite"
    session = TableSession(EventStore(path))
    table, alice, bob = seated(session)
    ballast = fill(small_disk)
    acknowledged = table.version
    with pytest.raises(StorageIsFull, match="storage is full: nothing was changed"):
        for _ in range(2000):  # the WAL may still have room for a few
            session.act(table.id, table.version, {"type": "bet", "dice": 2}, alice)
            acknowledged = table.version
            session.undo(table.id, table.version, alice)
            acknowledged = table.version
    assert table.version == acknowledged
    assert session.snapshot(table.id, bob)["version"] == acknowledged
    ballast.unlink()  # room again
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, alice)
    reborn = TableSession(EventStore(path))
    assert reborn.get(table.id).version == acknowledged + 1
    assert reborn.get(table.id).state == table.state


def test_the_api_answers_a_full_disk_with_its_own_message(tmp_path):
    from web.app import create_app

    path = tmp_path / "tables.sqlite"
    EventStore(path).close()
    CappedStore.pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0] + 2
    session = TableSession(CappedStore(path))
    client = create_app(session).test_client()
    table, alice, _ = seated(session)
    for _ in range(1000):
        res = client.post(f"/api/tables/{table.id}/actions", headers={"X-Seat-Token": alice},
                          json={"version": table.version, "action": {"type": "bet", "dice": 2}})
        if res.status_code != 200:
            break
        session.undo(table.id, table.version, alice)
    assert res.status_code == 507
    assert res.get_json()["error"] == "storage is full: nothing was changed"
    assert client.get(f"/api/tables/{table.id}").status_code == 200


# ---- a read-only data folder ------------------------------------------------------------------------------
@pytest.fixture
def read_only_folder(tmp_path):
    """A data folder holding a database, which cannot be written: a read-only mount as root, else 0o555."""
    folder = tmp_path / "data"
    folder.mkdir()
    store = EventStore(folder / "tables.sqlite")
    TableSession(store).create("race", ["Alice", "Bob"])
    store.close()
    if os.geteuid() == 0:
        done = subprocess.run(["mount", "--bind", "-o", "ro", str(folder), str(folder)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot make a read-only mount here: {done.stderr.decode().strip()}")
        yield folder
        subprocess.run(["umount", "--lazy", str(folder)], check=False)
    else:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)


def test_a_read_only_data_folder_is_named_with_what_to_do(read_only_folder):
    with pytest.raises(StorageReadOnly) as refused:
        EventStore(read_only_folder / "tables.sqlite")
    message = str(refused.value)
    assert str(read_only_folder) in message and "--data" in message and "writable" in message


def test_serve_on_a_read_only_data_folder_says_so_without_a_traceback(read_only_folder):
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--data", str(read_only_folder),
                           "--camera", "sim", "--gpio", "off", "--port", "0", "--host", "127.0.0.1"],
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"the data folder {read_only_folder} cannot be written" in done.stderr


def finished_second_table(path: Path) -> tuple[str, str]:
    """Two tables; the second played to its end (so archived at start), its records on later pages."""
    store = EventStore(path)
    session = TableSession(store)
    first, alice, _ = seated(session)
    play_a_turn(session, first, alice)
    second = session.create("race", ["Carol", "Dave"], {"goal": 100})
    carol, dave = session.claim_seat(second.id, 0), session.claim_seat(second.id, 1)
    while not second.game.is_over(second.state):
        token = (carol, dave)[second.state["turn"]]
        session.act(second.id, second.version, {"type": "bet", "dice": 2}, token)
        session.act(second.id, second.version, {"type": "roll", "values": [1, 1]}, token)
    store.close()
    return first.id, second.id


def last_page_of(data: bytes, text: bytes) -> int:
    """Offset of the page holding the last copy of `text` (a record body's end, found in no other row)."""
    return data.rindex(text) // 4096 * 4096


def test_damage_in_an_archived_table_is_found_when_opened_and_set_aside_at_the_next_start(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = finished_second_table(path)
    data = bytearray(path.read_bytes())
    at = last_page_of(data, b'"by": "Dave", "source": "phone"}')
    data[at:at + 4096] = b"\x5a" * 4096
    path.write_bytes(bytes(data))
    session = TableSession(EventStore(path))
    assert second in session.archived and not aside(tmp_path)  # a start reads only what it replays
    with pytest.raises(UnknownTable, match="cannot be read"):
        session.get(second)
    assert any("damaged" in p and "restart" in p for p in session.problems)
    assert session.get(first).state["scores"] == [4, 0]  # the rest is served
    session.store.close()
    reborn = TableSession(EventStore(path))  # the next start checks the whole file and sets it aside
    moved = aside(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == bytes(data)
    assert reborn.get(first).state["scores"] == [4, 0]
    assert any(second in p and str(moved[0]) in p for p in reborn.problems)


def test_the_whole_file_check_reports_damage_and_asks_the_next_start_to_set_it_aside(tmp_path):
    path = tmp_path / "tables.sqlite"
    first, second = finished_second_table(path)
    store = EventStore(path)
    assert store.check() is None
    store.close()
    data = bytearray(path.read_bytes())
    at = last_page_of(data, b'"by": "Dave", "source": "phone"}')
    data[at:at + 4096] = b"\x5a" * 4096
    path.write_bytes(bytes(data))
    store = EventStore(path)
    assert store.check() is not None
    assert any("damaged" in p for p in TableSession(store).problems)
    store.close()
    EventStore(path).close()
    assert len(aside(tmp_path)) == 1
