"""The pip finder on hand-made images: a column of a 6 blurred into one streak, smeared pips."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.pips import find_pips
from vision.smear import smear


def _streak(draw: Callable[[np.ndarray], object]) -> np.ndarray:
    """A light 120 x 80 px surface with dark marks drawn by `draw(image)`, blurred as a small, soft photo
    blurs a die's pips (Gaussian, sigma 1.5 px)."""
    gray = np.full((80, 120), 200, np.uint8)
    draw(gray)
    return cv2.GaussianBlur(gray, (0, 0), 1.5)


def test_three_pips_blurred_into_one_streak_are_three_pips() -> None:
    """A 6's column of pips 10 px wide, 10 px apart: blur joins them into one even streak that no higher
    threshold parts. The waves along it still show three pips."""
    centres = [(60, 30), (60, 40), (60, 50)]

    def column(gray: np.ndarray) -> None:
        for centre in centres:
            cv2.circle(gray, centre, 5, 100, -1, lineType=cv2.LINE_AA)

    pips = find_pips(_streak(column))
    assert len(pips) == 3
    for (x, y), pip in zip(centres, sorted(pips, key=lambda p: p.y), strict=True):
        assert abs(pip.x - x) < 1 and abs(pip.y - y) < 1
        assert pip.polarity == -1 and pip.elongation < 1.6 and 8 < pip.diameter < 14


def test_a_plain_bar_is_no_pips() -> None:
    """A dark bar as long as that column (a cable, a shadow's edge) has no waves: measured against its
    surroundings it is strongest at its ends, which are not two pips."""
    for length in (14, 15, 16):
        gray = _streak(lambda g, n=length: cv2.rectangle(g, (55, 40 - n), (65, 40 + n), 100, -1))
        assert find_pips(gray) == [], length


def _smeared_pip(length: int) -> np.ndarray:
    """A dark pip 8 px wide on a light die, smeared `length` px sideways as a die still sliding is."""
    gray = np.full((60, 60), 200, np.uint8)
    cv2.circle(gray, (30, 30), 4, 20, -1, lineType=cv2.LINE_AA)
    return smear(gray, length, 0.0)


def test_a_smeared_pip_is_measured_whole_however_far_it_is_smeared() -> None:
    """A smeared pip's bright core sits at its centre: the whole streak is the pip, not its core. (Cut to
    its core at one length and not at the next, one of a 2's two pips was half the other's size.)"""
    sizes = []
    for length in (9, 11, 13):
        [pip] = find_pips(_smeared_pip(length))
        assert abs(pip.x - 30) < 0.5 and abs(pip.y - 30) < 0.5
        sizes.append(pip.diameter)
    assert sizes == sorted(sizes) and sizes[0] > 12


def test_a_pip_grown_into_a_dim_neighbour_is_cut_back_to_its_core() -> None:
    """A dark pip touching a dimmer spot on one side (a ghost pip, the die's edge): the pip is its core."""
    gray = np.full((60, 60), 200, np.uint8)
    cv2.circle(gray, (35, 30), 4, 110, -1, lineType=cv2.LINE_AA)
    cv2.circle(gray, (28, 30), 4, 30, -1, lineType=cv2.LINE_AA)
    [pip] = find_pips(cv2.GaussianBlur(gray, (0, 0), 1.0))
    assert abs(pip.x - 28) < 0.5 and pip.diameter < 10
