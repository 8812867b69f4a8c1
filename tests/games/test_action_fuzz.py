"""Random JSON thrown at every registered engine's `apply`, from random states real games reach: the only
answers allowed are a next state or a clear refusal (IllegalAction, GameError) that changes nothing."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.race  # noqa: F401  (registers the test games, so they are fuzzed too)
import tests.whisper  # noqa: F401
from companion import games
from companion.games import GameError
from tests.playthrough import play

WORDS = st.sampled_from(["bed", "grill", "sofa", "oberteufel", "red-L-1", "yellow-M-1", "a1", "h8", "N",
                         "AIM", "roll", "pass", "", "é", "\x00"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.integers(), WORDS, st.text(max_size=8),
                    st.sampled_from([0.0, 1.0, 6.0, 0.5, float("nan"), float("inf")]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(WORDS, st.text(max_size=6)), inner, max_size=4)),
    max_leaves=12)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def actions(draw, game, state):
    """Pure random JSON, a declared type with random fields, or a legal action with one field swapped."""
    shapes = game.shapes_of() or {"roll": {"values": None}}
    kind = draw(st.sampled_from(sorted(shapes)))
    how = draw(st.integers(0, 2))
    if how == 0:
        return draw(JSON)
    if how == 1:
        names = st.one_of(st.sampled_from(sorted(shapes[kind]) or ["x"]), WORDS)
        return {"type": kind, **draw(st.dictionaries(names, JSON, max_size=4))}
    request = game.roll_request(state)
    if request is not None:
        legal = {"type": "roll", "values": [draw(st.sampled_from(games.FACES[d.kind])) for d in request.dice]}
    else:
        listed = game.legal_actions(state)
        legal = draw(st.sampled_from(listed)) if listed else {"type": kind}
    field = draw(st.sampled_from(sorted(legal)))
    return {**legal, field: draw(JSON)}


def floats(value) -> set[str]:
    """Where floats are in a JSON value, as paths ("dice/0/1")."""
    found, todo = set(), [("", value)]
    while todo:
        path, item = todo.pop()
        if isinstance(item, float):
            found.add(path)
        elif isinstance(item, dict | list):
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            todo.extend((f"{path}/{key}", child) for key, child in pairs)
    return found


def engine_names() -> list[str]:
    return games.names()


@pytest.mark.parametrize("name", engine_names())
@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**16), steps=st.integers(0, 80))
def test_random_json_at_apply_is_applied_or_clearly_refused_and_never_changes_the_state(name, data, seed,
                                                                                        steps):
    game = games.get(name)
    players = data.draw(st.integers(game.min_players, min(game.max_players, 6)), label="players")
    state, _ = play(game, players, seed, steps=steps)
    action = data.draw(actions(game, state), label="action")
    before = copy.deepcopy(state)
    try:
        after, events = game.apply(state, action)
    except GameError as err:
        assert str(err) and len(str(err)) < 400, "a refusal is a sentence"
    else:
        assert json.loads(json.dumps(after)) == after, "the next state is plain JSON"
        assert not floats(after) - floats(before), "no float (6.0, 0.0) slipped into the state"
        assert all(isinstance(e, dict) for e in events)
    assert state == before
