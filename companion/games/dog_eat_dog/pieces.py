"""The pyramids of Dog Eat Dog: colours, sizes, stable readable ids ("red-L-1") and names ("the large red").

Every player owns 3 trios of one colour (3 small, 3 medium, 3 large). A pyramid's record in the state is
plain JSON: `{"colour": "red", "size": 3, "status": "upright", "captured_by": None}`.
"""

from __future__ import annotations

#: The Rainbow colours, then the Xeno colours (rules/pyramids.md): the default seat order of colours.
RAINBOW = ("red", "yellow", "green", "blue", "black")
XENO = ("purple", "orange", "clear", "cyan", "white")
STANDARD_COLOURS = RAINBOW + XENO

SIZES = (1, 2, 3)  # pips: small, medium, large
SIZE_LETTER = {1: "S", 2: "M", 3: "L"}
SIZE_NAME = {1: "small", 2: "medium", 3: "large"}
COPIES = 3  # three trios per player

# A pyramid's status.
UPRIGHT = "upright"  # lone and in play
TIPPED = "tipped"  # lone, out of play until its owner's next cleanup
IN_STACK = "in_stack"  # part of a stack (the top one controls it)
CAPTURED = "captured"  # set aside in front of `captured_by` after a failed stack attack


def pyramid_id(colour: str, size: int, copy: int) -> str:
    """The id a player can read: colour, size letter, copy 1..3 ("red-L-1")."""
    return f"{colour}-{SIZE_LETTER[size]}-{copy}"


def new_pyramids(colours: list[str]) -> dict[str, dict]:
    """Every player's 9 pyramids, all lone and upright, keyed by id in a stable order."""
    return {
        pyramid_id(colour, size, copy): {
            "colour": colour, "size": size, "status": UPRIGHT, "captured_by": None,
        }
        for colour in colours
        for size in SIZES
        for copy in range(1, COPIES + 1)
    }


def describe(pyramid: dict) -> str:
    """How a player names a pyramid at the table: "the large red" (copies look alike)."""
    return f"the {SIZE_NAME[pyramid['size']]} {pyramid['colour']}"


def listing(names: list[str]) -> str:
    """Join names as a sentence does: "a", "a and b", "a, b and c"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
