"""The face classifier: its numpy forward pass, its patches, its weights file and its training data."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.faceclass import CLASSES, CROP_SIDES, PATCH, SURE_NOT, WEIGHTS, FaceClassifier, face_patch
from vision.render import DieSpec, render_scene


def test_numpy_forward_gives_what_the_trainer_computed():
    """The shipped weights hold 16 training patches and PyTorch's probabilities for them."""
    with np.load(WEIGHTS) as data:
        inputs, expected = data["check.inputs"], data["check.probs"]
    got = FaceClassifier.default().probabilities(inputs)
    assert got.shape == (16, CLASSES)
    assert np.allclose(got.sum(axis=1), 1.0, atol=1e-5)
    assert np.abs(got - expected).max() < 5e-3  # float16 storage


def test_weights_are_small():
    assert WEIGHTS.stat().st_size < 400 * 1024


def test_a_weights_file_without_a_layer_is_refused(tmp_path):
    path = tmp_path / "bad.npz"
    np.savez(path, **{"conv1.weight": np.zeros((16, 1, 3, 3))})
    with pytest.raises(ValueError, match="conv2.weight"):
        FaceClassifier.load(path)


def _square(angle_deg: float) -> np.ndarray:
    """A 40 px light square turned by angle_deg, centred at (100, 80) on a dark 200 x 160 image."""
    img = np.zeros((160, 200), np.uint8)
    box = cv2.boxPoints(((100, 80), (40, 40), angle_deg)).astype(np.int32)
    cv2.fillPoly(img, [box], 255)
    return img


def test_the_patch_shows_the_face_turned_square_with_a_margin():
    angle = 30.0
    patch = face_patch(_square(angle), 100, 80, 40, math.radians(angle))
    assert patch.shape == (PATCH, PATCH)
    inner = int(PATCH / CROP_SIDES) // 2 - 2  # half the face, in patch px, less a little
    mid = PATCH // 2
    assert patch[mid - inner:mid + inner, mid - inner:mid + inner].min() > 200  # the face, square again
    assert patch[:3].max() < 60 and patch[-3:].max() < 60  # the margin around it


def test_a_mirrored_patch_is_the_patch_mirrored():
    img = np.random.default_rng(3).integers(0, 255, (100, 100), dtype=np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 2)
    plain = face_patch(img, 50, 50, 30).astype(int)
    mirrored = face_patch(img, 50, 50, 30, flip=True).astype(int)
    assert np.abs(mirrored - plain[:, ::-1]).mean() < 2


def test_every_value_of_a_plain_rendered_die_is_told_confidently():
    faces = FaceClassifier.default()
    for value in range(1, 7):
        specs = [DieSpec("d6", "white", value)]
        image, truth = render_scene(np.random.default_rng(value), specs, variations=False)
        x1, y1, x2, y2 = truth[0].box
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        side = (x2 - x1 + y2 - y1) / 2 / 1.2  # about: the box is the turned face's bounding box
        probs = faces.classify(gray, [((x1 + x2) / 2, (y1 + y2) / 2, side, 0.0)])[0]
        assert probs.argmax() == value, (value, probs.round(2))


def test_plain_table_is_not_a_die():
    table = np.full((200, 200), 170, np.uint8)
    probs = FaceClassifier.default().classify(table, [(100, 100, 50, 0.0)])[0]
    assert probs.argmax() == 0


def test_an_unsure_first_look_is_averaged_with_a_look_turned_a_quarter():
    faces = FaceClassifier.default()
    image, truth = render_scene(np.random.default_rng(2), [DieSpec("d6", "white", 2)], variations=False)
    x1, y1, x2, y2 = truth[0].box
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    proposal = ((x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1 + y2 - y1) / 2 / 1.2, 0.0)
    patch = face_patch(gray, *proposal)
    first, turned = faces.probabilities(np.stack([patch, np.rot90(patch)]))
    assert first[0] < SURE_NOT
    assert np.abs(faces.classify(gray, [proposal])[0] - (first + turned) / 2).max() < 1e-6


def test_a_sure_no_is_not_looked_at_again():
    faces = FaceClassifier.default()
    table = np.full((200, 200), 170, np.uint8)
    first = faces.probabilities(face_patch(table, 100, 100, 50)[None])[0]
    assert first[0] >= SURE_NOT
    assert np.abs(faces.classify(table, [(100, 100, 50, 0.0)])[0] - first).max() < 1e-6
