"""The side-by-side bench counts how often a sure reading is right, false dice included."""

from __future__ import annotations

from vision.bench import Label, Tally, score_photo
from vision.die import Die
from vision.sidebyside import Scores, heading


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


def test_a_tally_of_values_alone_counts_a_die_of_the_wrong_kind_right():
    labels = [Label(3, (0, 0, 20, 20), "grey"), Label(5, (100, 100, 120, 120))]
    dice = [Die(3, "d6", "white", (0, 0, 20, 20), 0.95), Die(5, "d6", "white", (100, 100, 120, 120), 0.9)]
    with_kinds, values_alone = Tally(), Tally(kinds=False)
    paired, extra = score_photo(with_kinds, "photo", labels, dice)
    score_photo(values_alone, "photo", labels, dice)
    assert (paired, extra) == (dice, [])
    assert (with_kinds.dice_right, with_kinds.photos_right) == (1, 0)
    assert (values_alone.dice_right, values_alone.photos_right) == (2, 1)


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


def test_a_set_that_leaves_dice_unlabelled_says_its_false_dice_may_be_real():
    assert heading("wood-white-train", 70) == "wood-white-train, measured part: 70 frames"
    phone = heading("phone-tables-train", 97).splitlines()
    assert phone[0] == "phone-tables-train, measured part: 97 frames" and "leave some dice out" in phone[1]


def test_a_rendered_scenes_labels_are_its_dice_as_the_scene_knows_them():
    import numpy as np

    from vision.bench import truth_labels
    from vision.scenes import random_scene

    kinds = set()
    for k in range(12):
        _, truth = random_scene(np.random.default_rng(k))
        labels = truth_labels(truth)
        assert [(lb.value, lb.box, lb.kind, lb.colour) for lb in labels] == \
            [(t.value, t.box, t.kind, t.colour) for t in truth]
        kinds |= {lb.kind for lb in labels}
    assert len(kinds) > 1  # not only d6s: the other dice keep their kinds


def test_on_sets_that_know_the_dice_colours_the_colour_names_of_the_dice_found_are_counted():
    labels = [Label(3, (0, 0, 20, 20), "d6", "cream"), Label(5, (100, 100, 120, 120), "d6", "red"),
              Label(2, (200, 200, 220, 220), "d6", "blue")]
    dice = [Die(3, "d6", "white", (0, 0, 20, 20), 0.95),  # found, the wrong colour name
            Die(4, "d6", "red", (100, 100, 120, 120), 0.9)]  # found, misread, the right colour name
    scores = Scores(threshold=0.8)
    scores.score("scene", labels, dice)  # the blue die is not found: its colour is not counted
    assert (scores.coloured, scores.colour_right) == (2, 1)
    assert scores.line().endswith("colours  50.00 % (1/2)")
    photo = Scores(threshold=0.8)
    photo.score("photo", [Label(3, (0, 0, 20, 20))], dice[:1])  # a photo's labels know no colours
    assert photo.coloured == 0 and "colours" not in photo.line()
