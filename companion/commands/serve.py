"""`companion serve`: the composition root. Builds camera, tray watcher, buttons, table session and web app.

On any machine it works with its defaults: no camera means the synthetic camera, no GPIO means the
page's on-screen buttons, no data folder means one is made.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from pathlib import Path

from companion.cli import CommandError
from companion.settings import READERS, ROTATIONS

log = logging.getLogger("companion")


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="run the companion: camera, buttons and the phone page")
    p.add_argument("--config", type=Path, help="a TOML config file (see deploy/config.example.toml)")
    p.add_argument("--camera", help="auto, picamera2, opencv:N, replay:DIR or sim")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: every phone on the network)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--data", dest="data_dir", type=Path, help="data folder: the game log and calibration")
    p.add_argument("--gpio", choices=("auto", "mock", "off"), help="buttons and light: auto, mock or off")
    p.add_argument("--rotation", type=int, choices=ROTATIONS,
                   help="degrees clockwise to turn the camera's picture so the table's near edge is at the "
                        "bottom (default 0; a camera mounted upside down: 180)")
    p.add_argument("--reader", choices=READERS,
                   help="dice reader: learned (default: trained; the rules without its models) or rules")
    p.set_defaults(handler=run)


def run(args) -> int:
    from companion.settings import SettingsError, load_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    names = ("camera", "host", "port", "data_dir", "gpio", "rotation", "reader")
    overrides = {k: getattr(args, k) for k in names if getattr(args, k) is not None}
    try:
        settings = load_settings(args.config, overrides)
    except SettingsError as err:
        raise CommandError(str(err)) from None
    companion = Companion(settings)
    try:
        companion.start()
        companion.announce()
        companion.server.run()
    finally:
        companion.close()
    return 0


class Companion:
    """Everything `serve` runs, wired together; also used by the browser tests and `bench web`."""

    def __init__(self, settings) -> None:
        from companion.folderlock import FolderLock
        from companion.salvage import check_writable
        from companion.store import EventStore, StorageError
        from companion.table import TableSession
        from web.app import create_app
        from web.server import WebServer

        self.settings = settings
        data = Path(settings.data_dir)
        try:
            check_writable(data)
            self.lock = FolderLock(data)
        except StorageError as err:  # read-only, or another companion serves it: say so, do not start
            raise CommandError(str(err)) from None
        try:
            store = EventStore(data / "tables.sqlite")
            self.session = TableSession(store, min_confidence=settings.confidence_threshold)
            for problem in self.session.problems:
                log.warning("storage: %s", problem)
            self.camera_name, self.camera, self.tray = self._open_camera()
            self.hardware = self._open_hardware()
            self.app = create_app(self.session, status=self.status, calibrator=self.calibrator)
            self.server = WebServer(self.app, host=settings.host, port=settings.port)
        except StorageError as err:
            self.lock.release()
            raise CommandError(str(err)) from None
        except BaseException:
            self.lock.release()
            raise
        self.url = self.server.url
        self.session.listen(lambda *_: self._show_light())

    def _open_camera(self):
        from companion.camera_turn import CameraTurn
        from companion.camera_turn import rotation as camera_rotation
        from companion.tray import TrayParts, TrayWatcher
        from vision.camera import CameraThread
        from vision.drawing import annotate
        from vision.errors import VisionError
        from vision.readers import open_reader
        from vision.settle import SettleDetector
        from vision.sources import TurnedSource, open_source

        data = Path(self.settings.data_dir)
        rotation = camera_rotation(self.settings)  # the host's turn from the page, else the settings'
        try:
            source = open_source(self.settings.camera)
        except VisionError as err:  # a named camera that is not there: say so, and do not start
            raise CommandError(f"camera {self.settings.camera!r}: {err}") from None
        source = TurnedSource(source, rotation)
        self.turn = CameraTurn(rotation, source.turn_to, data)
        camera = CameraThread(source)
        # the learned reader with the table's calibration (DATA/table/), or the rules without its models
        self.reader = open_reader(self.settings.reader, data, treehouse=_treehouse_faces(data))

        seen = {"number": 0}

        def frame():
            """The next camera frame, once each (waits up to 1 s); None when the camera has vanished."""
            shot = camera.wait_newer(seen["number"], timeout_s=1.0)
            if shot is None or camera.error:
                return None
            seen["number"] = shot.number
            return shot.image

        def read(image, kinds=None, colours=(), count=None):
            """The dice in the frame as dicts; `kinds`: those the pending roll asks for (None: any);
            `colours`: the names the game's sets of dice go by (none: any the reader knows); `count`: how
            many dice the pending roll holds (None: unknown)."""
            return [die.to_json() for die in self.reader.read(image, kinds, colours, count)]

        # a still tray holds dice when the reader that will read them sees some (asked before the empty tray
        # is known): `read` reads with the calibrated reader once the host calibrates
        detector = SettleDetector(settle_ms=self.settings.settle_ms, read=read)
        self.calibrator = self._calibrator(camera, data)
        parts = TrayParts(frame=frame, settled=detector.update,
                          read=read, annotate=lambda image, dice: annotate(image, dice, labels=False),
                          thrower=source if hasattr(source, "throw") else None,
                          paused=lambda: self.calibrator.busy)
        return source.name, camera, TrayWatcher(self.session, parts, interval_s=0)

    def _calibrator(self, camera, data: Path):
        """The calibration step on the host's page: photos from the camera, learned with the learned
        reader, saved in DATA/table/; serve reads with the new calibration from then on."""
        from companion.calibrating import TableCalibrator
        from vision.readers import open_reader

        def photo():
            shot = camera.latest()
            newer = camera.wait_newer(shot.number if shot else 0, timeout_s=2.0)  # taken after the press
            return None if newer is None or camera.error else newer.image

        def reader():
            from vision.learned import LearnedReader

            if not self.reader.name.startswith("learned"):
                return f"the camera reads with {self.reader.name}: calibration is for the learned reader"
            return LearnedReader.default()

        def learned(table) -> None:
            self.reader = open_reader(self.settings.reader, data, treehouse=_treehouse_faces(data))
            log.info("calibrated: %s; dice reader: %s", table.describe(), self.reader.name)

        calibrator = TableCalibrator(photo, reader, data / "table", learned,
                                     certain=self.settings.confidence_threshold, turn=self.turn)
        calibrator.table = self.reader.table
        return calibrator

    def _open_hardware(self):
        from hardware import PinMap, open_hardware

        def pressed(command):
            def press() -> None:
                from companion.table import TableError

                if self.session.current is None:
                    return
                try:
                    command(self.session.current)
                except TableError as err:
                    log.info("button: %s", err)
                    if self.hardware:
                        self.hardware.light.show("error")

            return press

        return open_hardware(PinMap(**dataclasses.asdict(self.settings.pins)),
                             # CONFIRM also approves the phone waiting to be host or for a seat: see
                             # TableSession.press_confirm
                             on_confirm=pressed(self.session.press_confirm),
                             on_retry=pressed(self.session.retry), on_undo=pressed(self.session.undo),
                             mode=self.settings.gpio)

    def _show_light(self) -> None:
        if not self.hardware:
            return
        table = self.session.tables.get(self.session.current or "")
        if table is None or table.game.roll_request(table.state) is None:
            self.hardware.light.show("idle")
        elif table.proposal is not None:
            self.hardware.light.show("reading_ready" if table.proposal.certain else "error")
        else:
            self.hardware.light.show("waiting_for_roll")

    def announce(self) -> None:
        """The start-up log: where the data lives, which camera and buttons, the address phones open."""
        from web.address import phone_urls

        log.info("data folder: %s", Path(self.settings.data_dir).resolve())
        if self.camera_name != "sim":
            log.info("camera: %s", self.camera_name)
        elif self.settings.camera == "auto":
            log.info("no camera found: simulated camera")
        else:
            log.info("camera: simulated")
        if self.turn.degrees:
            log.info("the camera's picture is turned %d degrees clockwise", self.turn.degrees)
        log.info("dice reader: %s", self.reader.name)
        if self.hardware is not None:
            log.info("buttons: %s", "simulated GPIO" if self.hardware.simulated else "GPIO")
        everyone = self.settings.host in ("0.0.0.0", "", "::")
        urls = (phone_urls(self.server.port) if everyone else []) or [self.url]
        log.info("phones open %s", " or ".join(urls))

    def status(self) -> dict:
        return {"camera": self.camera_name, "camera_error": self.camera.error or self.tray.error,
                "reader": self.reader.name, "calibration": self.calibrator.state(),
                "buttons": "gpio" if self.hardware else "on screen",
                "read_ms": round(self.tray.read_ms[-1], 1) if self.tray.read_ms else None}

    def start(self) -> Companion:
        # every page of the database read once, beside the game: damage found is shown and set aside at
        # the next start (a start itself reads only what it replays)
        threading.Thread(target=self.session.store.check, name="storage-check", daemon=True).start()
        self.camera.start()
        self.tray.start()
        self._show_light()
        return self

    def close(self) -> None:
        self.tray.close()
        self.camera.stop()
        if self.hardware:
            self.hardware.close()
        self.server.close()
        self.session.store.close()
        self.lock.release()


def _treehouse_faces(data: Path):
    """The Treehouse die's faces captured by `companion calibrate treehouse`, if any."""
    from vision.treehouse import TreehouseTemplates

    folder = data / "treehouse"
    try:
        return TreehouseTemplates.load(folder) if folder.is_dir() else TreehouseTemplates.default()
    except ValueError as err:
        log.warning("Treehouse calibration in %s is incomplete (%s): using the default faces", folder, err)
        return TreehouseTemplates.default()
