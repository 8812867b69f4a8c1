"""Parts of the face grouping on hand-made images: the die body beside pips, and whether two pips
are joined by it."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.faces import Pairing, body_colours, body_levels, group_pips
from vision.pips import Pip, _upper_quartile


def test_body_level_and_colour_are_read_beside_each_pip() -> None:
    """A white die (grey 200, BGR 190/200/210) with black pips on a dark table: the body is read on a
    ring just outside each pip, even where the ring falls partly on a neighbouring pip or the table."""
    frame = np.zeros((80, 120, 3), np.uint8)
    frame[10:70, 10:70] = (190, 200, 210)
    pips = [Pip(25.0, 25.0, 8.0, 50, -1, 120.0, 1.0), Pip(31.0, 25.0, 8.0, 50, -1, 120.0, 1.0),
            Pip(14.0, 40.0, 8.0, 50, -1, 120.0, 1.0)]  # two pips side by side; one at the die's edge
    for p in pips:
        frame[int(p.y) - 3:int(p.y) + 4, int(p.x) - 3:int(p.x) + 4] = 0
    gray = np.ascontiguousarray(frame[:, :, 1])
    levels = body_levels(gray, pips)
    assert np.allclose(levels, 200)
    assert np.allclose(body_colours(frame, pips, levels), (190, 200, 210))


def test_pips_are_grouped_when_die_body_joins_them() -> None:
    """Two dark pips on a light body are one face; a dark seam between them makes two dice, unless a
    pip of the face covers it."""
    gray = np.full((40, 80), 200, np.uint8)
    a, b, middle = (Pip(x, 20.0, 6.0, 28, -1, 60.0, 1.0) for x in (10.0, 30.0, 20.0))
    for p in (a, b):
        gray[17:24, int(p.x) - 3:int(p.x) + 4] = 40
    assert group_pips(gray, [a, b]) == [[a, b]]
    gray[:, 20] = 40  # a dark seam between the two pips: two dice
    assert group_pips(gray, [a, b]) == [[a], [b]]
    gray[17:24, 17:24] = 40  # the seam was under a pip of the face
    assert group_pips(gray, [a, middle, b]) == [[a, middle, b]]


def test_a_pip_squashed_by_a_glint_pairs_loosely_with_a_like_one() -> None:
    """Of a small die's 2, one pip looks squashed (a glint bit its edge): group_pips keeps the two apart,
    as it would a top-face pip and a side-face pip, but loose_pairs pairs them, being alike in size and
    strength on one body. A pip far weaker, or across a dark seam, is still no pair."""
    gray = np.full((40, 80), 200, np.uint8)
    round_ = Pip(10.0, 20.0, 6.0, 28, -1, 60.0, 1.0)
    bitten = Pip(30.0, 20.0, 6.0, 24, -1, 60.0, 1.6, axis=1.2)
    for p in (round_, bitten):
        gray[17:24, int(p.x) - 3:int(p.x) + 4] = 40
    assert group_pips(gray, [round_, bitten]) == [[round_], [bitten]]
    assert Pairing(gray, [round_, bitten]).loose_pairs([round_, bitten]) == [(round_, bitten)]
    faint = Pip(30.0, 20.0, 6.0, 24, -1, 45.0, 1.6, axis=1.2)  # pairs in group_pips' 1.5, not in 1.25
    assert Pairing(gray, [round_, faint]).loose_pairs([round_, faint]) == []
    gray[:, 20] = 40  # a dark seam between the two pips: two dice
    assert Pairing(gray, [round_, bitten]).loose_pairs([round_, bitten]) == []


def test_upper_quartile_is_numpys_percentile() -> None:
    rng = np.random.default_rng(1)
    for n in range(1, 200):
        values = rng.integers(-300, 300, n).astype(np.int16)
        assert _upper_quartile(values) == float(np.percentile(values, 75))


def test_pips_on_dice_of_two_hues_are_not_grouped_however_alike_their_levels() -> None:
    """A red die touching a dark grey one, white pips on both: their bodies' grey levels and colours are
    near enough for the white pips' strong contrast, but their hues are not (the red 2 of rendered scene
    639 joined a black 6's pips). Lit or in shade, one die keeps its hue."""
    frame = np.zeros((40, 80, 3), np.uint8)
    frame[:, :40] = (40, 44, 162)  # red: grey level 79
    frame[:, 40:] = (60, 60, 60)
    pips = [Pip(x, 20.0, 8.0, 50, 1, 150.0, 1.0) for x in (25.0, 55.0)]
    for p in pips:
        frame[16:25, int(p.x) - 4:int(p.x) + 5] = 250
    def grey(frame: np.ndarray) -> np.ndarray:
        return (frame @ np.array([0.114, 0.587, 0.299])).round().astype(np.uint8)

    assert group_pips(grey(frame), pips) == [pips]  # grey levels alone cannot tell
    assert group_pips(grey(frame), pips, frame=frame) == [[p] for p in pips]
    frame[:, 40:] = (30, 33, 122)  # the same red in shade
    assert group_pips(grey(frame), pips, frame=frame) == [pips]


def test_a_squashed_pip_in_shade_beside_a_pip_is_a_side_face_s_not_a_2() -> None:
    """An oblique 1: its pip, and below it a pip of its side face, more squashed (across the way from
    the 1's pip) on the body in shade. The camera's slant stretches both pips the same way, so their
    shapes alone would join them as a 2; the shade keeps them apart. On an even body, or round, or
    drawn out along the way between them (a glint, a slide), the two are one face."""
    def photo(shade: int) -> np.ndarray:
        gray = np.full((120, 100), 200, np.uint8)
        gray[60:] = shade  # the side face below the top face
        cv2.circle(gray, (50, 45), 4, 40, -1)
        cv2.ellipse(gray, (50, 75), (5, 3), 0, 0, 360, 40, -1)
        return gray

    pip = Pip(50.0, 45.0, 8.0, 50, -1, 150.0, 1.35, axis=0.2)
    squashed = Pip(50.0, 75.0, 8.0, 40, -1, 140.0, 1.6, axis=0.0)  # long axis along x, across the way
    assert group_pips(photo(180), [pip, squashed]) == [[pip], [squashed]]  # shade 0.9
    assert Pairing(photo(180), [pip, squashed]).loose_pairs([pip, squashed]) == []  # nor a loose pair
    assert Pairing(photo(200), [pip, squashed]).loose_pairs([pip, squashed]) == [(pip, squashed)]
    assert group_pips(photo(200), [pip, squashed]) == [[pip, squashed]]  # one body: a 2
    assert group_pips(photo(180), [pip, replace(squashed, elongation=1.45)]) == [
        [pip, replace(squashed, elongation=1.45)]]  # about as round: a 2
    along = replace(squashed, axis=math.pi / 2)
    assert group_pips(photo(180), [pip, along]) == [[pip, along]]
