"""Property tests: seeded random legal games for 3 to 6 players keep every invariant and replay exactly."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import gamelog
from companion.games import CHANCE, FACES, IllegalAction
from companion.games.dice_devils import DiceDevils
from companion.games.dice_devils.items import TOTAL_TILES

G = DiceDevils()
MAX_ACTIONS = 3000  # 56 items, at least one taken per round: a game is far shorter unless ties never end
ILLEGAL = [
    {"type": "claim", "item": 99},
    {"type": "roll", "values": [7]},
    {"type": "swap", "with": 42},
    {"type": "steal", "from": 0, "item": "grill"},
    {"type": "reveal", "items": ["sofa"]},
    {"type": "draw_ranks", "ranks": []},
    {"type": "pick", "item": "unicorn"},
    {"type": "dance"},
    ["not", "an", "object"],
]


def choose(state, rnd: random.Random) -> dict:
    """A legal action picked outside the engine: dice by their faces, anything else from legal_actions."""
    request = G.roll_request(state)
    if request is not None:
        values = [rnd.choice(FACES[d.kind]) for d in request.dice]
        if len(request.dice) <= 3:
            assert {"type": "roll", "values": values} in G.legal_actions(state)
        return {"type": "roll", "values": values}
    return rnd.choice(G.legal_actions(state))


def items_in_play(state) -> int:
    pending = sum(1 for f in state["fights"] if f["winner"] is None)
    held = sum(len(c) for c in state["collections"])
    return sum(state["supply"].values()) + len(state["display"]) + held + pending


def check_invariants(state) -> None:
    assert items_in_play(state) == TOTAL_TILES
    assert all(n >= 0 for n in state["supply"].values())
    if state["phase"] != "draw_ranks":
        assert sorted(state["ranks"]) == sorted(state["devils"])
        assert sorted(state["next_ranks"]) == sorted(state["devils"])
    assert (G.current_player(state) == CHANCE) == bool(state["roll"] or state["draw"]) or G.is_over(state)
    json.dumps(state)
    hidden = not state["options"]["open_collections"]
    for player in [None, *range(len(state["players"]))]:
        view = G.view(state, player)
        json.dumps(view)
        for seat, collection in enumerate(view["collections"]):
            if seat == player or not hidden:
                assert collection == state["collections"][seat]
            else:
                assert collection is None
        if hidden:
            assert view["supply"] is None


def play(seed: int, players: int, options: dict) -> tuple[dict, list[dict]]:
    rnd = random.Random(seed)
    state = G.new_game([f"P{i}" for i in range(players)], options)
    actions = []
    while not G.is_over(state):
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        before = copy.deepcopy(state)
        bad = rnd.choice(ILLEGAL)
        if G.roll_request(state) is not None or bad not in G.legal_actions(state):
            with pytest.raises(IllegalAction):
                G.apply(state, bad)
            assert state == before
        action = choose(state, rnd)
        nxt, events = G.apply(state, action)
        assert state == before, "apply changed its input"
        assert all(isinstance(e["text"], str) for e in events)
        state = nxt
        actions.append(action)
        check_invariants(state)
    return state, actions


def replayed(players: int, options: dict, actions: list[dict]) -> dict:
    header = {"game": "dice-devils", "players": [f"P{i}" for i in range(players)], "options": options}
    text = "\n".join(json.dumps(obj) for obj in [header, *actions])
    _, state = gamelog.replay(gamelog.parse(text), expected_game="dice-devils")
    return state


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_invariants_end_and_replay(players, seed):
    state, actions = play(seed, players, {})
    summary = G.summary(state)
    assert summary["over"] and len(summary["winners"]) == 1
    assert max(len(c) for c in state["collections"]) >= 10 or not state["display"]
    assert replayed(players, {}, actions) == state


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    more_fights=st.booleans(),
    new_each_round=st.booleans(),
    open_collections=st.booleans(),
)
def test_random_games_with_every_option(seed, players, more_fights, new_each_round, open_collections):
    options = {"more_fights": more_fights, "reveal_n_new_each_round": new_each_round,
               "open_collections": open_collections}
    state, actions = play(seed, players, options)
    assert replayed(players, options, actions) == state


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), devils=st.sampled_from([
    ["oberteufel", "springteufel", "satansbraten"],
    ["spielteufel", "fehlerteufel", "putzteufel", "springteufel"],
    ["oberteufel", "spielteufel", "putzteufel", "springteufel", "satansbraten"],
]))
def test_random_games_with_a_variant_selection(seed, devils):
    state, actions = play(seed, len(devils), {"devils": devils})
    assert sorted(state["ranks"]) == sorted(devils)
    assert replayed(len(devils), {"devils": devils}, actions) == state


def test_apply_never_mutates_its_input():
    rnd = random.Random(7)
    state = G.new_game(["A", "B", "C", "D"])
    for _ in range(60):
        frozen = json.dumps(state, sort_keys=True)
        nxt, _ = G.apply(state, choose(state, rnd))
        assert json.dumps(state, sort_keys=True) == frozen
        state = nxt
