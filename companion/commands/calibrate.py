"""`companion calibrate treehouse|table [--config FILE] [--data DIR] [--camera SPEC]`: calibration.

- treehouse: the Treehouse die's faces, to DATA/treehouse/.
- table [--empty PHOTO] [--roll PHOTO] [--values "3 cream, 5 red, 1"]: the table, learned from a photo of
  it empty and one roll with its values typed, each with its colour's name if the player likes
  (`vision.calibration`): the dice's size in px, their colours and names, and where the empty table
  fools the detector. To DATA/table/, with the roll's photo, each die boxed and named (roll.jpg), for the
  player to check the names. Photos not given are taken by the camera.
Both go where `companion serve` and `companion read --data` read them: the data folder comes from the
same settings as serve's (its default, the config file's `data_dir`, or --data).
"""

from __future__ import annotations

from pathlib import Path

from companion.camera_turn import rotation
from companion.cli import CommandError


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="learn the table (the learned reader), or the Treehouse die's faces "
                                           "(the rules)")
    what = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    t = what.add_parser("treehouse", help="show each Treehouse face to the camera in turn (for --reader "
                                             "rules; the learned reader needs no faces)")
    t.add_argument("--config", type=Path, help="the settings file serve uses (its data_dir and camera)")
    t.add_argument("--data", dest="data_dir", type=Path,
                   help="data folder; faces go to DATA/treehouse/ (default: the one serve uses)")
    t.add_argument("--camera", help="auto, picamera2, opencv:N, replay:DIR or sim (default: serve's)")
    t.set_defaults(handler=run_treehouse)
    b = what.add_parser("table", help="a photo of the empty table, then one roll with its values typed")
    b.add_argument("--config", type=Path, help="the settings file serve uses (its data_dir and camera)")
    b.add_argument("--data", dest="data_dir", type=Path,
                   help="data folder; the calibration goes to DATA/table/ (default: the one serve uses)")
    b.add_argument("--camera", help="auto, picamera2, opencv:N, replay:DIR or sim (default: serve's)")
    b.add_argument("--empty", type=Path, metavar="PHOTO",
                   help="a photo of the empty table (default: the camera's)")
    b.add_argument("--roll", type=Path, metavar="PHOTO",
                   help="a photo of one roll of the game's dice, same camera (default: the camera's)")
    b.add_argument("--values", help='the values on top of the rolled dice, each with its colour\'s name if '
                                    'you like: "3 5 1" or "3 cream, 5 red, 1" (default: asked)')
    b.set_defaults(handler=run_table)


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
        with open_source(settings.camera, rotation=rotation(settings)) as source:
            crops = capture_faces(source)
    except VisionError as err:
        raise CommandError(str(err)) from err
    except EOFError:
        raise CommandError("calibration needs a person at the keyboard to turn the die") from None
    TreehouseTemplates(crops).save(folder, crops)
    print(f"saved {len(crops)} Treehouse faces in {folder}")
    return 0


FRAMES_PER_PHOTO = 5  # frames read for each photo, the last kept: the camera's exposure settles meanwhile


def parse_values(text: str) -> tuple[list[int], list[str | None]]:
    """ "3 5 1" or "3 cream, 5 red, 1" -> the values and the colour name typed after each
    (`companion.calibrating.typed_roll`); CommandError, with the player's sentence, for anything else."""
    from companion.calibrating import typed_roll

    try:
        return typed_roll(text)
    except ValueError as err:
        raise CommandError(str(err)) from None


def capture_table(source, empty=None, roll=None, values: tuple[list[int], list[str | None]] | None = None,
                  ask=input):
    """The empty table's photo, the roll's photo and its typed values with their colour names (as
    `parse_values` gives them): those not given are taken by the camera (`source`) or asked, in the order a
    player does it."""
    def photo():
        frame = None
        for _ in range(FRAMES_PER_PHOTO):
            frame = source.read()
        return frame

    if empty is None:
        ask("Clear the table: take every die off, then press Enter: ")
        empty = photo()
    if roll is None:
        ask("Roll the game's dice (one of each set) into the tray, let them settle, then press Enter: ")
        roll = photo()
    while values is None:
        try:
            values = parse_values(ask("Type the value on top of each die, with its colour if you like, "
                                      "e.g. 3 cream, 5 red, 1: "))
        except CommandError as err:
            print(err)
    return empty, roll, values


ROLL_PHOTO = "roll.jpg"  # beside the calibration: the roll it was learned from, each die named
REFUSED_PHOTO = "refused.jpg"  # beside it: the last roll refused, each die it counted boxed and read


def run_table(args) -> int:
    import cv2

    from companion.calibrating import boxed_refusal, boxed_roll
    from companion.settings import save_atomically
    from vision.calibration import CalibrationError, learn_table
    from vision.errors import VisionError
    from vision.images import load_image
    from vision.learned import LearnedReader
    from vision.sources import open_source

    settings = settings_for(args)
    if not LearnedReader.available():
        raise CommandError("the learned dice reader's models are not in vision/data/: "
                           "run 'companion train dice' first")
    try:
        reader = LearnedReader.default()
    except Exception as err:  # a damaged model (ONNX Runtime raises its own errors)
        raise CommandError(f"the learned dice reader could not be loaded: {err}") from None
    values = parse_values(args.values) if args.values is not None else None
    try:
        empty = load_image(args.empty) if args.empty else None
        roll = load_image(args.roll) if args.roll else None
        if empty is None or roll is None:
            with open_source(settings.camera, rotation=rotation(settings)) as source:
                empty, roll, values = capture_table(source, empty, roll, values)
        elif values is None:
            empty, roll, values = capture_table(None, empty, roll, None)
    except VisionError as err:
        raise CommandError(str(err)) from None
    except EOFError:
        raise CommandError("calibration needs a person at the keyboard, "
                           "or --empty, --roll and --values") from None
    folder = Path(settings.data_dir) / "table"
    refused = folder / REFUSED_PHOTO
    try:
        table = learn_table(reader, empty, roll, *values)
    except CalibrationError as err:  # the dice it counted, if any, for the player to see what to change
        where = ""
        if err.dice:
            folder.mkdir(parents=True, exist_ok=True)
            seen = boxed_refusal(roll, err.dice, settings.confidence_threshold, words=True)
            if cv2.imwrite(str(refused), seen):
                where = f"\nthat roll, as the camera read it (? where unsure): {refused}"
        raise CommandError(f"{err}{where}") from None
    table.save(folder, save_atomically)
    refused.unlink(missing_ok=True)
    print(f"learned: {table.describe()}")
    print(f"saved in {folder}")
    photo = folder / ROLL_PHOTO
    if cv2.imwrite(str(photo), boxed_roll(roll, table, words=True)):
        print(f"the roll with each die's name: {photo} (if one is wrong, calibrate again)")
    return 0
