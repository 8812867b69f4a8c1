"""The dice reader on seeded rendered scenes: thresholds sit just under the measured accuracy, so a
regression fails them."""

import cv2
import numpy as np
import pytest

from vision.bench import Label, match
from vision.dice import _proposals, read_dice
from vision.render import DieSpec, render_scene
from vision.treehouse import TreehouseTemplates

TEMPLATES = TreehouseTemplates.default()


def _score(seeds, variations=True):
    right = total = wrong_conf = 0
    confidences_right, confidences_wrong = [], []
    for seed in seeds:
        image, truth = render_scene(np.random.default_rng(seed), variations=variations)
        dice = read_dice(image, treehouse=TEMPLATES)
        paired, _ = match([Label(t.value, t.box, t.kind) for t in truth], dice)
        for t, d in zip(truth, paired, strict=True):
            total += 1
            if d is not None and d.value == t.value and d.kind == t.kind:
                right += 1
                confidences_right.append(d.confidence)
            elif d is not None and d.value != t.value:  # honesty is about the value read
                wrong_conf += 1
                confidences_wrong.append(d.confidence)
    return right / total, confidences_right, confidences_wrong


def _read_scene(seed: int) -> list:
    """(truth, die read or None) for each die of the seeded scene."""
    image, truth = render_scene(np.random.default_rng(seed))
    paired, _ = match([Label(t.value, t.box, t.kind) for t in truth], read_dice(image, treehouse=TEMPLATES))
    return list(zip(truth, paired, strict=True))


def test_reader_reads_clean_rendered_scenes():
    accuracy, _, _ = _score(range(1000, 1040), variations=False)
    assert accuracy >= 0.96


def test_reader_reads_rendered_scenes_with_every_variation():
    accuracy, right, wrong = _score(range(2000, 2060))
    assert accuracy >= 0.94  # measured 0.9471 (misses and grey-vs-d6 kinds more than values)
    # honest confidence: wrong readings are, on average, much less sure than right ones
    if wrong:
        assert np.mean(wrong) < np.mean(right) - 0.15


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("style", ["white", "black", "yellow", "red", "translucent-blue"])
def test_each_face_of_each_colour_is_read(value, style):
    image, truth = render_scene(np.random.default_rng(value), [DieSpec("d6", style, value)], variations=False)
    dice = read_dice(image)
    assert [d.value for d in dice] == [value]
    assert dice[0].confidence > 0.5
    x1, y1, x2, y2 = truth[0].box
    cx, cy = (dice[0].box[0] + dice[0].box[2]) / 2, (dice[0].box[1] + dice[0].box[3]) / 2
    assert x1 <= cx <= x2 and y1 <= cy <= y2


def test_grey_die_is_told_from_d6_by_size_and_colour():
    specs = [DieSpec("d6", "white", 5), DieSpec("d6", "black", 6), DieSpec("grey", "grey", 3)]
    image, _ = render_scene(np.random.default_rng(8), specs, variations=False, side_px=56)
    kinds = sorted((d.kind, d.value) for d in read_dice(image))
    assert kinds == [("d6", 5), ("d6", 6), ("grey", 3)]


@pytest.mark.parametrize("seed", [444, 607])
def test_a_small_2_with_glints_on_its_pips_is_read(seed):
    # a glint bites one small pip's edge, so the pair looked like a top-face pip beside a side-face one
    scene = _read_scene(seed)
    read = [d and (d.kind, d.value) for t, d in scene if t.kind == "grey"]
    assert ("grey", 2) in read


@pytest.mark.parametrize("seed", [541, 616, 915])
def test_a_second_look_settles_what_one_look_misread(seed):
    # 541: print read as a 1 and a 2, then a key's "w" as a 1; 915: a side face read as a 6; 616: a
    # yellow 5 the first look doubted
    image, truth = render_scene(np.random.default_rng(seed))
    dice = read_dice(image, treehouse=TEMPLATES)
    paired, extra = match([Label(t.value, t.box, t.kind) for t in truth], dice)
    assert [d and (d.kind, d.value) for d in paired] == [(t.kind, t.value) for t in truth]
    assert extra == []


@pytest.mark.parametrize("seed", [550, 668])
def test_a_face_whose_pips_were_found_in_part_is_read_at_the_size_of_the_others(seed):
    # a yellow 6: its pips never made one group, so no proposal had the face's size
    scene = _read_scene(seed)
    assert [d and d.value for t, d in scene if t.colour == "yellow" and t.value == 6] == [6]


@pytest.mark.parametrize("seed, colour", [(271, "grey"), (357, "yellow")])
def test_a_2_touching_a_die_of_another_colour_is_no_side_face_of_it(seed, colour):
    # its pips, bitten by glints, looked squashed beside a yellow 6 (271) or a white 3 (357); but a side
    # face keeps its top face's hue
    scene = _read_scene(seed)
    twos = [d and d.value for t, d in scene if t.colour == colour and t.value == 2]
    assert twos == [2]


def test_a_pip_touching_its_dies_dark_outline_is_found():
    # seed 926: a grey 2 on white paper; one pip touches the die's outline, and the two made one thin
    # blob (0.27 of its box) that was no pip, nor split into one
    scene = _read_scene(926)
    assert [d and (d.kind, d.value) for t, d in scene if t.kind == "grey"] == [("grey", 2)]


def _greys(seed: int) -> tuple[list, list]:
    """What was read for each grey die of the seeded scene ((kind, value) or None), and what each is."""
    grey = [(t, d) for t, d in _read_scene(seed) if t.kind == "grey"]
    return [d and (d.kind, d.value) for _, d in grey], [("grey", t.value) for t, _ in grey]


@pytest.mark.parametrize("seed", [98, 489, 592])
def test_a_grey_die_whose_pips_glare_ate_is_read_from_its_body(seed):
    # a glint on each of the grey die's small dark pips leaves one pip or none to group: its face is found
    # as the square of its body's colour round the one pip that is left
    read, truth = _greys(seed)
    assert read == truth


@pytest.mark.parametrize("seed", [555, 652, 861])
def test_a_grey_face_whose_pips_bite_its_edges_is_read_from_its_body(seed):
    # glare draws the grey die's pips out until they cut into its face's edges: its outline is no square,
    # its hull is
    read, truth = _greys(seed)
    assert read == truth


def test_a_grey_face_read_from_its_body_is_no_side_face_of_the_white_die_beside_it():
    # seed 659: a grey 4 touching a white 3; one of its pips was read as a side face's of the 3, and its
    # other pips, drawn out by glare, as clutter
    scene = _read_scene(659)
    assert [d and (d.kind, d.value) for t, d in scene if t.kind == "grey" and t.value == 4] == [("grey", 4)]


def test_a_grey_face_read_from_its_body_is_judged_by_its_best_pip():
    # seed 557: the grey 3's pip the body look started from is drawn out by glare; its middle pip is round
    scene = _read_scene(557)
    assert [d and (d.kind, d.value) for t, d in scene if t.kind == "grey"] == [("grey", 3)]


@pytest.mark.parametrize("seed, kind, value", [(193, "grey", 2), (857, "d6", 2)])
def test_a_die_touching_a_white_one_is_no_side_face_of_it(seed, kind, value):
    # 193: a grey 2 against a white 4's corner, its pips far smaller than the 4's; 857: a white 2 beside a
    # white 4, its pips bitten by glints so they look squashed. Either is what a side face at a slant
    # shows, but each lies on a square of its own colour
    scene = _read_scene(seed)
    read = [d and (d.kind, d.value) for t, d in scene if t.kind == kind and t.value == value]
    assert read and all(r == (kind, value) for r in read)


def test_a_5_joined_to_a_stronger_pip_of_a_touching_die_is_read():
    # seed 259: a green 5 above a black die, one of whose white pips joined the 5's group
    scene = _read_scene(259)
    assert [d and d.value for t, d in scene if t.colour == "green"] == [5]


def test_a_4_whose_group_took_in_a_letter_is_read():
    # seed 126: a white 4 on printed paper; a letter joined its pips' group
    scene = _read_scene(126)
    assert [d and d.value for t, d in scene if t.colour == "white"] == [4]


def test_a_die_whose_surest_reading_is_out_of_scale_is_read_from_the_next():
    # seed 681: a green 2's pips differ in strength and were not paired; one pip read as a small 1 spoke
    # for the die, then was dropped as far smaller than the set, and the 2 it had beaten went with it
    scene = _read_scene(681)
    assert [d and d.value for t, d in scene if t.colour == "green"] == [2]


def test_a_2_whose_pips_joined_a_touching_3s_is_read():
    # seed 748: a red 2 with large pips touching a red 3; the 3 fitted without them, and each was a 1
    scene = _read_scene(748)
    assert [d and d.value for t, d in scene if t.colour == "red" and t.value == 2] == [2]


@pytest.mark.parametrize("face", ["AIM", "TIP", "HOP", "DIG", "SWAP", "WILD"])
def test_treehouse_die_is_read_with_the_default_templates(face):
    image, _ = render_scene(np.random.default_rng(4), [DieSpec("treehouse", "treehouse", face)],
                            variations=False, side_px=60)
    dice = read_dice(image, treehouse=TEMPLATES)
    assert [(d.kind, d.value) for d in dice] == [("treehouse", face)]


@pytest.mark.parametrize("seed", [625, 720])
def test_a_treehouse_symbol_is_no_pip_of_a_face_around_it(seed):
    # 720: a black 1 touching the WILD die (pip and star made a 2); 625: the HOP die beside keys
    image, truth = render_scene(np.random.default_rng(seed))
    dice = read_dice(image, treehouse=TEMPLATES)
    paired, _ = match([Label(t.value, t.box, t.kind) for t in truth], dice)
    for t, d in zip(truth, paired, strict=True):
        if t.kind == "treehouse" or t.value == 1:
            assert d is not None and (d.kind, d.value) == (t.kind, t.value)


def test_empty_table_with_clutter_gives_no_confident_die():
    confident = 0
    for seed in range(30):
        image, _ = render_scene(np.random.default_rng(seed), [])
        confident += sum(d.confidence >= 0.5 for d in read_dice(image, treehouse=TEMPLATES))
    assert confident <= 3  # printed "o o" can still pass for a 2 (a known weakness)


def test_reader_refuses_what_is_not_a_bgr_image():
    with pytest.raises(ValueError):
        read_dice(np.zeros((10, 10), np.uint8))


def test_a_large_photo_is_read_and_boxed_in_its_own_pixels():
    import cv2

    specs = [DieSpec("d6", "white", 5), DieSpec("d6", "red", 3)]
    image, truth = render_scene(np.random.default_rng(5), specs, variations=False)
    big = cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)  # 1920 x 1440
    dice = read_dice(big)
    paired, extra = match([Label(t.value, tuple(3 * v for v in t.box), t.kind) for t in truth], dice)
    assert not extra and [d.value for d in paired] == [t.value for t in truth]


@pytest.mark.parametrize("side", [100, 150, 220])
def test_dice_near_the_camera_are_read_on_a_halved_copy(side):
    """Pips of 17..55 px are beyond the pip finder at full size (a phone photo, a low mount)."""
    specs = [DieSpec("d6", "white", 5), DieSpec("d6", "red", 2)]
    image, truth = render_scene(np.random.default_rng(side), specs, variations=False, side_px=side)
    dice = read_dice(image)
    paired, extra = match([Label(t.value, t.box, t.kind) for t in truth], dice)
    assert not extra and [d.value if d else None for d in paired] == [t.value for t in truth]


def test_dice_of_every_size_in_cluttered_scenes():
    """Accuracy over the sizes a table companion meets: thresholds just under the measured figures."""
    right = total = 0
    for seed in range(40):
        rng = np.random.default_rng(3000 + seed)
        side = float(rng.uniform(28, 160))
        image, truth = render_scene(rng, int(rng.integers(1, 4)), side_px=side)
        dice = read_dice(image, treehouse=TEMPLATES)
        paired, _ = match([Label(t.value, t.box, t.kind) for t in truth], dice)
        total += len(truth)
        right += sum(d is not None and d.value == t.value and d.kind == t.kind
                     for t, d in zip(truth, paired, strict=True))
    assert right / total >= 0.95  # measured 79 of 81


def test_spots_reached_by_two_routes_are_proposed_once():
    # a pip dropped from a group is proposed as a 1, and so is each pip of a 2: the classifier reads it once
    for seed in range(10):
        image, _ = render_scene(np.random.default_rng(seed))
        fits, _, _ = _proposals(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), image)
        spots = [tuple(map(id, f.pips)) for f in fits]
        assert len(spots) == len(set(spots)), seed
