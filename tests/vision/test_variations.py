"""Photos varied as another camera or room would take them: the labelled boxes move with the dice."""

import numpy as np
import pytest

from vision.variations import VARIATIONS


def _marked() -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A dark 480 x 640 photo with one white patch, and the patch's box (x1, y1, x2, y2), inclusive."""
    image = np.full((480, 640, 3), 40, np.uint8)
    box = (100, 300, 159, 339)
    image[box[1]:box[3] + 1, box[0]:box[2] + 1] = 250
    return image, box


def _patch_box(image: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(image.max(axis=2) > 150)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


@pytest.mark.parametrize("name", sorted(VARIATIONS))
def test_the_box_moves_with_the_patch(name):
    image, box = _marked()
    varied, (moved,) = VARIATIONS[name](image, [box])
    assert varied.dtype == np.uint8 and varied.shape[2] == 3
    found = _patch_box(varied)
    assert all(abs(a - b) <= 2 for a, b in zip(found, moved, strict=True)), (found, moved)


def test_dim_darkens_mid_greys_and_keeps_black_and_white():
    image = np.array([[[0] * 3, [128] * 3, [255] * 3]], np.uint8)  # black, mid-grey, white
    dim, _ = VARIATIONS["dim"](image, [])
    bright, _ = VARIATIONS["bright"](image, [])
    assert dim[0, 0, 0] == 0 and dim[0, 2, 0] == 255 and dim[0, 1, 0] < 128 < bright[0, 1, 0]


def _spread(image: np.ndarray) -> tuple[float, float]:
    """Major and minor spread (px, standard deviations) of the light a varied point of light lit."""
    weights = image[:, :, 0].astype(float)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    mean = [(weights * c).sum() / weights.sum() for c in (xs, ys)]
    d = np.stack([(xs - mean[0]).ravel(), (ys - mean[1]).ravel()])
    cov = (d * weights.ravel()) @ d.T / weights.sum()
    minor, major = np.sqrt(np.linalg.eigvalsh(cov))
    return float(major), float(minor)


def test_soft_blurs_every_way_and_shaken_smears_one_way():
    point = np.zeros((41, 41, 3), np.uint8)
    point[20, 20] = 255
    major, minor = _spread(VARIATIONS["soft"](point, [])[0])
    assert minor > 1.0 and major < 1.2 * minor  # round
    major, minor = _spread(VARIATIONS["shaken"](point, [])[0])
    assert major > 2.0 and minor < 0.5 * major  # along a line
