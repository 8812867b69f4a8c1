"""Exact attack odds: hand-checked values, brute force over every die, and the engine's own seeded play."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from companion.games import FACES
from companion.games.dog_eat_dog.odds import (
    attacker_wins_duel,
    candidate_odds,
    max_distribution,
    p_attack_succeeds,
    p_succeeds_given_result,
    pending_odds,
)


def brute_force(attacker: int, defenders: list[int], treehouse: bool) -> Fraction:
    """Count every equally likely throw of every die involved (the Treehouse die included)."""
    d6 = attacker - 1 if treehouse else attacker
    faces = [FACES["d6"]] * d6 + ([FACES["treehouse"]] if treehouse else [])
    wins = total = 0
    for throw in itertools.product(*faces):
        face = throw[-1] if treehouse else None
        result = max(v for v in throw if isinstance(v, int))
        for defence in itertools.product(*([FACES["d6"]] * sum(defenders))):
            total += 1
            if face == "TIP":
                continue
            if face == "HOP":
                wins += 1
                continue
            dice = iter(defence)
            rolls = [max(next(dice) for _ in range(pips)) for pips in defenders]
            pairs = zip(rolls, defenders, strict=True)
            wins += all(attacker_wins_duel(result, attacker, r, pips) for r, pips in pairs)
    return Fraction(wins, total)


CASES = [(a, d, t) for a in (1, 2, 3) for d in ([1], [2], [3], [1, 1], [2, 1], [3, 2], [1, 2, 1], [3, 1])
         for t in ((False, True) if a > 1 else (False,)) if a + sum(d) <= 7]


@pytest.mark.parametrize(("attacker", "defenders", "treehouse"), CASES)
def test_odds_equal_brute_force_enumeration_of_every_die(attacker, defenders, treehouse):
    assert p_attack_succeeds(attacker, defenders, treehouse) == brute_force(attacker, defenders, treehouse)


@pytest.mark.parametrize(("attacker", "defenders", "treehouse", "exact"), [
    # L vs M: the large must roll strictly higher (a tie goes to the medium, fewer pips):
    # sum over the medium's best d of (2d-1)/36 * (1 - (d/6)^3) = 3667/7776, about 47.2 %
    (3, [2], False, Fraction(3667, 7776)),
    (1, [1], False, Fraction(5, 12)),  # strictly higher on one die each: 15/36
    (1, [3], False, Fraction(49, 144)),  # the small wins ties: sum over a of 1/6 (a/6)^3 = 441/1296
    (3, [1], False, Fraction(855, 1296)),  # 1 - 441/1296
    (2, [1], False, Fraction(125, 216)),  # 1 - sum (d/6)^2 / 6 = 1 - 91/216
    (2, [1], True, Fraction(1, 6) + Fraction(4, 6) * Fraction(5, 12)),  # HOP, or one d6 vs one d6
    (3, [2], True, Fraction(1, 6) + Fraction(4, 6) * Fraction(505, 1296)),  # HOP, or 2 d6 vs the medium
])
def test_hand_checked_values(attacker, defenders, treehouse, exact):
    assert p_attack_succeeds(attacker, defenders, treehouse) == exact


def test_large_on_medium_is_about_47_percent():
    assert math.isclose(float(p_attack_succeeds(3, [2])), 0.4716, abs_tol=1e-4)


def test_longer_stacks_are_never_easier():
    for attacker in (1, 2, 3):
        for stack in itertools.product((1, 2, 3), repeat=3):
            assert p_attack_succeeds(attacker, list(stack)) <= p_attack_succeeds(attacker, list(stack[:2]))


def test_max_distribution_sums_to_one_and_matches_counting():
    for dice in (1, 2, 3):
        dist = max_distribution(dice)
        assert sum(dist) == 1
        counts = [0] * 7
        for throw in itertools.product(range(1, 7), repeat=dice):
            counts[max(throw)] += 1
        assert list(dist) == [Fraction(c, 6**dice) for c in counts]


def test_odds_given_the_attack_result():
    # a large's 6 ties a 6 of each defender: it loses that tie to all three (equal pips, then fewer pips)
    assert p_succeeds_given_result(6, 3, [3, 2, 1]) == Fraction(125, 216) * Fraction(25, 36) * Fraction(5, 6)
    assert p_succeeds_given_result(1, 2, [2]) == 0  # a 1 can only tie, and equal pips go to the defender
    assert p_succeeds_given_result(1, 1, [2]) == Fraction(1, 36)  # the small wins a tie at 1
    assert p_succeeds_given_result(1, 1, [3, 2]) == Fraction(1, 216) * Fraction(1, 36)  # ties go to the small


@pytest.mark.parametrize(("args", "words"), [
    ((0, [1], False), "1, 2 or 3 pips"),
    ((3, [], False), "needs a defender"),
    ((3, [4], False), "a defender has 1, 2 or 3 pips"),
    ((1, [2], True), "a small pyramid cannot use the Treehouse die"),
])
def test_impossible_questions_raise_readable_errors(args, words):
    with pytest.raises(ValueError, match=words):
        p_attack_succeeds(*args)


def _simulate(ded, attacker, target, stacks, treehouse, trials, seed):
    """How often the engine itself, fed fair seeded dice, lets this attack succeed."""
    rng = random.Random(seed)
    start = ded.layout(ded.start(players=4, options={"treehouse": treehouse}), stacks=stacks)
    declared, _ = ded.play(start, {"type": "attack", "attacker": attacker, "target": target,
                                   "treehouse": treehouse})
    wins = 0
    for _ in range(trials):
        state = declared
        while state["roll"] is not None and state["roll"]["tag"] in ("attack", "defence"):
            values = [rng.choice(FACES[d["kind"]]) for d in state["roll"]["dice"]]
            state, _ = ded.game.apply(state, {"type": "roll", "values": values})
        wins += state["pyramids"][attacker]["status"] == "in_stack"
    return wins / trials


@pytest.mark.parametrize(("attacker", "target", "stacks", "treehouse", "pips"), [
    ("red-L-1", "yellow-M-1", [], False, (3, [2])),
    ("red-M-1", "yellow-L-1", [["blue-S-1", "green-M-1", "yellow-L-1"]], True, (2, [3, 2, 1])),
    ("red-S-1", "yellow-S-1", [["green-L-1", "yellow-S-1"]], False, (1, [1, 3])),
])
def test_odds_agree_with_a_seeded_simulation_of_the_engine(ded, attacker, target, stacks, treehouse, pips):
    trials = 3000
    exact = float(p_attack_succeeds(pips[0], pips[1], treehouse))
    seen = _simulate(ded, attacker, target, stacks, treehouse, trials, seed=2024)
    sigma = math.sqrt(exact * (1 - exact) / trials)
    assert abs(seen - exact) < 4.5 * sigma


def test_candidate_odds_cover_every_legal_attack(ded):
    start = ded.start(players=3, options={"treehouse": True})
    state = ded.layout(start, stacks=[["green-S-1", "yellow-L-1"]])
    rows = candidate_odds(state)
    legal = [a for a in ded.game.legal_actions(state) if a["type"] == "attack"]
    assert sorted((r["attacker"], r["target"], r["treehouse"]) for r in rows) == sorted(
        (a["attacker"], a["target"], a["treehouse"]) for a in legal)
    key = ("red-L-1", "yellow-L-1", False)
    row = next(r for r in rows if (r["attacker"], r["target"], r["treehouse"]) == key)
    exact = p_attack_succeeds(3, [3, 1])
    assert row["exact"] == str(exact) and row["p"] == float(exact)


def test_candidate_odds_are_empty_while_rolling(ded):
    state, _ = ded.attack(ded.start(), "red-L-1", "yellow-M-1")
    assert candidate_odds(state) == []


def test_pending_odds_follow_the_attack_under_way(ded):
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    assert pending_odds(state) is None
    state, _ = ded.attack(state, "red-M-1", "yellow-L-1")
    assert pending_odds(state)["exact"] == str(p_attack_succeeds(2, [3, 1]))
    state, _ = ded.play(state, {"type": "roll", "values": [5, 2]})
    assert pending_odds(state)["exact"] == str(p_succeeds_given_result(5, 2, [3, 1]))
    state, _ = ded.play(state, {"type": "roll", "values": [4, 1, 1]})
    assert pending_odds(state)["exact"] == "2/3"  # the small green, left, must roll below 5 (it wins ties)
