"""One die as a reader reports it: what the games, the page and the annotated photo need of it.

Every reader (the learned one, `vision.learned`; the rules, `vision.dice`) gives a list of these, so the
code that uses a reading does not depend on which reader made it.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("d6", "grey", "treehouse")  # what a reader names: a d6, Dice Devils' small grey die, a Treehouse die


@dataclass(frozen=True)
class Die:
    """One die read from a frame. box is (x1, y1, x2, y2) px of the top face; confidence 0..1."""

    value: int | str
    kind: str  # one of KINDS
    colour: str
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict:
        return {"value": self.value, "kind": self.kind, "colour": self.colour, "box": list(self.box),
                "confidence": round(self.confidence, 3)}
