"""`companion train faces [--renders N] [--epochs N] [--out FILE] [--hold-out]`: train the dice reader's
face classifier (needs PyTorch: `pip install -e .[train]`)."""

from __future__ import annotations

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


def run_faces(args) -> int:
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        raise CommandError("training needs PyTorch: pip install -e '.[train]'") from exc
    from vision.training import run

    return run(args)
