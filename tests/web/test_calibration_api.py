"""The calibration step on the host's page, through the API: the empty table, then one roll with its values.

The camera is a stand-in giving the photos of tests/vision/test_calibration.py, and the learned reader
is its test double: what is tested is the step, who may take it, and what it answers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.calibrating import TableCalibrator
from tests.vision.test_calibration import ROLL, Double, roll_photo, table
from tests.web.phones import new_table, phone, take_seat
from vision.calibration import load_table
from web.app import create_app


class Camera:
    """The camera over the table: `now` is the frame it sends (None: it sends nothing)."""

    def __init__(self):
        self.now = table(0)

    def photo(self):
        return self.now


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


@pytest.fixture
def rig(session, tmp_path):
    camera, clock, learned = Camera(), Clock(), []
    calibrator = TableCalibrator(camera.photo, lambda: Double(ROLL), tmp_path / "table", learned.append,
                                 wait_s=300, clock=clock)
    app = create_app(session, calibrator=calibrator)
    app.testing = True
    client = app.test_client(use_cookies=False)
    made = new_table(client, "race", ["Alice", "Bob"])
    return client, made, phone(made["token"]), camera, clock, calibrator, learned, tmp_path / "table"


def step(client, made, who, name, **data):
    return client.post(f"/api/tables/{made['id']}/calibration/{name}", json=data, headers=who)


def test_the_host_calibrates_with_the_empty_table_then_a_typed_roll(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    res = step(client, made, host, "empty")
    assert res.status_code == 200 and res.get_json()["step"] == "roll"
    assert "now roll one die of each set" in res.get_json()["text"]
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", values=[3, 5, 1])
    assert res.status_code == 200, res.get_json()
    answer = res.get_json()
    assert answer["step"] == "empty" and "red 3, red 5, cream 1" in answer["learned"]
    assert answer["text"].startswith("Calibrated: a die is 30 px across")
    assert load_table(folder).colours == ["red", "red", "cream"]  # saved in DATA/table
    assert [t.colours for t in learned] == [["red", "red", "cream"]]  # serve is told, and reads with it


def test_the_host_sees_the_roll_it_learned_from_with_each_dies_box_and_name(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    assert step(client, made, host, "cancel").get_json()["photo"] is None  # nothing learned here yet
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    photo = step(client, made, host, "roll", values="3 scarlet, 5, 1 ivory").get_json()["photo"]
    assert [d["text"] for d in photo["dice"]] == ["scarlet 3", "red 5", "ivory 1"]  # left to right
    for d, (x, y) in zip(photo["dice"], sorted(ROLL), strict=True):  # each box round its die (30 px)
        x1, y1, x2, y2 = d["box"]
        assert x1 < x < x2 and y1 < y < y2 and 28 <= x2 - x1 <= 32
    address = f"/api/tables/{made['id']}/calibration/photo/{photo['id']}.jpg"
    res = client.get(address, headers=host)
    assert res.status_code == 200 and res.mimetype == "image/jpeg" and res.data[:2] == b"\xff\xd8"
    assert res.headers["Cache-Control"] == "no-store"
    alice = take_seat(client, made, 0)
    for who in (alice, {}):  # the host's step alone
        assert client.get(address, headers=who).status_code == 403
    assert client.get(address.replace(photo["id"], "other"), headers=host).status_code == 404
    camera.now = table(0)
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    again = step(client, made, host, "roll", values=[3, 5, 1]).get_json()["photo"]
    assert again["id"] != photo["id"]  # a new address, and the old one is gone
    assert client.get(address, headers=host).status_code == 404


@pytest.mark.parametrize("typed, error", [("3 5 1 2", "found 3 dice, you typed 4 values"),
                                          ("3 5 2", "the dice read 1 3 5, you typed 2 3 5")])
def test_a_refused_roll_shows_the_host_the_dice_the_camera_counted_and_what_it_read(rig, typed, error):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", values=typed)
    assert res.status_code == 400 and error in res.get_json()["error"]
    refused = calibrator.state()["refused"]
    assert [d["text"] for d in refused["dice"]] == ["red 3", "red 5", "cream 1"]  # not the printed dot
    for d, (x, y) in zip(refused["dice"], sorted(ROLL), strict=True):
        x1, y1, x2, y2 = d["box"]
        assert x1 < x < x2 and y1 < y < y2
    address = f"/api/tables/{made['id']}/calibration/photo/{refused['id']}.jpg"
    res = client.get(address, headers=host)
    assert res.status_code == 200 and res.data[:2] == b"\xff\xd8"
    assert client.get(address, headers=take_seat(client, made, 0)).status_code == 403  # the host's alone
    answer = step(client, made, host, "roll", values=[3, 5, 1]).get_json()  # read as typed this time
    assert answer["refused"] is None and answer["photo"]["id"] != refused["id"]
    assert client.get(address, headers=host).status_code == 404  # gone with the refusal


def test_a_refused_roll_is_forgotten_when_the_step_is_cancelled_or_begun_again(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    for then in ("cancel", "empty"):
        step(client, made, host, "empty")
        camera.now = roll_photo(1)
        assert step(client, made, host, "roll", values="3 5 2").status_code == 400
        assert calibrator.state()["refused"] is not None
        camera.now = table(0)
        assert step(client, made, host, then).get_json()["refused"] is None


def test_only_the_host_calibrates_the_camera(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    alice = take_seat(client, made, 0)
    for who in (alice, {}):
        res = step(client, made, who, "empty")
        assert res.status_code == 403 and "only the table's host may calibrate" in res.get_json()["error"]
    assert not calibrator.busy


def test_the_table_the_camera_does_not_serve_is_not_calibrated(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    alice = take_seat(client, made, 0)
    version = client.get(f"/api/tables/{made['id']}").get_json()["version"]
    res = client.post(f"/api/tables/{made['id']}/actions", headers=alice,
                      json={"version": version, "action": {"type": "bet", "dice": 1}})
    assert res.status_code == 200  # a game in progress keeps the camera
    other = new_table(client, "race", ["Cleo", "Dan"])
    res = step(client, other, phone(other["token"]), "empty")
    assert res.status_code == 409 and "the camera serves another table" in res.get_json()["error"]


@pytest.mark.parametrize("body", [{"values": "1 ivory, 3 5 scarlet"},
                                  {"values": [5, 1, 3], "names": ["Scarlet", "ivory", None]}])
def test_the_host_may_name_the_dices_colours_typed_with_their_values(rig, body):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", **body)
    assert res.status_code == 200, res.get_json()
    assert "red 3, scarlet 5, ivory 1" in res.get_json()["learned"]
    assert res.get_json()["names"] == ["red", "scarlet", "ivory"] and res.get_json()["calibrated"]
    assert load_table(folder).colours == ["red", "scarlet", "ivory"]


@pytest.mark.parametrize("body, words", [
    ({"values": [3, 5, 1], "names": ["red"]}, '"names" must list a colour name'),
    ({"values": [3, 5, 1], "names": "red red cream"}, '"names" must list a colour name'),
    ({"values": [3, 5, 1], "names": [1, 2, 3]}, '"names" must list a colour name'),
    ({"values": "3 red, 5 red, 1", "names": ["red", None, None]}, "send no \"names\""),
    ({"values": [3, 5, 1], "names": ["<img src=x>", None, None]}, "a word or two of letters"),
    ({"values": "3 5 1 " + "cream" * 6}, "at most 24 characters"),
])
def test_colour_names_that_cannot_be_taken_are_a_bad_request_and_nothing_is_saved(rig, body, words):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", **body)
    assert res.status_code == 400 and words in res.get_json()["error"]
    assert calibrator.busy and not folder.exists() and learned == []


def test_a_roll_before_the_empty_table_is_refused(rig):
    client, made, host, *_ = rig
    res = step(client, made, host, "roll", values=[3, 5, 1])
    assert res.status_code == 409 and "empty table first" in res.get_json()["error"]


@pytest.mark.parametrize("values", [None, [], [3, 5, 9], ["3"], [True], "", "cream 3 5 1", "3 5 9", 351])
def test_values_that_are_no_d6_faces_are_a_bad_request(rig, values):
    client, made, host, camera, *_ = rig
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", values=values)
    assert res.status_code == 400 and "1 to 6" in res.get_json()["error"]


def test_a_roll_that_does_not_match_the_typed_values_says_why_and_can_be_tried_again(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    step(client, made, host, "empty")
    camera.now = roll_photo(1)
    res = step(client, made, host, "roll", values=[3, 5, 1, 2])
    assert res.status_code == 400 and "found 3 dice, you typed 4 values" in res.get_json()["error"]
    assert calibrator.busy and not folder.exists()
    assert step(client, made, host, "roll", values=[1, 3, 5]).status_code == 200


def test_the_game_is_not_read_while_the_host_calibrates_and_is_after_cancel_or_a_wait(rig):
    client, made, host, camera, clock, calibrator, *_ = rig
    step(client, made, host, "empty")
    assert calibrator.busy  # the tray watcher pauses on it
    res = step(client, made, host, "cancel")
    assert res.status_code == 200 and res.get_json()["step"] == "empty" and not calibrator.busy
    step(client, made, host, "empty")
    clock.t = 301  # nobody rolled for five minutes: the game's rolls are read again
    assert not calibrator.busy


def test_no_camera_pictures_and_no_learned_reader_are_said(rig, session, tmp_path):
    client, made, host, camera, *_ = rig
    camera.now = None
    res = step(client, made, host, "empty")
    assert res.status_code == 409 and "the camera sends no pictures" in res.get_json()["error"]
    calibrator = TableCalibrator(camera.photo, lambda: "the learned reader's models are not in vision/data/",
                                 tmp_path / "other")
    app = create_app(session, calibrator=calibrator)
    res = app.test_client().post(f"/api/tables/{made['id']}/calibration/empty", headers=host)
    assert res.status_code == 409 and "models are not in vision/data/" in res.get_json()["error"]


def test_a_companion_without_a_camera_says_so_and_unknown_steps_are_bad_requests(session):
    app = create_app(session)
    client = app.test_client(use_cookies=False)
    made = new_table(client, "race", ["Alice", "Bob"])
    host = phone(made["token"])
    res = step(client, made, host, "empty")
    assert res.status_code == 409 and "no camera to calibrate" in res.get_json()["error"]
    assert step(client, made, host, "sideways").status_code == 400


class Unsure(Double):
    """Reads as the double does, each face at 0.9."""

    def classify(self, frame, found):
        faces, colours, sides = super().classify(frame, found)
        return faces * 0.9, colours, sides


@pytest.mark.parametrize("certain, marked", [(0.8, ""), (0.95, "?")])
def test_a_refused_rolls_photo_marks_the_dice_read_less_surely_than_the_tables_threshold(tmp_path, certain,
                                                                                         marked):
    from companion.refusals import BadCommand

    frames = {"now": table(0)}
    calibrator = TableCalibrator(lambda: frames["now"], lambda: Unsure(ROLL), tmp_path / "table",
                                 certain=certain)
    calibrator.take_empty()
    frames["now"] = roll_photo(1)
    with pytest.raises(BadCommand, match="the dice read 1 3 5, you typed 2 3 5"):
        calibrator.take_roll("3 5 2")
    assert [d["text"] for d in calibrator.state()["refused"]["dice"]] == [
        f"red 3{marked}", f"red 5{marked}", f"cream 1{marked}"]
    assert [d["unsure"] for d in calibrator.state()["refused"]["dice"]] == [bool(marked)] * 3  # said apart


def test_the_host_sees_the_cameras_picture_and_turns_it_a_quarter_before_the_empty_photo(session, tmp_path):
    from companion.camera_turn import CameraTurn, saved_rotation
    from vision.images import turned

    camera, turns = Camera(), {"now": 0}
    turn = CameraTurn(0, lambda degrees: turns.update(now=degrees), tmp_path)
    calibrator = TableCalibrator(lambda: turned(camera.now, -turns["now"] // 90), lambda: Double(ROLL),
                                 tmp_path / "table", turn=turn)
    app = create_app(session, calibrator=calibrator)
    client = app.test_client(use_cookies=False)
    made = new_table(client, "race", ["Alice", "Bob"])
    host = phone(made["token"])
    view = f"/api/tables/{made['id']}/calibration/camera.jpg"

    def picture() -> tuple[int, int]:
        res = client.get(view, headers=host)
        assert res.status_code == 200 and res.mimetype == "image/jpeg"
        assert res.headers["Cache-Control"] == "no-store"
        return cv2.imdecode(np.frombuffer(res.data, np.uint8), cv2.IMREAD_COLOR).shape[:2]

    assert picture() == (480, 640)
    answer = step(client, made, host, "turn").get_json()
    assert answer["rotation"] == 90 and answer["text"] == "The camera's picture is turned 90 degrees."
    assert picture() == (640, 480) and saved_rotation(tmp_path) == 90  # kept for the next start
    alice = take_seat(client, made, 0)
    for who in (alice, {}):  # the host's alone: neither the picture nor the turn
        assert client.get(view, headers=who).status_code == 403
        assert step(client, made, who, "turn").status_code == 403
    camera.now = turned(table(0), 1)  # a camera on its side: its raw frames, turned back for the reader
    step(client, made, host, "empty")  # the empty photo waits for its roll: it was taken this way round
    res = step(client, made, host, "turn")
    assert res.status_code == 409 and "cancel, then turn the picture" in res.get_json()["error"]
    assert turns["now"] == 90
    camera.now = turned(roll_photo(1), 1)
    assert step(client, made, host, "roll", values=[3, 5, 1]).status_code == 200
    before = load_table(tmp_path / "table")
    answer = step(client, made, host, "turn").get_json()  # the calibration turns with the picture
    assert answer["rotation"] == 180 and answer["text"].endswith("and the calibration with it.")
    after = load_table(tmp_path / "table")  # saved so
    assert after.empty.shape == (640, 480, 3) and np.array_equal(after.empty, turned(before.empty, -1))
    assert calibrator.table.colours == after.colours == before.colours
    camera.now = None
    res = client.get(view, headers=host)  # a camera that sends nothing: said, not a broken image
    assert res.status_code == 409 and "the camera sends no pictures" in res.get_json()["error"]


def test_a_camera_the_page_cannot_turn_says_so(rig):
    client, made, host, camera, clock, calibrator, learned, folder = rig
    assert calibrator.state()["rotation"] is None
    res = step(client, made, host, "turn")
    assert res.status_code == 409 and "set rotation in the config" in res.get_json()["error"]
