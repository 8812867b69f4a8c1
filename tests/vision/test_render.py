import numpy as np

from vision.render import DieSpec, _side_value, render_scene


def test_same_seed_gives_the_same_scene_and_truth():
    a, truth_a = render_scene(np.random.default_rng(11))
    b, truth_b = render_scene(np.random.default_rng(11))
    assert np.array_equal(a, b)
    assert truth_a == truth_b


def test_truth_lists_each_die_with_a_box_inside_the_image():
    image, truth = render_scene(np.random.default_rng(3), [DieSpec("d6", "red", 5), DieSpec("grey", "grey")],
                                variations=False)
    assert image.shape == (480, 640, 3) and image.dtype == np.uint8
    assert [t.kind for t in truth] == ["d6", "grey"]
    assert truth[0].value == 5 and truth[0].colour == "red"
    assert truth[1].value in (1, 2, 3, 4)
    for t in truth:
        x1, y1, x2, y2 = t.box
        assert 0 <= x1 < x2 < 640 and 0 <= y1 < y2 < 480


def test_grey_die_is_drawn_smaller_than_a_d6():
    _, truth = render_scene(np.random.default_rng(5), [DieSpec("d6", "white", 2), DieSpec("grey", "grey", 4)],
                            variations=False, side_px=50)
    d6, grey = truth
    assert (grey.box[2] - grey.box[0]) < 0.85 * (d6.box[2] - d6.box[0])


def test_a_side_face_never_shows_the_top_value_or_the_one_opposite():
    for top in range(1, 7):
        sides = sorted(_side_value("d6", top, pick) for pick in range(4))
        assert sides == [v for v in range(1, 7) if v not in (top, 7 - top)]
    assert sorted(_side_value("grey", 1, pick) for pick in range(4)) == [2, 3, 3, 4]  # its 5 is marked 3
