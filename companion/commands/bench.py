"""`companion bench engine|vision DIR|speed|web|fuzz|restart|calibration|colours`: benchmarks that print
figures (never fail on speed)."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from companion.settings import Settings

TARGETS = {
    "engine": ("companion.bench_engine", "random games/s, odds query µs, Battle Zone legal actions ms, "
                                         "DOG's worst-case 7 listing ms"),
    "vision": ("vision.bench", "dice reader accuracy and ms per frame on a labelled folder"),
    "speed": ("vision.speedbench", "the learned dice reader's CPU ms per 640x480 and 1280x720 frame on one "
                                   "core, or two readers' frame by frame (--against)"),
    "web": ("web.bench", "streams held, API latency while they are open, confirm-to-phone latency, "
                         "a one-client flood, server memory"),
    "fuzz": ("web.fuzz", "random requests at every route: how many were sent, how many got a 5xx"),
    "restart": ("companion.bench_restart", "seconds to restart with 15k and 100k records of history"),
    "calibration": ("vision.calibration_bench", "the learned reader on rendered cluttered tables, with and "
                                                "without the table's calibration: dice right, false dice"),
    "colours": ("vision.colour_bench", "the game's dice re-rolled on rendered tables: named in the colour "
                                       "they were drawn in, by the reader alone and with the calibration"),
}


def reader_folder(text: str) -> Path:
    """A `--models DIR` (or `--against DIR`) that holds a trained reader's networks, or argparse's usage
    error, before any benchmark starts."""
    from vision.learned import LearnedReader

    if not LearnedReader.available(Path(text)):
        raise argparse.ArgumentTypeError(f"no learned reader in {text}: run 'companion train dice'")
    return Path(text)


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="print performance and accuracy figures")
    targets = p.add_subparsers(dest="target", required=True, metavar="TARGET")
    for name, (module, text) in TARGETS.items():
        t = targets.add_parser(name, help=text)
        t.set_defaults(handler=lambda args, module=module: importlib.import_module(module).run(args))
        if name == "vision":
            t.add_argument("folder", help="a folder with labels.csv (+ totals.csv) or crops.csv, render:N "
                           "for N seeded rendered scenes, or 'compare': the rule-tuned and learned readers "
                           "side by side on the held-out photos and renders")
            t.add_argument("--renders", type=int, default=1000, help="with compare: held-out renders to read")
            t.add_argument("--oblique", type=int, default=300,
                           help="with compare: held-out oblique renders to read (as phones photograph a "
                           "table: cameras down to 65 degrees, nearer dice larger, in heaps; seeds no "
                           "training draws)")
            t.add_argument("--sure", type=float, default=Settings.confidence_threshold,
                           help="with compare: readings at least this confident (0-1) count as sure "
                           "(default: the table's confidence_threshold, %(default)s)")
            t.add_argument("--models", metavar="DIR", type=reader_folder,
                           help="the learned reader's ONNX files (default vision/data)")
            t.add_argument("--reader", choices=("both", "learned", "rules"), default="both",
                           help="which reader reads: the learned one, which serve and read use, the old "
                           "rule-tuned one, or both, one after the other (default)")
            t.add_argument("--limit", type=int, default=0, help="only the first N photos")
            t.add_argument("--measured", action="store_true",
                           help="only a shared set's measured part: its photos held out of training, its "
                           "'val' crops (as compare reads them)")
            t.add_argument("--verbose", action="store_true", help="also list every photo read wrong")
            t.add_argument("--vary", metavar="NAME", help="read a labelled folder's photos as another "
                           "camera or room would take them: smaller, larger, turned, dim, bright, jpeg, "
                           "warm, soft or shaken")
        if name == "speed":
            t.add_argument("--models", metavar="DIR", type=reader_folder,
                           help="the learned reader's ONNX files (default vision/data)")
            t.add_argument("--against", metavar="DIR", type=reader_folder,
                           help="another reader's ONNX files, read in turns with it frame by frame")
            t.add_argument("--frames", type=int, default=30,
                           help="rendered tables read at each size (default 30)")
        if name == "calibration":
            t.add_argument("--tables", type=int, default=30, help="tables to calibrate (default 30)")
            t.add_argument("--later", type=int, default=5, help="rolls read on each table after (default 5)")
            t.add_argument("--models", metavar="DIR", type=reader_folder,
                           help="the learned reader's ONNX files (default vision/data)")
        if name == "colours":
            t.add_argument("--tables", type=int, default=100, help="tables to calibrate (default 100)")
            t.add_argument("--rolls", type=int, default=5, help="rolls read on each table after (default 5)")
            t.add_argument("--models", metavar="DIR", type=reader_folder,
                           help="the learned reader's ONNX files (default vision/data)")
        if name == "fuzz":
            t.add_argument("--requests", type=int, default=5000, help="requests to send")
            t.add_argument("--seed", type=int, default=0, help="the same seed sends the same requests")
        if name == "engine":
            t.add_argument("--seconds", type=float, default=3.0, help="time per measurement, in seconds")
        if name == "restart":
            t.add_argument("--records", default="15000,100000", help="history sizes, comma separated")
            t.add_argument("--repeats", type=int, default=3, help="restarts timed per history (the median)")
        if name == "web":
            t.add_argument("--streams", type=int, default=200, help="idle event streams to hold open")
            t.add_argument("--requests", type=int, default=400, help="API calls to time while they are open")
            t.add_argument("--phones", type=int, default=16, help="seated live phones to simulate")
            t.add_argument("--confirms", type=int, default=50, help="confirms to time")
            t.add_argument("--flood", type=int, default=12, help="streams one client asks for at once")
