"""The six devils: rank order, dice, abilities, who plays at each player count and how many items show.

Rank 1 (Oberteufel) is the highest. Sources and rulings: `shared/rules/dice-devils.md` 4.1, 4.2, 4.4, E14.
"""

from __future__ import annotations

from ..dice import D6, GREY, DieRequest

OBERTEUFEL = "oberteufel"
SPIELTEUFEL = "spielteufel"
FEHLERTEUFEL = "fehlerteufel"
PUTZTEUFEL = "putzteufel"
SPRINGTEUFEL = "springteufel"
SATANSBRATEN = "satansbraten"

#: The ranks from highest (1) to lowest (6).
RANKS: tuple[str, ...] = (OBERTEUFEL, SPIELTEUFEL, FEHLERTEUFEL, PUTZTEUFEL, SPRINGTEUFEL, SATANSBRATEN)

#: German names as printed on the standees, for sentences players read.
TITLES = {
    OBERTEUFEL: "Oberteufel",
    SPIELTEUFEL: "Spielteufel",
    FEHLERTEUFEL: "Fehlerteufel",
    PUTZTEUFEL: "Putzteufel",
    SPRINGTEUFEL: "Springteufel",
    SATANSBRATEN: "Satansbraten",
}

ABILITIES = {
    OBERTEUFEL: "3 dice, counts the best 2; claims first; his fight is resolved first",
    SPIELTEUFEL: "once per fight, after seeing the dice: force all opponents in the fight to re-roll",
    FEHLERTEUFEL: "after winning a fight: steal one value-1 item from one loser",
    PUTZTEUFEL: "after winning a fight: exchange one of your items for one item of one loser",
    SPRINGTEUFEL: "wins every tie, even at the final count",
    SATANSBRATEN: "2 dice of faces 1,2,3,3,4,4, plus the Oberteufel's lowest die",
}

#: The devils in play by player count (the standard selection; any other is the variant).
DEVILS_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    3: (OBERTEUFEL, PUTZTEUFEL, SATANSBRATEN),
    4: (OBERTEUFEL, SPIELTEUFEL, FEHLERTEUFEL, SATANSBRATEN),
    5: (OBERTEUFEL, SPIELTEUFEL, FEHLERTEUFEL, PUTZTEUFEL, SATANSBRATEN),
    6: RANKS,
}

#: Items on display each round by player count (E14), and with the "more fights" variant.
REVEAL_N = {3: 2, 4: 3, 5: 3, 6: 4}
REVEAL_N_MORE_FIGHTS = {3: 2, 4: 2, 5: 3, 6: 3}


def rank_number(rank: str) -> int:
    """1 for the Oberteufel ... 6 for the Satansbraten."""
    return RANKS.index(rank) + 1


def dice_of(rank: str) -> tuple[DieRequest, ...]:
    """The dice under this devil's cup: 3 yellow d6, 2 black d6, or 2 small grey dice."""
    if rank == OBERTEUFEL:
        return (DieRequest(D6, "yellow"),) * 3
    if rank == SATANSBRATEN:
        return (DieRequest(GREY, "grey"),) * 2
    return (DieRequest(D6, "black"),) * 2


def reveal_count(players: int, more_fights: bool = False) -> int:
    """N, the number of items on display at the start of each round."""
    table = REVEAL_N_MORE_FIGHTS if more_fights else REVEAL_N
    return table[players]
