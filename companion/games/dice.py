"""The dice the games use, and how a game asks for a roll.

The engines never roll: when chance is due, the state carries a `RollRequest` and the only legal
action is the roll's outcome, given by the camera, a phone, or a seeded generator in tests.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field

from .shapes import shown

D6 = "d6"
GREY = "grey"
TREEHOUSE = "treehouse"

#: The faces of each kind of die, one entry per physical face (so repeats weigh the odds).
FACES: dict[str, tuple] = {
    D6: (1, 2, 3, 4, 5, 6),
    GREY: (1, 2, 3, 3, 4, 4),
    TREEHOUSE: ("AIM", "TIP", "HOP", "DIG", "SWAP", "WILD"),
}


def distinct_faces(kind: str) -> tuple:
    """The faces of `kind` without repeats, in order (the grey die gives 1, 2, 3, 4)."""
    return tuple(dict.fromkeys(FACES[kind]))


@dataclass(frozen=True)
class DieRequest:
    """One die to roll: its kind, its colour if the game cares (Dice Devils tells cups by colour)."""

    kind: str = D6
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in FACES:
            raise ValueError(f"unknown die kind {self.kind!r}; known: {', '.join(FACES)}")


@dataclass(frozen=True)
class RollRequest:
    """Who rolls which dice, and why, in words shown on every phone ("Alice: 3 dice for the large red").

    `player` is the seat that rolls, or None when several players roll at once (each die's colour, and
    `extra`, then tell whose die is whose); `tag` and `extra` say what the roll is for.
    """

    player: int | None
    dice: tuple[DieRequest, ...]
    reason: str
    tag: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = asdict(self)
        out["dice"] = [asdict(d) for d in self.dice]
        return out

    @classmethod
    def from_json(cls, data: dict) -> RollRequest:
        dice = tuple(DieRequest(**d) for d in data["dice"])
        return cls(data["player"], dice, data["reason"], data.get("tag", ""), data.get("extra", {}))

    def outcomes(self) -> list[list]:
        """Every distinct outcome, as lists of face values in the order of `dice`."""
        return [list(v) for v in itertools.product(*(distinct_faces(d.kind) for d in self.dice))]

    def check(self, values: list) -> None:
        """Raise ValueError with a readable sentence if `values` cannot be this roll's outcome."""
        if not isinstance(values, list) or len(values) != len(self.dice):
            got = f"{len(values)}" if isinstance(values, list) else "no list of dice"
            raise ValueError(f"this roll needs {len(self.dice)} dice, got {got}")
        for die, value in zip(self.dice, values, strict=True):
            # exact types: 6.0 and true are not faces, though 6.0 == 6 and true == 1 in Python
            if not any(type(value) is type(face) and value == face for face in FACES[die.kind]):
                faces = ", ".join(str(f) for f in distinct_faces(die.kind))
                raise ValueError(f"{shown(value)} is not a face of the {die.kind} die ({faces})")
