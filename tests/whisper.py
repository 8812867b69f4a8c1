"""A dice race with a secret, to test that hidden information plugs into every route the same way.

Like the race (tests/race.py), but a bet may carry a `whisper` only its bettor may know: the engine's
`redact` leaves it out for every other seat.
"""

from __future__ import annotations

from companion.games import register
from companion.games.shapes import Opt, Text, Whole
from tests.race import Race


class Whisper(Race):
    name = "whisper"
    title = "Whispered race"
    action_shapes = {"bet": {"dice": Whole(), "whisper": Opt(Text())}}

    def redact(self, state, action, player):
        if "whisper" in action and player != state["turn"]:
            return {k: v for k, v in action.items() if k != "whisper"}
        return action


register("whisper", "tests.whisper:Whisper")
