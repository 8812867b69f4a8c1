"""Each action's shape is checked once, in `Game.apply`, with exact JSON types (companion/games/shapes.py)."""

from __future__ import annotations

import copy
import random

import pytest

import tests.race  # noqa: F401  (registers the "race" game, which declares its shapes too)
from companion import games
from companion.games import IllegalAction
from companion.games.dice_devils import DiceDevils
from companion.games.dog_eat_dog import DogEatDog
from companion.games.shapes import Flag, ListOf, OneOf, Opt, Seat, Whole, action_problem
from tests.playthrough import NAMES, first_state, random_action

DD = DiceDevils()
DED = DogEatDog()
STATE = {"players": ["Ann", "Ben", "Cid"]}


def refused(game, state, action) -> str:
    """The refusal's words; the state given is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert state == before
    return str(err.value)


def decision(kind: str):
    return first_state(DD, 6, lambda s: bool(s["decision"]) and s["decision"]["kind"] == kind)[0]


def test_every_registered_engine_declares_shapes_that_fit_every_action_it_lists():
    for name in games.names():
        game = games.get(name)
        assert game.action_shapes, f"{name} declares no action_shapes"
        for seed in range(3):
            rnd = random.Random(seed)
            players = min(game.min_players + seed % 2, game.max_players)
            state = game.new_game(list(NAMES[:players]))
            for _ in range(60):
                if game.is_over(state):
                    break
                if game.roll_request(state) is None:
                    for action in game.legal_actions(state):
                        assert action_problem(action, game.shapes_of(), game.title, state) is None, action
                state, _ = game.apply(state, random_action(game, state, rnd))


@pytest.mark.parametrize("seat", [0.0, 1.0, True, False, "0", [0], None])
def test_a_seat_is_an_int_never_a_float_a_bool_or_text(seat):
    state = decision("swap")
    loser = state["decision"]["losers"][0]
    assert {"type": "swap", "with": loser} in DD.legal_actions(state)
    words = refused(DD, state, {"type": "swap", "with": seat})
    assert words.startswith('swap "with": a seat is a whole number from 0 to 5')


@pytest.mark.parametrize("kind", ["steal", "exchange"])
def test_steal_and_exchange_from_a_float_seat_are_refused(kind):
    state = decision(kind)
    legal = next(a for a in DD.legal_actions(state) if a["type"] == kind)
    words = refused(DD, state, {**legal, "from": float(legal["from"])})
    assert f'{kind} "from": a seat is a whole number' in words


def test_dice_values_are_whole_numbers_never_floats_or_bools():
    state = DED.new_game(["Ann", "Ben"])
    for value, shown in ((6.0, "6.0"), (True, "true"), ([6], "a list")):
        words = refused(DED, state, {"type": "roll", "values": [value, 1]})
        assert f'roll "values": entry 1: a die shows a whole number or a face\'s name, not {shown}' == words
    assert "7 is not a face of the d6 die" in refused(DED, state, {"type": "roll", "values": [7, 1]})
    fight = first_state(DD, 3, lambda s: bool(s["roll"]))[0]
    count = len(fight["roll"]["dice"])
    assert "not 6.0" in refused(DD, fight, {"type": "roll", "values": [6.0] * count})
    after, _ = DED.apply(state, {"type": "roll", "values": [6, 1]})
    assert all(type(v) is int for v in after["recent"][0]["values"])


@pytest.mark.parametrize("items, words", [
    ([{}, "bed"], 'reveal "items": entry 1: an item is named by its text id, not an object'),
    ([["bed"], "grill"], 'reveal "items": entry 1: an item is named by its text id, not a list'),
    (["bed", "sofa"], "entry 2: unknown item 'sofa'; items: bed, heater"),
    ("bed", 'reveal "items": a list is needed'),
])
def test_items_turned_face_up_are_a_list_of_known_names(items, words):
    state = first_state(DD, 3, lambda s: bool(s["draw"]) and s["draw"]["kind"] == "items")[0]
    assert words in refused(DD, state, {"type": "reveal", "items": items})


@pytest.mark.parametrize("item", [[], ["grill"], {}, 3, None, "sofa"])
def test_a_blind_pick_names_one_known_item(item):
    state = first_state(DD, 6, lambda s: bool(s["draw"]) and s["draw"]["kind"] == "blind_pick")[0]
    assert refused(DD, state, {"type": "pick", "item": item}).startswith('pick "item": ')


@pytest.mark.parametrize("action, words", [
    ({"type": "pass", "why": "tired"}, "pass has no field 'why' (it takes no other field)"),
    ({"type": "attack", "attacker": "red-L-1"}, 'attack needs "target"'),
    ({"type": "attack", "attacker": "red-L-1", "target": "yellow-M-1", "treehouse": 1},
     'attack "treehouse": true or false is needed, not 1'),
    ({"type": "aim", "pyramid": "red-L-1", "tip": "yes"}, 'aim "tip": true or false is needed'),
    ({"type": "swap", "stacks": ["red-L-1"]}, 'swap "stacks": a list of 2 is needed, not 1'),
    ({"type": "jump"}, "unknown action 'jump'; Dog Eat Dog knows roll, attack, pass"),
    ({"type": ["attack"]}, 'an action is a JSON object with a "type"'),
])
def test_unknown_missing_and_mistyped_fields_are_refused_before_the_rules(ded, action, words):
    assert words in refused(DED, ded.start(), action)


def test_shapes_say_what_is_wrong_in_words():
    assert Whole(1, 6).problem(7, STATE) == "7 is out of range: a whole number from 1 to 6 is needed"
    assert Whole(0).problem(2.5, STATE) == "a whole number is needed, not 2.5"
    assert Seat().problem(3, STATE) == "there is no seat 3: seats are 0 to 2"
    assert Seat().problem(2, STATE) is None
    assert Flag().problem(0, STATE) == "true or false is needed, not 0"
    assert OneOf(lambda s: s["players"], "player").problem("Zed", STATE) == "there is no player called 'Zed'"
    assert ListOf(Whole(), 1, 2).problem([], STATE) == "a list of 1 to 2 is needed, not 0"
    assert Opt(Flag()).problem(True, STATE) is None
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert ListOf(Whole()).problem([deep], STATE) == "entry 1: a whole number is needed, not a list"
    assert len(Whole().problem("x" * 10_000, STATE)) < 100
