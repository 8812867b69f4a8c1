"""DOG's cards (rules/dog.md 2.1-2.3): two packs of 55, what each rank does, the deals of 6, 5, 4, 3, 2."""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")
JOKER = "Joker"
#: copies of each rank in the two packs: 8 of A-K, 6 Jokers; 110 in all.
COPIES = {rank: 6 if rank == JOKER else 8 for rank in RANKS}
DECK_SIZE = sum(COPIES.values())
#: cards dealt to each player in rounds 1, 2, ... (then 6 again).
HAND_SIZES = (6, 5, 4, 3, 2)
#: the forward distances of each card other than 7 and J (the 4 also goes 4 back).
FORWARD = {"A": (1, 11), "2": (2,), "3": (3,), "4": (4,), "5": (5,), "6": (6,), "8": (8,), "9": (9,),
           "10": (10,), "Q": (12,), "K": (13,), JOKER: (1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13)}
STARTS = ("A", "K", JOKER)
BACKWARD = ("4", JOKER)
SEVENS = ("7", JOKER)
JACKS = ("J", JOKER)


def hand_size(round_number: int) -> int:
    """Cards each player gets in round `round_number` (1-based)."""
    return HAND_SIZES[(round_number - 1) % len(HAND_SIZES)]


def full_deck() -> dict[str, int]:
    return dict(COPIES)


def named(card: str) -> str:
    """The card as a sentence says it: "an A", "a 7", "a Joker"."""
    return f"an {card}" if card in ("A", "8") else f"a {card}"
