"""Turn what the camera read into a proposal for the roll the game asked for.

Pure: dice arrive as plain dicts from the reader (`value`, `kind`, `colour`, `box`, `confidence`),
so the table session never imports vision. A proposal is only `certain` when every asked-for die was
seen once, no extra die was seen, and every die is read with confidence at or above the threshold;
otherwise it lists the problems in words and waits for a person. Each die of the proposal says whether it
was read that surely (`sure`), so the page marks the unclear ones by the table's threshold.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .games import D6, FACES, GREY, RollRequest

DEFAULT_MIN_CONFIDENCE = 0.8


@dataclass
class Proposal:
    """A reading offered for confirmation: `values` in the request's order, or None when it cannot fit."""

    values: list | None
    dice: list[dict[str, Any]]
    certain: bool
    problems: list[str] = field(default_factory=list)
    photo_id: str = ""  # names this reading and its photo; never reused (set by the table session)

    def to_json(self) -> dict:
        return asdict(self)


def _describe(kind: str, colour: str | None) -> str:
    name = {"d6": "die", "grey": "grey die", "treehouse": "Treehouse die"}.get(kind, f"{kind} die")
    return f"{colour} {name}" if colour and kind == "d6" else name


def _plural(n: int, kind: str, colour: str | None) -> str:
    word = _describe(kind, colour)
    if n == 1:
        return f"1 {word}"
    return f"{n} " + (word[:-3] + "dice" if word.endswith("die") else word + "s")


def _fits(die: dict[str, Any], kind: str, colour: str | None) -> bool:
    return die.get("kind") == kind and (colour is None or die.get("colour") in (colour, None))


LIGHT_COLOURS = (None, "white", "grey")  # a d6 that may look like the small grey die


def _looks_alike(die: dict[str, Any], kind: str, colour: str | None, asked: set[str]) -> bool:
    """Whether a die read as one kind may be a die of `kind` the roll asked for: the small grey die and a
    white d6 look alike (a white d6 in a dim room looks grey; the grey die under a lamp looks white),
    and the reader tells them apart only by size beside other dice. So where the roll asks for no die
    of the kind it was read as, it may fill a slot of the other, if its face is one that die has."""
    read = die.get("kind")
    if read in asked or die.get("value") not in FACES[kind] or colour not in LIGHT_COLOURS:
        return False
    return (read, kind) in ((GREY, D6), (D6, GREY)) and die.get("colour") in LIGHT_COLOURS


def match_reading(
    request: RollRequest, dice: list[dict[str, Any]], min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> Proposal:
    """Assign read dice to the requested dice by kind (and colour where the request names one); a white
    d6 and the grey die, which look alike, stand in for each other where the roll asks for only one of
    the two kinds."""
    pool = [d for d in dice if d.get("kind") in FACES]
    values: list | None = []
    problems: list[str] = []
    wanted: dict[tuple[str, str | None], list[int]] = {}
    for index, die in enumerate(request.dice):
        wanted.setdefault((die.kind, die.colour), []).append(index)
    slots: list = [None] * len(request.dice)
    asked = {die.kind for die in request.dice}
    for (kind, colour), indices in wanted.items():
        same = [d for d in pool if _fits(d, kind, colour)]
        same += [d for d in pool if _looks_alike(d, kind, colour, asked)][:max(0, len(indices) - len(same))]
        if len(same) != len(indices):
            problems.append(f"expected {_plural(len(indices), kind, colour)}, saw {len(same)}")
        for slot, die in zip(indices, sorted(same, key=lambda d: -d.get("confidence", 0.0)), strict=False):
            slots[slot] = die["value"]
        for die in same:
            pool.remove(die)
    if pool:
        problems.append(f"{len(pool)} die" + ("s" if len(pool) > 1 else "") + " not asked for in the tray")
    for die in dice:
        if die.get("confidence", 0.0) < min_confidence and die.get("kind") in FACES:
            what = _describe(die["kind"], die.get("colour"))
            problems.append(f"the {die.get('value')} on the {what} is unclear")
    if any(v is None for v in slots):
        values = None
    else:
        values = slots
        try:
            request.check(values)
        except ValueError as err:
            problems.append(str(err))
            values = None
    certain = not problems and values is not None
    marked = [{**die, "sure": die.get("confidence", 0.0) >= min_confidence} for die in dice]
    return Proposal(values=values, dice=marked, certain=certain, problems=problems)
