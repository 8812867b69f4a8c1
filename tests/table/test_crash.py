"""Killing the companion with SIGKILL at random moments loses no confirmed action."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.store import EventStore
from companion.table import TableSession
from tests.table.crash_player import play

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_killed_many_times_ends_as_the_uncrashed_game(tmp_path):
    seed = 7
    expected = play(str(tmp_path / "calm.sqlite"), seed, out=io.StringIO())
    db = str(tmp_path / "crashed.sqlite")
    rng = random.Random(1)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    kills = 0
    for _ in range(60):
        proc = subprocess.Popen([sys.executable, "-m", "tests.table.crash_player", db, str(seed)], cwd=ROOT,
                                env=env, stdout=subprocess.PIPE, text=True)
        lines = [proc.stdout.readline() for _ in range(rng.randint(1, 12))]  # let it commit a few moves
        time.sleep(rng.uniform(0, 0.004))  # then kill it anywhere, mid-command included
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        out = "".join(lines) + proc.communicate()[0]
        confirmed = [int(line) for line in out.split() if line.isdigit()]
        if confirmed:  # every version a run reported as committed is in the log after the kill
            table = TableSession(EventStore(db)).get(TableSession(EventStore(db)).current)
            assert table.version >= confirmed[-1]
        if "done" in out:
            break
    else:
        raise AssertionError("the crashed game never finished")
    assert kills >= 5
    session = TableSession(EventStore(db))
    assert session.get(session.current).state == expected
