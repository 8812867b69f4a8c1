"""What companion train dice measures of the whole reader for its meta (`vision.readerfit`): the peak
threshold, the weight of "no die", the temperature, the kind model and the sure bar, each on stand-in
readers whose right and false dice are known, and the memos that let calibration read each frame once."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from vision import bench
from vision.learned import Found, LearnedReader


def test_temperature_undoes_overconfidence():
    from vision.readerfit import temperature

    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2, (4000, 5))
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(5, p=row) for row in p])  # honest logits: right as often as they say ...
    assert temperature(logits * 3, labels) == pytest.approx(3, rel=0.15)  # ... made three times too sure


class _Thresholded:
    """A reader whose dice depend on its peak threshold: below 0.3 it adds false dice, above 0.45 it
    loses the weak real one."""

    detect_min = 0.0

    def read(self, image):
        from vision.die import Die

        dice = [Die(3, "d6", "white", (10, 10, 30, 30), 0.9)]
        if self.detect_min <= 0.45:
            dice.append(Die(5, "d6", "red", (60, 10, 80, 30), 0.6))
        if self.detect_min < 0.3:
            dice += [Die(1, "d6", "white", (120 + 30 * k, 60, 140 + 30 * k, 80), 0.5) for k in range(3)]
        return dice


def test_the_peak_threshold_is_the_one_where_the_whole_reader_is_right_most_less_false_dice():
    from vision.bench import Label
    from vision.readerfit import PEAK_GRID, reader_threshold

    scenes = [(np.zeros((100, 200, 3), np.uint8), [Label(3, (10, 10, 30, 30)), Label(5, (60, 10, 80, 30))])]
    reader = _Thresholded()
    best, tried = reader_threshold(reader, {"renders": scenes})
    assert best == 0.3 and reader.detect_min == 0.3  # the lowest threshold that adds no false dice
    assert [t for t, _ in tried] == list(PEAK_GRID)
    assert dict(tried)[0.1] == {"renders": (2, 3)} and dict(tried)[0.5] == {"renders": (1, 0)}


class _Weighed(_Thresholded):
    """A reader whose classifier keeps its weak false dice out from a "no die" weight of 1, and its weak real
    die out from 2.5."""

    no_die = 0.0

    def read(self, image):
        dice = super().read(image)
        if self.no_die >= 1.0:
            dice = [d for d in dice if d.confidence != 0.5]
        if self.no_die >= 2.5:
            dice = [d for d in dice if d.confidence != 0.6]
        return dice


def test_the_weight_of_no_die_is_the_least_at_which_the_reader_is_right_most_less_false_dice():
    from vision.bench import Label
    from vision.readerfit import NO_DIE_GRID, no_die_weight

    scenes = [(np.zeros((100, 200, 3), np.uint8), [Label(3, (10, 10, 30, 30)), Label(5, (60, 10, 80, 30))])]
    reader = _Weighed()
    reader.detect_min = 0.1  # the false dice are found
    best, tried = no_die_weight(reader, scenes)
    assert best == 1.0 and reader.no_die == 1.0  # they are kept out, the weak real die is not
    assert [w for w, _ in tried] == list(NO_DIE_GRID)
    assert dict(tried)[0.5] == (2, 3) and dict(tried)[3.0] == (1, 0)
    reader.detect_min = 0.3  # no false die found: no weight is needed, and none is taken
    assert no_die_weight(reader, scenes)[0] == 0.0


def test_each_set_weighs_alike_in_the_peak_threshold_whatever_its_number_of_dice():
    from vision.bench import Label
    from vision.readerfit import reader_threshold

    image = np.zeros((100, 200, 3), np.uint8)
    one = [Label(3, (10, 10, 30, 30))]  # the weak die (found up to 0.45) is a false one here ...
    both = one + [Label(5, (60, 10, 80, 30))]  # ... and a real one here
    large = [(image, one)] * 7 + [(image, both)] * 5  # 17 dice: 12 right at 0.5, 17 - 7 at 0.3
    small = [(image, both)]  # 2 dice: 1 right at 0.5, 2 at 0.3
    # summed, 0.5 would win (13 against 12); weighed by each set's dice, 0.3 does (1.59 against 1.21)
    best, _ = reader_threshold(_Thresholded(), {"large": large, "small": small})
    assert best == 0.3
    best, _ = reader_threshold(_Thresholded(), {"large": large})
    assert best == 0.5


def test_each_label_takes_the_nearest_die_found_on_it_and_no_die_twice():
    from vision.readerfit import found_labels

    found = [Found(50, 50, 30, 30, 0.9), Found(58, 50, 30, 30, 0.4), Found(150, 150, 20, 20, 0.7)]
    boxes = [(45, 45, 65, 55), (40, 40, 60, 60), (300, 300, 320, 320)]
    # the first label's centre (55, 50) is nearer the second die; the second (50, 50) is on the first
    assert found_labels(found, boxes) == [1, 0, None]
    assert found_labels(found[:1], boxes[:2]) == [None, 0]  # the one die goes to the label it is nearest


def test_the_temperature_of_crops_read_in_turns_is_that_of_their_averaged_probabilities():
    from vision.learned import softmax
    from vision.readerfit import temperature

    rng = np.random.default_rng(3)
    labels = rng.integers(0, 5, 3000)
    # each of four turns sees the die with its own noise: alone, each turn is overconfident
    logits = 3 * (np.eye(5)[labels][None] + rng.normal(0, 1, (4, 3000, 5)))
    t = temperature(logits, labels)

    def nll(t: float) -> float:
        p = softmax(logits, t).mean(axis=0)[np.arange(3000), labels]
        return float(-np.log(p).mean())

    assert nll(t) <= min(nll(t * 1.1), nll(t / 1.1))
    assert t < temperature(logits[0], labels)  # four noisy looks together are less overconfident than one
    assert temperature(logits[:1], labels) == pytest.approx(temperature(logits[0], labels))


def test_a_logistic_fit_finds_the_weights_that_made_the_data_and_stays_finite_on_separable_data():
    from vision.readerfit import logistic

    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (4000, 2))
    y = (rng.random(4000) < 1 / (1 + np.exp(-(2.0 * x[:, 0] - 1.0 * x[:, 1] + 0.5)))).astype(float)
    assert logistic(x, y) == pytest.approx((2.0, -1.0, 0.5), abs=0.2)
    w = logistic(x, (x[:, 0] > 0).astype(float))  # a line separates them: the penalty keeps it finite
    assert all(math.isfinite(v) for v in w) and w[0] > 5


def test_renders_without_a_grey_die_leave_the_kind_to_the_colour_head():
    from vision import readerfit
    from vision.learned import KIND_FROM_COLOUR

    class Reader:
        def faces(self, image):
            return [(Found(50, 50, 40, 40, 0.9), "3", np.eye(11)[0], 0.9)]

    scenes = [(None, [bench.Label(3, (30, 30, 70, 70), "d6")])] * 3
    x, grey = readerfit.kind_examples(Reader(), scenes)
    assert x.shape == (3, 3) and not grey.any()
    assert readerfit.kind_model(Reader(), scenes) == KIND_FROM_COLOUR


def test_the_same_models_calibrate_alike_whatever_their_meta_said_before():
    from vision import readerfit
    from vision.learned import META

    scenes = [readerfit._held_out_scene((5, 4, k, False)) for k in range(4)]
    got = []
    for before in (1.0, 4.0):
        reader = LearnedReader()  # the committed models
        reader.temperature = before
        got.append(readerfit.calibrate(reader, {"from above": scenes}, [], log=lambda *_: None))
    assert got[0] == got[1]
    assert list(got[0]) == list(json.loads(META.read_text()))[:len(readerfit.MEASURED)]  # the meta's keys
    assert got[0]["detect_min"] in readerfit.PEAK_GRID and 0.5 <= got[0]["temperature"] <= 5
    assert got[0]["no_die"] in readerfit.NO_DIE_GRID
    assert len(got[0]["kind"]) == 4 and isinstance(got[0]["kind"], list)
    assert got[0]["sure"] in readerfit.SURE_GRID or got[0]["sure"] == 1.0


def test_the_sure_bar_is_the_least_from_which_every_higher_bar_is_surely_right_often_enough():
    from vision import readerfit
    from vision.bench import Label
    from vision.die import Die

    class Reader:  # reads each scene's one die as a 3 at the scene's probability
        def read(self, image):
            return [Die(3, "d6", "white", (0, 0, 10, 10), float(image))]

    right, wrong = [Label(3, (0, 0, 10, 10))], [Label(4, (0, 0, 10, 10))]
    # 3000 right readings at 0.99, 24 wrong at 0.97 among 1979 right, a wrong one at 0.6, and a false die
    # (no die in its scene) at 0.9: from bar 0.9718 up every reading is right; at 0.9625, 4979 of 5003
    # (99.52 %) are, which does not show 99.5 % surely: another 5003 could well hold 30 wrong
    scenes = ([(0.99, right)] * 3000 + [(0.97, right)] * 1979 + [(0.97, wrong)] * 24
              + [(0.6, wrong), (0.9, [])])
    sure, bars = readerfit.sure_bar(Reader(), scenes)
    assert sure == 0.9718
    counts = {bar: (right, count) for bar, right, count in bars}
    assert counts[0.9625] == (4979, 5003) and counts[0.8813] == (4979, 5004) and counts[0.5] == (4979, 5005)
    # 8 wrong at 0.97 among 4995 right (99.84 %) show it surely, down to where 30 wrong at 0.9 come in
    eight_wrong = ([(0.99, right)] * 3000 + [(0.97, right)] * 1995 + [(0.97, wrong)] * 8
                   + [(0.9, wrong)] * 30)
    assert readerfit.sure_bar(Reader(), eight_wrong)[0] == 0.9110
    wrong_on_top = [(0.9995, wrong)] + scenes
    assert readerfit.sure_bar(Reader(), wrong_on_top)[0] == 1.0  # no bar holds
    too_few = [(0.99, right)] * 300  # none wrong, but 300 readings do not show 99.5 %: none is certain
    assert readerfit.sure_bar(Reader(), too_few)[0] > 0.99
    # a few right readings on top (too few to show anything) do not take the bar from the 3000 below them
    sparse_top = ([(0.9995, right)] * 5 + [(0.9985, right)] * 40 + [(0.99, right)] * 3000
                  + [(0.9, wrong)] * 30)
    assert readerfit.sure_bar(Reader(), sparse_top)[0] == 0.9110
    # ... but a wrong one among them does: from there down nothing is surely right
    wrong_among_few = [(0.9995, wrong)] + sparse_top[5:]
    assert readerfit.sure_bar(Reader(), wrong_among_few)[0] == 1.0


def test_a_share_right_is_sure_when_its_wilson_lower_bound_reaches_the_target():
    from vision.readerfit import surely_right

    assert surely_right(0, 0)  # nothing read, nothing wrong
    assert surely_right(2000, 2000) and not surely_right(500, 500)  # 0 wrong: enough readings to show it
    assert surely_right(9990, 10000) and not surely_right(997, 1000)  # 99.9 % of 10000; 99.7 % of 1000
    assert not surely_right(5231, 5254)  # 99.56 %: the committed bar's oblique renders before (s35)


def test_the_sure_bar_holds_on_each_kind_of_render_not_only_on_the_mix():
    from vision import readerfit
    from vision.bench import Label
    from vision.die import Die

    class Reader:  # reads each scene's one die as a 3 at the scene's probability
        def read(self, image):
            return [Die(3, "d6", "white", (0, 0, 10, 10), float(image))]

    right, wrong = [Label(3, (0, 0, 10, 10))], [Label(4, (0, 0, 10, 10))]
    easy = [(0.97, right)] * 8000 + [(0.6, wrong)] * 50  # every reading from 0.625 up is right
    hard = [(0.97, right)] * 1900 + [(0.97, wrong)] * 20 + [(0.99, right)] * 1000  # 20 wrong of 2920 at 0.97
    pooled, _ = readerfit.sure_bar(Reader(), easy + hard)
    assert pooled == 0.625  # on the mix the hard kind's wrong readings are 20 of 10920
    sure, measured = readerfit.strictest_bar(Reader(), {"from above": easy, "oblique": hard, "none": []})
    assert measured["from above"][0] == 0.625 and measured["oblique"][0] == 0.9718
    assert sure == 0.9718 and "none" not in measured
    assert readerfit.strictest_bar(Reader(), {"none": []}) == (1.0, {})  # nothing measured: no bar holds


def test_oblique_calibration_renders_are_their_own_stream_and_none_without_oblique_training():
    from argparse import Namespace

    from vision import readerfit

    args = Namespace(seed=5, scenes=0, workers=1, oblique=0.0)
    assert readerfit.calibration_scenes(args, oblique=True) == []
    args = Namespace(seed=5, scenes=0, workers=1, oblique=0.5)
    above, oblique = readerfit.calibration_scenes(args), readerfit.calibration_scenes(args, oblique=True)
    assert len(above) == len(oblique) == 50  # the least there are of each
    scene = readerfit._held_out_scene
    assert [labels for _, labels in above[:2]] == [scene((5, 4, k, False))[1] for k in (0, 1)]
    assert [labels for _, labels in oblique[:2]] == [scene((5, 5, k, True))[1] for k in (0, 1)]
    assert above[0][1] != oblique[0][1]  # other scenes


def test_while_calibrating_the_detector_looks_at_each_frame_and_scale_once_and_finds_what_it_did():
    from vision.readerfit import PEAK_GRID, peaks_remembered

    rng = np.random.default_rng(4)
    frames = [rng.integers(0, 256, (120, 160, 3), np.uint8) for _ in range(2)]
    plain = LearnedReader()  # the committed models
    reader = LearnedReader()
    looks = []
    real = reader.candidates
    reader.candidates = lambda frame, scale, threshold: looks.append(scale) or real(frame, scale, threshold)
    with peaks_remembered(reader):
        for t in PEAK_GRID:
            reader.detect_min = plain.detect_min = t
            for frame in frames:
                for scale in (0.5, 1.0):
                    assert reader.detect_at(frame, scale) == plain.detect_at(frame, scale)
        assert reader.candidates(frames[0], 1.0, 0.05) == real(frames[0], 1.0, 0.05)  # below the sweep
    assert len(looks) == 2 * 2 + 1
    assert reader.candidates(frames[0], 1.0, 0.3) == real(frames[0], 1.0, 0.3)  # as before, once over


def test_while_calibrating_each_die_found_is_read_once_and_reads_as_it_did():
    from vision.readerfit import logits_remembered

    class Reader:
        read_dice = 0

        def outputs(self, frame, found):
            self.read_dice += len(found)
            values = np.array([[[f.cx, f.score, frame[0, 0, 0]] for f in found]] * 4, np.float32)
            shares = np.array([[f.cx / 100 + frame[0, 0, 0] for f in found]] * 4, np.float32)
            return values.reshape(4, len(found), 3), np.zeros((4, len(found), 2), np.float32), shares

    reader = Reader()
    frames = [np.full((10, 10, 3), k, np.uint8) for k in range(2)]
    a, b = Found(10, 10, 20, 20, 0.9), Found(50, 10, 20, 20, 0.4)
    with logits_remembered(reader):
        first = reader.outputs(frames[0], [a])
        both = reader.outputs(frames[0], [b, a])  # a lower threshold finds one more die
        other = reader.outputs(frames[1], [a])  # the same box in another frame is another die
        assert reader.outputs(frames[0], [])[0].shape == (4, 0, 3)
    assert reader.read_dice == 3
    plain = Reader()
    for got, frame, found in ((first, frames[0], [a]), (both, frames[0], [b, a]), (other, frames[1], [a])):
        want = plain.outputs(frame, found)
        assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    assert "outputs" not in vars(reader)  # the reader reads as before once calibrated
