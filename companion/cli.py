"""`companion`: the command line, and the composition root that wires camera, buttons, table and web.

Each subcommand lives in `companion/commands/<name>.py` with `add_parser(subparsers)`; its handler
returns an exit code. Errors a user caused print one line on stderr and exit non-zero, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ("serve", "replay", "odds", "bench", "read", "calibrate", "train", "backup")


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="The table companion.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"companion.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except CommandError as err:
        print(f"companion {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
