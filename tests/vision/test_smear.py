"""Smears along a line (`vision.smear`): drawn, and taken out again so that pips come back round."""

from __future__ import annotations

import math
from statistics import median

import cv2
import numpy as np

from vision.pips import find_pips
from vision.smear import line_kernel, smear, unsmeared


def _pips_on_white() -> np.ndarray:
    """A light face (BGR) with four dark round pips 10 px wide, 24 px apart."""
    img = np.full((120, 120, 3), 215, np.uint8)
    for x in (48, 72):
        for y in (48, 72):
            cv2.circle(img, (x, y), 5, (30, 30, 30), -1, cv2.LINE_AA)
    return img


def _drawn_out(img: np.ndarray) -> float:
    """Median elongation (major / minor axis) of the dark pips found in img."""
    pips = [p for p in find_pips(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)) if p.polarity < 0]
    assert pips
    return median(p.elongation for p in pips)


def test_the_kernel_is_a_line_of_the_length_and_direction_asked():
    kernel = line_kernel(9, -30.0)
    assert abs(kernel.sum() - 1) < 1e-5
    ys, xs = np.nonzero(kernel > 0.02)
    length = math.hypot(xs.max() - xs.min(), ys.max() - ys.min())
    assert 7 <= length <= 11
    # turned clockwise on screen: down and to the right in image rows (y grows downwards)
    assert np.corrcoef(xs, ys)[0, 1] > 0.9


def test_pips_smeared_by_a_move_come_back_round():
    sharp = _pips_on_white()
    smeared = smear(sharp, 12, -30.0)  # `smear` turns its line counter-clockwise on screen: down-right here
    assert _drawn_out(smeared) > 1.5
    assert _drawn_out(unsmeared(smeared, 12, math.radians(30))) < 1.25


def test_the_wrong_direction_leaves_the_pips_drawn_out():
    smeared = smear(_pips_on_white(), 12, -30.0)
    assert _drawn_out(unsmeared(smeared, 12, math.radians(-60))) > 1.4


def test_a_grey_image_keeps_its_shape_and_type():
    gray = cv2.cvtColor(smear(_pips_on_white(), 10, 0.0), cv2.COLOR_BGR2GRAY)
    out = unsmeared(gray, 10, 0.0)
    assert out.shape == gray.shape and out.dtype == np.uint8
