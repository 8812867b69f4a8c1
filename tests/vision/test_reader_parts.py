"""Parts of the dice reader on hand-made pips: what counts as clutter on a face, and fits read on a
halved copy of the frame."""

from __future__ import annotations

from vision.dice import _crowding, _marks, _scaled, _uncluttered
from vision.faces import fit_layout
from vision.pips import Pip

PITCH = 12.0  # px between pip slots of the hand-made 6 below


def _pip(x: float, y: float, solidity: float = 0.95, elongation: float = 1.05) -> Pip:
    return Pip(x, y, diameter=8.0, area=50, polarity=-1, contrast=60.0, elongation=elongation,
               solidity=solidity)


def _clutter(fit, pips: list[Pip], value: int) -> float:
    return _uncluttered(fit, _crowding([fit], _marks(pips))[0], value)


def _six(solidity: float = 0.95) -> list[Pip]:
    return [_pip(100 + dx * PITCH, 100 + dy * PITCH, solidity) for dx in (-1, 1) for dy in (-1, 0, 1)]


def test_the_rest_of_a_six_is_not_clutter_when_the_face_reads_six():
    six = _six()
    fit = fit_layout([six[0], six[5]])  # only the diagonal was grouped: a 2 as wide as the 6
    assert fit is not None and fit.value == 2
    assert _clutter(fit, six, 6) == 1.0
    assert _clutter(fit, six, 2) == 0.0  # as a 2, four strong marks crowd it


def test_letters_around_dots_are_clutter_whatever_the_value():
    letters = _six(solidity=0.5)  # glyphs: strong marks, but not solid round spots
    fit = fit_layout([_pip(88, 88), _pip(112, 112)])
    assert _clutter(fit, [*fit.pips, *letters[1:5]], 6) == 0.0


def test_a_fit_from_a_halved_copy_is_given_in_frame_pixels():
    fit = fit_layout([_pip(50, 50), _pip(62, 62)])
    big = _scaled(fit, 2)
    assert (big.cx, big.cy) == (2 * fit.cx, 2 * fit.cy)
    assert abs(big.side - 2 * fit.side) < 1e-9
    assert [p.diameter for p in big.pips] == [16.0, 16.0]


def test_spots_of_a_halved_copy_are_given_in_frame_pixels():
    row = _marks([_pip(50, 40)], scale=2)[0]
    assert row[[0, 1, 3]].tolist() == [100, 80, 16]  # x, y, diameter
    assert row[[2, 5, 6]].tolist() == [60.0, 1.05, 0.95]  # contrast and shape do not scale
