"""`companion train faces|dice`: train the rule-based reader's face classifier, or the learned reader
(`vision.dicetrain`); both need PyTorch (`pip install -e .[train]`)."""

from __future__ import annotations

import argparse

from companion.cli import CommandError


def add_parser(sub) -> None:
    p = sub.add_parser("train", help="train the dice reader's face classifier (needs PyTorch)")
    what = p.add_subparsers(dest="what", required=True, metavar="WHAT")
    t = what.add_parser("faces", help="from rendered scenes and ../shared/datasets/dice")
    t.add_argument("--renders", type=int, default=2500, help="rendered scenes to learn from (default 2500)")
    t.add_argument("--epochs", type=int, default=10, help="passes over the samples (default 10)")
    t.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    t.add_argument("--out", default="vision/data/faces.npz", help="where to write the weights")
    t.add_argument("--hold-out", action="store_true",
                   help="keep every other labelled photo and the 'val' crops out, and measure on them")
    t.set_defaults(handler=run_faces)
    d = what.add_parser("dice", help="the learned reader (detector + face classifier, ONNX) from randomised "
                        "renders and the training part of ../shared/datasets/dice")
    d.add_argument("--tiles", type=int, default=4000, help="rendered detector tiles (default 4000)")
    d.add_argument("--scenes", type=int, default=2500,
                   help="rendered scenes for the classifier (default 2500)")
    d.add_argument("--detector-steps", type=int, default=10000, help="detector batches (default 10000)")
    d.add_argument("--classifier-steps", type=int, default=8000, help="classifier batches (default 8000)")
    d.add_argument("--classifiers", type=at_least_one, default=2, metavar="N",
                   help="classifiers trained on the same crops, each from its own seed, whose readings the "
                   "reader averages (default 2; 1: one, as the weights before 2026-11-28 were made)")
    d.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    d.add_argument("--oblique", type=float, default=0.5, metavar="SHARE",
                   help="share 0-1 of the renders drawn as phones photograph a table (cameras down to 65 "
                   "degrees, nearer dice larger, heaps; default 0.5)")
    d.add_argument("--upright", action=argparse.BooleanOptionalAction, default=True,
                   help="both networks keep the frame's down (default): they learn from renders and photos "
                   "mirrored but never turned, the classifier also from tilted dice's side faces as no die, "
                   "and it reads a crop and its mirror image; --no-upright turns them by quarter turns and "
                   "reads four turns, as the weights before 2026-11-28 were made")
    d.add_argument("--workers", type=int, default=2,
                   help="processes rendering scenes, and on a GPU cutting the detector's batches (default 2)")
    d.add_argument("--threads", type=int, default=2, help="PyTorch threads (default 2)")
    d.add_argument("--device", choices=("cpu", "cuda", "auto"), default="cpu",
                   help="where to train: cpu (default; the committed weights are made there, bit for bit), "
                   "cuda (a GPU: faster, weights differ in the last digits) or auto (cuda if there is one)")
    d.add_argument("--precision", choices=("auto", "bf16", "fp32"), default="auto",
                   help="the arithmetic of training: auto (default: bfloat16 where the CPU or GPU computes "
                   "it natively, as this project's machine does, else float32), bf16 or fp32")
    d.add_argument("--out", default="vision/data", help="folder of the ONNX files (default vision/data)")
    d.add_argument("--keep-detector", action="store_true",
                   help="train only the classifier, on the detector already in --out (what a whole run gives "
                   "when that detector is the one the whole run makes)")
    d.add_argument("--recalibrate", action="store_true",
                   help="only measure the peak threshold, temperature and kind model of the models in --out "
                   "again")
    d.set_defaults(handler=run_dice)


def at_least_one(text: str) -> int:
    """A count of one or more, for argparse (a reader needs at least one classifier)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of one or more, not {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"one or more, not {count}")
    return count


def _need_torch() -> None:
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise CommandError("training needs PyTorch and onnx: pip install -e '.[train]'") from exc


def run_dice(args) -> int:
    _need_torch()
    from vision.dicetrain import run, training_device
    from vision.errors import VisionError

    try:
        args.device = training_device(args.device)
    except ValueError as err:
        raise CommandError(str(err)) from err
    try:
        return run(args)
    except VisionError as err:  # what the user can mend (a missing model, an unreadable photo), not a bug
        raise CommandError(str(err)) from err


def run_faces(args) -> int:
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise CommandError("training needs PyTorch: pip install -e '.[train]'") from exc
    from vision.training import run

    return run(args)
