"""Property tests of DOG's player-count variants (rules/dog.md 2.6): seeded random legal games of 2, 3, 5
and 6 players keep 4N marbles on their own holes, never show a seat another's hand, refuse what they do
not list, end, and replay from their log."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from companion.bench_dog import GAME, MORE_NAMES
from companion.games import replay
from tests.games.test_dog_properties import check_marbles, play_random_game

games = st.fixed_dictionaries({
    "hands": st.sampled_from(["entered", "laid"]),
    "canadian_seven": st.booleans(),
    "joker_ban": st.booleans(),
    "teams": st.sampled_from(["3x2", "2x3"]),
    "seed": st.integers(0, 2**32 - 1),
})


def check_secrets(state: dict, action: dict) -> None:
    """Each seat's view shows its own hand only, and no log entry tells another seat a hidden card."""
    for seat in range(len(state["players"])):
        view = GAME.view(state, seat)
        assert all(h is None for s, h in enumerate(view["hands"]) if s != seat)
        assert view["stock"] is None
        if action["type"] in ("deal", "give", "hand_over") and action["seat"] != seat:
            shown = GAME.redact(state, action, seat)
            assert "card" not in shown and "cards" not in shown


@pytest.mark.parametrize("players", [2, 3, 5, 6])
@settings(max_examples=2, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(case=games)
def test_random_games_of_two_three_five_and_six_keep_the_rules_and_end(players, case):
    options = {k: case[k] for k in ("hands", "canadian_seven", "joker_ban", "teams")}
    names = MORE_NAMES[:players]
    rng = random.Random(case["seed"])
    state = GAME.new_game(list(names), options)
    check_marbles(state)

    def check(_: dict, action: dict, after: dict, n: int) -> None:
        check_marbles(after)
        if n % 5 == 0:
            check_secrets(after, action)

    state, log = play_random_game(state, rng, check)
    teams = [tuple(t) for t in state["teams"]]
    assert tuple(state["winners"]) in teams or len(state["winners"]) > 1 == len(teams[0])
    assert replay(GAME, list(names), options, log) == state
    json.dumps(state)
