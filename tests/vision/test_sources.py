"""Frame sources and the camera thread: replay, synthetic table, latest-frame semantics, vanished camera."""

import threading
import time

import cv2
import numpy as np
import pytest

from vision.camera import CameraThread
from vision.errors import CameraError, SourceSpecError
from vision.render import DieSpec
from vision.sources import FrameSource, ReplaySource, SyntheticSource, TurnedSource, open_source


def _write_frames(folder, count=3):
    for i in range(count):
        frame = np.full((48, 64, 3), i * 40, np.uint8)
        cv2.imwrite(str(folder / f"frame{i:02d}.png"), frame)


def test_replay_reads_a_folder_in_name_order_and_loops(tmp_path):
    _write_frames(tmp_path)
    with ReplaySource(tmp_path, fps=0) as source:
        levels = [int(source.read()[0, 0, 0]) for _ in range(5)]
    assert levels == [0, 40, 80, 0, 40]


def test_replay_is_paced_at_its_fps(tmp_path):
    _write_frames(tmp_path)
    source = open_source(f"replay:{tmp_path}", fps=20)
    start = time.monotonic()
    for _ in range(5):
        source.read()
    assert time.monotonic() - start >= 4 / 20 - 0.01


def test_replay_of_nothing_is_a_clear_error(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        ReplaySource(tmp_path)
    with pytest.raises(CameraError):
        ReplaySource(tmp_path / "missing")


def test_open_source_parses_specs_and_refuses_unknown_ones(tmp_path):
    _write_frames(tmp_path)
    assert isinstance(open_source("sim"), SyntheticSource)
    assert isinstance(open_source(f"replay:{tmp_path}"), ReplaySource)
    with pytest.raises(SourceSpecError):
        open_source("webcam-please")
    with pytest.raises(SourceSpecError):
        open_source("replay:")


def test_a_turned_camera_gives_frames_turned_clockwise_and_still_throws(tmp_path):
    frame = np.zeros((48, 64, 3), np.uint8)
    frame[0, 0] = 255  # the top-left pixel
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    corners = {}
    for degrees in (0, 90, 180, 270):
        with open_source(f"replay:{tmp_path}", fps=0, rotation=degrees) as source:
            turned = source.read()
        corners[degrees] = (turned.shape[:2], tuple(int(v) for v in np.argwhere(turned[..., 0] == 255)[0]))
    assert corners == {0: ((48, 64), (0, 0)), 90: ((64, 48), (0, 47)), 180: ((48, 64), (47, 63)),
                       270: ((64, 48), (63, 0))}
    sim = open_source("sim", fps=0, seed=3, rotation=90)
    assert isinstance(sim, TurnedSource) and hasattr(sim, "throw")  # serve still throws the sim's dice
    assert sim.read().shape[:2] == (640, 480)
    with pytest.raises(SourceSpecError, match="90, 180 or 270"):
        open_source("sim", rotation=45)


def test_a_missing_usb_camera_says_so():
    with pytest.raises(CameraError):
        open_source("opencv:97")


class FakePicamera2:
    """Stands in for picamera2.Picamera2: records what the source asks of the camera."""

    made = []

    def __init__(self):
        self.config = self.controls = None
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main):
        return {"main": main}

    def configure(self, config):
        self.config = config

    def start(self):
        pass

    def capture_metadata(self):
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.5, 1.8), "Lux": 300}

    def set_controls(self, controls):
        self.controls = controls

    def capture_array(self, stream):
        return np.zeros((480, 640, 3), np.uint8)

    def stop(self):
        pass

    def close(self):
        pass


def test_picamera2_is_used_only_when_chosen_and_freezes_exposure(monkeypatch):
    import sys
    import types

    fake = types.ModuleType("picamera2")
    fake.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    FakePicamera2.made.clear()
    open_source("sim")
    assert FakePicamera2.made == []
    from vision.sources import Picamera2Source

    with Picamera2Source(warmup_s=0) as camera:
        assert camera.read().shape == (480, 640, 3)
    cam = FakePicamera2.made[0]
    assert cam.config["main"]["format"] == "RGB888"  # BGR in memory, as OpenCV wants
    assert cam.controls == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                            "AnalogueGain": 2.0, "ColourGains": (1.5, 1.8)}


def test_synthetic_table_is_empty_until_dice_are_thrown_then_settles_on_them():
    table = SyntheticSource(fps=0, roll_s=0.15, seed=4)
    empty = table.read()
    assert np.array_equal(empty, table.read())
    table.throw([{"kind": "d6", "colour": "red"}, {"kind": "grey"}])
    tumbling = [table.read() for _ in range(2)]
    assert not np.array_equal(tumbling[0], tumbling[1])
    time.sleep(0.2)
    settled = table.read()
    assert np.array_equal(settled, table.read())
    assert [(t.kind, t.colour) for t in table.truth] == [("d6", "red"), ("grey", "grey")]
    table.clear()
    assert np.array_equal(table.read(), empty) and table.truth == []


def test_synthetic_table_shows_the_faces_it_is_told():
    table = SyntheticSource(fps=0, roll_s=0, seed=1)
    table.show([DieSpec("d6", "white", 6), DieSpec("d6", "black", 2)])
    from vision.dice import read_dice

    assert sorted(d.value for d in read_dice(table.read())) == [2, 6]


class Counting(FrameSource):
    """A fake camera: frame i is filled with the value i; it can be told to vanish."""

    def __init__(self):
        self.count = 0
        self.vanish = threading.Event()
        self.closed = False

    def read(self):
        if self.vanish.is_set():
            raise CameraError("unplugged")
        time.sleep(0.005)
        self.count += 1
        return np.full((4, 4, 3), self.count % 256, np.uint8)

    def close(self):
        self.closed = True


def test_camera_thread_gives_every_reader_the_newest_frame():
    source = Counting()
    with CameraThread(source) as camera:
        first = camera.wait_newer(0, timeout_s=2)
        assert first is not None and first.number >= 1
        later = camera.wait_newer(first.number + 3, timeout_s=2)
        assert later.number > first.number + 3 and later.time_s > first.time_s
        # two readers at the same moment get the same, newest frame without waiting for the camera
        a, b = camera.latest(), camera.latest()
        assert a.number == b.number and a.number >= later.number
        assert int(camera.latest_frame()[0, 0, 0]) >= 1
    assert source.closed


def test_a_vanished_camera_sets_an_error_instead_of_crashing():
    source = Counting()
    camera = CameraThread(source).start()
    assert camera.wait_newer(0, timeout_s=2) is not None
    source.vanish.set()
    deadline = time.monotonic() + 2
    while camera.error is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "unplugged" in camera.error
    assert camera.latest_frame() is None
    assert camera.latest() is not None  # the last picture is still there for a status page
    source.vanish.clear()
    camera.restart()
    assert camera.error is None
    assert camera.wait_newer(camera.latest().number, timeout_s=2) is not None
    camera.close()


def test_package_exports_are_the_functions_and_classes_the_table_uses():
    import vision

    for name in ("CameraThread", "SettleDetector", "annotate", "open_source", "read_dice",
                 "load_treehouse_faces", "SyntheticSource", "DieSpec"):
        assert callable(getattr(vision, name)), name
    from vision import annotate, read_dice  # after the submodules were imported, still the functions

    frame = np.zeros((60, 80, 3), np.uint8)
    assert annotate(frame, read_dice(frame)).shape == frame.shape
    assert annotate(frame, [{"value": 3, "kind": "d6", "colour": "red", "box": [5, 5, 30, 30],
                             "confidence": 0.4}]).shape == frame.shape
