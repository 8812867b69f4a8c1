"""The side-by-side bench counts how often a sure reading is right, false dice included."""

from __future__ import annotations

from vision.bench import Label
from vision.dice import Die
from vision.sidebyside import Scores


def test_sure_readings_count_right_wrong_and_false_dice():
    scores = Scores(threshold=0.8)
    labels = [Label(3, (0, 0, 20, 20)), Label(5, (100, 100, 120, 120))]
    dice = [Die(3, "d6", "white", (0, 0, 20, 20), 0.95),  # sure and right
            Die(6, "d6", "white", (100, 100, 120, 120), 0.9),  # sure and wrong
            Die(2, "d6", "white", (300, 300, 320, 320), 0.85),  # sure, and no die there
            Die(1, "d6", "white", (200, 200, 220, 220), 0.4)]  # unsure: not counted
    scores.score("photo", labels, dice)
    assert (scores.sure, scores.sure_right) == (3, 1)
    assert (scores.dice, scores.dice_right, scores.false_dice, scores.photos_right) == (2, 1, 2, 0)
    assert "sure right  33.33 % (1/3)" in scores.line()


def test_the_sure_threshold_is_the_one_the_caller_passes():
    labels = [Label(3, (0, 0, 20, 20))]
    dice = [Die(3, "d6", "white", (0, 0, 20, 20), 0.7)]
    strict, lenient = Scores(threshold=0.8), Scores(threshold=0.6)
    strict.score("photo", labels, dice)
    lenient.score("photo", labels, dice)
    assert (strict.sure, lenient.sure, lenient.sure_right) == (0, 1, 1)


def test_compare_defaults_to_the_tables_confidence_threshold():
    import argparse

    from companion.commands.bench import add_parser
    from companion.settings import Settings

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["bench", "vision", "compare"]).sure == Settings().confidence_threshold
    assert parser.parse_args(["bench", "vision", "compare", "--sure", "0.9"]).sure == 0.9
