"""The table's calibration: die size, the roll's colours and the empty table, learned from two photos.

The reader here is a test double of the learned reader (its `detect` and `classify`), so what is tested
is the calibration's own logic and LearnedReader.read's use of it, not the trained networks."""

from __future__ import annotations

import dataclasses
import json
import logging
import math

import cv2
import numpy as np
import pytest

from companion.settings import save_atomically
from vision.calibration import (
    CalibrationError,
    TableCalibration,
    _learn_at,
    as_typed,
    difference,
    learn_table,
    load_table,
)
from vision.learned import COLOURS, VALUES, Found, LearnedReader, roll_scales

TABLE = (90, 120, 150)  # BGR: a brown table
PAINT = {"red": (40, 40, 200), "cream": (190, 225, 240), "blue": (200, 90, 40)}
SIDE = 30  # px: the dice's face side in the photos


@pytest.fixture(autouse=True)
def _working_size_of_the_first_look(monkeypatch):
    """These tables' dice are read at the first look (0.5 of a 640 px photo, SIDE / 2 px there), as a reader
    whose working size is SIDE / 2 reads them: the tests are of the looks taken from there."""
    monkeypatch.setattr("vision.learned.WORK_DIE", SIDE / 2)


class Double(LearnedReader):
    """Finds whatever differs clearly from the table's colour (dice, and specks it takes for dice) at any
    scale (it records the scales it is asked to look at) and reads each by what was put there: `truth`
    maps a centre (x, y) to (value, colour); anything else reads as a black 1, as a printed dot would."""

    def __init__(self, truth: dict[tuple[int, int], tuple[int, str]] | None = None):
        self.truth = truth or {}
        self.scales: list[float] = []

    def detect_at(self, frame, scale):
        self.scales.append(scale)
        unlike = (np.abs(frame.astype(int) - TABLE).max(axis=2) > 45).astype(np.uint8)
        n, _, stats, centres = cv2.connectedComponentsWithStats(unlike)
        return [Found(float(cx), float(cy), float(w), float(h), 0.9)
                for (x, y, w, h, area), (cx, cy) in zip(stats[1:], centres[1:], strict=True) if area >= 9]

    def classify(self, frame, found):
        faces = np.zeros((len(found), len(VALUES)), np.float32)
        colours = np.zeros((len(found), len(COLOURS)), np.float32)
        for i, f in enumerate(found):
            near = [k for k in self.truth if math.hypot(k[0] - f.cx, k[1] - f.cy) < 8]
            value, colour = self.truth[near[0]] if near else (1, "black")
            faces[i, VALUES.index(str(value))] = 1
            colours[i, COLOURS.index(colour)] = 1
        return faces, colours, np.zeros(len(found))  # no side measured: the box's (`die_side`)


def table(seed: int = 0, noise: float = 3.0, specks: tuple[tuple[int, int], ...] = ((200, 300),)
          ) -> np.ndarray:
    """A 480x640 table photo with camera noise and dark printed dots at `specks`."""
    rng = np.random.default_rng(seed)
    photo = np.array(TABLE, np.float32) + rng.normal(0, noise, (480, 640, 3))
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    for x, y in specks:
        cv2.circle(photo, (x, y), 4, (30, 30, 30), -1, cv2.LINE_AA)
    return photo


def put(photo: np.ndarray, x: int, y: int, colour: str, side: int = SIDE) -> np.ndarray:
    """A die of `side` px with a white centre pip, centred at (x, y), on a copy of the photo."""
    photo = photo.copy()
    h = side // 2
    cv2.rectangle(photo, (x - h, y - h), (x + h - 1, y + h - 1), PAINT[colour], -1)
    cv2.circle(photo, (x, y), max(2, side // 8), (250, 250, 250), -1, cv2.LINE_AA)
    return photo


ROLL = {(100, 100): (3, "red"), (300, 120): (5, "red"), (500, 200): (1, "cream")}


def roll_photo(seed: int = 1, noise: float = 3.0, dice=ROLL, side: int = SIDE, **kw) -> np.ndarray:
    photo = table(seed, noise, **kw)
    for (x, y), (_, colour) in dice.items():
        photo = put(photo, x, y, colour, side)
    return photo


def calibrated(noise: float = 3.0) -> tuple[TableCalibration, Double]:
    reader = Double(ROLL)
    return learn_table(reader, table(0, noise), roll_photo(1, noise), [3, 5, 1]), reader


def test_calibration_learns_the_dies_size_in_px_and_each_dies_colour_left_to_right():
    cal, _ = calibrated()
    assert cal.die_px == pytest.approx(SIDE, abs=1)
    assert cal.colours == ["red", "red", "cream"]
    assert [d.value for d in cal.dice] == [3, 5, 1]
    assert "red 3, red 5, cream 1" in cal.describe() and "30 px" in cal.describe()


def test_calibration_finds_where_the_empty_table_looks_like_a_die():
    cal, _ = calibrated()
    assert [(round(s.cx), round(s.cy)) for s in cal.spots] == [(200, 300)]


@pytest.mark.parametrize("typed, words", [([3, 5, 1, 4], "found 3 dice, you typed 4 values"),
                                          ([3, 5], "found 3 dice, you typed 2 values")])
def test_more_or_fewer_dice_than_typed_values_is_refused_in_words(typed, words):
    with pytest.raises(CalibrationError, match=words):
        learn_table(Double(ROLL), table(0), roll_photo(1), typed)


def test_a_new_speck_on_the_roll_photo_is_counted_as_a_die_too_many():
    with pytest.raises(CalibrationError, match="found 4 dice, you typed 3 values"):
        learn_table(Double(ROLL), table(0), roll_photo(1, specks=((200, 300), (600, 50))), [3, 5, 1])


def test_typed_values_the_dice_do_not_show_are_refused_in_words():
    with pytest.raises(CalibrationError, match="the dice read 1 3 5, you typed 2 3 5"):
        learn_table(Double(ROLL), table(0), roll_photo(1), [3, 5, 2])


@pytest.mark.parametrize("typed", [[], [0, 3, 5], [3, 5, 7]])
def test_values_that_are_no_d6_faces_are_refused(typed):
    with pytest.raises(CalibrationError, match="1 to 6"):
        learn_table(Double(ROLL), table(0), roll_photo(1), typed)


def test_photos_of_different_sizes_are_refused():
    with pytest.raises(CalibrationError, match="same camera"):
        learn_table(Double(ROLL), table(0)[:400], roll_photo(1), [3, 5, 1])


def test_the_empty_cutoff_is_the_geometric_mean_of_the_differences_at_dice_and_at_empty_spots():
    cal, _ = calibrated()
    at_dice = min(d.place.difference for d in cal.dice)
    at_spot = max(s.difference for s in cal.spots)
    assert 0 < at_spot < cal.empty_cutoff < at_dice
    assert cal.empty_cutoff == pytest.approx(math.sqrt(at_spot * at_dice))


def test_the_empty_cutoff_is_learned_from_the_photos_not_set_by_hand():
    quiet, _ = calibrated(noise=2.0)
    noisy, _ = calibrated(noise=8.0)  # a noisier camera: its empty spots differ more between photos
    assert noisy.empty_cutoff > quiet.empty_cutoff * 1.3
    for cal in (quiet, noisy):
        at_dice = min(d.place.difference for d in cal.dice)
        assert max(s.difference for s in cal.spots) < cal.empty_cutoff < at_dice


def test_a_spot_of_the_empty_table_whose_look_takes_in_a_die_is_not_taken_for_a_changed_table():
    empty = table(0)

    class Smudge(Double):  # also takes a smudge of the empty table, just beside the first die, for a die
        def detect_at(self, frame, scale):
            smudge = [Found(116, 100, 30, 30, 0.9)] if frame is empty else []
            return super().detect_at(frame, scale) + smudge

    roll = roll_photo(1, dice={k: v for k, v in ROLL.items() if v[1] != "cream"})
    cv2.rectangle(roll, (485, 185), (514, 214), (90, 120, 200), -1)  # the cream 1, barely unlike the table
    at_smudge = difference(roll, empty, 116, 100, 30)  # its look takes in a third of the red 3
    at_faint_die = difference(roll, empty, 500, 200, 30)
    assert at_smudge > at_faint_die  # counted as free table, the table would seem to have changed
    cal = learn_table(Smudge(ROLL), empty, roll, [3, 5, 1])
    assert cal.colours == ["red", "red", "cream"]
    assert (116, 100) in [(round(s.cx), round(s.cy)) for s in cal.spots]
    assert max(s.difference for s in cal.spots if s.cx > 150) < cal.empty_cutoff < at_faint_die


def test_a_speck_of_the_empty_table_is_not_read_as_a_die_with_the_calibration():
    cal, reader = calibrated()
    later = {(420, 380): (6, "blue")}
    reader.truth = later
    frame = roll_photo(7, dice=later)
    assert sorted(d.value for d in reader.read(frame)) == [1, 6]  # the printed dot reads as a 1 ...
    assert [d.value for d in reader.read(frame, table=cal)] == [6]  # ... but not at a calibrated spot


def test_a_die_on_a_speck_of_the_empty_table_is_still_read():
    cal, reader = calibrated()
    later = {(200, 300): (4, "blue"), (420, 380): (6, "blue")}
    reader.truth = later
    assert sorted(d.value for d in reader.read(roll_photo(8, dice=later), table=cal)) == [4, 6]


def test_a_speck_elsewhere_than_the_calibrated_spots_is_still_read_as_a_die():
    cal, reader = calibrated()
    reader.truth = {}
    frame = table(9, specks=((200, 300), (600, 50)))
    assert [(d.value, d.box[0] // 10) for d in reader.read(frame, table=cal)] == [(1, 59)]


def test_the_empty_table_check_is_skipped_on_frames_of_another_size():
    cal, reader = calibrated()
    reader.truth = {}
    frame = table(9)[:400]
    assert len(reader.read(frame, table=cal)) == 1


def test_the_working_scale_follows_the_calibrated_die_size_scaled_to_the_frame():
    cal, reader = calibrated()  # 30 px dice in 640x480 photos: read at the first look's scale, 15 px there
    assert cal.work_px == pytest.approx(cal.die_px / 2)
    reader.scales.clear()
    reader.read(table(9), table=cal)
    assert reader.scales == [pytest.approx(0.5)]  # one look: the calibrated size stands in for the first
    reader.scales.clear()
    reader.read(cv2.resize(table(9), (1280, 960)), table=cal)  # dice twice as large: looked at half as close
    assert reader.scales == [pytest.approx(0.25)]


def test_a_roll_that_does_not_read_as_typed_is_looked_at_again_closer_and_read_there_later():
    class FarSighted(Double):  # misses one die (the cream 1) unless the frame is looked at 0.75 or closer
        def detect_at(self, frame, scale):
            found = super().detect_at(frame, scale)
            return found if scale >= 0.75 else [f for f in found if math.hypot(f.cx - 500, f.cy - 200) > 8]

    reader = FarSighted(ROLL)
    with pytest.raises(CalibrationError, match="found 2 dice, you typed 3"):
        _learn_at(reader, table(0), roll_photo(1), [3, 5, 1], [None] * 3, 0.5,
                  reader.detect_at(roll_photo(1), 0.5))
    cal = learn_table(reader, table(0), roll_photo(1), [3, 5, 1])
    assert cal.colours == ["red", "red", "cream"]
    assert cal.work_px == pytest.approx(cal.die_px * 0.75)  # 0.5, then 1.5 times closer
    reader.scales.clear()
    reader.truth = {(500, 200): (4, "cream")}
    assert [d.value for d in reader.read(roll_photo(7, dice=reader.truth), table=cal)] == [4]
    assert reader.scales == [pytest.approx(0.75)]


def test_a_roll_that_reads_as_typed_at_no_closer_scale_is_looked_at_farther_and_read_there_later():
    big = {(150, 150): (3, "red"), (300, 150): (5, "red"), (450, 300): (1, "cream")}  # 60 px: 30 at 0.5

    class NearSighted(Double):  # sees only the cream die's pip unless the frame is looked at 0.34 or farther
        def detect_at(self, frame, scale):
            found = super().detect_at(frame, scale)
            if not any(math.hypot(f.cx - 450, f.cy - 300) < 8 for f in found):
                return found  # no die there (the empty table)
            side = 60.0 if scale <= 0.34 else 8.0
            others = [f for f in found if math.hypot(f.cx - 450, f.cy - 300) > 8]
            return [*others, Found(450, 300, side, side, 0.9)]

    reader = NearSighted(big)
    cal = learn_table(reader, table(0), roll_photo(1, dice=big, side=60), [3, 5, 1])
    assert cal.colours == ["red", "red", "cream"]
    assert reader.scales[0] == 0.5
    assert sorted(set(reader.scales)) == pytest.approx([0.5 / 1.5, 0.5, 0.75, 1.0])
    assert cal.work_px == pytest.approx(cal.die_px * 0.5 / 1.5)  # closer up to 1, then 1.5 times farther
    reader.scales.clear()
    reader.truth = {(450, 300): (4, "cream")}
    assert [d.value for d in reader.read(roll_photo(7, dice=reader.truth, side=60), table=cal)] == [4]
    assert reader.scales == [pytest.approx(0.5 / 1.5)]
    assert roll_scales(0.5, (480, 640), 60.0) == pytest.approx([0.5, 0.75, 1.0, 0.5 / 1.5, 0.5 / 1.5 ** 2])
    assert roll_scales(0.5, (480, 640), 30.0) == pytest.approx([0.5, 0.75, 1.0])  # 10 px dice: too small


def test_the_roll_is_read_once_at_the_scale_the_reader_chose_for_it_by_itself():
    reader = Double(ROLL)
    learn_table(reader, table(0), roll_photo(1), [3, 5, 1])
    assert reader.scales == [0.5, 0.5]  # the roll, then the empty table: the roll is not looked at twice

    class Specky(Double):  # its first look also takes specks a few px across for dice
        def detect_at(self, frame, scale):
            specks = [Found(20 + 40 * k, 460, 6, 6, 0.5) for k in range(8)] if scale == 0.5 else []
            return super().detect_at(frame, scale) + specks

    specky = Specky(ROLL)
    assert specky.scaled_detect(roll_photo(1))[0] == 1.0  # the specks' median size sends it closer
    specky.scales.clear()
    cal = learn_table(specky, table(0), roll_photo(1), [3, 5, 1])
    assert specky.scales == [0.5, 1.0, 1.0] and cal.work_px == pytest.approx(cal.die_px)


def test_a_roll_that_reads_as_typed_at_no_scale_is_refused_as_the_reader_reads_it_by_itself():
    class Blind(Double):  # never sees the cream 1, however close
        def detect_at(self, frame, scale):
            return [f for f in super().detect_at(frame, scale) if math.hypot(f.cx - 500, f.cy - 200) > 8]

    reader = Blind(ROLL)
    with pytest.raises(CalibrationError, match="found 2 dice, you typed 3"):
        learn_table(reader, table(0), roll_photo(1), [3, 5, 1])
    assert sorted(set(reader.scales)) == [pytest.approx(0.5), pytest.approx(0.75), 1.0]


def test_difference_is_small_for_the_same_place_under_other_light_and_large_under_a_die():
    empty = table(0)
    brighter = np.clip(table(1).astype(int) + 25, 0, 255).astype(np.uint8)
    assert difference(brighter, empty, 200, 300, SIDE) < 5
    assert difference(put(empty, 200, 300, "cream"), empty, 200, 300, SIDE) > 20


def test_a_saved_calibration_loads_back_the_same(tmp_path):
    cal, _ = calibrated()
    cal.save(tmp_path / "table", save_atomically)
    back = load_table(tmp_path / "table")
    assert back is not None
    assert back.die_px == pytest.approx(cal.die_px, abs=0.01)
    assert back.work_px == pytest.approx(cal.work_px, abs=0.01)
    assert back.colours == cal.colours and [d.value for d in back.dice] == [3, 5, 1]
    assert back.empty_cutoff == pytest.approx(cal.empty_cutoff, abs=1e-3)
    assert [(round(s.cx), round(s.cy)) for s in back.spots] == [(200, 300)]
    assert np.array_equal(back.empty, cal.empty)  # PNG: lossless


def test_a_power_cut_between_the_photo_and_the_record_leaves_the_old_calibration_whole(tmp_path):
    old, _ = calibrated()
    old.save(tmp_path / "table", save_atomically)
    new = TableCalibration(old.die_px * 2, old.dice, (), None, np.full_like(old.empty, 90))

    def cut_before_the_record(path, data):
        if path.name == "calibration.json":
            raise OSError("power cut")
        save_atomically(path, data)

    with pytest.raises(OSError, match="power cut"):
        new.save(tmp_path / "table", cut_before_the_record)
    back = load_table(tmp_path / "table")
    assert back is not None and back.die_px == pytest.approx(old.die_px, abs=0.01)
    assert np.array_equal(back.empty, old.empty)
    new.save(tmp_path / "table", save_atomically)  # saved whole: the new pair, and no photo left behind
    back = load_table(tmp_path / "table")
    assert back is not None and back.die_px == pytest.approx(new.die_px, abs=0.01)
    assert np.array_equal(back.empty, new.empty)
    assert [p.name for p in (tmp_path / "table").glob("*.png")] == [_photo(tmp_path / "table").name]


def test_a_record_naming_a_photo_outside_its_folder_loads_as_none(tmp_path, caplog):
    cal, _ = calibrated()
    cal.save(tmp_path / "table", save_atomically)
    cv2.imwrite(str(tmp_path / "elsewhere.png"), cal.empty)
    path = tmp_path / "table" / "calibration.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "empty_photo": "../elsewhere.png"}))
    with caplog.at_level(logging.WARNING, logger="vision.calibration"):
        assert load_table(tmp_path / "table") is None
    assert "not a file in" in caplog.text


def test_a_missing_calibration_loads_as_none_with_a_logged_reason(tmp_path, caplog):
    with caplog.at_level(logging.INFO, logger="vision.calibration"):
        assert load_table(tmp_path / "table") is None
    assert "no table calibration" in caplog.text and "companion calibrate table" in caplog.text


def _break_json(folder):
    (folder / "calibration.json").write_text("{not json")


def _photo(folder):
    return folder / json.loads((folder / "calibration.json").read_text())["empty_photo"]


def _drop_photo(folder):
    _photo(folder).unlink()


def _bad_size(folder):
    record = json.loads((folder / "calibration.json").read_text())
    record["die_px"] = -3
    (folder / "calibration.json").write_text(json.dumps(record))


def _bad_work_size(folder):
    record = json.loads((folder / "calibration.json").read_text())
    record["work_px"] = "nan"
    (folder / "calibration.json").write_text(json.dumps(record))


def test_a_calibration_saved_before_work_px_loads_and_reads_at_the_readers_own_scale(tmp_path):
    cal, reader = calibrated()
    closer = dataclasses.replace(cal, work_px=cal.die_px * 0.75)  # as if its roll read as typed at 0.75 only
    closer.save(tmp_path / "table", save_atomically)
    reader.scales.clear()
    reader.read(table(9), table=load_table(tmp_path / "table"))
    assert reader.scales == [pytest.approx(0.75)]
    record = json.loads((tmp_path / "table" / "calibration.json").read_text())
    del record["work_px"]
    (tmp_path / "table" / "calibration.json").write_text(json.dumps(record))
    back = load_table(tmp_path / "table")
    assert back is not None and back.work_px is None
    reader.scales.clear()
    reader.read(table(9), table=back)
    assert reader.scales == [pytest.approx(0.5)]  # 30 px dice in a 640 px frame: the first look's scale


def _bad_cutoff(folder):
    record = json.loads((folder / "calibration.json").read_text())
    record["empty_cutoff"] = -1.5
    (folder / "calibration.json").write_text(json.dumps(record))


def _missing_key(folder):
    record = json.loads((folder / "calibration.json").read_text())
    del record["spots"]
    (folder / "calibration.json").write_text(json.dumps(record))


def _garbage_photo(folder):
    _photo(folder).write_bytes(b"not a png")


@pytest.mark.parametrize("damage, words", [(_break_json, "damaged"), (_drop_photo, "missing or not an image"),
                                           (_bad_size, "no size"), (_bad_work_size, "work_px"),
                                           (_bad_cutoff, "empty_cutoff -1.5 is no difference"),
                                           (_missing_key, "spots"),
                                           (_garbage_photo, "missing or not an image")])
def test_a_damaged_calibration_loads_as_none_with_a_logged_reason(tmp_path, caplog, damage, words):
    cal, _ = calibrated()
    cal.save(tmp_path / "table", save_atomically)
    damage(tmp_path / "table")
    with caplog.at_level(logging.WARNING, logger="vision.calibration"):
        assert load_table(tmp_path / "table") is None
    assert words in caplog.text and "damaged" in caplog.text


def test_a_die_that_landed_on_a_speck_of_the_empty_table_counts_as_one_of_the_roll():
    dice = {**ROLL, (200, 300): (2, "cream")}
    cal = learn_table(Double(dice), table(0), roll_photo(1, dice=dice), [3, 5, 1, 2])
    assert cal.colours == ["red", "cream", "red", "cream"]
    assert cal.empty_cutoff is not None and cal.empty_cutoff < min(d.place.difference for d in cal.dice)


def test_a_speck_found_only_on_the_roll_photo_but_unchanged_since_the_empty_one_joins_the_spots():
    def faint(photo, grey_levels):  # a printed dot at the edge of what the detector takes for a die
        photo = photo.copy()
        cv2.circle(photo, (600, 60), 5, tuple(c - grey_levels for c in TABLE), -1)
        return photo

    reader = Double(ROLL)
    empty, roll = faint(table(0), 44), faint(roll_photo(1), 47)  # found on the roll photo only
    assert len(reader.detect(roll)) == len(reader.detect(empty)) + 4  # the 3 dice and the faint dot
    cal = learn_table(reader, empty, roll, [3, 5, 1])
    assert cal.colours == ["red", "red", "cream"]
    assert sorted((round(s.cx), round(s.cy)) for s in cal.spots) == [(200, 300), (600, 60)]
    reader.truth = {}
    assert [d.value for d in reader.read(faint(table(9), 50))] == [1, 1]
    assert reader.read(faint(table(9), 50), table=cal) == []


def test_with_a_calibration_a_die_is_named_in_the_colours_of_the_tables_roll():
    cal, _ = calibrated()  # the roll: red, red, cream

    class Unsure(Double):
        def classify(self, frame, found):
            faces, colours, sides = super().classify(frame, found)
            colours[:] = 0
            colours[:, COLOURS.index("orange")], colours[:, COLOURS.index("cream")] = 0.6, 0.3
            return faces, colours, sides

    later = {(320, 240): (4, "cream")}
    reader = Unsure(later)
    frame = roll_photo(5, dice=later, specks=())
    assert [d.colour for d in reader.read(frame)] == ["orange"]  # without a calibration
    assert [d.colour for d in reader.read(frame, table=cal)] == ["cream"]


PAINT["white"] = (235, 235, 235)
SHADES = {  # the reader's colour probabilities for each paint: it takes the cream die for white too
    "white": {"white": 0.95, "cream": 0.05},
    "cream": {"white": 0.7, "cream": 0.25, "orange": 0.05},
    "red": {"red": 0.9, "orange": 0.1},
}


class Shaded(Double):
    """The double with the colour probabilities of `SHADES`: a white and a cream die both read "white"."""

    def classify(self, frame, found):
        faces, colours, sides = super().classify(frame, found)
        for i, f in enumerate(found):
            near = [k for k in self.truth if math.hypot(k[0] - f.cx, k[1] - f.cy) < 8]
            if near:
                colours[i] = 0
                for name, p in SHADES[self.truth[near[0]][1]].items():
                    colours[i, COLOURS.index(name)] = p
        return faces, colours, sides


WHITE_AND_CREAM = {(100, 100): (3, "white"), (300, 120): (3, "cream"), (500, 200): (5, "red")}
LATER = {(150, 300): (2, "cream"), (400, 350): (6, "white"), (560, 80): (4, "red")}


def named_calibration(names=("white", "cream", None)) -> TableCalibration:
    photo = roll_photo(1, dice=WHITE_AND_CREAM)
    return learn_table(Shaded(WHITE_AND_CREAM), table(0), photo, [3, 3, 5], names)


def later_colours(cal: TableCalibration | None) -> list[tuple[int, str]]:
    dice = Shaded(LATER).read(roll_photo(7, dice=LATER, specks=()), table=cal)
    return sorted((d.value, d.colour) for d in dice)


def test_typed_names_go_to_the_dice_showing_their_value():
    cal = named_calibration()
    assert cal.colours == ["white", "cream", "red"]  # the 5 keeps the reader's name
    assert [d.reader_colour for d in cal.dice] == ["white", "white", "red"]
    assert "white 3, cream 3, red 5" in cal.describe()


def test_names_of_dice_showing_one_value_go_where_the_reader_finds_them_likeliest():
    # the two 3s, typed right to left: the reader finds the right one likelier cream (0.25 against 0.05)
    assert named_calibration(("cream", "white", None)).colours == ["white", "cream", "red"]
    # names the reader does not know go left to right, as typed
    assert named_calibration(("ivory", "snow", None)).colours == ["ivory", "snow", "red"]
    assert named_calibration(("snow", "ivory", None)).colours == ["snow", "ivory", "red"]
    # a known name is placed, and the unknown one takes the other die
    assert named_calibration(("ivory", "white", None)).colours == ["white", "ivory", "red"]


def test_without_a_calibration_dice_are_named_among_the_games_colours_where_the_reader_knows_them_all():
    from vision.learned import game_colour, game_palette

    creamy = np.full(len(COLOURS), 0.01)
    creamy[COLOURS.index("white")], creamy[COLOURS.index("cream")] = 0.5, 0.4  # a little likelier white
    assert game_colour(creamy, game_palette(())) is None  # the game names no colours: the reader's own name
    assert game_colour(creamy, game_palette(("cream", "red"))) == "cream"  # a cream set, no white one
    assert game_colour(creamy, game_palette(("white", "cream", "red"))) == "white"
    assert game_palette(("cream", "clear")) == ()  # a set the reader cannot name: no forcing
    assert game_colour(creamy, game_palette(("cream", "clear"))) is None

    class Creamy(Double):  # finds the cream die a little likelier white
        def classify(self, frame, found):
            faces_p, colours, sides = super().classify(frame, found)
            for i, f in enumerate(found):
                if math.hypot(f.cx - 100, f.cy - 100) < 8:
                    colours[i] = creamy
            return faces_p, colours, sides

    reader = Creamy({(100, 100): (3, "white"), (300, 120): (5, "red")})
    frame = roll_photo(1, dice={(100, 100): (3, "cream"), (300, 120): (5, "red")}, specks=())
    assert [d.colour for d in reader.read(frame)] == ["white", "red"]
    assert [d.colour for d in reader.read(frame, colours=("cream", "red"))] == ["cream", "red"]
    cal = learn_table(reader, table(0, specks=()), frame, [3, 5], ["ivory", None])  # its names come first
    assert [d.colour for d in reader.read(frame, table=cal, colours=("cream", "red"))] == ["ivory", "red"]
    # Dice Devils: yellow and black d6s and the small grey die, which a die taken for a d6 may still be
    greyish = np.full(len(COLOURS), 0.01)
    greyish[COLOURS.index("grey")], greyish[COLOURS.index("yellow")] = 0.6, 0.3
    reader.kind_model = (0.0, 0.0, 0.0, -5.0)  # it takes every die for a d6
    creamy[:] = greyish  # the first die now looks greyish
    devils = ("yellow", "black")
    assert reader.read(frame, kinds={"d6", "grey"}, colours=devils)[0].colour == "grey"  # may stand in for it
    assert reader.read(frame, kinds={"d6"}, colours=devils)[0].colour == "yellow"  # no grey die this roll


def test_later_dice_are_named_after_the_calibration_die_they_look_most_like():
    assert later_colours(None) == [(2, "white"), (4, "red"), (6, "white")]  # the reader alone
    assert later_colours(named_calibration()) == [(2, "cream"), (4, "red"), (6, "white")]
    players = named_calibration(("snow", "ivory", "crimson"))  # the players' own names
    assert later_colours(players) == [(2, "ivory"), (4, "crimson"), (6, "snow")]


def test_names_and_signatures_are_saved_and_named_by_after_loading(tmp_path):
    named_calibration(("Snow", " ivory ", "")).save(tmp_path / "table", save_atomically)
    back = load_table(tmp_path / "table")
    assert back is not None and back.colours == ["snow", "ivory", "red"]
    assert later_colours(back) == [(2, "ivory"), (4, "red"), (6, "snow")]


def test_a_calibration_saved_before_signatures_names_dice_among_its_rolls_colours(tmp_path):
    named_calibration(("snow", "ivory", None)).save(tmp_path / "table", save_atomically)
    record = json.loads((tmp_path / "table" / "calibration.json").read_text())
    for die in record["dice"]:
        die["colour"] = die.pop("read_as", die["colour"])
        del die["signature"]
    (tmp_path / "table" / "calibration.json").write_text(json.dumps(record))
    back = load_table(tmp_path / "table")
    assert back is not None and back.name_of(np.full(len(COLOURS), 0.1)) is None
    assert later_colours(back) == [(2, "white"), (4, "red"), (6, "white")]


@pytest.mark.parametrize("field, value, words", [
    ("colour", "<script>alert(1)</script>", "a word or two of letters"),  # no name a page could show
    ("colour", "", "has no colour name"),
    ("colour", "x" * 40, "at most 24 characters"),
    ("signature", [0.5] * 3, "colour signature"),
    ("signature", ["nan"] * len(COLOURS), "colour signature"),
    ("signature", [-1.0] * len(COLOURS), "colour signature"),
    ("read_as", "ivory", "no colour the reader names"),
    ("kind", "d20", "the calibration knows d6 and grey"),
])
def test_a_damaged_die_of_a_saved_calibration_loads_as_none_with_the_reason(tmp_path, caplog, field, value,
                                                                            words):
    named_calibration().save(tmp_path / "table", save_atomically)
    record = json.loads((tmp_path / "table" / "calibration.json").read_text())
    record["dice"][1][field] = value
    (tmp_path / "table" / "calibration.json").write_text(json.dumps(record))
    with caplog.at_level(logging.WARNING):
        assert load_table(tmp_path / "table") is None
    assert "damaged" in caplog.text and words in caplog.text


@pytest.mark.parametrize("names, words", [
    (("white", "cream"), "2 colour names for 3 values"),
    (("white", "x" * 25, None), "at most 24 characters"),
    (("white", "<b>", None), "a word or two of letters"),
])
def test_names_that_do_not_fit_the_typed_values_are_refused_in_words(names, words):
    with pytest.raises(CalibrationError, match=words):
        named_calibration(names)


PAINT["grey"] = (150, 150, 152)


def sized_photo(seed: int, dice: dict[tuple[int, int], tuple[int, str, int]]) -> np.ndarray:
    """A table photo with dice of their own sides: centre -> (value, colour, side px)."""
    photo = table(seed, specks=())
    for (x, y), (_, colour, side) in dice.items():
        photo = put(photo, x, y, colour, side)
    return photo


def test_a_table_whose_roll_held_no_small_grey_die_never_reads_one():
    sizing = Double()
    sizing.kind_model = (0.2, -20.0, 0.0, -3.0)  # grey and small beside the d6s: the small grey die
    plain = {(100, 100): (3, "red", 30), (300, 120): (4, "grey", 30), (500, 200): (1, "cream", 30)}
    devils = {(100, 100): (3, "red", 30), (300, 120): (4, "grey", 22), (500, 200): (1, "cream", 30)}
    later = {(150, 300): (5, "red", 30), (400, 350): (2, "grey", 22)}
    tables = {}
    for name, roll in (("grey d6", plain), ("grey die", devils)):
        sizing.truth = {k: v[:2] for k, v in roll.items()}
        tables[name] = learn_table(sizing, table(0, specks=()), sized_photo(1, roll), [3, 4, 1])
    assert [d.kind for d in tables["grey d6"].dice] == ["d6", "d6", "d6"]
    assert [d.kind for d in tables["grey die"].dice] == ["d6", "grey", "d6"]
    assert "grey 4 (the small grey die)" in tables["grey die"].describe()
    sizing.truth = {k: v[:2] for k, v in later.items()}
    frame = sized_photo(7, later)
    assert sorted((d.value, d.kind) for d in sizing.read(frame)) == [(2, "grey"), (5, "d6")]
    assert sorted((d.value, d.kind) for d in sizing.read(frame, table=tables["grey die"])) == [(2, "grey"),
                                                                                                (5, "d6")]
    assert sorted((d.value, d.kind) for d in sizing.read(frame, table=tables["grey d6"])) == [(2, "d6"),
                                                                                               (5, "d6")]
    # without a calibration, a roll that asks for d6s alone (any game but Dice Devils) holds no grey die
    anything, with_grey, d6s = (sorted((d.value, d.kind, d.confidence) for d in sizing.read(frame, kinds=k))
                                for k in (None, {"d6", "grey"}, {"d6"}))
    assert anything == with_grey and [kind for _, kind, _ in anything] == ["grey", "d6"]
    assert [(value, kind) for value, kind, _ in d6s] == [(2, "d6"), (5, "d6")]
    assert d6s[0][2] > anything[0][2]  # no doubt of its kind left: surer
    # the game's roll knows better than the calibration's judgement of its roll: Dice Devils has the grey die
    devils_roll = sizing.read(frame, table=tables["grey d6"], kinds={"d6", "grey"})
    assert sorted((d.value, d.kind) for d in devils_roll) == [(2, "grey"), (5, "d6")]


def test_a_calibrated_die_is_weighed_grey_on_the_readers_own_colours_not_the_rolls_alone():
    sizing = Double()
    sizing.kind_model = (1.0, -20.0, 0.0, -3.0)  # grey and small beside the d6s: the small grey die
    roll = {(100, 100): (3, "red", 30), (500, 200): (1, "cream", 30)}  # the roll showed no grey colour
    sizing.truth = {k: v[:2] for k, v in roll.items()}
    cal = learn_table(sizing, table(0, specks=()), sized_photo(1, roll), [3, 1])
    later = {(150, 300): (5, "red", 30), (400, 350): (2, "grey", 22)}
    sizing.truth = {k: v[:2] for k, v in later.items()}
    dice = sizing.read(sized_photo(7, later), table=cal, kinds={"d6", "grey"})  # a Dice Devils roll
    assert sorted((d.value, d.kind) for d in dice) == [(2, "grey"), (5, "d6")]


def test_kinds_are_saved_and_a_calibration_saved_before_them_may_hold_the_grey_die(tmp_path):
    cal, _ = calibrated()
    cal.save(tmp_path / "table", save_atomically)
    back = load_table(tmp_path / "table")
    assert [d.kind for d in back.dice] == ["d6", "d6", "d6"] and not back.may_hold_grey
    record = json.loads((tmp_path / "table" / "calibration.json").read_text())
    for die in record["dice"]:
        del die["kind"]
    (tmp_path / "table" / "calibration.json").write_text(json.dumps(record))
    assert load_table(tmp_path / "table").may_hold_grey
    record["dice"][0]["kind"] = "d20"
    (tmp_path / "table" / "calibration.json").write_text(json.dumps(record))
    assert load_table(tmp_path / "table") is None


def faces(*readings: dict[str, float]) -> np.ndarray:
    """Face probabilities (n, len(VALUES)), one die a dict of value -> probability."""
    out = np.zeros((len(readings), len(VALUES)), np.float32)
    for i, reading in enumerate(readings):
        for value, p in reading.items():
            out[i, VALUES.index(value)] = p
    return out


def test_dice_the_reader_is_unsure_of_show_the_typed_values_and_sure_ones_must_read_as_typed():
    sure_3, sure_5 = {"3": 0.99}, {"5": 0.98}
    unsure_4_or_1 = {"4": 0.6, "1": 0.3, "2": 0.1}
    roll, colours = faces(sure_3, sure_5, unsure_4_or_1), np.full((3, len(COLOURS)), 1 / len(COLOURS))

    def typed(*values, names=None):
        return list(zip(values, names or [None] * len(values), strict=True))

    assert as_typed(roll, colours, [0, 1, 2], typed(1, 3, 5), 0.95) == {0: 3, 1: 5, 2: 1}  # 1: the unsure 4
    assert as_typed(roll, colours, [0, 1, 2], typed(1, 3, 6), 0.95) is None  # the sure 5 was not typed
    # at a bar of 0, every die must read as typed
    assert as_typed(roll, colours, [0, 1, 2], typed(1, 3, 5), 0.0) is None
    assert as_typed(roll, colours, [0, 1, 2], typed(4, 3, 5), 0.0) == {0: 3, 1: 5, 2: 4}
    # only the dice asked about count: the unsure 4 is left to the caller
    assert as_typed(roll, colours, [0], typed(3), 0.95) == {0: 3}
    # two unsure dice share the typed values in their likeliest order: 6 to the first, 2 to the second
    pair = faces({"5": 0.5, "6": 0.4, "2": 0.1}, {"5": 0.5, "2": 0.45, "6": 0.05})
    plain = colours[:2]
    assert as_typed(pair, plain, [0, 1], typed(2, 6), 0.95) == {0: 6, 1: 2}
    assert as_typed(pair, plain, [0, 1], typed(6, 2), 0.95) == {0: 6, 1: 2}
    # ... and the colours of the names typed with them weigh in: the first die looks white, the second green
    tinted = np.full((2, len(COLOURS)), 0.01)
    tinted[0, COLOURS.index("white")] = tinted[1, COLOURS.index("green")] = 0.9
    assert as_typed(pair, tinted, [0, 1], typed(2, 6, names=["white", "green"]), 0.95) == {0: 2, 1: 6}
    assert as_typed(pair, tinted, [0, 1], typed(2, 6, names=["ivory", "lime"]), 0.95) == {0: 6, 1: 2}


def test_a_roll_with_an_unsure_misreading_is_learned_with_the_typed_value_and_a_sure_one_refused():
    class Unsure(Double):  # reads the cream 1 as a 4 more likely than a 1, below its sure bar
        sure = 0.95

        def classify(self, frame, found):
            faces_p, colours, sides = super().classify(frame, found)
            for i, f in enumerate(found):
                if math.hypot(f.cx - 500, f.cy - 200) < 8:
                    faces_p[i] = faces({"4": 0.6, "1": 0.4})[0]
            return faces_p, colours, sides

    reader = Unsure(ROLL)
    cal = learn_table(reader, table(0), roll_photo(1), [3, 5, 1], [None, None, "ivory"])
    assert [d.value for d in cal.dice] == [3, 5, 1] and cal.colours == ["red", "red", "ivory"]
    assert cal.work_px == pytest.approx(cal.die_px * 0.5)  # every scale was tried as typed, then the first
    with pytest.raises(CalibrationError, match="the dice read 3 4 5, you typed 1 3 6"):
        learn_table(Unsure(ROLL), table(0), roll_photo(1), [3, 6, 1])  # the 5 is sure: a slip

    class Closer(Unsure):  # reads the cream 1 as typed from 0.75 on
        def classify(self, frame, found):
            return (Double.classify if self.scales[-1] >= 0.75 else Unsure.classify)(self, frame, found)

    cal = learn_table(Closer(ROLL), table(0), roll_photo(1), [3, 5, 1])
    assert cal.work_px == pytest.approx(cal.die_px * 0.75)  # a closer look that reads as typed comes first


def test_a_calibration_turns_with_the_cameras_picture_its_places_on_what_they_were_on():
    from vision.images import turned

    cal, _ = calibrated()
    roll = roll_photo(1)
    assert cal.spots  # the printed dot at (200, 300)
    for k in range(1, 4):
        now = cal.turned_clockwise(k)
        picture = turned(roll, -k)  # the roll as the turned camera shows it
        assert np.array_equal(now.empty, turned(cal.empty, -k)) and now.colours == cal.colours
        for was, place in zip([*cal.dice, *cal.spots], [*now.dice, *now.spots], strict=True):
            was, place = getattr(was, "place", was), getattr(place, "place", place)
            x0, y0, x, y = (round(v) for v in (was.cx, was.cy, place.cx, place.cy))
            assert np.abs(picture[y, x].astype(int) - roll[y0, x0].astype(int)).max() <= 1, k
            assert place.side == was.side
    whole = cal.turned_clockwise(1).turned_clockwise(3)  # a whole turn is where it began
    assert [(d.place.cx, d.place.cy) for d in whole.dice] == [(d.place.cx, d.place.cy) for d in cal.dice]
    assert np.array_equal(whole.empty, cal.empty)
