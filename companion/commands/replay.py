"""`companion replay GAME LOG.jsonl`: apply a shared log and print the resulting state as JSON."""

from __future__ import annotations

import json

from companion import gamelog
from companion.cli import CommandError


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="replay a game's action log and print the final state as JSON")
    p.add_argument("game", help="dog-eat-dog, dice-devils, ...")
    p.add_argument("log", help="the action log (JSON Lines, see companion/gamelog.py)")
    p.set_defaults(handler=run)


def run(args) -> int:
    try:
        game, state = gamelog.replay(gamelog.load(args.log), expected_game=args.game)
    except gamelog.LogError as err:
        raise CommandError(str(err)) from None
    print(json.dumps({"state": state, "summary": game.summary(state)}, indent=2, sort_keys=True))
    return 0
