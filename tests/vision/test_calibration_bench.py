"""`companion bench calibration`: its scoring, and the figures it prints."""

from __future__ import annotations

from collections import Counter

from companion.cli import main
from vision import calibration_bench
from vision.die import Die
from vision.render import TruthDie


def _truth(value, box):
    return TruthDie(value=value, kind="d6", colour="white", box=box)


def test_each_true_die_matches_one_reading_and_readings_off_every_die_are_false():
    truth = [_truth(3, (10, 10, 40, 40)), _truth(5, (100, 10, 130, 40))]
    dice = [Die(3, "d6", "white", (12, 12, 38, 38), 0.9),  # right
            Die(1, "d6", "white", (20, 20, 30, 30), 0.9),  # a second reading of the same die: false
            Die(6, "d6", "white", (102, 12, 128, 38), 0.9),  # on the 5, read wrong
            Die(1, "d6", "black", (300, 300, 310, 310), 0.9)]  # a printed dot: false
    assert calibration_bench.score(dice, truth) == (1, 2)


def test_bench_calibration_prints_refusals_and_both_readers_figures(monkeypatch, capsys):
    result = {"tables": 4, "refused": Counter({"found 4 dice, you typed 3 values": 1}), "dice": 20,
              "photos": 15, "plain": [18, 30], "calibrated": [18, 2]}
    seen = {}

    def measure(reader, tables, later):
        seen.update(tables=tables, later=later)
        return result

    monkeypatch.setattr(calibration_bench, "measure", measure)
    monkeypatch.setattr(calibration_bench.LearnedReader, "default", classmethod(lambda cls: None))
    assert main(["bench", "calibration", "--tables", "4", "--later", "3"]) == 0
    out = capsys.readouterr().out
    assert seen == {"tables": 4, "later": 3}
    assert "calibrations refused: 1" in out and "1 x found 4 dice, you typed 3 values" in out
    assert "plain:                dice right 18/20 (90.0 %), false dice 30 in 15 photos" in out
    assert "calibrated:           dice right 18/20 (90.0 %), false dice 2 in 15 photos" in out
