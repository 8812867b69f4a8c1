"""`companion bench calibration` and `companion bench colours`: their scoring, and the figures they print."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from companion.cli import main
from vision import calibration_bench, colour_bench
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
              "photos": 15, "plain": [18, 30], "calibrated": [18, 2],
              "calibrated, count": [19, 1]}
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
    assert "calibrated, count:    dice right 19/20 (95.0 %), false dice 1 in 15 photos" in out


@pytest.mark.parametrize("bench", [["calibration"], ["colours"], ["speed"], ["vision", "compare"]])
def test_every_bench_refuses_a_models_folder_that_holds_no_reader_before_it_starts(bench, tmp_path, capsys):
    with pytest.raises(SystemExit) as refused:
        main(["bench", *bench, "--models", str(tmp_path)])
    assert refused.value.code == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err.endswith(
        f"companion bench {' '.join(bench[:1])}: error: argument --models: no learned reader in {tmp_path}: "
        "run 'companion train dice'\n")


def test_bench_colours_pairs_each_die_found_with_the_die_it_was_drawn_as():
    truth = [TruthDie(value=3, kind="d6", colour="cream", box=(10, 10, 40, 40)),
             TruthDie(value=5, kind="d6", colour="red", box=(100, 10, 130, 40)),
             TruthDie(value=2, kind="d6", colour="blue", box=(200, 10, 230, 40))]
    dice = [Die(3, "d6", "white", (12, 12, 38, 38), 0.9),  # found, named in another colour
            Die(6, "d6", "red", (102, 12, 128, 38), 0.9),  # found (read wrong: colours count apart)
            Die(1, "d6", "black", (300, 300, 310, 310), 0.9)]  # a false die: no colour to name
    pairs = colour_bench.found_pairs(dice, truth)
    assert [(t.colour, die.colour) for t, die in pairs] == [("cream", "white"), ("red", "red")]


def test_a_tables_dice_are_of_distinct_colours_and_rethrown_under_one_lamp():
    rng = np.random.default_rng(colour_bench.FIRST_SEED)
    at = colour_bench.Table.drawn(rng)
    assert 2 <= len(at.dice) <= 4 and len({d.colour for d in at.dice}) == len(at.dice)
    empty, none = at.photo(rng, thrown=False)
    first, truth = at.photo(rng)
    again, truth_again = at.photo(rng)
    assert none == [] and empty.shape == at.surface.shape
    assert np.array_equal(at.photo(rng, thrown=False)[0], empty)  # the same lamp and camera: the same light
    assert sorted(t.colour for t in truth) == sorted(t.colour for t in truth_again) == sorted(
        d.colour for d in at.dice)
    assert [t.box for t in truth] != [t.box for t in truth_again]  # thrown again: elsewhere


def test_bench_colours_prints_each_way_and_what_the_reader_alone_confused(monkeypatch, capsys):
    result = {"tables": 4, "refused": Counter({"the dice read 2 5, you typed 2 3": 1}),
              "confused": {"reader alone": Counter({("cream", "white"): 3}), "the game's dice": Counter(),
                           "calibrated": Counter()},
              "reader alone": [20, 17, 19], "the game's dice": [20, 17, 20], "calibrated": [20, 20, 20]}
    monkeypatch.setattr(colour_bench, "measure", lambda reader, tables, rolls: result)
    monkeypatch.setattr(colour_bench.LearnedReader, "default", classmethod(lambda cls: None))
    assert main(["bench", "colours", "--tables", "4", "--rolls", "2"]) == 0
    out = capsys.readouterr().out
    assert "calibrations refused: 1" in out and "1 x the dice read 2 5, you typed 2 3" in out
    assert "reader alone:         named as drawn 17/20 dice found (85.00 %), " \
           "kind right (d6 or grey die) 19 (95.00 %)" in out
    assert "the game's dice:      named as drawn 17/20 dice found (85.00 %), " \
           "kind right (d6 or grey die) 20 (100.00 %)" in out
    assert "calibrated:           named as drawn 20/20 dice found (100.00 %)" in out
    assert "named otherwise: cream as white 3" in out and "named otherwise: none" in out


def test_bench_colours_measures_with_the_committed_reader():
    """The whole bench on its first tables, as the command runs it (a table of 2-4 dice, one roll each)."""
    result = colour_bench.measure(colour_bench.LearnedReader.default(), tables=3, rolls=1)
    assert result["tables"] == 3 and sum(result["refused"].values()) < 3
    for name in colour_bench.READERS:
        found, named, kinds = result[name]
        assert 2 <= found <= 8 and 0 < named <= found and 0 < kinds <= found
