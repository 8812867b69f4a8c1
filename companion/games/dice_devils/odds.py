"""Exact fight odds: each fighter's chance to win, by enumeration and exact geometric series, no sampling.

Model (rules 4.3 and E4):
* every fighter's first roll is unknown unless given in `known`; the Oberteufel always rolls, even when
  he is not in the fight, because his lowest die feeds the Satansbraten;
* the Spielteufel, once per fight, sees his opponents' first results and forces them to re-roll all
  their dice exactly when that raises his own chance to win (decided per outcome);
* a tie for the highest total goes to the Springteufel if he is in it, else the tied devils re-roll
  and compare again, forever: W(T) = (sum over outcomes not tying all of T) / (1 - P(all of T tie));
* when the Satansbraten re-rolls without the Oberteufel he re-rolls his grey dice and the Oberteufel's
  lowest die stays; when the Oberteufel re-rolls, his new lowest die counts.

Probabilities are kept as integer weights over a known denominator while enumerating (fast) and become
`Fraction`s only where a tie's series is solved. Results are memoised per fight.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from ..dice import FACES
from .fights import total
from .ranks import OBERTEUFEL, RANKS, SATANSBRATEN, SPIELTEUFEL, SPRINGTEUFEL, dice_of

__all__ = ["RANKS", "p_win"]

Dist = dict[int, int]  # total -> weight
Joint = tuple[tuple[int | None, int | None, int], ...]  # (Oberteufel's total, his lowest die, weight)


def _sums(kind: str) -> Dist:
    """Weights of the sum of two dice of `kind` (36 equally likely face pairs)."""
    return dict(Counter(a + b for a, b in itertools.product(FACES[kind], repeat=2)))


PAIR_D6: Dist = _sums("d6")
PAIR_GREY: Dist = _sums("grey")
OBER_ROLLS: Joint = tuple(
    (s, low, w)
    for (s, low), w in sorted(
        Counter((total(OBERTEUFEL, d), min(d)) for d in itertools.product(FACES["d6"], repeat=3)).items()
    )
)
OBER_SUMS: Joint = tuple(
    (s, None, w)
    for s, w in sorted(
        Counter(total(OBERTEUFEL, d) for d in itertools.product(FACES["d6"], repeat=3)).items()
    )
)
NO_OBER: Joint = ((None, None, 1),)


def p_win(fighters: list[str], known: dict[str, list[int]] | None = None) -> dict[str, Fraction]:
    """Each fighter's exact chance to win the fight, given the dice already seen (`known`, by rank).

    Raises ValueError with a readable sentence for an impossible fight or impossible dice.
    """
    known = dict(known or {})
    fighters = _check_fighters(fighters)
    _check_known(fighters, known)
    key = tuple(sorted((rank, tuple(values)) for rank, values in known.items()))
    return dict(_first_fight(tuple(fighters), key))


def _check_fighters(fighters: Iterable[str]) -> list[str]:
    fighters = list(fighters)
    for rank in fighters:
        if rank not in RANKS:
            raise ValueError(f"unknown rank {rank!r}; ranks: {', '.join(RANKS)}")
    if len(fighters) < 2 or len(set(fighters)) != len(fighters):
        raise ValueError("a fight needs two or more different ranks")
    return fighters


def _check_known(fighters: list[str], known: dict[str, list[int]]) -> None:
    for rank, values in known.items():
        if rank not in RANKS:
            raise ValueError(f"unknown rank {rank!r} in the known dice; ranks: {', '.join(RANKS)}")
        feeds = rank == OBERTEUFEL and SATANSBRATEN in fighters
        if rank not in fighters and not feeds:
            raise ValueError(f"the {rank} is not in this fight, so its dice do not count")
        dice = dice_of(rank)
        if not isinstance(values, list | tuple) or len(values) != len(dice):
            raise ValueError(f"the {rank} rolls {len(dice)} dice, got {values!r}")
        faces = FACES[dice[0].kind]
        for value in values:
            if isinstance(value, bool) or value not in faces:
                shown = ", ".join(str(f) for f in dict.fromkeys(faces))
                raise ValueError(f"{value!r} is not a face of the {rank}'s dice ({shown})")


def _unit(rank: str) -> tuple[tuple[str, Fraction], ...]:
    return ((rank, Fraction(1)),)


def _top_sets(dists: dict[str, Dist]) -> dict[frozenset, int]:
    """Weight of each set of fighters being exactly the ones on the highest total."""
    out: dict[frozenset, int] = {}
    for best in sorted({v for dist in dists.values() for v in dist}):
        partial: list[tuple[frozenset, int]] = [(frozenset(), 1)]
        for rank, dist in dists.items():
            at = dist.get(best, 0)
            below = sum(w for v, w in dist.items() if v < best)
            nxt = [(group | {rank}, w * at) for group, w in partial if at]
            nxt += [(group, w * below) for group, w in partial if below]
            partial = nxt
            if not partial:
                break
        for group, w in partial:
            if group:
                out[group] = out.get(group, 0) + w
    return out


def _roll(
    participants: frozenset, rolling: Iterable[str], fixed: dict[str, int], ober: Joint
) -> tuple[dict[tuple[frozenset, int | None], int], int]:
    """Weights of (top set, Oberteufel's lowest die) over one roll, and their denominator.

    `rolling` ranks roll fresh dice; `fixed` ranks keep a base value (the Satansbraten's: his grey dice
    only); `ober` lists the Oberteufel's possible (total, lowest die, weight).
    """
    rolling = [r for r in rolling if r != OBERTEUFEL]
    weights: dict[tuple[frozenset, int | None], int] = {}
    for ober_total, low, w_ober in ober:
        dists: dict[str, Dist] = {}
        for rank in participants:
            if rank == OBERTEUFEL:
                dists[rank] = {ober_total: 1}
            elif rank == SATANSBRATEN:
                base = PAIR_GREY if rank in rolling else {fixed[rank]: 1}
                dists[rank] = {g + low: w for g, w in base.items()}
            else:
                dists[rank] = PAIR_D6 if rank in rolling else {fixed[rank]: 1}
        for group, w in _top_sets(dists).items():
            key = (group, low)
            weights[key] = weights.get(key, 0) + w * w_ober
    denom = sum(w for _, _, w in ober) * 36 ** len(rolling)
    return weights, denom


def _low_key(group: frozenset, low: int | None) -> int | None:
    """The Oberteufel's lowest die matters to a later re-roll only for a Satansbraten without him."""
    return low if SATANSBRATEN in group and OBERTEUFEL not in group else None


def _settle(group: frozenset, low: int | None) -> dict[str, Fraction]:
    """Chances once `group` tops the fight: a sole winner, the Springteufel's tie, or a re-roll."""
    if len(group) == 1:
        return dict(_unit(next(iter(group))))
    if SPRINGTEUFEL in group:
        return dict(_unit(SPRINGTEUFEL))
    return dict(_tie(group, _low_key(group, low)))


def _ober_joint(participants: frozenset, rerolls: bool, low: int | None) -> Joint:
    if rerolls:
        return OBER_ROLLS if SATANSBRATEN in participants else OBER_SUMS
    return ((None, low, 1),) if SATANSBRATEN in participants else NO_OBER


def _combine(weights: dict[tuple[frozenset, int | None], int], denom: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for (group, low), w in weights.items():
        for rank, p in _settle(group, low).items():
            out[rank] = out.get(rank, Fraction(0)) + p * Fraction(w, denom)
    return out


@lru_cache(maxsize=4096)
def _tie(group: frozenset, low: int | None) -> tuple[tuple[str, Fraction], ...]:
    """Chances after the tied `group` re-rolls, repeating on further ties (the geometric series)."""
    ober = _ober_joint(group, OBERTEUFEL in group, low)
    weights, denom = _roll(group, group, {}, ober)
    again = sum(w for (g, _), w in weights.items() if g == group)
    rest = {key: w for key, w in weights.items() if key[0] != group}
    out = _combine(rest, denom - again)
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def _forced(fighters: frozenset, spiel_total: int, low: int | None) -> tuple[tuple[str, Fraction], ...]:
    """Chances after the Spielteufel (keeping `spiel_total`) forces all his opponents to re-roll."""
    opponents = fighters - {SPIELTEUFEL}
    ober = _ober_joint(fighters, OBERTEUFEL in fighters, low)
    weights, denom = _roll(fighters, opponents, {SPIELTEUFEL: spiel_total}, ober)
    return tuple(sorted(_combine(weights, denom).items()))


@lru_cache(maxsize=1024)
def _first_fight(fighters: tuple[str, ...], known: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple:
    """Chances from the first reveal on, the Spielteufel choosing per outcome; in `fighters` order."""
    seen = dict(known)
    group = frozenset(fighters)
    fixed = {r: (sum(v) if r == SATANSBRATEN else total(r, v)) for r, v in seen.items() if r != OBERTEUFEL}
    rolling = [r for r in fighters if r not in seen and r != SPIELTEUFEL]
    if OBERTEUFEL in seen:
        dice = seen[OBERTEUFEL]
        ober: Joint = ((total(OBERTEUFEL, dice), min(dice), 1),)
    else:
        ober = _ober_joint(group, OBERTEUFEL in group or SATANSBRATEN in group, None)
        if OBERTEUFEL not in group and SATANSBRATEN in group:
            ober = _lows_only(ober)
    if SPIELTEUFEL not in group:
        weights, denom = _roll(group, rolling, fixed, ober)
        out = _combine(weights, denom)
    else:
        out = _with_spielteufel(group, rolling, fixed, ober, SPIELTEUFEL in seen)
    return tuple((rank, out.get(rank, Fraction(0))) for rank in fighters)


def _lows_only(ober: Joint) -> Joint:
    """The Oberteufel outside the fight: only his lowest die matters."""
    lows = Counter()
    for _, low, w in ober:
        lows[low] += w
    return tuple((None, low, w) for low, w in sorted(lows.items()))


def _with_spielteufel(
    group: frozenset, rolling: list[str], fixed: dict[str, int], ober: Joint, spiel_known: bool
) -> dict[str, Fraction]:
    """First reveal with the Spielteufel: for each of his totals and each outcome, force or accept."""
    spiel_dist = {fixed[SPIELTEUFEL]: 1} if spiel_known else PAIR_D6
    spiel_denom = sum(spiel_dist.values())
    satan_alone = SATANSBRATEN in group and OBERTEUFEL not in group
    out: dict[str, Fraction] = {}
    for spiel_total, w_spiel in spiel_dist.items():
        weights, denom = _roll(group, rolling, {**fixed, SPIELTEUFEL: spiel_total}, ober)
        for (top, low), w in weights.items():
            accept = _settle(top, low)
            forced = dict(_forced(group, spiel_total, low if satan_alone else None))
            chosen = forced if forced.get(SPIELTEUFEL, 0) > accept.get(SPIELTEUFEL, 0) else accept
            share = Fraction(w * w_spiel, denom * spiel_denom)
            for rank, p in chosen.items():
                out[rank] = out.get(rank, Fraction(0)) + p * share
    return out
