"""`companion calibrate treehouse [--config FILE] [--data DIR] [--camera SPEC]`: the Treehouse die's faces.

The faces go to DATA/treehouse/, where `companion serve` reads them: the data folder comes from the same
settings as serve's (its default, the config file's `data_dir`, or --data).
"""

from __future__ import annotations

from pathlib import Path

from companion.cli import CommandError


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="capture calibration (Treehouse die faces)")
    what = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    t = what.add_parser("treehouse", help="show each Treehouse face to the camera in turn")
    t.add_argument("--config", type=Path, help="the settings file serve uses (its data_dir and camera)")
    t.add_argument("--data", dest="data_dir", type=Path,
                   help="data folder; faces go to DATA/treehouse/ (default: the one serve uses)")
    t.add_argument("--camera", help="auto, picamera2, opencv:N, replay:DIR or sim (default: serve's)")
    t.set_defaults(handler=run_treehouse)


def capture_faces(source, ask=input, tries: int = 20) -> dict:
    """For each face, ask the player to show it, then crop the dark square face from a frame."""
    import cv2

    from vision.symbols import TREEHOUSE_FACES
    from vision.treehouse import face_crops

    crops = {}
    for face in TREEHOUSE_FACES:
        ask(f"Put the Treehouse die in the tray with {face} up, alone, then press Enter: ")
        for _ in range(tries):
            found = face_crops(cv2.cvtColor(source.read(), cv2.COLOR_BGR2GRAY))
            if len(found) == 1:
                crops[face] = found[0][0]
                break
        else:
            raise CommandError(f"could not see exactly one dark die face for {face}: "
                               "clear the tray and retry")
    return crops


def settings_for(args):
    """The settings serve would use, with this command's --data and --camera over them."""
    from companion.settings import SettingsError, load_settings

    overrides = {"data_dir": args.data_dir, "camera": args.camera}
    try:
        return load_settings(args.config, overrides)
    except SettingsError as err:
        raise CommandError(str(err)) from None


def run_treehouse(args) -> int:
    from vision.errors import VisionError
    from vision.sources import open_source
    from vision.treehouse import TreehouseTemplates

    settings = settings_for(args)
    folder = Path(settings.data_dir) / "treehouse"
    try:
        with open_source(settings.camera) as source:
            crops = capture_faces(source)
    except VisionError as err:
        raise CommandError(str(err)) from err
    except EOFError:
        raise CommandError("calibration needs a person at the keyboard to turn the die") from None
    TreehouseTemplates(crops).save(folder, crops)
    print(f"saved {len(crops)} Treehouse faces in {folder}")
    return 0
