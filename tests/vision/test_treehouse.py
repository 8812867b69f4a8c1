"""The Treehouse die reader: symbols found on their dark faces and matched to templates, and the
look-alikes it must leave alone (letters on dark keys, print)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.render import DieSpec, render_scene
from vision.symbols import TREEHOUSE_FACES, draw_symbol
from vision.treehouse import TreehouseTemplates, confidence, face_crops, find_treehouse

TEMPLATES = TreehouseTemplates.default()


def _read(image: np.ndarray, templates: TreehouseTemplates = TEMPLATES) -> list:
    """The confident Treehouse dice in a BGR image (as `read_dice` keeps them)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return [d for d in find_treehouse(image, gray, templates, []) if d.confidence >= 0.5]


def _lit(image: np.ndarray, gain: float = 1.3) -> np.ndarray:
    """image under a brighter lamp: the die's rim highlight turns as light as a symbol."""
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _centre_in(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def _dark_tile(face: str, shift: tuple[int, int] = (0, 0), side: int = 64) -> np.ndarray:
    """A light table with one dark square (a key or a die face) of side px, and on it the light
    symbol of `face` drawn as on a die (0.75 of the side), its middle moved by shift px from the
    square's middle."""
    image = np.full((480, 640, 3), 190, np.uint8)
    x0, y0 = 200, 150
    cv2.rectangle(image, (x0, y0), (x0 + side - 1, y0 + side - 1), (26, 26, 28), -1)
    symbol = draw_symbol(face, round(side * 0.75))
    ys, xs = np.nonzero(symbol)
    symbol = symbol[ys.min():ys.max() + 1, xs.min():xs.max() + 1]  # just the mark
    h, w = symbol.shape
    x, y = x0 + (side - w) // 2 + shift[0], y0 + (side - h) // 2 + shift[1]
    region = image[y:y + h, x:x + w]
    region[:] = np.maximum(region, (symbol[..., None] * (225 / 255)).astype(np.uint8))
    return cv2.GaussianBlur(image, (0, 0), 0.8)


@pytest.mark.parametrize("face", TREEHOUSE_FACES)
def test_each_face_is_read_in_cluttered_scenes(face):
    """Every variation (light, blur, noise, JPEG, perspective, side faces, clutter): measured 12 of 12
    per face."""
    right = 0
    for seed in range(8):
        image, truth = render_scene(np.random.default_rng(seed), [DieSpec("treehouse", "treehouse", face)])
        dice = _read(image)
        right += len(dice) == 1 and dice[0].value == face and _centre_in(dice[0].box, truth[0].box)
    assert right >= 7


@pytest.mark.parametrize("side", [30, 44, 90, 140])
def test_faces_of_every_size_are_read(side):
    for i, face in enumerate(TREEHOUSE_FACES):
        image, truth = render_scene(np.random.default_rng(10 + i), [DieSpec("treehouse", "treehouse", face)],
                                    variations=False, side_px=side)
        assert [d.value for d in _read(image)] == [face], (face, side)


@pytest.mark.parametrize("face", TREEHOUSE_FACES)
def test_a_die_on_a_dark_table_is_read_inside_its_light_rim(face):
    """On a dark table under a bright lamp the die's rim is a light ring round the symbol."""
    backdrop = np.full((480, 640, 3), 22, np.uint8)
    image, truth = render_scene(np.random.default_rng(5), [DieSpec("treehouse", "treehouse", face)],
                                variations=False, side_px=44, backdrop=backdrop)
    dice = _read(_lit(image))
    assert [d.value for d in dice] == [face]
    assert _centre_in(dice[0].box, truth[0].box)


@pytest.mark.parametrize("face", TREEHOUSE_FACES)
def test_a_die_in_dim_light_is_read(face):
    image, _ = render_scene(np.random.default_rng(6), [DieSpec("treehouse", "treehouse", face)],
                            variations=False, side_px=40)
    dim = (image.astype(np.float32) * 0.6).astype(np.uint8)
    assert [d.value for d in _read(dim)] == [face]


@pytest.mark.parametrize("face", TREEHOUSE_FACES)
def test_one_die_gives_one_face_crop(face):
    """Calibration keeps a face only when exactly one is seen: the AIM target's ring and dot, or a
    symbol and the light rim round it, are one face."""
    for backdrop in (None, np.full((480, 640, 3), 22, np.uint8)):
        image, truth = render_scene(np.random.default_rng(3), [DieSpec("treehouse", "treehouse", face)],
                                    variations=False, side_px=60, backdrop=backdrop)
        crops = face_crops(cv2.cvtColor(_lit(image), cv2.COLOR_BGR2GRAY))
        assert len(crops) == 1
        crop, box = crops[0]
        assert _centre_in(box, truth[0].box)
        assert abs(crop.shape[0] - 60) <= 6 and crop.shape[0] == crop.shape[1]


def test_calibrated_templates_read_dice_of_another_size_and_angle():
    """Templates cut from the camera's own frames (as `companion calibrate treehouse` does) serve for
    dice seen at another distance and angle."""
    crops = {}
    for face in TREEHOUSE_FACES:
        image, _ = render_scene(np.random.default_rng(1), [DieSpec("treehouse", "treehouse", face)],
                                variations=False, side_px=64)
        (crop, _), = face_crops(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        crops[face] = crop
    calibrated = TreehouseTemplates(crops)
    for i, face in enumerate(TREEHOUSE_FACES):
        image, _ = render_scene(np.random.default_rng(20 + i), [DieSpec("treehouse", "treehouse", face)],
                                variations=False, side_px=42)
        assert [d.value for d in _read(image, calibrated)] == [face]


@pytest.mark.parametrize("face", ["TIP", "WILD", "DIG"])
def test_a_symbol_off_the_middle_of_a_dark_square_is_not_a_die(face):
    """A die's symbol is centred on its face; a letter sits off-centre on a key."""
    assert [d.value for d in _read(_dark_tile(face))] == [face]  # the same square and symbol, centred
    for shift in [(-12, 0), (12, 0), (0, -12), (10, 10)]:  # 0.16..0.19 of the square's side
        image = _dark_tile(face, shift)
        assert face_crops(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), frame=image) == []
        assert _read(image) == []


@pytest.mark.parametrize("glyph", ["A", "E", "tab", "fn"])
def test_a_letter_on_a_dark_key_is_not_a_die(glyph):
    """Keys as the renderer draws them: the letter's baseline at 0.1..0.5 of the key from its left
    and 0.35..0.8 from its top."""
    image = np.full((480, 640, 3), 190, np.uint8)
    key = 52
    for i, (fx, fy) in enumerate([(0.12, 0.45), (0.15, 0.75), (0.45, 0.8), (0.1, 0.4)]):
        kx, ky = 60 + i * 130, 200
        cv2.rectangle(image, (kx, ky), (kx + key, ky + key), (25, 25, 28), -1)
        cv2.putText(image, glyph, (int(kx + key * fx), int(ky + key * fy)), cv2.FONT_HERSHEY_SIMPLEX,
                    key / 60 * 0.9, (225, 225, 225), 2, cv2.LINE_AA)
    assert _read(image) == []


def test_scenes_without_a_treehouse_die_give_no_confident_one():
    false = 0
    for seed in range(40):
        image, truth = render_scene(np.random.default_rng(500 + seed))
        boxes = [t.box for t in truth if t.kind == "treehouse"]
        false += sum(not any(_centre_in(d.box, b) for b in boxes) for d in _read(image))
    assert false == 0


def test_confidence_needs_a_good_match_well_ahead_of_the_next_face():
    sure = {"AIM": 0.97, "TIP": 0.60, "HOP": 0.5, "DIG": 0.4, "SWAP": 0.3, "WILD": 0.55}
    assert confidence(sure) == pytest.approx(1.0)
    close = dict(sure, TIP=0.96)  # a blob that fits two faces alike
    assert confidence(close) < 0.1
    poor = {face: 0.1 * i for i, face in enumerate(TREEHOUSE_FACES)}  # best only 0.5: nothing like a face
    assert confidence(poor) == 0.0


def test_nothing_is_found_in_empty_or_blank_input():
    blank = np.zeros((480, 640, 3), np.uint8)
    assert find_treehouse(blank, blank[..., 0], TEMPLATES, []) == []
    white = np.full((480, 640, 3), 255, np.uint8)
    assert find_treehouse(white, white[..., 0], TEMPLATES, []) == []
    empty = np.zeros((0, 0, 3), np.uint8)
    assert find_treehouse(empty, empty[..., 0], TEMPLATES, []) == []
    assert face_crops(np.zeros((3, 3), np.uint8)) == []
    flat = TEMPLATES.scores(np.zeros((40, 40), np.uint8))  # a flat crop matches nothing
    assert set(flat.values()) == {0.0} and confidence(flat) == 0.0
    assert set(TEMPLATES.scores(np.zeros((2, 2), np.uint8)).values()) == {0.0}


def test_regions_taken_by_pip_dice_are_skipped():
    image, truth = render_scene(np.random.default_rng(2), [DieSpec("treehouse", "treehouse", "DIG")],
                                variations=False, side_px=50)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert [d.value for d in find_treehouse(image, gray, TEMPLATES, [])] == ["DIG"]
    assert find_treehouse(image, gray, TEMPLATES, [truth[0].box]) == []


def test_templates_need_every_face(tmp_path):
    with pytest.raises(ValueError, match="missing"):
        TreehouseTemplates({"AIM": np.zeros((64, 64), np.uint8)})
    with pytest.raises(ValueError, match="missing"):
        TreehouseTemplates.load(tmp_path)
