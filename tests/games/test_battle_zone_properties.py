"""Battle Zone property tests: seeded random legal games keep the 45 pyramids, end (by a win or the offered
stall draw), replay from their log, and accept an action exactly when `legal_actions` lists it."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import gamelog
from companion.bench_battle_zone import play_random_game, random_action
from companion.games import CHANCE, IllegalAction
from companion.games.battle_zone import BattleZone
from companion.games.battle_zone.board import DIRECTIONS, SQUARES

G = BattleZone()
#: A random game offered the draw after `stall_turns` quiet turns takes it with 1 chance in 20 per step,
#: so it ends long before this.
MAX_ACTIONS = 20_000

options = st.fixed_dictionaries({
    "colours": st.sampled_from(["rainbow", "xeno"]),
    "range": st.sampled_from(["filled", "ring"]),
    "upgrade_standing": st.booleans(),
    "must_use_all_dice": st.booleans(),
    "stall_turns": st.integers(4, 30),
})


def check_invariants(state: dict) -> None:
    counts = Counter((p["colour"], p["size"]) for p in state["board"].values())
    counts.update((p["colour"], p["size"]) for pieces in state["exited"] for p in pieces)
    for colour, stock in state["supply"].items():
        for size in (1, 2, 3):
            counts[(colour, size)] += stock[size - 1]
    assert counts == Counter({(c, s): 3 for c in state["colours"] for s in (1, 2, 3)})  # 45, 3 of each
    for sq, piece in state["board"].items():
        assert sq in SQUARES and piece["size"] in (1, 2, 3) and piece["controller"] in (None, 0, 1)
    if G.is_over(state):
        assert G.current_player(state) is None and G.legal_actions(state) == []
        assert (state["winner"] is None) == state["draw"]
    elif state["roll"] is not None:
        assert G.current_player(state) == CHANCE and state["phase"] == "roll"
    else:
        assert G.current_player(state) == state["active"] and state["phase"] == "act"
        assert G.legal_actions(state), "a player to act always has something to do"
    json.dumps(state)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_45_pyramids_end_and_replay_from_their_log(opts, seed):
    state, log = play_random_game(seed, opts, max_actions=MAX_ACTIONS)
    assert G.is_over(state)
    replayed = G.new_game(["Alice", "Bob"], opts)
    for action in log:
        replayed, _ = G.apply(replayed, action)
        check_invariants(replayed)
    assert replayed == state
    text = gamelog.GameLog("battle-zone", ["Alice", "Bob"], opts, list(enumerate(log, 2))).dumps()
    _, from_file = gamelog.replay(gamelog.parse(text), expected_game="battle-zone")
    assert from_file == state


def _variants(state: dict, action: dict, rng: random.Random) -> list[dict]:
    """The action with one field changed at random: another die, square, colour or direction."""
    out = []
    for field, choices in (("die", [0, 1, 2]), ("square", SQUARES), ("colour", state["colours"]),
                           ("direction", list(DIRECTIONS))):
        if field in action:
            out.append(dict(action, **{field: rng.choice(choices)}))
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options, seed=st.integers(0, 2**32 - 1))
def test_an_action_is_accepted_exactly_when_listed_and_a_refusal_changes_nothing(opts, seed):
    rng = random.Random(seed)
    state = G.new_game(["Alice", "Bob"], opts)
    for _ in range(400):
        if G.is_over(state):
            break
        if state["roll"] is None:
            legal = G.legal_actions(state)
            picks = rng.sample(legal, min(4, len(legal)))
            for action in [a for pick in picks for a in _variants(state, pick, rng)]:
                before = copy.deepcopy(state)
                try:
                    G.apply(state, action)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert state == before
                assert accepted == (action in legal), action
        state, _ = G.apply(state, random_action(state, rng))
