"""Property tests: seeded random legal play of whole games (2-6 players, with and without the Treehouse die)
keeps every invariant, replays from its log, and refuses any action it does not list, changing nothing."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import gamelog
from companion.bench_engine import NAMES, play_random_game, random_action
from companion.games import CHANCE, IllegalAction
from companion.games.dog_eat_dog import DogEatDog
from companion.games.dog_eat_dog.scoring import pool
from companion.games.dog_eat_dog.table import controller, seat_of

GAME = DogEatDog()
#: Each attack either ends in a stack or a capture (a lone pyramid fewer for good) or tips two pyramids;
#: random play with rare passes ends long before this.
MAX_ACTIONS = 4000

games = st.fixed_dictionaries({
    "players": st.integers(2, 6),
    "treehouse": st.booleans(),
    "stack_captor": st.sampled_from(["defender", "controller"]),
    "seed": st.integers(0, 2**32 - 1),
})


def check_invariants(state: dict) -> None:
    players = state["players"]
    pyramids = state["pyramids"]
    # pyramids are conserved: 3 of each size per colour, each exactly once on the table or set aside
    assert len(pyramids) == 9 * len(players)
    assert Counter((p["colour"], p["size"]) for p in pyramids.values()) == Counter(
        {(pl["colour"], size): 3 for pl in players for size in (1, 2, 3)})
    stacked = [pid for stack in state["stacks"] for pid in stack]
    assert len(stacked) == len(set(stacked)) and all(len(stack) >= 2 for stack in state["stacks"])
    for pid, p in pyramids.items():
        assert (p["status"] == "in_stack") == (pid in stacked)
        if p["status"] == "captured":
            assert p["captured_by"] != seat_of(state, p["colour"])  # nobody captures their own colour
        else:
            assert p["captured_by"] is None
    if not state["options"]["treehouse"]:  # only SWAP can put one colour twice in a stack
        for stack in state["stacks"]:
            assert len({pyramids[pid]["colour"] for pid in stack}) == len(stack)
    # the controller is the owner of the top piece, and the pools add up to every stacked or set-aside piece
    scored = []
    for seat in range(len(players)):
        keep, discarded = pool(state, seat)
        scored += keep + discarded
        for stack in state["stacks"]:
            top_is_mine = pyramids[stack[-1]]["colour"] == players[seat]["colour"]
            assert (controller(state, stack) == seat) == top_is_mine
    aside = [pid for pid, p in pyramids.items() if p["status"] == "captured"]
    assert sorted(scored) == sorted(stacked + aside)
    # whose move it is agrees with the phase
    if state["phase"] == "over":
        assert GAME.current_player(state) is None and state["roll"] is None
        assert GAME.legal_actions(state) == []
    elif state["roll"] is not None:
        assert GAME.current_player(state) == CHANCE and state["phase"] in ("first-roll", "rolling")
    else:
        seat = state["active"]
        assert GAME.current_player(state) == seat and state["phase"] in ("attack", "treehouse")
        for action in GAME.legal_actions(state):
            if action["type"] == "attack":  # never with someone else's piece, never on your own colour
                assert pyramids[action["attacker"]]["colour"] == players[seat]["colour"]
                assert pyramids[action["attacker"]]["status"] == "upright"
                stack = next((s for s in state["stacks"] if action["target"] in s), [action["target"]])
                assert stack[-1] == action["target"]
                assert all(pyramids[pid]["colour"] != players[seat]["colour"] for pid in stack)
    json.dumps(state)


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_games_keep_every_invariant_and_end(params):
    options = {"treehouse": params["treehouse"], "stack_captor": params["stack_captor"]}
    rng = random.Random(params["seed"])
    state = GAME.new_game(NAMES[:params["players"]], options)
    for _ in range(MAX_ACTIONS):
        check_invariants(state)
        if GAME.is_over(state):
            break
        state, events = GAME.apply(state, random_action(GAME, state, rng))
        assert all(isinstance(e["text"], str) and e["text"] for e in events)
    assert GAME.is_over(state), f"no end within {MAX_ACTIONS} actions"
    summary = GAME.summary(state)
    assert summary["over"] and summary["winners"]
    top = max(row["score"] for row in summary["players"])
    assert all(summary["players"][seat]["score"] == top for seat in summary["winners"])


@settings(max_examples=15, deadline=None)
@given(games)
def test_replaying_the_action_log_gives_the_same_state(params):
    options = {"treehouse": params["treehouse"], "stack_captor": params["stack_captor"]}
    final, actions = play_random_game(params["players"], options, params["seed"], MAX_ACTIONS)
    log = gamelog.GameLog("dog-eat-dog", NAMES[:params["players"]], options,
                          [(n + 2, a) for n, a in enumerate(actions)])
    _, replayed = gamelog.replay(gamelog.parse(log.dumps()), expected_game="dog-eat-dog")
    assert replayed == final


def _normal(action: dict) -> str:
    """An action's canonical form: a SWAP's pair in any order, a missing "treehouse" meaning false."""
    action = dict(action)
    if action.get("type") == "swap" and isinstance(action.get("stacks"), list):
        action["stacks"] = sorted(map(str, action["stacks"]))
    if action.get("type") == "attack":
        action.setdefault("treehouse", False)
    return json.dumps(action, sort_keys=True)


def junk_actions(state: dict):
    """Actions built from the state's own words, mostly illegal: wrong type, piece, phase or dice."""
    ids = st.sampled_from([*state["pyramids"], "nobody-L-1"])
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("attack"), "attacker": ids, "target": ids},
                              optional={"treehouse": st.one_of(st.booleans(), st.just("yes"))}),
        st.fixed_dictionaries({"type": st.just("roll"), "values": st.lists(
            st.one_of(st.integers(0, 7), st.sampled_from(["TIP", "HOP", "AIM", "WILD"]), st.booleans()),
            max_size=4)}),
        st.fixed_dictionaries({"type": st.just("swap"), "stacks": st.lists(st.one_of(ids, st.lists(ids)),
                                                                            max_size=3)}),
        st.fixed_dictionaries({"type": st.sampled_from(["dig", "aim"]), "pyramid": ids},
                              optional={"tip": st.booleans()}),
        st.fixed_dictionaries({"type": st.sampled_from(["pass", "skip", "jump", "ROLL"])}),
        st.just({"values": [1]}),
        st.just(["roll"]),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 300), st.data())
def test_any_action_is_applied_only_if_listed_and_illegal_ones_change_nothing(params, steps, data):
    options = {"treehouse": params["treehouse"], "stack_captor": params["stack_captor"]}
    rng = random.Random(params["seed"])
    state = GAME.new_game(NAMES[:params["players"]], options)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        state, _ = GAME.apply(state, random_action(GAME, state, rng))
    listed = {_normal(a) for a in GAME.legal_actions(state)}
    for _ in range(5):
        action = data.draw(junk_actions(state))
        before = copy.deepcopy(state)
        try:
            GAME.apply(state, action)
        except IllegalAction as err:
            assert str(err)
            assert state == before
            assert not isinstance(action, dict) or _normal(action) not in listed
        else:
            assert _normal(action) in listed
            assert state == before  # apply never mutates its input


def test_seeded_game_is_reproducible():
    first, log = play_random_game(4, {"treehouse": True}, seed=7)
    again, log_again = play_random_game(4, {"treehouse": True}, seed=7)
    assert first == again and log == log_again
