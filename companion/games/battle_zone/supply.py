"""The shared supply beside the board: 3 small, 3 medium and 3 large of each of the five colours (3.1).

In the state it is `{"red": [smalls, mediums, larges], ...}`. Every pyramid is on the board, in the
supply, or exited and kept by a player: 45 in all.
"""

from __future__ import annotations

COPIES = 3


def new_supply(colours: tuple[str, ...]) -> dict[str, list[int]]:
    return {colour: [COPIES, COPIES, COPIES] for colour in colours}


def has(state: dict, colour: str, size: int) -> bool:
    """Whether a pyramid of this colour and size (pips 1-3) is in the supply."""
    return 1 <= size <= 3 and state["supply"][colour][size - 1] > 0


def take(state: dict, colour: str, size: int) -> None:
    if not has(state, colour, size):
        raise AssertionError(f"no {colour} of size {size} in the supply")  # callers check first
    state["supply"][colour][size - 1] -= 1


def give_back(state: dict, colour: str, size: int) -> None:
    state["supply"][colour][size - 1] += 1


def total(state: dict) -> int:
    """Pyramids accounted for: on the board, in the supply and exited (45 unless a bug lost one)."""
    exited = sum(len(pieces) for pieces in state["exited"])
    return len(state["board"]) + sum(sum(counts) for counts in state["supply"].values()) + exited
