"""Exact fight odds: checked against a brute-force enumeration of every die, written independently."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.dice_devils import odds
from companion.games.dice_devils.odds import RANKS, p_win

D6 = (1, 2, 3, 4, 5, 6)
GREY = (1, 2, 3, 3, 4, 4)
OBER, SPIEL, SPRING, SATAN = "oberteufel", "spielteufel", "springteufel", "satansbraten"


def faces(rank):
    return [D6] * 3 if rank == OBER else [GREY] * 2 if rank == SATAN else [D6] * 2


def rolls(rank):
    """Every equally likely physical roll of this devil's dice (repeated grey faces kept)."""
    return list(itertools.product(*faces(rank)))


def brute_total(rank, dice, low):
    if rank == OBER:
        return sum(dice) - min(dice)
    return sum(dice) + (low if rank == SATAN else 0)


def brute_resolve(dice, contenders):
    """Result vector when `contenders` compare with these raw dice (dice[OBER] may be an outsider's)."""
    low = min(dice[OBER]) if OBER in dice else None
    totals = {r: brute_total(r, dice[r], low) for r in contenders}
    best = max(totals.values())
    top = frozenset(r for r, t in totals.items() if t == best)
    if len(top) == 1:
        return {next(iter(top)): Fraction(1)}
    if SPRING in top:
        return {SPRING: Fraction(1)}
    return dict(brute_tie(top, low if OBER not in top and SATAN in top else None))


@cache
def brute_tie(group, low):
    """Re-roll the tied group until resolved; the self-loop (all of `group` tie again) summed exactly."""
    members = sorted(group)
    outcomes = list(itertools.product(*(rolls(r) for r in members)))
    again = 0
    acc: dict[str, Fraction] = {}
    for combo in outcomes:
        dice = dict(zip(members, combo, strict=True))
        if OBER not in dice and low is not None:
            dice[OBER] = (low, 6, 6)
        totals = {r: brute_total(r, dice[r], min(dice[OBER]) if OBER in dice else None) for r in members}
        best = max(totals.values())
        if all(t == best for t in totals.values()):
            again += 1
            continue
        for rank, p in brute_resolve(dice, members).items():
            acc[rank] = acc.get(rank, 0) + p
    return tuple((r, p / (len(outcomes) - again)) for r, p in acc.items())


def brute(fighters, known):
    """Average over every first roll; the Spielteufel forces a re-roll when that raises his chance."""
    rollers = list(fighters)
    if SATAN in fighters and OBER not in fighters:
        rollers.append(OBER)
    choices = [[tuple(known[r])] if r in known else rolls(r) for r in rollers]
    forced_cache = {}
    acc: dict[str, Fraction] = {}
    count = 0
    for combo in itertools.product(*choices):
        dice = dict(zip(rollers, combo, strict=True))
        result = brute_resolve(dice, fighters)
        if SPIEL in fighters:
            key = (sum(dice[SPIEL]), min(dice[OBER]) if OBER in dice and OBER not in fighters else None)
            if key not in forced_cache:
                forced_cache[key] = brute_forced(fighters, dice)
            forced = forced_cache[key]
            if forced.get(SPIEL, 0) > result.get(SPIEL, 0):
                result = forced
        count += 1
        for rank, p in result.items():
            acc[rank] = acc.get(rank, 0) + p
    return {r: acc.get(r, Fraction(0)) / count for r in fighters}


def brute_forced(fighters, dice):
    opponents = [r for r in fighters if r != SPIEL]
    acc: dict[str, Fraction] = {}
    outcomes = list(itertools.product(*(rolls(r) for r in opponents)))
    for combo in outcomes:
        again = {**dice, **dict(zip(opponents, combo, strict=True))}
        for rank, p in brute_resolve(again, fighters).items():
            acc[rank] = acc.get(rank, 0) + p
    return {r: p / len(outcomes) for r, p in acc.items()}


CASES = [
    ([OBER, SATAN], {}),
    ([SPIEL, "fehlerteufel"], {}),
    (["fehlerteufel", SPRING], {}),
    (["fehlerteufel", "putzteufel", SPRING], {}),
    ([SPIEL, SATAN], {OBER: [2, 5, 6]}),
    (["putzteufel", SATAN], {SATAN: [4, 3]}),
    ([OBER, SPIEL], {SPIEL: [4, 4]}),
    ([OBER, SPIEL, SATAN], {SPIEL: [3, 5]}),
    ([SPIEL, SPRING, SATAN], {OBER: [1, 1, 6], SATAN: [2, 2]}),
    ([OBER, "fehlerteufel", SATAN], {"fehlerteufel": [6, 6]}),
]


@pytest.mark.parametrize("fighters, known", CASES)
def test_p_win_matches_brute_force_enumeration(fighters, known):
    exact = p_win(fighters, known)
    assert exact == brute(fighters, known)
    assert sum(exact.values()) == 1
    assert list(exact) == fighters


def test_measured_odds_of_common_fights():
    assert p_win([OBER, SATAN], {}) == brute([OBER, SATAN], {})
    assert round(float(p_win([OBER, SATAN], {})[OBER]), 4) == 0.6357
    # two plain devils are even; the Spielteufel's re-roll makes him the favourite
    even = Fraction(1, 2)
    assert p_win(["fehlerteufel", "putzteufel"], {}) == {"fehlerteufel": even, "putzteufel": even}
    assert p_win([SPIEL, "fehlerteufel"], {})[SPIEL] > Fraction(6, 10)
    # the Springteufel's ties: P(win) = P(his total >= the other's) for two black-dice devils
    assert p_win(["putzteufel", SPRING], {})[SPRING] == Fraction(1, 2) + Fraction(146, 1296) / 2


def test_known_dice_decide_a_fight_without_a_tie():
    assert p_win([OBER, SATAN], {OBER: [1, 6, 6], SATAN: [4, 4]}) == {OBER: 1, SATAN: 0}
    assert p_win([OBER, SATAN], {OBER: [2, 2, 6], SATAN: [4, 4]}) == {OBER: 0, SATAN: 1}


def test_spielteufel_forces_only_when_it_helps():
    # he already leads 12 to anything a single black pair can beat: accepting keeps a sure win or a tie
    assert p_win([SPIEL, "fehlerteufel"], {SPIEL: [6, 6], "fehlerteufel": [1, 1]})[SPIEL] == 1
    # behind 2 to 12: he forces, and wins when the re-roll shows 1 (1/36) or ties and he then wins
    forced = p_win([SPIEL, "fehlerteufel"], {SPIEL: [1, 1], "fehlerteufel": [6, 6]})[SPIEL]
    assert 0 < forced < Fraction(1, 36)


@pytest.mark.parametrize(
    "fighters, known, words",
    [
        ([OBER], {}, "two or more"),
        ([OBER, OBER], {}, "two or more"),
        ([OBER, "imp"], {}, "unknown rank"),
        ([OBER, SATAN], {OBER: [1, 2]}, "rolls 3 dice"),
        ([OBER, SATAN], {SATAN: [5, 1]}, "5 is not a face"),
        ([OBER, SPIEL], {SPIEL: [0, 7]}, "0 is not a face"),
        ([SPIEL, "fehlerteufel"], {OBER: [1, 2, 3]}, "not in this fight"),
        ([SPIEL, "fehlerteufel"], {"imp": [1, 2]}, "unknown rank"),
    ],
)
def test_impossible_input_is_a_readable_value_error(fighters, known, words):
    with pytest.raises(ValueError, match=words):
        p_win(fighters, known)


def test_a_six_devil_fight_is_fast_enough_for_a_phone():
    for cached in (odds._first_fight, odds._tie, odds._forced):
        cached.cache_clear()
    start = time.perf_counter()
    result = p_win(list(RANKS), {})
    assert time.perf_counter() - start < 3.0
    assert sum(result.values()) == 1


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_odds_are_probabilities_that_sum_to_one(data):
    fighters = data.draw(st.lists(st.sampled_from(RANKS), min_size=2, max_size=4, unique=True))
    known = {}
    for rank in fighters:
        if data.draw(st.booleans()):
            known[rank] = [data.draw(st.sampled_from(f)) for f in faces(rank)]
    result = p_win(fighters, known)
    assert sum(result.values()) == 1
    assert all(0 <= p <= 1 for p in result.values())
