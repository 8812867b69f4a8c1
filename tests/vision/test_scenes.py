"""The domain-randomised scene generator: seeded, truthful, and as varied as the issue asks."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.scenes import (
    COLOUR_NAMES,
    MIN_VISIBLE,
    Placed,
    bases_apart,
    body_colour,
    cube_faces,
    perspective,
    pip_colour,
    random_die,
    random_scene,
    spread,
    uncovered,
)


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


def test_the_truth_holds_the_side_faces_a_tilted_camera_sees_hanging_below_their_top_face():
    tilted = straight = 0
    for seed in range(12):
        _, truth = random_scene(np.random.default_rng(seed), oblique=True)
        for t in truth:
            x1, y1, x2, y2 = t.box
            for sx1, sy1, sx2, sy2 in t.sides:
                assert (sy1 + sy2) / 2 > (y1 + y2) / 2 and sx1 < x2 and sx2 > x1  # below, under it
            tilted += bool(t.sides)
        straight += all(not t.sides for t in truth)
    assert tilted and straight  # some cameras look straight down and see no sides


def bodies(rng: np.random.Generator, each: int = 20):
    """`each` random bodies of every colour name, BGR."""
    for name in COLOUR_NAMES:
        for _ in range(each):
            yield body_colour(rng, name)


def test_pips_always_show_on_their_body():
    rng = np.random.default_rng(0)
    for body in bodies(rng):
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


def test_an_oblique_camera_sees_nearer_dice_larger():
    side_at = perspective(40, 0.5, 480)
    assert math.isclose(side_at(240), 40)
    assert math.isclose(side_at(480) / side_at(0), math.exp(0.5))
    assert perspective(40, 0.0, 480)(0) == perspective(40, 0.0, 480)(480) == 40
    lower_larger = []
    for seed in range(40):
        _, truth = random_scene(np.random.default_rng(seed), 640, 480, die_px=30, count=8, oblique=True)
        if len(truth) >= 4:
            by_height = sorted(truth, key=lambda t: t.box[1])
            side = lambda t: t.box[2] - t.box[0]  # noqa: E731  (a slant squashes heights, not widths)
            half = len(by_height) // 2
            lower_larger.append(np.mean([side(t) for t in by_height[half:]]) /
                                np.mean([side(t) for t in by_height[:half]]))
    assert max(lower_larger) > 1.2  # some scenes have depth
    assert np.median(lower_larger) >= 1.0


def test_a_die_is_put_down_only_where_nearer_dice_leave_most_of_its_top_face():
    rng = np.random.default_rng(3)
    die = random_die(rng, "d6")
    far = Placed(die, 100.0, 100.0, 40.0, 0.0, 0.0)  # its top face spans y 80..120
    # a nearer die whose top starts 4 px into the far one's (a tenth covered) leaves it; 10 px (a quarter) not
    near, nearer = Placed(die, 100.0, 136.0, 40.0, 0.0, 0.0), Placed(die, 100.0, 130.0, 40.0, 0.0, 0.0)
    assert uncovered([far, near]) == [far, near]
    assert uncovered([far, nearer]) == [nearer]
    assert 0.75 < MIN_VISIBLE < 0.9
    # at a slant (top faces 30.6 px high, sides hanging 25.7 px below them) a nearer die may cover a
    # farther one's side faces and keep it: it is the top face that must show
    slant = math.radians(40)
    far = Placed(die, 100.0, 100.0, 40.0, 0.0, slant)
    assert len(uncovered([far, Placed(die, 100.0, 132.0, 40.0, 0.0, slant)])) == 2
    assert len(uncovered([far, Placed(die, 100.0, 122.0, 40.0, 0.0, slant)])) == 1


def nearest(points: list[tuple[float, float, float]], flat: float) -> list[float]:
    """Each die's distance (px on the table) to the nearest other's centre."""
    return [min(math.hypot(x - u, (y - v) / flat) for u, v, _ in points if (u, v) != (x, y))
            for x, y, _ in points]


def standing_apart(points: list[tuple[float, float, float]], side: float, flat: float) -> bool:
    return all(bases_apart((x, y / flat, side, yaw), (u, v / flat, side, turn))
               for i, (x, y, yaw) in enumerate(points) for u, v, turn in points[i + 1:])


def test_two_dice_bases_overlap_only_where_their_squares_on_the_table_do():
    assert bases_apart((0, 0, 10, 0), (10.5, 0, 10, 0))  # face to face, half a px between
    assert not bases_apart((0, 0, 10, 0), (9.5, 0, 10, 0))
    assert not bases_apart((0, 0, 10, 0), (6, 6, 10, 0))  # corner into corner
    diamond = math.pi / 4  # a corner 7.07 px from its centre, pointing at the other die
    assert not bases_apart((0, 0, 10, 0), (11.5, 0, 10, diamond))
    assert bases_apart((0, 0, 10, 0), (12.5, 0, 10, diamond))
    assert bases_apart((0, 0, 10, 0), (12.5, 0, 10, diamond + math.pi / 2))  # a quarter turn is the same


def test_heaped_dice_lie_close_together_yet_stand_apart():
    tilt = math.radians(30)
    heaped, apart = [], []
    for seed in range(10):
        pile = spread(np.random.default_rng(seed), 12, 800, 600, lambda y: 30.0, tilt, heap=True)
        assert len(pile) >= 8
        assert standing_apart(pile, 30, math.cos(tilt))  # standing dice: their bases never overlap
        heaped.append(np.median(nearest(pile, math.cos(tilt))))
        apart.append(np.median(nearest(spread(np.random.default_rng(seed), 12, 800, 600, lambda y: 30.0,
                                              tilt, heap=False), math.cos(tilt))))
    assert np.median(heaped) < 2.0 * 30 < np.median(apart)


def test_huddled_dice_touch_face_to_face_yet_stand_apart():
    tilt = math.radians(20)
    touching, apart = [], []
    for seed in range(20):
        huddle = spread(np.random.default_rng(seed), 10, 800, 600, lambda y: 30.0, tilt, heap=False,
                        huddle=True)
        assert len(huddle) == 10 and standing_apart(huddle, 30, math.cos(tilt))
        touching.append(np.mean(np.array(nearest(huddle, math.cos(tilt))) < 1.2 * 30))
        scattered = spread(np.random.default_rng(seed), 10, 800, 600, lambda y: 30.0, tilt, heap=False)
        assert standing_apart(scattered, 30, math.cos(tilt))
        apart.append(np.mean(np.array(nearest(scattered, math.cos(tilt))) < 1.2 * 30))
    assert np.mean(touching) > 0.5  # most of a huddle's dice lie against another
    assert np.mean(apart) < 0.2


def test_some_oblique_scenes_heap_dice_so_that_near_ones_cover_far_ones():
    def overlap(a, b) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def touching(oblique: bool) -> int:
        count = 0
        for seed in range(30):
            _, truth = random_scene(np.random.default_rng(seed), 640, 480, 40, 10, oblique=oblique)
            boxes = [t.box for t in truth]
            count += any(overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        return count

    assert 3 <= touching(oblique=True) <= 25


def test_some_scenes_huddle_their_dice_and_most_do_not():
    huddled = 0
    for seed in range(100):
        _, truth = random_scene(np.random.default_rng(seed), 640, 480, 40, 8)
        centres = [((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2, 0.0) for t in truth]
        huddled += len(centres) > 1 and np.mean(np.array(nearest(centres, 1.0)) < 1.2 * 40) > 0.4
    assert 10 <= huddled <= 50  # HUDDLE_SHARE of them, 30 %


def test_the_largest_dice_fit_a_small_frame_seen_from_the_lowest_camera():
    from vision.scenes import OBLIQUE_TILT

    steepest = math.radians(OBLIQUE_TILT)
    for seed in range(5):  # a tile of the detector's with dice a third of it across
        centres = spread(np.random.default_rng(seed), 4, 224, 224, lambda y: 224 / 3, steepest, heap=False)
        assert all(0 < x < 224 and 0 < y < 224 for x, y, _ in centres)
    _, truth = random_scene(np.random.default_rng(7), 224, 224, die_px=224 / 3, oblique=True)
    assert all(0 <= t.box[0] < t.box[2] <= 224 for t in truth)


def test_the_scenes_the_committed_weights_learned_from_are_drawn_as_they_were():
    """The first of the training's scenes (half of them oblique) and detector tiles, as `companion train
    dice` drew them for the committed weights (their truths and side faces, digested)."""
    import hashlib

    from vision import diceset

    scenes_digest, tiles_digest = hashlib.sha1(), hashlib.sha1()
    for k in range(20):
        rng = np.random.default_rng([1, 1, k])  # as diceset.scene_crops draws a scene
        _, truth = random_scene(rng, oblique=diceset.drawn(rng, 0.5))
        scenes_digest.update(repr([(t.value, t.kind, t.colour, t.box, t.sides) for t in truth]).encode())
        _, boxes = diceset.render_tile(np.random.default_rng([1, 0, k]), 0.5)
        tiles_digest.update(repr([tuple(round(v, 6) for v in box) for box in boxes]).encode())
    assert scenes_digest.hexdigest() == "559494c023f7826b4971eb9d2e806411a1281dd3"
    assert tiles_digest.hexdigest() == "5eaaea7c5990273e606bb8e76ebbdf0b48393514"


def test_training_draws_the_share_of_oblique_scenes_it_is_given_half_by_default():
    import argparse

    from companion.commands.train import add_parser
    from vision import diceset

    rng = np.random.default_rng(5)
    before = rng.bit_generator.state
    assert not diceset.drawn(rng, 0.0) and rng.bit_generator.state == before  # no number drawn
    assert sum(diceset.drawn(rng, 0.3) for _ in range(1000)) in range(250, 350)
    assert all(diceset.drawn(rng, 1.0) for _ in range(20))
    plain = diceset.scene_crops(np.random.default_rng(9))
    assert np.array_equal(np.stack(plain[0]), np.stack(diceset.scene_crops(np.random.default_rng(9),
                                                                           oblique=0.0)[0]))
    steep = diceset.scene_crops(np.random.default_rng(9), oblique=1.0)
    assert len(steep[0]) != len(plain[0]) or not np.array_equal(np.stack(steep[0]), np.stack(plain[0]))
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["train", "dice"]).oblique == 0.5
    assert parser.parse_args(["train", "dice", "--oblique", "0.5"]).oblique == 0.5


def test_training_tables_include_busy_hex_maps_with_number_tokens(monkeypatch):
    from vision import scenes

    maps = []
    real_map = scenes._hex_map
    monkeypatch.setattr(scenes, "_hex_map", lambda *a: maps.append(1) or real_map(*a))
    for seed in range(200):
        scenes.table(np.random.default_rng(seed), 60, 80, 10)
    assert 6 <= len(maps) <= 36  # about one table in eleven


def test_a_hex_map_is_busier_than_a_plain_table_and_seeded():
    from vision import scenes

    def busy(image: np.ndarray) -> float:  # mean edge strength, grey levels a pixel
        grey = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        return float(np.abs(cv2.Laplacian(grey, cv2.CV_32F)).mean())

    for seed in range(4):
        drawn = scenes._hex_map(np.random.default_rng(seed), 240, 320, 20.0)
        assert drawn.shape == (240, 320, 3)
        assert np.array_equal(drawn, scenes._hex_map(np.random.default_rng(seed), 240, 320, 20.0))
        assert busy(drawn) > 2 * busy(scenes._plain(np.random.default_rng(seed), 240, 320))


def test_some_frames_are_speckled_with_single_black_and_white_pixels(monkeypatch):
    from vision import scenes

    assert 0.05 < scenes.SPECKLED < 0.3

    def specks(share: float) -> float:  # the share of pixels far from their 3x3 neighbourhood's median
        monkeypatch.setattr(scenes, "SPECKLED", share)
        flat = np.full((120, 160, 3), 128, np.float32)
        found = []
        for seed in range(4):
            out = cv2.cvtColor(scenes.finish(np.random.default_rng(seed), flat.copy()), cv2.COLOR_BGR2GRAY)
            found.append(np.mean(np.abs(out.astype(int) - cv2.medianBlur(out, 3).astype(int)) > 60))
        return float(np.mean(found))

    assert specks(0.0) < 1e-4 < 1e-3 < specks(1.0)


def test_tinted_pips_are_the_bodys_own_colour_paler_or_darker_and_still_show():
    from vision.scenes import TINT_LUMA, _luma, tinted_pip

    rng = np.random.default_rng(3)
    for body in bodies(rng):
        pip = tinted_pip(rng, body)
        assert abs(_luma(pip) - _luma(body)) >= TINT_LUMA
        towards = np.subtract(pip, body, dtype=float)  # all channels one way: to white or to black
        assert np.all(towards >= -1) or np.all(towards <= 1)


def test_a_scene_also_gives_crops_a_few_dice_across_that_show_no_die(monkeypatch):
    from vision import diceset

    def nones() -> int:
        return sum(v == 0 for k in range(12) for v in diceset.scene_crops(np.random.default_rng([2, k]))[1])

    with_large = nones()
    monkeypatch.setattr(diceset, "LARGE_NEGATIVES", 0)
    assert 6 <= with_large - nones() <= 12  # one a scene, unless a die lies at its middle


def test_a_scene_can_tell_where_it_drew_what_may_pass_for_a_die_and_is_the_same_scene(monkeypatch):
    from vision import scenes

    monkeypatch.setattr(scenes, "_surface", lambda rng, h, w, die_px, lookalikes=None:
                        scenes._hex_map(rng, h, w, die_px, lookalikes))  # every table a hex map
    for seed in range(4):
        kept: list = []
        image, truth = random_scene(np.random.default_rng(seed), 320, 240, lookalikes=kept)
        again, truth_again = random_scene(np.random.default_rng(seed), 320, 240)
        assert np.array_equal(image, again) and truth == truth_again
        assert kept and all(0 <= x < 320 and 0 <= y < 240 and width > 0 for x, y, width in kept)


def test_a_scene_also_gives_crops_centred_on_its_lookalikes_that_show_no_die(monkeypatch):
    from vision import diceset

    def nones() -> int:
        return sum(v == 0 for k in range(16) for v in diceset.scene_crops(np.random.default_rng([3, k]))[1])

    with_lookalikes = nones()
    monkeypatch.setattr(diceset, "LOOKALIKE_NEGATIVES", 0)
    assert with_lookalikes > nones()


def test_some_tables_have_a_players_hand_on_them_reaching_in_from_an_edge(monkeypatch):
    from vision import scenes

    assert 0.02 < scenes.HAND_SHARE < 0.3
    for seed in range(6):
        table = np.full((480, 640, 3), 200, np.uint8)  # a pale grey table (no hue)
        scenes.hand(np.random.default_rng(seed), table, die_px=30)
        hsv = cv2.cvtColor(table, cv2.COLOR_BGR2HSV)
        skin = (hsv[..., 1] > 25) & (hsv[..., 0] <= 30)  # coloured now, and with skin's hue
        # about a palm and fingers: a few dice-widths across (a 30 px die: 900 px^2), yet not the table
        assert 15 * 900 < skin.sum() < 0.5 * skin.size
        assert skin[[0, -1]].any() or skin[:, [0, -1]].any()  # the arm's side lies past an edge
    monkeypatch.setattr(scenes, "HAND_SHARE", 1.0)  # clutter draws it, and the truth stays the dice
    image, truth = random_scene(np.random.default_rng(5), 640, 480, die_px=30, count=3)
    assert len(truth) == 3 and image.shape == (480, 640, 3)


def test_a_hands_shadow_falls_beside_it_never_across_the_frame():
    from vision import scenes

    for seed in range(12):
        # a tall table with small dice: a hand reaching in from any edge covers less than half of it
        table = np.full((900, 900, 3), 200, np.uint8)
        scenes.hand(np.random.default_rng(seed), table, die_px=12)
        changed = (table != 200).any(axis=2)
        # the hand and its shadow lie on one side: top and bottom are not both touched, nor left and right
        top, bottom, left, right = changed[:100], changed[-100:], changed[:, :100], changed[:, -100:]
        assert changed.any(), seed
        assert not (top.any() and bottom.any()) and not (left.any() and right.any()), seed


def test_oblique_scenes_reach_the_perspective_of_phones_close_over_a_table():
    from vision.scenes import DEPTH, OBLIQUE_TILT

    # the training phone photos' dice grow up to 3.5 times from the frame's top to bottom (the 90th
    # percentile; 6.6 at most): the steepest oblique camera must reach that
    assert math.exp(DEPTH * math.sin(math.radians(OBLIQUE_TILT))) > 3.5


def test_a_die_is_cropped_for_the_classifier_as_a_detector_may_box_it_from_its_top_face_to_the_whole_die():
    from vision.diceset import boxed
    from vision.render import TruthDie

    flat = TruthDie(3, "d6", "red", (100, 100, 140, 140))  # straight down: no side shows
    assert boxed(np.random.default_rng(0), flat) == (120, 120, 40)
    tilted = TruthDie(3, "d6", "red", (100, 100, 140, 120), ((100, 120, 140, 150),))  # a side below its top
    got = [boxed(np.random.default_rng(seed), tilted) for seed in range(200)]
    for cx, cy, side in got:
        assert cx == 120 and 110 <= cy <= 125 and 40 <= side <= 50
    ys = [cy for _, cy, _ in got]
    assert min(ys) < 112 and max(ys) > 123  # both ends are drawn: the top face alone, the whole die


def test_a_scene_knows_each_dies_side_and_its_crops_teach_it_as_a_share_of_the_crop():
    from vision import diceset
    from vision.learned import CONTEXT
    from vision.render import GREY_SIDE

    dice = [random_die(np.random.default_rng(k), kind) for k, kind in enumerate(["d6", "grey", "d6", "grey"])]
    _, truth = random_scene(np.random.default_rng(4), 800, 600, die_px=40, dice=dice)
    sides = {t.kind: t.side for t in truth}  # from above, no depth: every d6 40 px give or take 5 %
    assert all(38 <= t.side <= 42 for t in truth if t.kind == "d6")
    assert all(38 * GREY_SIDE <= t.side <= 42 * GREY_SIDE for t in truth if t.kind == "grey") and sides
    # a die's crop teaches its side as a share of the crop (log), a crop of no die nothing (NaN)
    crops, values, _, shares = diceset.scene_crops(np.random.default_rng(9))
    on_dice = np.array([v != 0 for v in values])
    assert np.isfinite(np.array(shares)[on_dice]).all() and np.isnan(np.array(shares)[~on_dice]).all()
    # a crop covers CONTEXT of its box, and a box holds from the top face alone to the whole die
    assert all(math.log(1 / (CONTEXT * 2.5)) < s < math.log(1.2 / CONTEXT) for s in np.array(shares)[on_dice])
    assert diceset.side_share(30, 60) == math.log(0.5) and math.isnan(diceset.side_share(0.0, 60))
