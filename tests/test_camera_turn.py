"""The camera's picture's turn, chosen by the host on the page: kept in DATA/camera.json, read by serve at
start in place of the settings' rotation, and applied to the frames from the moment it is chosen."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from companion.camera_turn import FILE, CameraTurn, saved_rotation
from companion.settings import Settings
from vision.sources import SourceSpecError, SyntheticSource, TurnedSource


def test_each_quarter_turn_is_saved_and_turns_the_frames_from_then_on(tmp_path):
    turned_to = []
    turn = CameraTurn(180, turned_to.append, tmp_path)
    assert saved_rotation(tmp_path) is None  # nothing chosen yet: the settings' turn stands
    assert [turn.quarter() for _ in range(3)] == [270, 0, 90]
    assert turned_to == [270, 0, 90] and turn.degrees == 90
    assert json.loads((tmp_path / FILE).read_text()) == {"rotation": 90}
    assert saved_rotation(tmp_path) == 90


@pytest.mark.parametrize("text", ["{not json", '{"rotation": 45}', '{"rotation": true}', '{"turn": 90}',
                                  "[90]"])
def test_a_damaged_choice_is_logged_and_the_settings_turn_used(tmp_path, caplog, text):
    (tmp_path / FILE).write_text(text)
    with caplog.at_level(logging.WARNING, logger="companion"):
        assert saved_rotation(tmp_path) is None
    assert "the picture is turned as the settings say" in caplog.text
    assert (tmp_path / FILE).read_text() == text  # left as it was


def test_a_turned_source_turns_while_it_is_read():
    source = TurnedSource(SyntheticSource(fps=0, seed=1), 0)
    assert source.read().shape[:2] == (480, 640)
    source.turn_to(90)
    assert source.read().shape[:2] == (640, 480)
    with pytest.raises(SourceSpecError):
        source.turn_to(45)
    assert source.read().shape[:2] == (640, 480)  # a wrong angle changes nothing


def test_serve_turns_the_picture_as_the_host_chose_over_the_settings(tmp_path):
    from companion.commands.serve import Companion

    data = tmp_path / "data"
    data.mkdir()
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=data, gpio="off", rotation=180)
    running = Companion(settings)
    try:
        assert running.turn.degrees == 180  # nothing chosen on the page: the settings' turn
        assert running.calibrator.state()["rotation"] == 180
        running.calibrator.turn_picture()
    finally:
        running.close()
    assert saved_rotation(data) == 270
    again = Companion(settings)  # restarted: the host's choice outlives it
    try:
        assert again.turn.degrees == 270
        frame = again.camera.source.read()  # the frames the tray watcher reads
        assert isinstance(frame, np.ndarray) and frame.shape[:2] == (640, 480)
    finally:
        again.close()


def test_a_turn_that_cannot_be_saved_leaves_the_picture_as_it_was(tmp_path):
    from companion.refusals import NotNow

    turned_to = []
    turn = CameraTurn(0, turned_to.append, tmp_path / "gone")  # a data folder that is not there
    with pytest.raises(NotNow, match="could not be saved"):
        turn.quarter()
    assert turn.degrees == 0 and turned_to == []


def test_every_camera_opens_with_the_hosts_turn_else_the_settings(tmp_path):
    from companion.camera_turn import rotation

    settings = Settings(data_dir=tmp_path, rotation=270)
    assert rotation(settings) == 270  # nothing chosen on the page
    CameraTurn(0, lambda degrees: None, tmp_path).quarter()
    assert rotation(settings) == 90  # serve and `companion calibrate` alike
