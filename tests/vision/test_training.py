"""The training data of the face classifier, and (where PyTorch is installed) a short training run."""

from __future__ import annotations

import numpy as np
import pytest

from vision import training
from vision.faceclass import CLASSES, PATCH, FaceClassifier


def test_rendered_scenes_give_patches_of_every_class():
    out = training.Samples()
    training.render_samples(out, np.random.default_rng(0), scenes=12, copies=2)
    patches, classes = out.arrays()
    assert patches.shape[1:] == (PATCH, PATCH) and patches.dtype == np.uint8
    assert len(patches) == len(classes)
    assert set(classes.tolist()) == set(range(CLASSES))  # faces 1..6 and things that are no face


def test_samples_are_labelled_by_the_nearest_die():
    """A proposal on a die gets its value; proposals far from every die get 0."""
    from vision.render import DieSpec, render_scene

    image, truth = render_scene(np.random.default_rng(5), [DieSpec("d6", "white", 4)], variations=False)
    x1, y1, x2, y2 = truth[0].box
    out = training.Samples()
    centre = ((x1 + x2) / 2, (y1 + y2) / 2, 4)
    training.photo_samples(out, np.random.default_rng(0), image, [centre], copies=3)
    assert out.classes and set(out.classes) <= {0, 4} and 4 in out.classes
    out = training.Samples()  # the same die, labelled as lying elsewhere: all its proposals are negatives
    training.photo_samples(out, np.random.default_rng(0), image, [(5.0, 5.0, 4)], copies=3)
    assert set(out.classes) <= {0, 4} and out.classes.count(0) >= 1


def test_hold_out_keeps_every_other_photo():
    train, held = training.split([f"p{i}" for i in range(7)], hold_out=True)
    assert train == ["p0", "p2", "p4", "p6"] and held == ["p1", "p3", "p5"]
    assert training.split(["a", "b"], hold_out=False) == (["a", "b"], [])


def test_a_short_training_gives_weights_the_reader_loads(tmp_path):
    pytest.importorskip("torch")
    out = training.Samples()
    training.render_samples(out, np.random.default_rng(1), scenes=6, copies=2)
    params = training.train(*out.arrays(), epochs=1, seed=0, log=lambda *_: None)
    path = tmp_path / "faces.npz"
    training.save(params, path)
    faces = FaceClassifier.load(path)
    with np.load(path) as data:
        assert np.abs(faces.probabilities(data["check.inputs"]) - data["check.probs"]).max() < 5e-3
