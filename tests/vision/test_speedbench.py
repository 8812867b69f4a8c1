"""`companion bench speed` times the learned reader on one core, and two readers in turns frame by frame."""

from __future__ import annotations

import argparse
import os
import time

import cv2
import pytest

from companion.commands.bench import add_parser
from vision.learned import DATA, LearnedReader
from vision.speedbench import READS, frame_times, one_core, run, speed


def test_the_speed_is_measured_on_one_core_with_opencv_on_one_thread_and_both_are_given_back():
    cores, threads = os.sched_getaffinity(0), cv2.getNumThreads()
    seen = []

    class Reader:
        def read(self, image):
            seen.append((os.sched_getaffinity(0), cv2.getNumThreads(), image.shape))
            return []

    times = speed(Reader().read, sizes=((64, 48),), frames=2)
    assert set(times) == {(64, 48)} and times[(64, 48)] >= 0
    assert seen and all(len(c) == 1 and c <= cores and n == 1 and shape == (48, 64, 3)
                        for c, n, shape in seen)
    assert (os.sched_getaffinity(0), cv2.getNumThreads()) == (cores, threads)
    with pytest.raises(RuntimeError), one_core():
        raise RuntimeError("a reader that fails")
    assert (os.sched_getaffinity(0), cv2.getNumThreads()) == (cores, threads)


class Busy:
    """A reader that spends `ms` of CPU on each read, and says when it read."""

    def __init__(self, name: str, ms: float, log: list) -> None:
        self.name, self.ms, self.log = name, ms, log

    def read(self, image):
        self.log.append((self.name, image.tobytes()[:64]))
        end = time.process_time() + self.ms / 1000
        while time.process_time() < end:
            pass
        return []


def test_two_readers_take_turns_on_each_frame_and_the_slower_shows_it():
    log: list = []
    times = frame_times({"slow": Busy("slow", 6.0, log).read, "fast": Busy("fast", 2.0, log).read},
                        sizes=((64, 48),), frames=3)
    # each frame: the first reader's first read and timed reads, then the second's, on the same frame
    per_frame = 2 * (1 + READS)
    assert len(log) == 3 * per_frame
    for k in range(3):
        turn = log[k * per_frame:(k + 1) * per_frame]
        assert [name for name, _ in turn] == ["slow"] * (1 + READS) + ["fast"] * (1 + READS)
        assert len({frame for _, frame in turn}) == 1
    assert len({frame for _, frame in log}) == 3  # three frames, each read by both
    slow, fast = times["slow"][(64, 48)], times["fast"][(64, 48)]
    assert len(slow) == len(fast) == 3
    assert all(s > f for s, f in zip(slow, fast, strict=True))


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    return parser.parse_args(["bench", "speed", *words])


def test_the_command_times_a_reader_against_another_frame_by_frame(capsys):
    if not LearnedReader.available():
        pytest.skip("no committed learned reader")
    assert run(parse("--frames", "1")) == 0
    out = capsys.readouterr().out
    assert f"640x480: median {DATA} " in out and f"1280x720: median {DATA} " in out
    assert "frame by frame" not in out  # one reader: no ratio
    # against itself (the machine's drift between two readers that are the same): told apart by name
    assert run(parse("--against", str(DATA), "--frames", "1")) == 0
    out = capsys.readouterr().out
    assert out.count(f"frame by frame, {DATA} takes") == 2 and f"of {DATA} (again)'s time (median)" in out


@pytest.mark.parametrize("option", ["--models", "--against"])
def test_a_folder_without_a_reader_is_refused_plainly(option, tmp_path, capsys):
    with pytest.raises(SystemExit) as refused:
        parse(option, str(tmp_path))
    assert refused.value.code == 2
    assert f"{option}: no learned reader in {tmp_path}: run 'companion train dice'" in capsys.readouterr().err
