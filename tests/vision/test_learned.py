"""The learned reader's parts: session splits, detector targets, crops at the die's own scale, the
working scale, the reader's confidence, and (where PyTorch is installed) a few training steps exported to
ONNX. What training measures for the meta is in test_readerfit.py."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import diceset
from vision.learned import (
    CLASSIFIER,
    COLOURS,
    CROP,
    MAX_LONG,
    STRIDE,
    VALUES,
    WORK_DIE,
    Found,
    LearnedReader,
    crop,
    peaks,
    to_input,
    turned,
    working_scale,
    working_size,
)


def _run(name: str) -> tuple[str, int]:
    word = re.sub(r"\d+\.jpg$", "", name)
    return word, (int(re.findall(r"\d+", name)[-1]) - 1) // 10


def test_photo_split_keeps_whole_runs_of_wood_photos_together(datasets):
    train, held = diceset.photo_split(datasets / "wood-white-train")
    assert not set(train) & set(held) and len(train) + len(held) == 310
    assert 0.2 < len(held) / 310 < 0.4
    held_runs = {_run(n) for n in held}
    assert not any(_run(n) in held_runs for n in train)  # no training photo from a measured run
    assert diceset.photo_split(datasets / "wood-white-train") == (train, held)


def test_casino_crops_are_measured_on_the_sources_val_split(datasets):
    train, held = diceset.crop_split(datasets / "casino-crops-train")
    assert {r["split"] for r in held} == {"val"} and {r["split"] for r in train} == {"train"}


def test_targets_mark_each_top_face_centre_with_its_size_and_offset():
    maps = diceset.targets([(50.0, 70.0, 24.0, 20.0), (150.0, 30.0, 10.0, 10.0)], whole=[True, False])
    assert maps.shape == (6, diceset.TILE // STRIDE, diceset.TILE // STRIDE)
    found = peaks(maps[0], maps[1:3], maps[3:5], threshold=0.99)
    assert sorted((round(cx), round(cy)) for cx, cy, *_ in found) == [(50, 70), (150, 30)]
    iy, ix = 70 // STRIDE, 50 // STRIDE
    assert np.exp(maps[1, iy, ix]) * STRIDE == pytest.approx(24) and maps[5, iy, ix] == 1
    assert maps[5, 30 // STRIDE, 150 // STRIDE] == 0  # a box round the pips only: its size is not taught


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_a_quarter_turned_tile_keeps_its_dice_where_they_turned_to(k):
    from vision.dicetrain import turn

    side = diceset.TILE
    boxes = [(50.3, 70.6, 30.0, 20.0), (181.9, 21.2, 16.0, 12.0)]
    tiles = np.zeros((1, side, side, 3), np.uint8)
    maps = diceset.targets(boxes)[None]
    _, turned = turn(tiles, maps, k)
    found = sorted((round(cx, 1), round(cy, 1), round(w, 1), round(h, 1))
                   for cx, cy, w, h, _ in peaks(turned[0, 0], turned[0, 1:3], turned[0, 3:5], 0.99))
    want = []
    for cx, cy, w, h in boxes:  # np.rot90 turns counter-clockwise: (x, y) -> (y, side - x)
        for _ in range(k):
            cx, cy, w, h = cy, side - cx, h, w
        want.append((round(cx, 1), round(cy, 1), round(w, 1), round(h, 1)))
    assert found == sorted(want)


def test_a_mirrored_tile_keeps_its_dice_where_they_mirrored_to():
    from vision.dicetrain import mirrored

    side = diceset.TILE
    boxes = [(50.3, 70.6, 30.0, 20.0), (181.9, 21.2, 16.0, 12.0)]
    tiles = np.arange(side * side * 3, dtype=np.uint32).reshape(1, side, side, 3)
    flipped, maps = mirrored(tiles, diceset.targets(boxes)[None])
    found = sorted((round(cx, 1), round(cy, 1), round(w, 1), round(h, 1))
                   for cx, cy, w, h, _ in peaks(maps[0, 0], maps[0, 1:3], maps[0, 3:5], 0.99))
    assert found == sorted((round(side - cx, 1), round(cy, 1), w, h) for cx, cy, w, h in boxes)
    assert np.array_equal(flipped[0, :, 0], tiles[0, :, -1])


def test_a_crop_looks_the_same_whatever_the_dies_size_in_the_frame():
    small = np.full((120, 160, 3), 200, np.uint8)
    cv2.rectangle(small, (60, 40), (84, 64), (30, 30, 160), -1)
    cv2.circle(small, (66, 46), 3, (250, 250, 250), -1, cv2.LINE_AA)
    cv2.circle(small, (78, 58), 3, (250, 250, 250), -1, cv2.LINE_AA)
    big = cv2.resize(small, None, fx=5, fy=5, interpolation=cv2.INTER_CUBIC)
    a = crop(small, 72, 52, 38).astype(float)
    b = crop(big, 72 * 5 + 2, 52 * 5 + 2, 38 * 5).astype(float)
    assert a.shape == b.shape == (CROP, CROP, 3)
    assert np.abs(a - b).mean() < 12


@pytest.mark.parametrize(("cx", "cy", "side"),
                         [(200, 150, 120), (20, 30, 200), (390, 290, 90), (150.3, 99.7, 64.5)])
def test_a_shrunk_crop_is_the_blurred_frame_resampled_though_only_round_the_die_is_blurred(cx, cy, side):
    frame = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 256, (300, 400, 3), np.uint8), (0, 0), 2)
    scale = CROP / side
    m = np.float32([[scale, 0, CROP / 2 - cx * scale], [0, scale, CROP / 2 - cy * scale]])
    whole = cv2.warpAffine(cv2.GaussianBlur(frame, (0, 0), 0.45 / scale), m, (CROP, CROP),
                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # at most one level apart: the resampling's fixed-point coordinates round a moved origin differently
    assert np.abs(crop(frame, cx, cy, side).astype(int) - whole).max() <= 1


@pytest.mark.parametrize("shape", [(40, 40, 3), (30, 50, 3), (7, 5)])
def test_a_crop_turned_k_quarter_turns_is_numpys_rot90(shape):
    image = np.random.default_rng(1).integers(0, 256, shape, np.uint8)
    for k in range(-1, 6):
        assert np.array_equal(turned(image, k), np.rot90(image, k))


@pytest.mark.parametrize("shape", [(48, 64, 3), (5, 40, 40, 3)])
def test_the_networks_input_is_each_image_in_channels_first_floats_0_to_1_bit_for_bit(shape):
    images = np.random.default_rng(2).integers(0, 256, shape, np.uint8)
    batch = images[None] if images.ndim == 3 else images
    want = batch.astype(np.float32).transpose(0, 3, 1, 2) / np.float32(255)
    got = to_input(images)
    assert got.dtype == np.float32 and got.flags.c_contiguous and got.shape == want.shape
    assert np.array_equal(got, want)
    assert got.max() <= 1.0 and (got[0, :, 0, 0] == batch[0, 0, 0] / np.float32(255)).all()


class _Looks(LearnedReader):
    """A reader whose detector finds dice of a given size (px in the frame) at the scales it sees them
    at least `seen_from` px across (any scale if 0), and records its looks."""

    def __init__(self, die: float, seen_from: float = 0.0):
        self.die, self.seen_from, self.scales = die, seen_from, []

    def detect_at(self, frame, scale):
        self.scales.append(scale)
        return [Found(100, 100, self.die, self.die, 0.9)] if self.die * scale >= self.seen_from else []


def test_a_calibrated_die_size_chooses_the_look_the_first_look_would_without_taking_it():
    frame = np.zeros((720, 1280, 3), np.uint8)  # the first look (320 px) sees dice at a quarter of their size
    small = _Looks(die=40)  # 10 px there: looked at so they are WORK_DIE px
    small.detect(frame, die_px=40)
    assert small.scales == [pytest.approx(WORK_DIE / 40)]
    large = _Looks(die=120)  # 30 px there: read at the first look's scale
    large.detect(frame, die_px=120)
    assert large.scales == [pytest.approx(0.25)]
    for die in (30, 52, 60, 120, 400):  # the same scale as without calibration, one look fewer
        calibrated, plain = _Looks(die=die), _Looks(die=die)
        calibrated.detect(frame, die_px=die)
        plain.detect(frame)
        assert calibrated.scales == plain.scales[-1:]


def test_working_scale_keeps_the_first_look_for_dice_at_least_work_die_there():
    assert working_scale(WORK_DIE * 4, 0.25, 0.75) == 0.25
    assert working_scale(WORK_DIE * 4 - 1, 0.25, 0.75) == pytest.approx(WORK_DIE / (WORK_DIE * 4 - 1))
    assert working_scale(80, 0.25, 0.75) == pytest.approx(WORK_DIE / 80)  # 20 px at the first look
    assert working_scale(10, 0.25, 0.75) == 0.75  # never closer than the closest look


def test_small_dice_are_looked_at_again_larger_and_large_ones_are_not():
    small = _Looks(die=40)  # in a 1280 px frame, the first look (320 px) sees them 10 px across
    small.detect(np.zeros((720, 1280, 3), np.uint8))
    assert small.scales == [pytest.approx(0.25), pytest.approx(WORK_DIE / 40)]
    large = _Looks(die=120)
    large.detect(np.zeros((720, 1280, 3), np.uint8))
    assert large.scales == [pytest.approx(0.25)]


def test_a_frame_where_the_first_look_finds_nothing_is_looked_at_again_as_close_as_the_reader_looks():
    tiny = _Looks(die=18, seen_from=8)  # 4.5 px at the first look of a 1280 px frame: not seen there
    assert len(tiny.detect(np.zeros((720, 1280, 3), np.uint8))) == 1
    assert tiny.scales == [pytest.approx(0.25), pytest.approx(MAX_LONG / 1280)]
    empty = _Looks(die=18, seen_from=1000)  # an empty table: two looks, no dice
    assert empty.detect(np.zeros((480, 640, 3), np.uint8)) == []
    assert empty.scales == [pytest.approx(0.5), 1.0]
    whole = _Looks(die=18, seen_from=1000)  # a frame the first look sees whole is not looked at again
    assert whole.detect(np.zeros((240, 320, 3), np.uint8)) == [] and whole.scales == [1.0]


def test_working_sizes_are_multiples_of_the_detectors_stride():
    assert working_size(640, 480, 0.5) == (320, 240)
    assert all(v % 16 == 0 for v in working_size(853, 640, 0.375))


def test_training_goes_to_a_gpu_only_where_there_is_one(monkeypatch):
    torch = pytest.importorskip("torch")
    from vision.dicetrain import training_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert training_device("auto") == "cpu"
    assert training_device("cpu") == "cpu"
    with pytest.raises(ValueError, match="no GPU"):
        training_device("cuda")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert training_device("auto") == "cuda"


def test_training_is_in_bfloat16_only_where_the_device_computes_it_natively(monkeypatch):
    torch = pytest.importorskip("torch")
    from vision.dicetrain import training_precision

    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False, raising=False)
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: False, raising=False)
    assert training_precision("auto", "cpu") == "fp32"
    assert training_precision("bf16", "cpu") == "bf16"  # asked for: emulated, slow, but it works
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: True, raising=False)
    assert training_precision("auto", "cpu") == "bf16"
    assert training_precision("fp32", "cpu") == "fp32"
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    assert training_precision("auto", "cuda") == "fp32"


def test_networks_trained_in_bfloat16_keep_float32_weights_that_learn():
    torch = pytest.importorskip("torch")
    from vision import dicetrain

    torch.set_num_threads(1)
    tiles, maps = dicetrain._render_tiles((3, 0, 0, 3, 0.0))

    def loss(net) -> float:  # on the tiles as they are, in float32
        with torch.no_grad():
            out = dicetrain._forward(net.eval(), tiles / np.float32(255), "cpu", "fp32")
            return float(dicetrain.detector_loss(out, torch.from_numpy(maps)))

    def trained(steps: int):
        return dicetrain.train_detector(tiles, maps, lambda rng, n: (tiles[:0], maps[:0]), steps=steps,
                                        seed=0, log=lambda *_: None, precision="bf16")

    detector = trained(60)
    assert all(p.dtype == torch.float32 and torch.isfinite(p).all() for p in detector.parameters())
    # the losses take float32 outputs: bfloat16 rounds the focal loss's clamp at 1 - 1e-4 to 1, and log(0)
    out = dicetrain._forward(detector.train(), tiles / np.float32(255), "cpu", "bf16")
    assert all(o.dtype == torch.float32 for o in out)
    assert loss(detector) < 0.5 * loss(trained(0))  # it learns: the loss is less than half the untrained's


def test_a_few_training_steps_give_onnx_models_that_read_like_torch(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision import dicetrain, onnxexport

    torch.set_num_threads(1)
    tiles, maps = dicetrain._render_tiles((3, 0, 0, 3, 0.0))
    detector = dicetrain.train_detector(tiles, maps, lambda rng, n: (tiles[:0], maps[:0]), steps=2, seed=0,
                                        log=lambda *_: None)
    crops, values, colours, shares = dicetrain._scene_crops((3, 1, 0, 2, 0.0, True))
    classifier = dicetrain.train_classifier(crops, values, colours, steps=2, seed=0, log=lambda *_: None,
                                            first_real=len(crops) // 2, shares=shares)
    onnxexport.export(detector, classifier, {"temperature": 1.0, "detect_min": 0.6}, tmp_path)
    reader = LearnedReader.in_folder(tmp_path)
    x = np.ascontiguousarray(crops[:5].transpose(0, 3, 1, 2), dtype=np.float32) / 255
    with torch.no_grad():
        want = [out.numpy() for out in classifier(torch.from_numpy(x))]
    got = reader.classifier.run(None, {"crops": x})
    assert [o.shape for o in got] == [(5, len(VALUES)), (5, len(COLOURS)), (5,)]  # face, colour, side share
    assert all(np.abs(g - w).max() < 1e-3 for g, w in zip(got, want, strict=True))
    frame = np.random.default_rng(0).integers(0, 255, (240, 320, 3), dtype=np.uint8)
    with torch.no_grad():
        heat = detector(torch.from_numpy(frame.transpose(2, 0, 1)[None].astype(np.float32) / 255))[0].numpy()
    image = frame.transpose(2, 0, 1)[None].astype(np.float32) / 255
    assert np.abs(reader.detector.run(None, {"image": image})[0] - heat).max() < 1e-3
    assert reader.detect_min == 0.6
    for die in reader.read(frame):
        assert 0 <= die.confidence <= 1 and die.kind in ("d6", "grey", "treehouse")


def test_a_detector_trained_on_forked_batches_is_the_same_for_the_same_seed():
    torch = pytest.importorskip("torch")
    from vision import dicetrain

    torch.set_num_threads(1)
    tiles, maps = dicetrain._render_tiles((3, 0, 0, 3, 0.0))

    def trained(seed: int):
        net = dicetrain.train_detector(tiles, maps, lambda rng, n: (tiles[:0], maps[:0]), steps=3, seed=seed,
                                       log=lambda *_: None, batch_workers=2)
        return torch.cat([p.flatten() for p in net.state_dict().values() if p.is_floating_point()])

    assert torch.equal(trained(0), trained(0))


def test_augmented_tiles_are_the_turned_tiles_brightened_as_float_nhwc_0_to_1():
    from vision import dicetrain

    tiles, maps = dicetrain._render_tiles((3, 0, 0, 3, 0.0))
    x, turned_maps = dicetrain._augment_tiles(np.random.default_rng(5), tiles, maps)
    rng = np.random.default_rng(5)
    turned, want_maps = dicetrain.turn(tiles, maps, int(rng.integers(0, 4)))
    want = turned.astype(np.float32) / 255.0 * rng.uniform(0.7, 1.3, (3, 1, 1, 3)).astype(np.float32) + \
        rng.uniform(-0.1, 0.1, (3, 1, 1, 1))  # the offset in float64, as the committed weights were made
    assert x.dtype == np.float32 and x.shape == turned.shape and x.flags.c_contiguous
    assert np.array_equal(x, want.clip(0, 1).astype(np.float32)) and np.array_equal(turned_maps, want_maps)


def test_recoloured_real_crops_are_the_same_dice_in_other_colours():
    from itertools import permutations

    from vision.dicetrain import recolour

    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, (400, 4, 4, 3)).astype(np.float32)
    out = recolour(np.random.default_rng(1), x.copy())
    seen = set()
    for before, after in zip(x, out, strict=True):
        ways = [(order, inverted) for order in permutations(range(3)) for inverted in (False, True)
                if np.allclose(after, (1 - before[..., order]) if inverted else before[..., order])]
        assert len(ways) == 1  # each crop is its own pixels, channels in some order, maybe light for dark
        seen.add(ways[0])
    assert len(seen) == 12  # every order of channels, each both ways round
    kept = sum(1 for b, a in zip(x, out, strict=True) if np.array_equal(a, b))
    assert 0.3 * len(x) < kept < 0.5 * len(x)  # about three in eight left as they were


def test_recoloured_photo_tiles_stay_whole_bytes():
    """The detector's real tiles are uint8: light for dark is 255 minus, in bytes, with nothing clipped."""
    from vision.dicetrain import recolour

    tiles = np.random.default_rng(0).integers(0, 256, (200, 3, 3, 3), dtype=np.uint8)
    out = recolour(np.random.default_rng(1), tiles.copy(), 255)
    assert out.dtype == np.uint8
    pairs = list(zip(out, tiles, strict=True))
    inverted = [np.array_equal(np.sort(255 - a, axis=None), np.sort(b, axis=None)) for a, b in pairs]
    as_were = [np.array_equal(np.sort(a, axis=None), np.sort(b, axis=None)) for a, b in pairs]
    assert all(i or s for i, s in zip(inverted, as_were, strict=True))  # same bytes, or each 255 minus one
    assert 0.15 * len(tiles) < sum(inverted) < 0.35 * len(tiles)  # about a quarter light for dark


def test_the_side_is_read_off_the_classifiers_features_without_changing_what_it_learns():
    torch = pytest.importorskip("torch")
    from vision import dicetrain

    torch.set_num_threads(1)
    crops, values, colours, shares = dicetrain._scene_crops((3, 1, 0, 2, 0.0, True))
    x = torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255)

    def trained(known):
        net = dicetrain.train_classifier(crops, values, colours, steps=12, seed=0, log=lambda *_: None,
                                         shares=known)
        with torch.no_grad():
            return [out.numpy() for out in net(x)]

    taught, untaught = trained(shares), trained(None)
    assert np.array_equal(taught[0], untaught[0]) and np.array_equal(taught[1], untaught[1])  # face, colour
    on_dice = ~np.isnan(shares)
    error = lambda side: float(np.abs(side[on_dice] - shares[on_dice]).mean())  # noqa: E731
    assert error(taught[2]) < error(untaught[2])  # the side learned, from the crops that know it


def test_the_int8_classifier_reads_like_the_float_one_and_is_made_the_same_each_time(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision import dicetrain, onnxexport

    torch.manual_seed(0)
    crops, values, colours, _ = dicetrain._scene_crops((3, 1, 0, 4, 0.0, True))
    classifier = dicetrain.train_classifier(crops, values, colours, steps=30, seed=0, log=lambda *_: None)
    tiles, maps = dicetrain._render_tiles((3, 0, 0, 1, 0.0))
    detector = dicetrain.train_detector(tiles, maps, lambda rng, n: (tiles[:0], maps[:0]), steps=1, seed=0,
                                        log=lambda *_: None)
    onnxexport.export(detector, classifier, {"detect_min": 0.5}, tmp_path)
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255
    float_values = LearnedReader.in_folder(tmp_path).classifier.run(None, {"crops": x})[0]
    made = []
    for _ in range(2):
        onnxexport.export(detector, classifier, {"detect_min": 0.5}, tmp_path)
        onnxexport.quantise(tmp_path, x[::2])
        made.append((tmp_path / CLASSIFIER.name).read_bytes())
    assert made[0] == made[1]  # the committed int8 model is what a training run makes
    assert b"QuantizeLinear" in made[0] and b"DequantizeLinear" in made[0]
    int8_values = LearnedReader.in_folder(tmp_path).classifier.run(None, {"crops": x})[0]
    agree = (int8_values.argmax(1) == float_values.argmax(1)).mean()
    assert agree >= 0.95, agree
    spread = float_values.max() - float_values.min()
    assert np.abs(int8_values - float_values).max() < 0.1 * spread


def test_the_committed_classifier_runs_in_int8():
    # as `companion train dice` makes it (`vision.onnxexport.quantise`): an ONNX graph of quantised tensors
    model = CLASSIFIER.read_bytes()
    assert b"QuantizeLinear" in model and b"DequantizeLinear" in model


def test_the_bench_pairs_each_label_with_the_closest_die_on_it_and_counts_the_rest_false():
    from vision.bench import Label, match
    from vision.die import Die

    def die(x: int) -> Die:
        return Die(3, "d6", "white", (x, 40, x + 20, 60), 0.9)

    near, far, stray = die(40), die(48), die(200)
    labels = [Label(3, (52, 45, 60, 55), "d6"), Label(3, (45, 45, 55, 55), "d6")]  # centres 56 and 50
    paired, false = match(labels, [near, far, stray])
    # 56 is 2 px from far's centre (58), 50 is on near (50): the closest pairs are made first
    assert paired == [far, near]
    assert false == [stray]
    assert match(labels, [near]) == ([None, near], [])  # one die, taken by the label nearest it


def test_a_real_photos_tile_is_at_a_working_scale_the_reader_may_use_and_keeps_its_dice_in_place():
    photo = np.full((640, 853, 3), 90, np.uint8)
    cv2.rectangle(photo, (400, 300), (424, 324), (250, 250, 250), -1)  # a 25 px die, as on the CATAN photos
    boxes = [(5, (400, 300, 424, 324))]
    rng = np.random.default_rng(0)
    sides = []
    for _ in range(40):
        tile, found, whole = diceset.photo_tile(rng, photo, boxes)
        assert tile.shape == (diceset.TILE, diceset.TILE, 3) and whole == [True]
        cx, cy, w, h = found[0]
        if 2 <= cx < diceset.TILE - 2 and 2 <= cy < diceset.TILE - 2:
            assert tile[int(cy), int(cx)].min() > 200  # the die is where its box says
        sides.append(w)
    assert min(sides) >= 25 / 5 - 0.5 and max(sides) <= 25 + 0.5  # never enlarged past the photo itself
    assert max(sides) > 20 and min(sides) < 10  # both the first look (small) and the second (full size)


def test_a_model_without_its_calibrated_peak_threshold_is_refused(tmp_path):
    pytest.importorskip("onnxruntime")
    meta = tmp_path / "dice_reader.json"
    meta.write_text('{"temperature": 1.0}')
    with pytest.raises(ValueError, match="detect_min"):
        LearnedReader(tmp_path / "none.onnx", tmp_path / "none.onnx", meta)


def test_a_peak_on_a_stronger_peaks_face_is_the_same_die_seen_twice():
    from vision.learned import one_per_face

    die = Found(100, 100, 40, 40, 0.9)
    pip = Found(110, 95, 12, 12, 0.5)  # a pip of that die read as a small die of its own
    wider = Found(104, 102, 56, 56, 0.6)  # a second, larger box round the same die
    neighbour = Found(145, 100, 40, 40, 0.4)  # a die beside it, touching: its centre is off the first face
    assert one_per_face([pip, wider, neighbour, die]) == [die, neighbour]


class TopLeftSession:
    """A classifier session that 'reads' a crop's face "1" logit as its top-left pixel's blue level (0..1)."""

    def run(self, _, feeds):
        from vision.learned import COLOURS, VALUES

        x = feeds["crops"]
        values = np.zeros((len(x), len(VALUES)), np.float32)
        values[:, 1] = x[:, 0, 0, 0]
        return values, np.zeros((len(x), len(COLOURS)), np.float32)


def test_each_crop_is_read_in_its_quarter_turns_and_their_probabilities_averaged():
    from vision.learned import COLOURS, VALUES

    reader = LearnedReader.__new__(LearnedReader)  # no ONNX files: the classifier is the session above
    reader.classifier, reader.temperature = TopLeftSession(), 1.0
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[:100, :100] = 255  # the crop round (100, 100) is bright in its top-left quarter only
    die = [Found(100, 100, 50, 50, 0.9)]
    reader.turns = 1
    assert reader.logits(frame, die)[0][:, 0, 1] == pytest.approx([1.0])
    reader.turns = 4  # one of the four turns has the bright quarter top left
    assert sorted(reader.logits(frame, die)[0][:, 0, 1]) == pytest.approx([0, 0, 0, 1])
    sure, unsure = math.e / (math.e + len(VALUES) - 1), 1 / len(VALUES)  # "1" in that turn, in the others
    values, colours, _ = reader.classify(frame, die)
    assert values.shape == (1, len(VALUES)) and colours.shape == (1, len(COLOURS))
    assert values[0, 1] == pytest.approx((sure + 3 * unsure) / 4)  # the turns' probabilities, averaged
    assert values.sum() == pytest.approx(1.0)
    assert reader.classify(frame, [])[0].shape == (0, len(VALUES))


def test_an_upright_classifier_reads_each_crop_and_its_mirror_image_and_never_turns_it():
    from vision.learned import looks

    reader = LearnedReader.__new__(LearnedReader)
    reader.classifier, reader.temperature, reader.turns, reader.upright = TopLeftSession(), 1.0, 2, True
    die = [Found(100, 100, 50, 50, 0.9)]
    left = np.zeros((200, 200, 3), np.uint8)
    left[:100, :100] = 255  # bright top left: the crop sees it, its mirror image does not
    assert reader.logits(left, die)[0][:, 0, 1] == pytest.approx([1, 0])
    below = np.zeros((200, 200, 3), np.uint8)
    below[100:] = 255  # bright below the die: no look brings it to the top, as a turn would
    assert reader.logits(below, die)[0][:, 0, 1] == pytest.approx([0, 0])
    image = np.arange(12, dtype=np.uint8).reshape(3, 4, 1)
    assert np.array_equal(looks(image, 1, True), image[:, ::-1])
    assert np.array_equal(looks(image, 2, True), image)
    assert np.array_equal(looks(image, 1, False), turned(image, 1))


class ReadsTwoSession:
    """A classifier session that reads every crop as a sure "2"."""

    def run(self, _, feeds):
        from vision.learned import COLOURS, VALUES

        values = np.zeros((len(feeds["crops"]), len(VALUES)), np.float32)
        values[:, VALUES.index("2")] = 5.0
        return values, np.zeros((len(feeds["crops"]), len(COLOURS)), np.float32)


def test_an_ensemble_reads_each_look_with_every_classifier_and_averages_them_all():
    from vision.learned import VALUES, member_path

    reader = LearnedReader.__new__(LearnedReader)
    reader.classifier, reader.others = TopLeftSession(), (ReadsTwoSession(),)
    reader.temperature, reader.turns, reader.upright = 1.0, 2, True
    frame = np.zeros((200, 200, 3), np.uint8)
    frame[:100, :100] = 255  # the first classifier reads "1" in the crop, not in its mirror image
    die = [Found(100, 100, 50, 50, 0.9)]
    values, _ = reader.logits(frame, die)
    assert values.shape == (4, 1, len(VALUES))  # 2 classifiers x 2 looks, classifier by classifier
    assert values[:, 0, 1] == pytest.approx([1, 0, 0, 0]) and values[:, 0, 2] == pytest.approx([0, 0, 5, 5])
    probabilities, *_ = reader.classify(frame, die)
    k, e5 = len(VALUES), math.exp(5)
    looks_one = [math.e / (math.e + k - 1), 1 / k, 1 / (e5 + k - 1), 1 / (e5 + k - 1)]  # P("1") look by look
    looks_two = [1 / (math.e + k - 1), 1 / k, e5 / (e5 + k - 1), e5 / (e5 + k - 1)]
    assert probabilities[0, 1] == pytest.approx(sum(looks_one) / 4)  # all four looks weigh alike
    assert probabilities[0, 2] == pytest.approx(sum(looks_two) / 4)
    assert reader.logits(frame, [])[0].shape == (4, 0, len(VALUES))
    assert member_path(Path("m/dice_faces.onnx"), 0) == Path("m/dice_faces.onnx")
    assert member_path(Path("m/dice_faces.onnx"), 1) == Path("m/dice_faces_2.onnx")


def test_an_ensembles_classifiers_start_and_draw_apart_and_the_reader_loads_them_all(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision import dicetrain, onnxexport
    from vision.learned import member_path

    torch.set_num_threads(1)
    crops, values, colours, _ = dicetrain._scene_crops((3, 1, 0, 2, 0.0, True))

    def trained(member: int):
        return dicetrain.train_classifier(crops, values, colours, steps=2, seed=0, log=lambda *_: None,
                                          member=member)

    first, second, again = trained(0), trained(1), trained(1)
    weights = [torch.cat([p.flatten() for p in net.parameters()]) for net in (first, second, again)]
    assert not torch.equal(weights[0], weights[1]) and torch.equal(weights[1], weights[2])
    tiles, maps = dicetrain._render_tiles((3, 0, 0, 1, 0.0))
    detector = dicetrain.train_detector(tiles, maps, lambda rng, n: (tiles[:0], maps[:0]), steps=1, seed=0,
                                        log=lambda *_: None)
    meta = {"temperature": 1.0, "detect_min": 0.6, "classifiers": 2}
    onnxexport.export(detector, first, meta, tmp_path)
    onnxexport.export(None, second, meta, tmp_path, member=1)
    assert member_path(tmp_path / CLASSIFIER.name, 1).is_file()
    reader = LearnedReader.in_folder(tmp_path)
    assert len(reader.others) == 1
    found = [Found(20, 20, 16, 16, 0.9)]
    assert reader.logits(np.zeros((64, 64, 3), np.uint8), found)[0].shape[0] == 2 * reader.turns


def test_upright_training_crops_keep_the_frames_down_and_show_tilted_dice_side_faces_as_no_die():
    import argparse

    from companion.commands.train import add_parser
    from vision.dicetrain import _looks

    image = np.repeat(np.linspace(0, 255, 200, dtype=np.float32)[:, None], 200, axis=1).astype(np.uint8)
    image = np.dstack([image] * 3)  # dark at the top, bright at the bottom
    rng = np.random.default_rng(3)
    upright = [diceset.jittered_crop(rng, image, 100, 100, 40, upright=True)[0] for _ in range(40)]
    assert all(c[:5].mean() < c[-5:].mean() for c in upright)
    turned_crops = [diceset.jittered_crop(rng, image, 100, 100, 40)[0] for _ in range(40)]
    assert any(c[:5].mean() > c[-5:].mean() for c in turned_crops)
    from vision.dicetrain import _augment_tiles

    tiles = np.stack([cv2.resize(image, (diceset.TILE, diceset.TILE))] * 2)
    maps = np.stack([diceset.targets([(60.0, 50.0, 20.0, 20.0)])] * 2)
    for k in range(12):  # the detector's tiles too: mirrored at most
        x, m = _augment_tiles(np.random.default_rng(k), tiles, maps, upright=True)
        assert x[:, :5].mean() < x[:, -5:].mean() and m[0, 0].argmax() // m.shape[3] == 50 // STRIDE
    for seed in range(3):  # the default draws what it always drew
        plain, kept = diceset.scene_crops(np.random.default_rng(seed)), diceset.scene_crops(
            np.random.default_rng(seed), upright=False)
        assert plain[1] == kept[1] and np.array_equal(np.stack(plain[0]), np.stack(kept[0]))
    def nones(upright: bool) -> int:
        return sum(v == 0 for k in range(12) for v in diceset.scene_crops(
            np.random.default_rng([1, 1, k]), oblique=1.0, upright=upright)[1])

    assert nones(True) > nones(False) + 12  # the side faces' crops: no die
    assert _looks(True) == {"turns": 2, "upright": True, "mirror": True} and _looks(False)["turns"] == 4
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["train", "dice"]).upright
    assert not parser.parse_args(["train", "dice", "--no-upright"]).upright
    assert parser.parse_args(["train", "dice"]).classifiers == 2
    for bad in ("0", "two"):
        with pytest.raises(SystemExit):
            parser.parse_args(["train", "dice", "--classifiers", bad])


def _reader_of(faces: list[str], colours: list[dict[str, float]], boxes: list[float] | None = None,
               measured: list[float] | None = None) -> LearnedReader:
    """A reader whose detector finds one die per entry (boxes of `boxes` px; by default the first 60 px, then
    40 px ones) and whose classifier reads each as `faces[i]` (probability 0.99) with the colour
    probabilities `colours[i]`, and measures its side as `measured[i]` px (by default none: 0.0)."""
    from vision.learned import COLOURS, VALUES

    reader = LearnedReader.__new__(LearnedReader)
    sides = boxes or [60.0] + [40.0] * (len(faces) - 1)
    reader.scaled_detect = lambda frame, die_px=None, work_px=None: (
        1.0, [Found(80 + 100 * i, 100, s, s, 0.9) for i, s in enumerate(sides)])

    def classify(frame, found):
        values = np.full((len(found), len(VALUES)), 0.01 / (len(VALUES) - 1))
        for i, face in enumerate(faces):
            values[i, VALUES.index(face)] = 0.99
        pc = np.array([[c.get(name, 0.0) for name in COLOURS] for c in colours])
        return values, pc, np.array(measured or [0.0] * len(found))  # 0.0: the box's side (`die_side`)

    reader.classify = classify
    return reader


def test_a_die_whose_kind_rests_on_its_body_colour_is_only_as_sure_as_that_colour():
    frame = np.zeros((200, 400, 3), np.uint8)
    # a white d6 beside a smaller die that reads "3" on a body read 60 % grey, 40 % white: the small grey die
    grey = _reader_of(["5", "3"], [{"white": 1.0}, {"grey": 0.6, "white": 0.4}]).read(frame)
    assert [(d.kind, d.colour) for d in grey] == [("d6", "white"), ("grey", "grey")]
    assert grey[0].confidence == pytest.approx(0.99) and grey[1].confidence == pytest.approx(0.99 * 0.6)
    # the same small die read 70 % white is a white d6, sure only as far as it is not grey
    white = _reader_of(["5", "3"], [{"white": 1.0}, {"grey": 0.3, "white": 0.7}]).read(frame)
    assert (white[1].kind, white[1].colour) == ("d6", "white")
    assert white[1].confidence == pytest.approx(0.99 * 0.7)
    # a 5 is no grey die's face (1-4), so its body does not decide its kind
    five = _reader_of(["5", "5"], [{"white": 1.0}, {"grey": 0.3, "white": 0.7}]).read(frame)
    assert five[1].kind == "d6" and five[1].confidence == pytest.approx(0.99)


def test_the_kind_model_weighs_a_dies_size_beside_the_frames_d6s_with_its_grey_body():
    frame = np.zeros((200, 400, 3), np.uint8)
    small_grey = [{"white": 1.0}, {"grey": 0.3, "white": 0.7}]  # read 30 % grey, but two thirds a d6's size
    by_colour = _reader_of(["5", "3"], small_grey).read(frame)  # no kind model: the colour head alone
    assert by_colour[1].kind == "d6" and by_colour[1].confidence == pytest.approx(0.99 * 0.7)
    reader = _reader_of(["5", "3"], small_grey)
    reader.kind_model = (1.0, -10.0, 0.0, 0.0)  # small beside the d6s weighs more than a grey body
    small = reader.read(frame)[1]
    # beside the other dice not read grey (the 60 px d6), never beside itself: not the median of 60 and 40 px
    grey = 1 / (1 + math.exp(-(math.log(0.3 / 0.7) - 10 * math.log(40 / 60))))
    assert (small.kind, small.colour) == ("grey", "grey") and small.confidence == pytest.approx(0.99 * grey)
    reader = _reader_of(["3", "5", "5"], [{"grey": 0.6, "white": 0.4}, {"white": 1.0}, {"white": 1.0}])
    reader.kind_model = (1.0, -10.0, 0.0, 0.0)
    big = reader.read(frame)[0]  # a grey-looking die half as big again as the d6s is a grey d6, surely
    grey = 1 / (1 + math.exp(-(math.log(0.6 / 0.4) - 10 * math.log(60 / 40))))
    assert (big.kind, big.colour) == ("d6", "grey") and big.confidence == pytest.approx(0.99 * (1 - grey))
    assert big.confidence > 0.95


def _face(cx: float, cy: float, side: float, value: str = "5", colour: str = "white"):
    from vision.learned import COLOURS

    return Found(cx, cy, side, side, 0.9), value, np.eye(len(COLOURS))[COLOURS.index(colour)], 0.9


def test_a_d6s_side_follows_the_tilted_tables_depth_so_a_far_d6_is_not_the_small_grey_die():
    from vision.learned import PLANE_FIT, d6_sizes

    # a phone tilted over a table: d6s grow from 30 px at the top (y 100) to 60 px at the bottom (y 700)
    d6s = [_face(x, y, 30 + 30 * (y - 100) / 600) for x, y in ((100, 100), (500, 150), (300, 400), (150, 700),
                                                                 (450, 650))]
    sizes = d6_sizes(d6s)
    assert sizes.at(300, 100) == pytest.approx(30, abs=0.5)
    assert sizes.at(300, 700) == pytest.approx(60, abs=0.5)
    assert sizes.at(300, 2000) == pytest.approx(60)  # never past the sides seen
    # a far d6 of 31 px is a d6 where it lies, though two thirds of the frame's median (45 px)
    assert 31 / sizes.at(200, 120) > 0.95 and 31 / float(np.median([f.w for f, *_ in d6s])) < 0.7
    # dice read grey, and faces that are not pips, are not d6s; too few d6s for a plane: their median
    few = d6_sizes([*d6s[:PLANE_FIT - 1], _face(0, 0, 10, colour="grey"), _face(0, 0, 10, value="none")])
    assert few.at(0, 0) == few.at(600, 800) == pytest.approx(float(np.median([30, 32.5, 45])))
    assert d6_sizes([]).at(10, 10) == 0.0  # no d6: nothing to compare with (`kind_features`' flag)


def test_the_kind_model_weighs_the_side_the_classifier_measured_not_the_turned_dies_box():
    frame = np.zeros((200, 600, 3), np.uint8)
    greyish = [{"white": 1.0}, {"white": 1.0}, {"grey": 0.4, "white": 0.6}]
    # a grey die turned 45 degrees boxes as wide as the d6s beside it (1.41 times its 40 px side)
    boxes = [57.0, 57.0, 57.0]
    by_box = _reader_of(["5", "6", "3"], greyish, boxes)
    by_box.kind_model = (1.0, -10.0, 0.0, 0.0)
    assert by_box.read(frame)[2].kind == "d6"  # its box alone: as big as a d6
    measured = _reader_of(["5", "6", "3"], greyish, boxes, measured=[56.0, 57.0, 40.0])
    measured.kind_model = (1.0, -10.0, 0.0, 0.0)
    small = measured.read(frame)[2]
    grey = 1 / (1 + math.exp(-(math.log(0.4 / 0.6) - 10 * math.log(40 / 56.5))))  # beside the other two
    assert (small.kind, small.colour) == ("grey", "grey") and small.confidence == pytest.approx(0.99 * grey)


def test_a_die_is_weighed_beside_the_other_dice_never_beside_itself():
    from vision.learned import d6_sizes

    # four 40 px d6s round a 29 px die whose body the colour head took for white: the small grey die
    faces = [_face(x, y, 40) for x, y in ((100, 100), (300, 100), (100, 300), (300, 300))]
    faces.append(_face(200, 200, 29, value="3"))
    assert d6_sizes(faces, without=4).at(200, 200) == pytest.approx(40)
    assert d6_sizes(faces).at(200, 200) < 38  # its own side in the fit pulls the d6's towards it
    assert d6_sizes(faces, without=0).at(100, 100) < 40  # another d6 is weighed beside all the rest
    assert d6_sizes(faces[4:], without=0).at(200, 200) == 0.0  # alone: nothing to compare with


def test_a_small_die_far_off_on_a_tilted_table_is_a_d6_and_one_small_where_it_lies_is_grey():
    frame = np.zeros((800, 600, 3), np.uint8)
    faces = ["5", "6", "5", "6", "3", "3"]
    colours = [{"white": 1.0}] * 4 + [{"grey": 0.3, "white": 0.7}] * 2
    reader = _reader_of(faces, colours)
    reader.kind_model = (1.0, -10.0, 0.0, 0.0)
    # d6s 30 px far off (y 100) and 60 px near (y 700); a 30 px die far off, and a 30 px die near
    boxes = [(100, 100, 30), (500, 100, 30), (100, 700, 60), (500, 700, 60), (300, 110, 30), (300, 690, 30)]
    reader.scaled_detect = lambda frame, die_px=None, work_px=None: (
        1.0, [Found(x, y, s, s, 0.9) for x, y, s in boxes])
    far, near = reader.read(frame)[4:]
    assert (far.kind, far.colour) == ("d6", "white") and (near.kind, near.colour) == ("grey", "grey")


def test_a_meta_whose_kind_model_is_not_three_weights_and_a_bias_is_refused(tmp_path):
    from vision.learned import CLASSIFIER, DETECTOR, META

    meta = json.loads(META.read_text())
    meta["kind"] = [1.0, 2.0]
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="three weights and a bias"):
        LearnedReader(DETECTOR, CLASSIFIER, tmp_path / "meta.json")


def test_a_meta_whose_weight_of_no_die_is_no_number_is_refused(tmp_path):
    from vision.learned import CLASSIFIER, DETECTOR, META

    meta = json.loads(META.read_text())
    meta["no_die"] = "nan"  # float() takes it, and every reading would then be no die
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="'no_die' must be a number"):
        LearnedReader(DETECTOR, CLASSIFIER, tmp_path / "meta.json")


def test_the_reader_crops_each_die_as_widely_as_its_classifier_was_trained_to_see_it(tmp_path):
    from vision.learned import CONTEXT, DETECTOR, META

    frame = np.random.default_rng(5).integers(0, 256, (300, 300, 3), np.uint8)
    die = Found(150, 150, 40, 40, 0.9)
    meta = json.loads(META.read_text())
    for context in (1.6, 1.3):
        meta["context"] = context
        (tmp_path / "meta.json").write_text(json.dumps(meta))
        reader = LearnedReader(DETECTOR, CLASSIFIER, tmp_path / "meta.json")
        first_look = reader.views(frame, [die])[0].transpose(1, 2, 0)
        assert np.allclose(first_look * 255, crop(frame, 150, 150, context * 40), atol=1e-3)
    del meta["context"]  # a meta from before the context was stored: the training's own
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    assert LearnedReader(DETECTOR, CLASSIFIER, tmp_path / "meta.json").context == CONTEXT
    meta["context"] = 0
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="'context'"):
        LearnedReader(DETECTOR, CLASSIFIER, tmp_path / "meta.json")


def test_a_run_of_fewer_classifiers_removes_the_members_of_a_larger_ensemble_trained_there_before(tmp_path):
    from vision import onnxexport

    for name in ("dice_faces.onnx", "dice_faces_2.onnx", "dice_faces_3.onnx", "dice_detector.onnx"):
        (tmp_path / name).write_bytes(b"onnx")
    onnxexport.drop_other_members(tmp_path, 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dice_detector.onnx", "dice_faces.onnx",
                                                          "dice_faces_2.onnx"]
    onnxexport.drop_other_members(tmp_path, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dice_detector.onnx", "dice_faces.onnx"]


def test_a_training_run_writes_the_committed_meta_byte_for_byte_from_what_it_measured_and_trained_with():
    from vision import dicetrain, readerfit
    from vision.learned import META

    m = json.loads(META.read_text())
    measured = {key: m[key] for key in readerfit.MEASURED}  # as `calibrate` answers (its test)
    written = dicetrain._meta(measured, m["seed"], m["upright"], m["classifiers"], m["device"],
                              m["precision"])
    assert json.dumps(written, indent=1) + "\n" == META.read_text()  # the same keys, in the same order


def test_recalibrating_keeps_every_fact_of_the_models_and_rewrites_only_what_it_measures(tmp_path,
                                                                                          monkeypatch):
    import shutil
    from types import SimpleNamespace

    from vision import dicetrain, readerfit
    from vision.learned import CONTEXT, DATA, META

    for model in DATA.glob("dice_*"):
        shutil.copy(model, tmp_path)
    committed = json.loads(META.read_text())
    measured = []
    monkeypatch.setattr(dicetrain, "calibration_renders", lambda args: {})
    monkeypatch.setattr(dicetrain, "training_photos", lambda shared: [])
    answers = [{key: committed[key] for key in readerfit.MEASURED},  # what each recalibration below measures
               {"temperature": 1.1, "detect_min": 0.35, "no_die": 0.5, "kind": [1.0, -8.0, 1.0, -2.0],
                "sure": 0.97}]
    monkeypatch.setattr(dicetrain, "calibrate", lambda reader, renders, photos, log: (
        measured.append(reader.context) or answers.pop(0)))

    def recalibrate(meta: dict) -> str:
        (tmp_path / META.name).write_text(json.dumps(meta))
        dicetrain.recalibrate(SimpleNamespace(out=tmp_path, threads=1, seed=1), log=lambda *_: None)
        return (tmp_path / META.name).read_text()

    # measured as committed: the committed meta comes back byte for byte, keys in their order
    assert recalibrate(committed) == META.read_text()
    # models of another crop width and seed, with a fact of their training the recalibration never heard of
    older = {**committed, "context": CONTEXT + 0.2, "seed": 7, "scenes": 1234}
    del older["mirror"]  # and from before the detector looked at the mirrored frame
    saved = json.loads(recalibrate(older))
    assert measured[-1] == pytest.approx(CONTEXT + 0.2)  # measured as they read
    assert saved == {**older, "temperature": 1.1, "detect_min": 0.35, "no_die": 0.5,
                     "kind": [1.0, -8.0, 1.0, -2.0], "sure": 0.97, "mirror": dicetrain.MIRROR}
    assert list(saved)[:len(readerfit.MEASURED)] == list(readerfit.MEASURED)  # first, as training writes


def test_the_detectors_heatmap_is_averaged_with_the_mirrored_frames_mirrored_back():
    class Detector:
        """Sees one die in the cell of column 2, row 3 of whatever it is shown, 8 px across."""

        def run(self, _, feeds):
            _, _, h, w = feeds["image"].shape
            heat = np.zeros((1, 1, h // STRIDE, w // STRIDE), np.float32)
            heat[0, 0, 3, 2] = 1.0
            size = np.full((1, 2, h // STRIDE, w // STRIDE), math.log(8 / STRIDE), np.float32)
            return heat, size, np.full((1, 2, h // STRIDE, w // STRIDE), 0.5, np.float32)

    reader = LearnedReader.__new__(LearnedReader)
    reader.detector, reader.detect_min = Detector(), 0.3
    frame = np.zeros((64, 96, 3), np.uint8)  # 24 cells across
    assert [(f.cx, f.cy, f.score) for f in reader.detect_at(frame, 1.0)] == [(10.0, 14.0, 1.0)]
    reader.mirror = True  # the mirrored look's die lies in column 2 of the mirror image: column 21 here
    found = sorted((f.cx, f.cy, f.score) for f in reader.detect_at(frame, 1.0))
    assert found == [(10.0, 14.0, 0.5), (86.0, 14.0, 0.5)]
    reader.detect_min = 0.6  # each look alone is only half the word
    assert reader.detect_at(frame, 1.0) == []


def test_a_readings_confidence_puts_the_sure_bar_on_the_tables_threshold_and_keeps_the_order():
    from vision.learned import SURE, confidence

    assert confidence(0.97, 0.97) == SURE
    assert confidence(0.0, 0.97) == 0.0 and confidence(1.0, 0.97) == 1.0
    assert confidence(0.96, 0.97) < SURE < confidence(0.975, 0.97)
    probabilities = np.linspace(0, 1, 101)
    assert np.all(np.diff([confidence(p, 0.97) for p in probabilities]) > 0)
    assert confidence(0.5, None) == 0.5  # weights without a bar: the probability itself
    assert confidence(0.9999, 1.0) < SURE  # no bar held: only a probability of 1 would be sure


def test_the_sure_bar_lands_on_the_tables_default_threshold():
    from companion.settings import Settings
    from vision.learned import SURE

    assert Settings().confidence_threshold == SURE


def test_training_the_classifier_alone_needs_a_detector_to_keep(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from companion.cli import main

    assert main(["train", "dice", "--keep-detector", "--out", str(tmp_path)]) != 0
    assert "no dice_detector.onnx" in capsys.readouterr().err


def test_the_classifier_learns_what_the_detector_finds_in_renders_on_dice_and_off_them():
    from vision import diceset, dicetrain, readerfit
    from vision.learned import DETECTOR
    from vision.scenes import random_scene

    crops, values, colours, shares = dicetrain._found_crops((3, 6, 0, 4, 0.5, True, str(DETECTOR.parent)))
    finds, reader = [], LearnedReader()
    for k in range(4):  # the same scenes, and what the committed detector finds in each
        rng = np.random.default_rng([3, 6, k])
        image, truth = random_scene(rng, oblique=diceset.drawn(rng, 0.5))
        found = reader.detect(image)
        on = readerfit.found_labels(found, [t.box for t in truth])
        classes = {j: diceset.value_class(t.value) for t, j in zip(truth, on, strict=True) if j is not None}
        finds += [classes.get(j, 0) for j in range(len(found))]
    assert crops.shape == (len(finds), CROP, CROP, 3) and crops.dtype == np.uint8
    assert values.tolist() == finds and 0 < np.count_nonzero(values) < len(values)  # dice and false finds
    assert np.array_equal(colours == -1, values == 0)  # a die's colour is known, no die has none
    assert np.array_equal(np.isnan(shares), values == 0)  # and so is its side (`diceset.side_share`)


def test_the_weight_of_no_die_is_added_to_that_class_alone_and_leaves_the_logits_given_as_they_were():
    from vision.learned import weighed

    logits = np.arange(2 * 3 * 13, dtype=np.float32).reshape(2, 3, 13)
    out = weighed(logits, 1.5)
    assert np.array_equal(out[..., 0], logits[..., 0] + 1.5) and np.array_equal(out[..., 1:], logits[..., 1:])
    assert np.array_equal(logits, np.arange(2 * 3 * 13, dtype=np.float32).reshape(2, 3, 13))


def test_the_reader_weighs_no_die_as_its_meta_says():
    from vision import readerfit

    image, _ = readerfit._held_out_scene((5, 4, 0, False))
    reader = LearnedReader()  # the committed models and meta
    assert reader.no_die == reader.meta.get("no_die", 0.0)
    found = reader.detect(image)
    values, *_ = reader.classify(image, found)
    assert len(found) and (values.argmax(axis=1) > 0).any()  # it reads dice here
    f = found[0]
    cut = image[int(f.cy - f.h / 1.6):int(f.cy + f.h / 1.6), int(f.cx - f.w / 1.6):int(f.cx + f.w / 1.6)]
    plain = reader.read_crop(cut)
    assert plain is not None  # a die (a 3, as it happens)
    reader.no_die += 50.0  # "no die" outweighs any face: nothing is read
    assert reader.read(image) == [] and (reader.classify(image, found)[0].argmax(axis=1) == 0).all()
    assert reader.read_crop(cut) == plain  # but a crop cut round a die is read as it was: not weighed


def test_reading_a_roll_with_the_learned_reader_never_loads_the_rules():
    # the per-frame path is the learned reader's own: the rule-tuned reader (vision.dice and the pip, face
    # and face-classifier modules it stands on) is only there for `--reader rules` and bench's side by side
    import subprocess
    import sys

    script = (
        "import sys, numpy as np\n"
        "from vision.readers import open_reader\n"
        "from vision.drawing import annotate\n"
        "from vision.render import DieSpec, render_scene\n"
        "reader = open_reader('learned')\n"
        "image = render_scene(np.random.default_rng(3), [DieSpec('d6', 'white', 4)])[0]\n"
        "dice = reader.read(image)\n"
        "annotate(image, dice)\n"
        "print(reader.name, [d.value for d in dice])\n"
        "print(sorted(m for m in ('vision.dice', 'vision.pips', 'vision.faces', 'vision.faceclass')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2]).stdout.splitlines()
    assert out == ["learned [4]", "[]"]


class _Counted(_Looks):
    """`_Looks` whose dice read as sure 5s; `dice_at(scale)` says how many it finds at each scale."""

    sure = 0.9

    def __init__(self, die: float, dice_at):
        super().__init__(die)
        self.dice_at = dice_at

    def detect_at(self, frame, scale):
        self.scales.append(scale)
        return [Found(100 + 200 * k, 100, self.die, self.die, 0.9) for k in range(self.dice_at(scale))]

    def classify(self, frame, found, no_die=None):
        faces = np.zeros((len(found), len(VALUES)), np.float32)
        faces[:, VALUES.index("5")] = 0.95
        return faces, np.full((len(found), len(COLOURS)), 1 / len(COLOURS), np.float32), np.zeros(len(found))


def test_a_roll_read_as_another_number_of_dice_than_it_holds_is_read_at_the_scales_round_it():
    frame = np.zeros((720, 1280, 3), np.uint8)  # 120 px dice: the first look's 0.25 reads them at 30 px
    far = _Counted(120, lambda scale: 3 if scale < 0.2 else 2)  # the third die only 1.5 times farther
    assert len(far.read(frame)) == 2 and far.scales == [0.25]  # without the count, one look
    far.scales.clear()
    assert len(far.read(frame, count=3)) == 3
    assert far.scales == pytest.approx([0.25, 0.375, 0.5625, 0.75, 0.25 / 1.5])  # closer, then farther
    fits = _Counted(120, lambda scale: 2)
    assert len(fits.read(frame, count=2)) == 2 and fits.scales == [0.25]  # as many as it holds: one look
    unsure = _Counted(120, lambda scale: 2)
    unsure.sure = 0.99  # each die below the sure bar: looked at round it, the reader's own kept on ties
    assert len(unsure.read(frame, count=2)) == 2 and len(unsure.scales) == 6


def test_the_committed_reader_told_how_many_dice_a_roll_holds_finds_the_one_it_missed():
    from vision.colour_bench import FIRST_SEED, Table

    rng = np.random.default_rng(FIRST_SEED + 4)  # a held-out table whose black die shows its red pips
    at = Table.drawn(rng)
    at.photo(rng, thrown=False)
    roll, truth = at.photo(rng)
    reader = LearnedReader.default()
    assert sorted(d.value for d in reader.read(roll)) == [1, 5, 5]  # its own scale takes a pip for the die
    assert sorted(t.value for t in truth) == [1, 3, 5, 5]
    assert sorted(d.value for d in reader.read(roll, count=4)) == [1, 3, 5, 5]
