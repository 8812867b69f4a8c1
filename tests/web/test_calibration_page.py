"""The calibration step on the host's phone at 360 px: the empty table, then one roll with its values typed.

The camera is a stand-in giving the photos of tests/vision/test_calibration.py and the learned reader its
test double; what is tested is the page's step and what it shows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.calibrating import TableCalibrator
from companion.camera_turn import CameraTurn, saved_rotation
from companion.store import EventStore
from companion.table import TableSession
from tests.vision.test_calibration import ROLL, Double, calibrated, roll_photo, table
from tests.web.browser import launch, new_phone, start_table, sync_api
from vision.calibration import load_table
from vision.images import turned
from web.app import create_app
from web.server import WebServer

pytestmark = pytest.mark.browser


@dataclass
class Rig:
    """The companion's calibration step as the host's phone sees it: `camera["now"]` is the frame the
    camera sends, `errors` the page's script errors."""

    host: object
    calibrator: TableCalibrator
    camera: dict[str, np.ndarray]
    errors: list[str] = field(default_factory=list)


@contextmanager
def host_phone(tmp_path, game: str, players: list[str], known=None, turnable: bool = False) -> Iterator[Rig]:
    """A companion serving a new table of `game` with the stand-in camera over the empty table, calibrated
    with `known` (None: never), and its host's phone at 360 px on the table's page. `turnable`: the host
    may turn the camera's picture (`camera["turn"]` degrees clockwise), as serve lets them."""
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    camera = {"now": table(0), "turn": 0}
    turn = CameraTurn(0, lambda degrees: camera.update(turn=degrees), tmp_path) if turnable else None
    calibrator = TableCalibrator(lambda: turned(camera["now"], -camera["turn"] // 90), lambda: Double(ROLL),
                                 tmp_path / "table", turn=turn)
    calibrator.table = known  # as serve starts with the saved calibration
    status = lambda: {"camera": "sim", "camera_error": None, "buttons": "gpio",  # noqa: E731
                      "calibration": calibrator.state()}
    server = WebServer(create_app(session, status=status, calibrator=calibrator), host="127.0.0.1",
                       port=0).start()
    try:
        with sync_api().sync_playwright() as p:
            browser = launch(p)
            errors: list[str] = []
            host = new_phone(browser, errors=errors)
            start_table(host, server.url, game, players)
            yield Rig(host, calibrator, camera, errors)
            browser.close()
    finally:
        server.close()


def test_the_host_calibrates_the_camera_from_the_phone(tmp_path):
    with host_phone(tmp_path, "race", ["Ann", "Ben"]) as rig:
        host = rig.host
        host.locator("#calibrate summary").click()
        host.get_by_role("button", name="The table is empty: take its photo").click()
        host.wait_for_selector("#calib-values")
        assert rig.calibrator.busy  # the camera reads no game roll meanwhile
        rig.camera["now"] = roll_photo(1)
        host.fill("#calib-values", "3 5 2")  # a typing slip: the page says what the camera saw
        host.get_by_role("button", name="Read this roll").click()
        host.wait_for_selector("#toast.error:has-text('the dice read 1 3 5, you typed 2 3 5')")
        # the roll as the camera read it, each die it counted boxed and read, above the values to type again
        host.wait_for_function("document.querySelector('#calib-refused img')?.naturalWidth === 640")
        assert host.locator("#calib-refused .label").all_inner_texts() == ["red 3", "red 5", "cream 1"]
        assert host.locator("#calib-refused .label.unsure").count() == 0  # each read at the table's threshold
        assert "as the camera read it" in host.locator("#calibrate").inner_text()
        host.fill("#calib-values", "3 5 1 Ivory")  # the cream die's name, as the players call it
        host.get_by_role("button", name="Read this roll").click()
        host.wait_for_selector("#calib-learned:has-text('red 3, red 5, ivory 1')")
        assert "a die is 30 px across" in host.locator("#calib-learned").inner_text()
        # the roll it learned from, each die boxed and named, for the host to check which die took which name
        host.wait_for_function("document.querySelector('#calib-photo img').naturalWidth === 640")
        labels = host.locator("#calib-photo .label")
        assert labels.all_inner_texts() == ["red 3", "red 5", "ivory 1"]
        # each over its die's box where the picture shows it (whole in its frame, banded at its sides or ends)
        photo = host.locator("#calib-photo img").bounding_box()
        k = min(photo["width"] / 640, photo["height"] / 480)
        for label, said in zip(labels.all(), rig.calibrator.photo_of_roll.labels, strict=True):
            at, box = label.bounding_box(), said.box
            assert at["x"] == pytest.approx(photo["x"] + (photo["width"] - 640 * k) / 2 + box[0] * k, abs=2)
            assert at["y"] + at["height"] <= photo["y"] + (photo["height"] - 480 * k) / 2 + box[1] * k + 2
        assert host.locator("#calib-empty").is_visible()  # ready to calibrate again
        assert host.locator("#calib-refused").count() == 0  # the refused roll is gone
        assert load_table(tmp_path / "table").colours == ["red", "red", "ivory"]
        assert rig.errors == []


def test_a_game_that_tells_dice_by_colour_says_which_names_to_type(tmp_path):
    earlier = calibrated()[0]  # a calibration from another game: red, red, cream
    with host_phone(tmp_path, "dog-eat-dog", ["Ann", "Ben", "Cy"], known=earlier) as rig:
        host = rig.host
        # the camera was calibrated for another game: its sets lack this game's yellow and green
        host.wait_for_selector("#calib-missing")
        assert "knows dice named red, red, cream; this game also asks for yellow, green" in \
            host.locator("#calib-missing").inner_text()
        assert host.locator("#calibrate").get_attribute("open") is not None  # shown, not folded away
        host.get_by_role("button", name="The table is empty: take its photo").click()
        label = host.locator("label[for=calib-values]").inner_text()
        assert "name each set as it does: red, yellow, green" in label
        assert host.locator("#calib-values").get_attribute("placeholder") == "3 red, 5 yellow"
        rig.camera["now"] = roll_photo(1)
        host.fill("#calib-values", "3 red, 5 yellow, 1 green")
        host.get_by_role("button", name="Read this roll").click()
        host.wait_for_selector("#calib-learned:has-text('red 3, yellow 5, green 1')")
        assert load_table(tmp_path / "table").colours == ["red", "yellow", "green"]
        assert host.locator("#calib-missing").count() == 0  # every colour the game asks for is known
        assert rig.errors == []


def test_a_game_asking_for_colours_the_reader_cannot_name_asks_for_a_calibration(tmp_path):
    # nine players: the eighth and ninth seats play Dog Eat Dog's clear and cyan pyramids
    with host_phone(tmp_path, "dog-eat-dog", [f"P{n}" for n in range(1, 10)]) as rig:
        rig.host.wait_for_selector("#calib-missing")
        assert rig.host.locator("#calib-missing").inner_text() == (
            "The camera cannot name clear, cyan dice by itself: calibrate it, naming each set as the "
            "game does.")
        assert rig.host.locator("#calibrate").get_attribute("open") is not None
        assert rig.errors == []


def test_the_host_turns_the_cameras_picture_until_the_players_edge_is_at_its_bottom(tmp_path):
    with host_phone(tmp_path, "race", ["Ann", "Ben"], turnable=True) as rig:
        host = rig.host
        host.locator("#calibrate summary").click()
        host.wait_for_function("document.querySelector('#calib-view img')?.naturalWidth === 640")
        assert "nearest the players belongs at the bottom" in host.locator("#calibrate").inner_text()
        host.get_by_role("button", name="Turn the picture a quarter").click()
        host.wait_for_selector("#toast:has-text('turned 90 degrees')")
        # the picture as the camera now sends it: on its side, 480 px wide
        host.wait_for_function("document.querySelector('#calib-view img')?.naturalWidth === 480")
        assert rig.camera["turn"] == 90 and saved_rotation(tmp_path) == 90
        host.get_by_role("button", name="The table is empty: take its photo").click()
        host.wait_for_selector("#calib-values")
        # not while the empty photo waits for its roll, which was taken this way round
        assert host.locator("#calib-turn").count() == 0 and host.locator("#calib-view").count() == 0
        assert rig.errors == []


def test_a_camera_the_page_cannot_turn_shows_no_turn(tmp_path):
    with host_phone(tmp_path, "race", ["Ann", "Ben"]) as rig:
        rig.host.locator("#calibrate summary").click()
        rig.host.wait_for_selector("#calib-empty")
        assert rig.host.locator("#calib-turn").count() == 0 and rig.host.locator("#calib-view").count() == 0
        assert rig.errors == []


def test_the_cameras_picture_follows_the_camera_while_the_host_looks_at_it(tmp_path):
    """The host aims the camera with the card open: its picture is fetched again every few seconds, and
    not once the card is closed."""
    with host_phone(tmp_path, "race", ["Ann", "Ben"], turnable=True) as rig:
        host = rig.host
        asked: list[str] = []
        host.on("request", lambda r: asked.append(r.url) if "/calibration/camera.jpg" in r.url else None)
        host.locator("#calibrate summary").click()
        host.wait_for_function("document.querySelector('#calib-view img')?.naturalWidth === 640")
        rig.camera["now"] = np.ascontiguousarray(table(0)[:240, :320])  # the camera moved: another picture
        host.wait_for_function("document.querySelector('#calib-view img')?.naturalWidth === 320",
                               timeout=10_000)
        host.locator("#calibrate summary").click()  # closed: the picture is no longer fetched
        host.wait_for_timeout(500)
        before = len(asked)
        host.wait_for_timeout(4500)
        assert len(asked) == before >= 2
        assert rig.errors == []
