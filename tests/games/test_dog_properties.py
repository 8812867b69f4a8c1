"""Property tests: seeded random legal DOG games keep 16 marbles, never pass or remove a fresh start marble,
end, refuse what they do not list (changing nothing) and replay from their log."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from companion.bench_dog import GAME, NAMES, random_action
from companion.games import IllegalAction, replay

MAX_ACTIONS = 20_000

games = st.fixed_dictionaries({
    "hands": st.sampled_from(["entered", "laid"]),
    "canadian_seven": st.booleans(),
    "joker_ban": st.booleans(),
    "seed": st.integers(0, 2**32 - 1),
})


def check_marbles(state: dict) -> None:
    """4N marbles for N seats, 4 a colour, one a hole, each on the track (16N fields), in the kennel or in
    its own colour's finish."""
    seats = len(state["players"])
    track = 16 * seats
    assert len(state["marbles"]) == seats
    seen = []
    for colour, codes in enumerate(state["marbles"]):
        assert len(codes) == 4
        for code in codes:
            assert code == -1 or 0 <= code < track or track + 4 * colour <= code < track + 4 * colour + 4
            if code != -1:
                seen.append(code)
        assert not state["fresh"][colour] or 16 * colour in codes
    assert len(seen) == len(set(seen))
    if state["hands"][0] is not None and state["phase"] == "play":
        assert state["cards_left"] == [len(h) for h in state["hands"]]


def _track_path(start: int, to: int, colour: int, backward: bool) -> list[int]:
    """Track fields a marble passes or lands on from `start` to `to` (to its own start when `to` is in
    its finish)."""
    if backward:
        return [(start - s) % 64 for s in range(1, 5)]
    end = 16 * colour if to >= 64 else to
    return [(start + s) % 64 for s in range(1, (end - start) % 64 + 1)]


def check_fresh_respected(before: dict, action: dict, after: dict) -> None:
    """Nobody passes or lands on a fresh start marble; it leaves its start only by its own move."""
    fresh = {16 * c for c in range(4) if before["fresh"][c]}
    moves = []
    if action["type"] == "move":
        moves = [(action["marble"], action["to"], action["card"] in ("4", "Joker") and
                  (action["marble"] - action["to"]) % 64 == 4 and action["to"] < 64)]
    elif action["type"] == "seven":
        moves = [(p["marble"], p["to"], False) for p in action["parts"]]
    elif action["type"] == "part":
        moves = [(action["marble"], action["to"], False)]
    colour_at = {code: c for c in range(4) for code in before["marbles"][c] if code >= 0}
    moved_from_start = set()
    for marble, to, backward in moves:
        colour = colour_at.pop(marble)
        colour_at[to] = colour
        if marble in fresh:
            fresh.discard(marble)
            moved_from_start.add(marble)
        if marble < 64:
            assert not fresh & set(_track_path(marble, to, colour, backward)), (before["marbles"], action)
    for c in range(4):
        if before["fresh"][c] and not after["fresh"][c]:
            assert 16 * c in moved_from_start, (before["marbles"], action)


def _twisted(action: dict, rng: random.Random) -> dict:
    """A nearby action that may well be illegal: another hole or seat, another card, a missing field."""
    out = copy.deepcopy(action)
    key = rng.choice(sorted(k for k in out if k != "type") or ["type"])
    value = out[key]
    if isinstance(value, int):
        out[key] = value + rng.choice([-1, 1, 5, 17])
    elif key == "card":
        out[key] = rng.choice(["A", "7", "J", "Joker", "4", "K", "5", "2"])
    else:
        del out[key]
    return out


def play_random_game(state: dict, rng: random.Random, check) -> tuple[dict, list[dict]]:
    """Random legal actions to the end: every 7th, a twisted one is refused first and changes nothing;
    every action's events have texts; `check(before, action, after, n)` after each. The end and the log."""
    log: list[dict] = []
    while not GAME.is_over(state):
        assert len(log) < MAX_ACTIONS, "the game did not end"
        action = random_action(state, rng)
        if len(log) % 7 == 0 and state["phase"] != "deal":
            twisted = _twisted(action, rng)
            if twisted not in GAME.legal_actions(state):
                frozen = json.dumps(state, sort_keys=True)
                with pytest.raises(IllegalAction):
                    GAME.apply(state, twisted)
                assert json.dumps(state, sort_keys=True) == frozen, f"refused {twisted} changed the state"
        after, events = GAME.apply(state, action)
        assert all(isinstance(e["text"], str) and e["text"] for e in events)
        check(state, action, after, len(log))
        state = after
        log.append(action)
    return state, log


@settings(max_examples=8, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(games)
def test_random_games_keep_the_rules_and_end(case):
    options = {k: case[k] for k in ("hands", "canadian_seven", "joker_ban")}
    rng = random.Random(case["seed"])
    state = GAME.new_game(list(NAMES), options)

    def check(before: dict, action: dict, after: dict, _: int) -> None:
        check_marbles(after)
        check_fresh_respected(before, action, after)

    state, log = play_random_game(state, rng, check)
    assert len(state["winners"]) == 2 and state["winners"][1] == state["winners"][0] + 2
    assert replay(GAME, list(NAMES), options, log) == state
    json.dumps(state)
