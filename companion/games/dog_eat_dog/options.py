"""Dog Eat Dog's options: one field per alternative ruling in rules/dog-eat-dog.md, the default first."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import Options, about
from ..errors import BadOptions
from .pieces import STANDARD_COLOURS

STACK_CAPTORS = ("defender", "controller")
TIEBREAKS = ("shared", "captured-pips")


@dataclass(frozen=True)
class DogEatDogOptions(Options):
    """`colours`: one per seat (default: Rainbow then Xeno order, red first); `treehouse`: the Treehouse die
    variant (1.6); `stack_captor`: who takes a failed stack attacker, the owner of the defending pyramid
    that beat it ("defender", A5) or the stack's controller ("controller"); `tiebreak`: a tied top score is
    a shared win ("shared", A12) or goes to the most captured pips ("captured-pips")."""

    colours: list[str] | None = field(default=None, metadata=about(
        "Colours", "One per player, in seat order, e.g. red, blue (usual: red, yellow, green, blue...)."))
    treehouse: bool = field(default=False, metadata=about(
        "Treehouse die", "Roll the Treehouse die with each attack for an extra move (rule 1.6)."))
    stack_captor: str = field(default="defender", metadata=about(
        "Who takes a failed stack attacker", "When an attack on a stack fails, the attacker goes to...",
        {"defender": "the owner of the pyramid that beat it", "controller": "whoever controls the stack"}))
    tiebreak: str = field(default="shared", metadata=about(
        "A tie for the top score", "When two players have the best score at the end...",
        {"shared": "they share the win", "captured-pips": "the most captured pips wins"}))

    def seat_colours(self, players: int) -> list[str]:
        """The colour of each seat; raise BadOptions with a readable reason if the options do not fit."""
        if not isinstance(self.treehouse, bool):
            raise BadOptions("treehouse is true or false")
        if self.stack_captor not in STACK_CAPTORS:
            raise BadOptions(f"stack_captor is one of {', '.join(STACK_CAPTORS)}, not {self.stack_captor!r}")
        if self.tiebreak not in TIEBREAKS:
            raise BadOptions(f"tiebreak is one of {', '.join(TIEBREAKS)}, not {self.tiebreak!r}")
        if self.colours is None:
            return list(STANDARD_COLOURS[:players])
        colours = self.colours
        if not isinstance(colours, list | tuple) or len(colours) != players:
            raise BadOptions(f"colours needs one colour per player ({players}), got {colours!r}")
        for colour in colours:
            if colour not in STANDARD_COLOURS:
                raise BadOptions(f"unknown colour {colour!r}; the colours are {', '.join(STANDARD_COLOURS)}")
        if len(set(colours)) != len(colours):
            raise BadOptions("each player needs a different colour")
        return list(colours)
