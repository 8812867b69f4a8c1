"""`companion read IMAGE... [--json] [--annotate DIR] [--data DIR] [--reader learned|rules] [--kinds KINDS]
[--colours NAMES] [--count N]`: read the dice in photos, with the learned reader (and the table's calibration
in DATA/table/, when --data is given) where its models are in vision/data/, else with the rules; which one
reads is said on stderr. --kinds, --colours and --count read as a game's roll is read
(`vision.learned.LearnedReader.read`): the kinds of dice it asks for ("d6": no die is then read as Dice
Devils' small grey die), the colour names of the game's sets, and how many dice the roll holds.

Each photo is read on its own: one that is missing, a directory, too large, damaged or not an image
prints its error and the others are still read; the exit status is 1 when any photo failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.cli import CommandError
from companion.settings import READERS, Settings
from vision.die import KINDS


def add_parser(sub) -> None:
    p = sub.add_parser("read", help="read the dice in photos")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (jpg, png, ...)")
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    p.add_argument("--annotate", metavar="DIR", help="also write each photo with boxes and values to DIR")
    p.add_argument("--data", metavar="DIR",
                   help="data folder: the table calibration (table/), Treehouse templates (treehouse/)")
    p.add_argument("--reader", choices=READERS, default=Settings.reader,
                   help="dice reader: learned (default; the rules without its models) or rules")
    p.add_argument("--kinds", type=_kinds, metavar="KINDS",
                   help="the kinds of dice that may lie there, as a game's roll asks for them: "
                        f"{', '.join(KINDS)} (default: any)")
    p.add_argument("--colours", type=_names, default=(), metavar="NAMES",
                   help='the colour names the game\'s sets of dice go by, e.g. "yellow, black": without a '
                        "calibration, a d6 is named the likeliest of them (default: the reader's own names)")
    p.add_argument("--count", type=_count, metavar="N",
                   help="how many dice each photo's roll holds: where the reader finds another number, or "
                        "one unsurely, it looks at the photo at other scales too (default: not known)")
    p.set_defaults(handler=run)


def _count(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"the number of dice a roll holds, 1 or more: got {text!r}")
    return int(text)


def _names(text: str) -> tuple[str, ...]:
    """Comma-separated names -> a tuple of them, trimmed and lower-case."""
    return tuple(name.strip().lower() for name in text.split(",") if name.strip())


def _kinds(text: str) -> frozenset[str]:
    kinds = _names(text)
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(f"the kinds are {', '.join(KINDS)}, comma-separated: got {text!r}")
    return frozenset(kinds)


def _templates(data: str | None):
    from vision.treehouse import TreehouseTemplates

    if data is None or not (Path(data) / "treehouse").is_dir():  # --data may hold only the calibration
        return None
    try:
        return TreehouseTemplates.load(Path(data) / "treehouse")
    except ValueError as err:
        folder = Path(data) / "treehouse"
        raise CommandError(f"{err} in {folder}: run 'companion calibrate treehouse'") from err


def run(args) -> int:
    import cv2

    from vision.drawing import annotate
    from vision.errors import ImageReadError
    from vision.images import load_image
    from vision.readers import open_reader

    reader = open_reader(args.reader, Path(args.data) if args.data else None, treehouse=_templates(args.data))
    print(f"dice reader: {reader.name}", file=sys.stderr)
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in args.images:
        record: dict = {"image": name, "width": None, "height": None, "dice": [], "error": None}
        try:
            image = load_image(name)
            record["height"], record["width"] = image.shape[:2]
            dice = reader.read(image, args.kinds, args.colours, args.count)
        except ImageReadError as err:
            record["error"] = str(err)
            failures += 1
        except cv2.error as err:  # one photo the reader cannot take (2 px wide, say) never stops the rest
            record["error"] = f"{name}: the dice reader failed on this photo ({err.err or 'OpenCV error'})"
            failures += 1
        else:
            record["dice"] = [d.to_json() for d in dice]
            if out_dir is not None:
                cv2.imwrite(str(out_dir / (Path(name).stem + ".annotated.png")), annotate(image, dice))
        if args.json:
            print(json.dumps(record), flush=True)
        elif record["error"]:
            print(record["error"])  # it starts with the file's name
        else:
            values = ", ".join(f"{d['value']} ({d['kind']}, {d['colour']}, {d['confidence']:.2f})"
                               for d in record["dice"])
            print(f"{name}: {len(record['dice'])} dice: {values or '-'}")
    return 1 if failures else 0
