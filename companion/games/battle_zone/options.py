"""Battle Zone's options: one field per alternative ruling in rules/battle-zone.md, the default first."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import Options, about
from ..errors import BadOptions

#: The colour each die face 1-5 stands for, by kind of 3HOUSE (3.1); a 6 is any colour.
COLOUR_SETS = {
    "rainbow": ("red", "blue", "green", "yellow", "black"),
    "xeno": ("orange", "purple", "cyan", "clear", "white"),
}
#: The power of a pyramid whose colour is face 1-5's (3.1 table), in face order.
POWERS = ("destroy", "control", "upgrade", "transport", "freeze")
RANGES = ("filled", "ring")


@dataclass(frozen=True)
class BattleZoneOptions(Options):
    """`colours`: the 3HOUSE's colours, "rainbow" (red, blue, green, yellow, black for faces 1-5) or
    "xeno" (orange, purple, cyan, clear, white); `range`: a pyramid's range is every square at king
    distance 1..pips ("filled", B1) or only those at exactly its pips ("ring"); `upgrade_standing`:
    the upgrade action may also take an upright pyramid (B4, the BGG reading); `must_use_all_dice`: a
    player may not decline a die that has a legal action (B7); `stall_turns`: after this many turns in a
    row without an exit, the player to act may end the game as a draw (B13; 0 never offers it)."""

    colours: str = field(default="rainbow", metadata=about(
        "Pyramid colours", "The colours of your three Treehouse sets (die 1 to 5 in this order).",
        {"rainbow": "Rainbow: red, blue, green, yellow, black",
         "xeno": "Xeno: orange, purple, cyan, clear, white"}))
    range: str = field(default="filled", metadata=about(
        "A pyramid's range", "Which squares a power reaches around its pyramid (B1).",
        {"filled": "every square up to its pips away", "ring": "only the squares exactly its pips away"}))
    upgrade_standing: bool = field(default=False, metadata=about(
        "Upgrade upright pyramids", "The upgrade action may also take an upright one (B4, BGG's reading)."))
    must_use_all_dice: bool = field(default=False, metadata=about(
        "Use every die", "A die that has a legal action must be used (B7)."))
    stall_turns: int = field(default=30, metadata=about(
        "Offer a draw after", "Turns in a row without an exit before a draw is offered (0: never)."))

    def check(self) -> None:
        """Raise BadOptions with a readable reason when an option has an impossible value."""
        if self.colours not in COLOUR_SETS:
            raise BadOptions(f"colours is one of {', '.join(COLOUR_SETS)}, not {self.colours!r}")
        if self.range not in RANGES:
            raise BadOptions(f"range is one of {', '.join(RANGES)}, not {self.range!r}")
        for flag in ("upgrade_standing", "must_use_all_dice"):
            if not isinstance(getattr(self, flag), bool):
                raise BadOptions(f"{flag} is true or false")
        turns = self.stall_turns
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
            raise BadOptions(f"stall_turns is a whole number of turns, 0 or more, not {turns!r}")
