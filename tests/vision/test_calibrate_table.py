"""`companion calibrate table`; `serve` and `read` choosing the learned reader with the table's calibration.

The learned reader is the test double of tests/vision/test_calibration.py (the trained networks are not
what is tested here): LearnedReader.available and .default are pointed at it."""

from __future__ import annotations

import json
import logging

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.calibrate import capture_table
from companion.settings import Settings
from tests.vision.test_calibration import ROLL, SIDE, Double, put, roll_photo, table
from vision.calibration import load_table
from vision.dice import read_dice
from vision.learned import COLOURS, LearnedReader

LATER = {(420, 380): (6, "blue")}  # a later roll: one blue 6, beside the empty table's printed dot


@pytest.fixture
def learned(monkeypatch):
    """The learned reader's models 'are there': the reader is a double that knows ROLL and LATER."""
    double = Double({**ROLL, **LATER})
    monkeypatch.setattr(LearnedReader, "available", staticmethod(lambda: True))
    monkeypatch.setattr(LearnedReader, "default", classmethod(lambda cls: double))
    return double


@pytest.fixture
def photos(tmp_path):
    paths = {"empty": tmp_path / "empty.png", "roll": tmp_path / "roll.png", "later": tmp_path / "later.png"}
    cv2.imwrite(str(paths["empty"]), table(0))
    cv2.imwrite(str(paths["roll"]), roll_photo(1))
    cv2.imwrite(str(paths["later"]), roll_photo(7, dice=LATER))
    return paths


def calibrate(data, photos, values="3 5 1"):
    return main(["calibrate", "table", "--data", str(data), "--empty", str(photos["empty"]),
                 "--roll", str(photos["roll"]), "--values", values])


def test_calibrate_table_from_photos_prints_what_it_learned_and_saves_it(tmp_path, learned, photos, capsys):
    assert calibrate(tmp_path / "data", photos) == 0
    out = capsys.readouterr().out
    assert "a die is 30 px across" in out and "red 3, red 5, cream 1" in out
    assert "1 place on the empty table that looks like a die" in out
    assert f"saved in {tmp_path / 'data' / 'table'}" in out
    saved = load_table(tmp_path / "data" / "table")
    assert saved is not None and saved.colours == ["red", "red", "cream"]
    photo = tmp_path / "data" / "table" / "roll.jpg"  # the roll, each die boxed and named, for the player
    assert f"the roll with each die's name: {photo}" in out
    roll, named = cv2.imread(str(photos["roll"])), cv2.imread(str(photo))
    assert named.shape == roll.shape
    for die in saved.dice:  # drawn round each die, not elsewhere
        x1, y1, x2, y2 = die.place.box(roll.shape)
        ring = (slice(max(0, y1 - 2), y2 + 3), slice(max(0, x1 - 2), x2 + 3))
        assert np.abs(named[ring].astype(int) - roll[ring]).max() > 100
    assert np.abs(named[:20, :20].astype(int) - roll[:20, :20]).max() < 40  # a JPEG's noise there


def test_calibrate_table_says_how_many_dice_it_found_when_the_count_is_wrong(tmp_path, learned, photos,
                                                                             capsys):
    assert calibrate(tmp_path / "data", photos, values="3 5 1 2") == 2
    err = capsys.readouterr().err
    assert "found 3 dice, you typed 4 values" in err
    folder = tmp_path / "data" / "table"
    assert load_table(folder) is None and not (folder / "calibration.json").exists()  # nothing half-learned
    counted = folder / "refused.jpg"  # what the camera counted, each die boxed and read, for the player
    assert f"that roll, as the camera read it (? where unsure): {counted}" in err
    roll, boxed = cv2.imread(str(photos["roll"])), cv2.imread(str(counted))
    for x, y in ROLL:  # boxed round each of the three dice it counted
        ring = (slice(y - SIDE // 2 - 3, y + SIDE // 2 + 3), slice(x - SIDE // 2 - 3, x + SIDE // 2 + 3))
        assert np.abs(boxed[ring].astype(int) - roll[ring]).max() > 100
    assert np.abs(boxed[:20, :20].astype(int) - roll[:20, :20]).max() < 40  # a JPEG's noise there
    assert calibrate(tmp_path / "data", photos) == 0  # typed right: learned, and the refused roll is gone
    assert load_table(folder) is not None and not counted.exists()


@pytest.mark.parametrize("values", ["five 3 1", "3 5 9", "3 5 1b", ""])
def test_calibrate_table_refuses_values_that_are_no_d6_faces(tmp_path, learned, photos, capsys, values):
    assert calibrate(tmp_path / "data", photos, values=values) == 2
    assert "the number (1 to 6) on top of each die" in capsys.readouterr().err


def test_calibrate_table_takes_the_players_names_for_the_dices_colours(tmp_path, learned, photos, capsys):
    assert calibrate(tmp_path / "data", photos, values="1 Ivory, 5 scarlet 3") == 0
    assert "red 3, scarlet 5, ivory 1" in capsys.readouterr().out
    assert load_table(tmp_path / "data" / "table").colours == ["red", "scarlet", "ivory"]


def test_calibrate_table_refuses_a_colour_name_no_page_could_show(tmp_path, learned, photos, capsys):
    assert calibrate(tmp_path / "data", photos, values="3 5 1 <b>cream</b>") == 2
    assert "a colour name is a word or two of letters" in capsys.readouterr().err
    assert not (tmp_path / "data" / "table").exists()


def test_calibrate_table_needs_the_learned_models(tmp_path, photos, capsys, monkeypatch):
    monkeypatch.setattr(LearnedReader, "available", staticmethod(lambda: False))
    assert calibrate(tmp_path / "data", photos) == 2
    assert "companion train dice" in capsys.readouterr().err


def test_calibrate_table_reports_an_unreadable_photo(tmp_path, learned, photos, capsys):
    photos["roll"].write_bytes(b"not a png")
    assert calibrate(tmp_path / "data", photos) == 2
    assert "roll.png" in capsys.readouterr().err


class Tray:
    """A camera over the tray: the empty table until the player is asked to roll, then the roll."""

    def __init__(self, answers: list[str]):
        self.frame = table(5)
        self.prompts: list[str] = []
        self.answers = iter(answers)

    def read(self):
        return self.frame.copy()

    def ask(self, prompt):
        self.prompts.append(prompt)
        if prompt.startswith("Roll"):
            self.frame = roll_photo(6)
        return next(self.answers) if prompt.startswith("Type") else ""


def test_calibration_at_the_camera_asks_to_clear_the_table_then_roll_then_type_the_values(capsys):
    tray = Tray(["3 5 9", "3 5 1 cream"])
    empty, roll, values = capture_table(tray, ask=tray.ask)
    asked = [p.split(":")[0].split(" ")[0] for p in tray.prompts]
    assert asked == ["Clear", "Roll", "Type", "Type"]
    assert "the number (1 to 6)" in capsys.readouterr().out  # the wrong answer was said, and asked again
    assert values == ([3, 5, 1], [None, None, "cream"])
    assert abs(empty.astype(int) - table(5)).max() == 0 and abs(roll.astype(int) - roll_photo(6)).max() == 0


def _companion(tmp_path, **kw):
    from companion.commands.serve import Companion

    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path / "data", gpio="off", **kw)
    return Companion(settings)


def test_serve_reads_with_the_learned_reader_and_the_tables_calibration(tmp_path, learned, photos, caplog):
    assert calibrate(tmp_path / "data", photos) == 0
    running = _companion(tmp_path, reader="learned")
    try:
        with caplog.at_level(logging.INFO, logger="companion"):
            running.announce()
        assert "dice reader: learned, calibrated (a die 30 px)" in caplog.text
        assert running.status()["reader"] == "learned, calibrated (a die 30 px)"
        assert running.status()["calibration"]["names"] == ["red", "red", "cream"]  # the page checks them
        later = cv2.imread(str(photos["later"]))
        assert [d.value for d in running.reader.read(later)] == [6]  # the printed dot is not a die
    finally:
        running.close()


def test_serve_reads_with_the_learned_reader_without_a_calibration(tmp_path, learned, photos):
    running = _companion(tmp_path, reader="learned")
    try:
        assert running.status()["reader"] == "learned"
        assert sorted(d.value for d in running.reader.read(cv2.imread(str(photos["later"])))) == [1, 6]
    finally:
        running.close()


def test_serve_takes_a_still_tray_for_a_roll_when_its_reader_sees_dice_the_rules_would_not(tmp_path, learned,
                                                                                           monkeypatch):
    # at start no picture of the empty tray is known: whether a still tray holds dice is the reader's call
    monkeypatch.setattr("vision.dice.read_dice", lambda *args, **kw: [])  # the rules see nothing there
    running = _companion(tmp_path, reader="learned", settle_ms=300)
    try:
        settled = running.tray.parts.settled
        later = roll_photo(7, dice=LATER)
        assert [settled(later, 50.0 * k) for k in range(10)][-1] is True
        assert settled(table(7), 600.0) is False  # the dice are picked up
    finally:
        running.close()


def test_serve_falls_back_to_the_rules_without_the_learned_models(tmp_path, monkeypatch):
    monkeypatch.setattr(LearnedReader, "available", staticmethod(lambda: False))
    running = _companion(tmp_path, reader="learned")
    try:
        assert running.status()["reader"] == "rules (the learned reader's models are not in vision/data/)"
    finally:
        running.close()


def test_serve_reads_with_the_rules_when_the_setting_says_so(tmp_path, learned):
    running = _companion(tmp_path, reader="rules")
    try:
        assert running.status()["reader"] == "rules"
        frame = put(table(3, specks=()), 320, 240, "cream")
        assert running.reader.read(frame) == read_dice(frame)
    finally:
        running.close()


def test_read_uses_the_learned_reader_with_the_data_folders_calibration(tmp_path, learned, photos, capsys):
    assert calibrate(tmp_path / "data", photos) == 0
    capsys.readouterr()
    data = str(tmp_path / "data")
    assert main(["read", str(photos["later"]), "--json", "--data", data, "--reader", "learned"]) == 0
    captured = capsys.readouterr()
    assert [d["value"] for d in json.loads(captured.out)["dice"]] == [6]
    assert "dice reader: learned, calibrated" in captured.err
    # no data folder: no calibration
    assert main(["read", str(photos["later"]), "--json", "--reader", "learned"]) == 0
    captured = capsys.readouterr()
    assert sorted(d["value"] for d in json.loads(captured.out)["dice"]) == [1, 6]
    assert "dice reader: learned\n" in captured.err


def test_read_with_the_rules_when_asked(tmp_path, learned, photos, capsys):
    assert main(["read", str(photos["later"]), "--reader", "rules"]) == 0
    assert "dice reader: rules\n" in capsys.readouterr().err


def test_serve_pauses_the_tray_while_the_host_calibrates_and_reads_with_what_was_learned(tmp_path, learned,
                                                                                          photos):
    running = _companion(tmp_path, reader="learned").start()
    try:
        assert running.status()["calibration"] == {"step": "empty", "learned": None, "names": list(COLOURS),
                                                      "calibrated": False, "rotation": 0, "photo": None,
                                                      "refused": None}
        running.calibrator.take_empty()  # the page's first step: a photo from the camera
        assert running.tray.parts.paused() and running.status()["calibration"]["step"] == "roll"
        running.calibrator.cancel()
        assert not running.tray.parts.paused()
        assert calibrate(tmp_path / "data", photos) == 0  # as the page's second step saves it ...
        running.calibrator.learned(load_table(tmp_path / "data" / "table"))  # ... and tells serve
        assert running.status()["reader"] == "learned, calibrated (a die 30 px)"
    finally:
        running.close()


def test_the_learned_reader_reads_by_default_and_the_rules_when_asked():
    from companion.commands.read import add_parser  # noqa: F401  (the command's default is the setting's)

    assert Settings().reader == "learned"
    parser = __import__("argparse").ArgumentParser()
    add_parser(parser.add_subparsers())
    assert parser.parse_args(["read", "x.jpg"]).reader == "learned"
    assert parser.parse_args(["read", "x.jpg", "--reader", "rules"]).reader == "rules"


def test_read_reads_as_a_games_roll_is_read_when_told_its_kinds_and_colours(learned, photos, capsys):
    asked = []
    plain = learned.read

    def read(frame, die_px=None, table=None, kinds=None, colours=(), count=None):
        asked.append((kinds, colours, count))
        return plain(frame, die_px, table, kinds, colours, count)

    learned.read = read
    assert main(["read", str(photos["later"]), "--json", "--reader", "learned"]) == 0
    assert main(["read", str(photos["later"]), "--json", "--reader", "learned", "--kinds", "d6, Grey",
                 "--colours", "Yellow, black", "--count", "2"]) == 0
    assert asked == [(None, (), None), ({"d6", "grey"}, ("yellow", "black"), 2)]
    dice = [json.loads(line)["dice"] for line in capsys.readouterr().out.splitlines()]
    assert sorted(d["colour"] for d in dice[0]) == ["black", "blue"]  # the reader's own names
    assert sorted(d["colour"] for d in dice[1]) == ["black", "yellow"]  # the blue 6 among the game's colours
    with pytest.raises(SystemExit):
        main(["read", str(photos["later"]), "--kinds", "d20"])
    assert "the kinds are d6, grey, treehouse" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["read", str(photos["later"]), "--count", "none"])
    assert "the number of dice a roll holds, 1 or more" in capsys.readouterr().err
