"""End-of-game scoring (rules 1.8): each player's pool arranged into trees, Volcano-style.

A pool is every pyramid in the stacks a player controls plus every pyramid set aside in front of them,
without their own colour. A tree is 1 small + 1 medium + 1 large: 7 points in one colour, 5 mixed; every
other pyramid scores 1. The best arrangement is closed-form: T = min(S, M, L) trees, as many of them
monochrome as each colour allows, so score = 7*mono + 5*(T - mono) + (N - 3*T).
"""

from __future__ import annotations

from collections import defaultdict

from .pieces import CAPTURED, SIZES
from .table import controller

State = dict

MONO_POINTS, MIXED_POINTS, LOOSE_POINTS = 7, 5, 1


def pool(state: State, seat: int) -> tuple[list[str], list[str]]:
    """(scoring pyramids, own-colour pyramids discarded) for a seat, in a stable order."""
    held = [pid for stack in state["stacks"] if controller(state, stack) == seat for pid in stack]
    held += [pid for pid, p in state["pyramids"].items()
             if p["status"] == CAPTURED and p["captured_by"] == seat]
    colour = state["players"][seat]["colour"]
    keep = [pid for pid in held if state["pyramids"][pid]["colour"] != colour]
    return keep, [pid for pid in held if state["pyramids"][pid]["colour"] == colour]


def best_score(counts: dict[str, dict[int, int]]) -> int:
    """The closed formula for counts[colour][size] of a pool (size in pips 1..3)."""
    totals = [sum(c.get(size, 0) for c in counts.values()) for size in SIZES]
    trees = min(totals)
    mono = sum(min(c.get(size, 0) for size in SIZES) for c in counts.values())
    return MONO_POINTS * mono + MIXED_POINTS * (trees - mono) + LOOSE_POINTS * (sum(totals) - 3 * trees)


def arrange(state: State, ids: list[str]) -> dict:
    """One best arrangement of `ids`: trees (small, medium, large ids), loose pyramids, score."""
    by_colour: dict[str, dict[int, list[str]]] = defaultdict(lambda: {size: [] for size in SIZES})
    for pid in ids:
        p = state["pyramids"][pid]
        by_colour[p["colour"]][p["size"]].append(pid)
    trees = []
    leftover: dict[int, list[str]] = {size: [] for size in SIZES}
    for colour, sizes in by_colour.items():
        mono = min(len(sizes[size]) for size in SIZES)
        for i in range(mono):
            trees.append({"kind": "mono", "colour": colour, "pyramids": [sizes[s][i] for s in SIZES],
                          "points": MONO_POINTS})
        for size in SIZES:
            leftover[size] += sizes[size][mono:]
    # Once every colour's monochrome trees are out, no colour has all three sizes left: the rest are mixed.
    for tree in zip(*(leftover[size] for size in SIZES), strict=False):
        trees.append({"kind": "mixed", "colour": None, "pyramids": list(tree), "points": MIXED_POINTS})
    in_trees = {pid for tree in trees for pid in tree["pyramids"]}
    loose = [pid for pid in ids if pid not in in_trees]
    score = sum(tree["points"] for tree in trees) + LOOSE_POINTS * len(loose)
    return {"trees": trees, "loose": loose, "score": score}


def counts_of(state: State, ids: list[str]) -> dict[str, dict[int, int]]:
    counts: dict[str, dict[int, int]] = defaultdict(lambda: dict.fromkeys(SIZES, 0))
    for pid in ids:
        p = state["pyramids"][pid]
        counts[p["colour"]][p["size"]] += 1
    return dict(counts)


def standings(state: State) -> list[dict]:
    """Per seat: name, colour, score, trees, loose pyramids, discarded own pyramids, captured pips."""
    rows = []
    for seat, player in enumerate(state["players"]):
        keep, discarded = pool(state, seat)
        arrangement = arrange(state, keep)
        rows.append({
            "seat": seat, "name": player["name"], "colour": player["colour"], "score": arrangement["score"],
            "trees": arrangement["trees"], "loose": arrangement["loose"], "discarded": discarded,
            "captured_pips": sum(state["pyramids"][pid]["size"] for pid in keep),
        })
    return rows


def winners(rows: list[dict], tiebreak: str) -> list[int]:
    """The seats with the top score (a shared win, ruling A12); "captured-pips" then keeps the most pips."""
    top = max(row["score"] for row in rows)
    best = [row for row in rows if row["score"] == top]
    if tiebreak == "captured-pips":
        most = max(row["captured_pips"] for row in best)
        best = [row for row in best if row["captured_pips"] == most]
    return [row["seat"] for row in best]


def summary(state: State) -> dict:
    """Scores and tree arrangements for every player; winners once the game is over (leaders before)."""
    rows = standings(state)
    top = winners(rows, state["options"]["tiebreak"])
    over = state["phase"] == "over"
    return {
        "over": over,
        "players": rows,
        "winners": top if over else [],
        "winner_names": [rows[s]["name"] for s in top] if over else [],
        "leaders": top,
    }
