"""Exact odds for what a player is about to do at a live table, for the phone page.

A thin bridge from a game state and a question ("this attacker on that target?") to the engines'
exact odds functions, so the page shows the same figures as `companion odds`.
"""

from __future__ import annotations

from typing import Any


def odds(game: str, state: dict[str, Any], question: dict[str, str]) -> dict[str, Any]:
    """The odds the page asks for; raises ValueError with a readable message for a bad question."""
    if game == "dog-eat-dog":
        return _dog_eat_dog(state, question)
    if game == "dice-devils":
        return _dice_devils(question)
    raise ValueError(f"no odds for {game}")


def _dog_eat_dog(state: dict[str, Any], question: dict[str, str]) -> dict[str, Any]:
    from companion.games.dog_eat_dog.odds import p_attack_succeeds

    pyramids = state["pyramids"]
    attacker, target = question.get("attacker"), question.get("target")
    if attacker not in pyramids or target not in pyramids:
        raise ValueError("name an attacker and a target by their ids")
    stack = next((s for s in state["stacks"] if target in s), None)
    defenders = [pyramids[p]["size"] for p in reversed(stack)] if stack else [pyramids[target]["size"]]
    treehouse = question.get("treehouse") in ("1", "true", "yes")
    size = pyramids[attacker]["size"]
    if treehouse and size == 1:
        raise ValueError("a small pyramid cannot use the Treehouse die")
    p = p_attack_succeeds(size, defenders, treehouse=treehouse)
    return {"p_attack_succeeds": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def _dice_devils(question: dict[str, str]) -> dict[str, Any]:
    from companion.games.dice_devils.odds import RANKS, p_win

    fighters = [f for f in question.get("fighters", "").split(",") if f]
    if len(fighters) < 2 or any(f not in RANKS for f in fighters):
        raise ValueError("name two or more fighters by rank")
    known: dict[str, list[int]] = {}
    for rank in RANKS:
        if question.get(rank):
            try:
                known[rank] = [int(v) for v in question[rank].split(",")]
            except ValueError:
                raise ValueError(f"{rank}: dice are whole numbers") from None
    return {"p_win": {rank: float(p) for rank, p in p_win(fighters, known).items()}}
