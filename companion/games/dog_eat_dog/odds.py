"""Exact odds of a Dog Eat Dog attack, by convolution over the distribution of the highest die.

Each side's result is its single highest d6; on a tie the pyramid with fewer pips wins, and with equal
pips the defender wins. Against a stack the attacker rolls once and every defender, top down, rolls its
own dice against that one result. With the Treehouse die the attacker swaps one d6 for it: TIP (1/6)
fails, HOP (1/6) succeeds, any other face (4/6) leaves the attack to the remaining d6; the tie rule
still compares the pyramids' pips, not the number of dice.

Queries are cached: the phone asks the same few questions again and again. `candidate_odds` and
`pending_odds` answer for a game state (every attack on offer; the attack under way).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from .table import attackers, stack_of, targets

#: P(highest of k d6 is at most v) = (v/6)^k, for k = 1..3 and v = 0..6.
_AT_MOST = {k: tuple(Fraction(v**k, 6**k) for v in range(7)) for k in (1, 2, 3)}
#: P(highest of k d6 is exactly v), v = 1..6 (index 0 unused, zero).
_EXACTLY = {
    k: (Fraction(0),) + tuple(_AT_MOST[k][v] - _AT_MOST[k][v - 1] for v in range(1, 7)) for k in (1, 2, 3)
}

_SIXTH = Fraction(1, 6)


def max_distribution(dice: int) -> tuple[Fraction, ...]:
    """P(highest of `dice` d6 = v) for v = 0..6 (v = 0 has probability 0)."""
    return _EXACTLY[dice]


def attacker_wins_duel(attack: int, attacker_pips: int, defence: int, defender_pips: int) -> bool:
    """One duel: the higher result wins; a tie goes to the fewer pips, then to the defender."""
    return attack > defence or (attack == defence and attacker_pips < defender_pips)


def p_beats(attack: int, attacker_pips: int, defender_pips: int) -> Fraction:
    """P(an attack result of `attack` beats one defender that rolls its pips' worth of d6)."""
    below = _AT_MOST[defender_pips][attack - 1]
    return below + _EXACTLY[defender_pips][attack] if attacker_pips < defender_pips else below


def p_succeeds_given_result(attack: int, attacker_pips: int, defenders_pips: Sequence[int]) -> Fraction:
    """P(the attack succeeds) once the attacker's result is known: it must beat every defender."""
    p = Fraction(1)
    for pips in defenders_pips:
        p *= p_beats(attack, attacker_pips, pips)
    return p


def _check(attacker_pips: int, defenders: tuple[int, ...], treehouse: bool) -> None:
    if attacker_pips not in (1, 2, 3):
        raise ValueError(f"an attacker has 1, 2 or 3 pips, not {attacker_pips!r}")
    if not defenders:
        raise ValueError("an attack needs a defender: one pyramid or a stack")
    for pips in defenders:
        if pips not in (1, 2, 3):
            raise ValueError(f"a defender has 1, 2 or 3 pips, not {pips!r}")
    if treehouse and attacker_pips == 1:
        raise ValueError("a small pyramid cannot use the Treehouse die: it must still roll one d6")


@lru_cache(maxsize=4096)
def _p_attack(attacker_pips: int, defenders: tuple[int, ...], treehouse: bool) -> Fraction:
    dice = attacker_pips - 1 if treehouse else attacker_pips
    rolled = sum(
        (_EXACTLY[dice][a] * p_succeeds_given_result(a, attacker_pips, defenders) for a in range(1, 7)),
        Fraction(0),
    )
    if treehouse:
        return _SIXTH + 4 * _SIXTH * rolled  # HOP always wins, TIP always loses, other faces roll
    return rolled


def p_attack_succeeds(attacker_pips: int, defenders_pips: list[int], treehouse: bool = False) -> Fraction:
    """P(the attack succeeds): `attacker_pips` 1..3 against one pyramid or a stack (pips listed top first)."""
    defenders = tuple(defenders_pips)
    _check(attacker_pips, defenders, treehouse)
    return _p_attack(attacker_pips, defenders, bool(treehouse))


def _as_json(p: Fraction) -> dict:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def candidate_odds(state: dict) -> list[dict]:
    """For the phone: every attack the player to move may declare now, with its chance of success."""
    if state["phase"] not in ("attack", "treehouse") or state["roll"] or (
            state["phase"] == "treehouse" and state["follow_up"] != "WILD"):
        return []
    pyramids, seat = state["pyramids"], state["active"]
    rows = []
    for target in targets(state, seat):
        stack = stack_of(state, target)
        defenders = [pyramids[pid]["size"] for pid in reversed(stack or [target])]
        for attacker in attackers(state, seat):
            pips = pyramids[attacker]["size"]
            for treehouse in (False, True) if state["options"]["treehouse"] and pips > 1 else (False,):
                p = p_attack_succeeds(pips, defenders, treehouse)
                rows.append({"attacker": attacker, "target": target, "treehouse": treehouse} | _as_json(p))
    return rows


def pending_odds(state: dict) -> dict | None:
    """For the phone: the attack under way's chance of success now (None when no attack is under way).

    Before the attacker's roll it is the full chance; once the attack result is known, it is the chance
    that this result beats the defenders still to roll."""
    attack = state.get("attack")
    if not attack:
        return None
    pyramids = state["pyramids"]
    pips = pyramids[attack["attacker"]]["size"]
    if attack["result"] is None:
        defenders = [pyramids[pid]["size"] for pid in attack["defenders"]]
        p = p_attack_succeeds(pips, defenders, attack["treehouse"])
    else:
        left = [pyramids[pid]["size"] for pid in attack["defenders"][attack["beaten"]:]]
        p = p_succeeds_given_result(attack["result"], pips, left)
    return {"attacker": attack["attacker"], "target": attack["target"]} | _as_json(p)
