"""The domain-randomised scene generator: seeded, truthful, and as varied as the issue asks."""

from __future__ import annotations

import math

import numpy as np

from vision.scenes import COLOUR_NAMES, body_colour, cube_faces, pip_colour, random_die, random_scene


def test_same_seed_gives_the_same_scene_and_truth():
    a, truth_a = random_scene(np.random.default_rng(21))
    b, truth_b = random_scene(np.random.default_rng(21))
    assert np.array_equal(a, b) and truth_a == truth_b


def test_every_die_in_the_truth_lies_inside_the_frame_at_its_size():
    for seed in range(6):
        image, truth = random_scene(np.random.default_rng(seed), 640, 480, die_px=40, count=5)
        assert image.shape == (480, 640, 3) and image.dtype == np.uint8
        assert 1 <= len(truth) <= 5
        for t in truth:
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 480
            assert 0.6 * 40 <= max(x2 - x1, y2 - y1) <= 1.5 * 40 * 1.05
            assert t.colour in COLOUR_NAMES


def test_a_tilted_camera_shows_side_faces_and_a_straight_one_does_not():
    assert [name for name, _ in cube_faces(100, 100, 40, 0.3, 0.0)] == ["top"]
    tilted = cube_faces(100, 100, 40, 0.3, math.radians(40))
    assert tilted[-1][0] == "top" and 1 <= sum(name == "side" for name, _ in tilted) <= 2
    top = tilted[-1][1]
    assert np.ptp(top[:, 1]) < np.ptp(top[:, 0])  # seen at a slant, the top face looks squashed


def test_pips_always_show_on_their_body():
    rng = np.random.default_rng(0)
    for name in COLOUR_NAMES:
        for _ in range(20):
            body = body_colour(rng, name)
            pip = pip_colour(rng, body)
            assert np.linalg.norm(np.subtract(pip, body, dtype=float)) > 60


def test_dice_come_in_every_kind_colour_and_finish():
    rng = np.random.default_rng(1)
    dice = [random_die(rng) for _ in range(600)]
    assert {d.kind for d in dice} == {"d6", "grey", "treehouse"}
    assert {d.colour for d in dice} == set(COLOUR_NAMES)
    assert any(d.alpha < 1 for d in dice) and any(d.marble for d in dice) and any(d.glitter for d in dice)
    assert all(d.value in (1, 2, 3, 4) for d in dice if d.kind == "grey")


def test_held_out_renders_use_frames_and_a_surface_training_never_draws(monkeypatch):
    from vision import scenes

    assert not set(scenes.HELD_OUT_SIZES) & set(scenes.SIZES)
    for seed in range(3):
        image, truth = random_scene(np.random.default_rng(seed), held_out=True)
        assert (image.shape[1], image.shape[0]) in scenes.HELD_OUT_SIZES and truth
    tiled = []
    real_floor = scenes._tiled_floor
    monkeypatch.setattr(scenes, "_tiled_floor", lambda *a: tiled.append(1) or real_floor(*a))
    for seed in range(20):
        scenes.table(np.random.default_rng(seed), 120, 160, 20, held_out=True)
    assert 4 <= len(tiled) <= 16  # about half the held-out tables
    before = len(tiled)
    for seed in range(20):
        scenes.table(np.random.default_rng(seed), 120, 160, 20)
    assert len(tiled) == before  # training's tables are never tiled floors
