"""Small readers of a Dice Devils state shared by the rules, the views and the scoring."""

from __future__ import annotations

from ..base import State
from .items import value
from .ranks import TITLES, rank_number


def rank_of(state: State, seat: int) -> str:
    """The rank this seat holds this round."""
    return state["ranks"][seat]


def seat_of(state: State, rank: str) -> int | None:
    """Who holds `rank` this round, or None when that devil is not in play."""
    ranks = state["ranks"]
    return ranks.index(rank) if rank in ranks else None


def who(state: State, seat: int) -> str:
    """ "Oberteufel (Alice)": how sentences name a player."""
    rank = state["ranks"][seat]
    name = state["players"][seat]
    return f"{TITLES[rank]} ({name})" if rank else name


def by_rank(state: State, seats: list[int]) -> list[int]:
    """`seats` sorted from the highest rank (Oberteufel) down."""
    return sorted(seats, key=lambda s: rank_number(state["ranks"][s]))


def ones(collection: list[str]) -> list[str]:
    """The distinct value-1 item types in a collection, in first-held order."""
    return list(dict.fromkeys(item for item in collection if value(item) == 1))


def names(state: State, seats: list[int]) -> str:
    """ "Alice, Bob and Carol"."""
    words = [who(state, s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
