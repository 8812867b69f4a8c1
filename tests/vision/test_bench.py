"""`vision.bench`: several readers read one set, each frame and crop made or loaded once for all of them."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.bench import Label, crops_tally, tallies
from vision.die import Die


def test_every_reader_reads_each_frame_as_it_comes_and_the_frames_are_made_once():
    made, seen = [], []

    def frames():
        for k in range(3):
            made.append(k)
            yield f"frame {k}", np.full((8, 8, 3), k, np.uint8), [Label(k + 1, (0, 0, 7, 7))]

    def reader(name, right):
        def read(image):
            seen.append((name, int(image[0, 0, 0])))
            value = int(image[0, 0, 0]) + 1
            return [Die(value if right else 6, "d6", "white", (0, 0, 7, 7), 0.9)]
        return read

    out = tallies(frames(), {"good": reader("good", True), "bad": reader("bad", False)})
    assert made == [0, 1, 2]  # each frame made once for both readers
    # each frame read READS times (the best of them timed) by one reader, then by the other
    assert seen == [(name, k) for k in range(3) for name in ("good", "bad") for _ in range(bench.READS)]
    assert (out["good"].dice_right, out["good"].dice, out["bad"].dice_right) == (3, 3, 0)
    assert len(out["good"].ms) == len(out["bad"].ms) == 3


def test_each_crop_is_loaded_once_whatever_the_readers(tmp_path, monkeypatch):
    loaded = []
    monkeypatch.setattr(bench, "_read_image", lambda path: loaded.append(path.name) or np.zeros((9, 9, 3),
                                                                                                np.uint8))
    rows = [{"crop": "a.png", "value": "5"}, {"crop": "b.png", "value": "2"}]
    five = lambda image: Die(5, "d6", "red", (0, 0, 8, 8), 0.9)  # noqa: E731
    nothing = lambda image: None  # noqa: E731
    out = crops_tally(tmp_path, rows, {"fives": five, "nothing": nothing})
    assert loaded == ["a.png", "b.png"]
    assert (out["fives"].dice_right, out["fives"].dice, out["fives"].missed) == (1, 2, 0)
    assert (out["nothing"].dice_right, out["nothing"].missed) == (0, 2)
    assert out["fives"].wrong == ["b.png: want 2 got 5 extra []"]
