"""Dog Eat Dog setup, first-player roll, turn order, cleanup and the engine contract (rules 1.1-1.4)."""

from __future__ import annotations

import copy
import json

import pytest

from companion.games import CHANCE, BadOptions, IllegalAction, get
from companion.games.dog_eat_dog import DogEatDog
from companion.games.dog_eat_dog.pieces import STANDARD_COLOURS


def test_registry_loads_the_engine():
    assert isinstance(get("dog-eat-dog"), DogEatDog)


def test_new_game_gives_each_player_nine_upright_pyramids_with_readable_ids(ded):
    state = ded.game.new_game(["Alice", "Bob"])
    assert len(state["pyramids"]) == 18
    assert state["pyramids"]["red-L-1"] == {
        "colour": "red", "size": 3, "status": "upright", "captured_by": None}
    assert {pid for pid in state["pyramids"] if pid.startswith("yellow-S-")} == {
        "yellow-S-1", "yellow-S-2", "yellow-S-3"}
    assert state["stacks"] == [] and state["phase"] == "first-roll"
    json.dumps(state)  # plain JSON data


def test_default_colours_are_rainbow_then_xeno(ded):
    state = ded.game.new_game([f"P{i}" for i in range(10)])
    assert [p["colour"] for p in state["players"]] == [
        "red", "yellow", "green", "blue", "black", "purple", "orange", "clear", "cyan", "white"]
    assert len(state["pyramids"]) == 90


def test_colours_option_chooses_each_seats_colour(ded):
    state = ded.game.new_game(["Alice", "Bob"], {"colours": ["cyan", "black"]})
    assert [p["colour"] for p in state["players"]] == ["cyan", "black"]
    assert "cyan-M-3" in state["pyramids"] and "red-M-3" not in state["pyramids"]


@pytest.mark.parametrize(("players", "options", "words"), [
    (["Alice"], None, "2 to 10 players"),
    ([f"P{i}" for i in range(11)], None, "2 to 10 players"),
    (["Alice", "Alice"], None, "different"),
    (["Alice", ""], None, "non-empty"),
    (["Alice", "Bob"], {"colours": ["red"]}, "one colour per player"),
    (["Alice", "Bob"], {"colours": ["red", "red"]}, "different colour"),
    (["Alice", "Bob"], {"colours": ["red", "pink"]}, "unknown colour 'pink'"),
    (["Alice", "Bob"], {"stack_captor": "nobody"}, "stack_captor"),
    (["Alice", "Bob"], {"tiebreak": "coin"}, "tiebreak"),
    (["Alice", "Bob"], {"treehouse": "yes"}, "treehouse"),
    (["Alice", "Bob"], {"dice": 7}, "unknown option(s) dice"),
])
def test_bad_players_or_options_are_refused_with_a_reason(ded, players, options, words):
    with pytest.raises(BadOptions, match=None) as err:
        ded.game.new_game(players, options)
    assert words in str(err.value)


def test_first_player_roll_asks_one_die_per_player_in_their_colour(ded):
    state = ded.game.new_game(["Alice", "Bob", "Carol"])
    assert ded.game.current_player(state) == CHANCE
    request = state["roll"]
    assert request["tag"] == "first-player" and request["player"] is None
    assert [d["colour"] for d in request["dice"]] == ["red", "yellow", "green"]
    assert "Alice (red), Bob (yellow) and Carol (green)" in request["reason"]


def test_highest_first_roll_goes_first(ded):
    state = ded.game.new_game(["Alice", "Bob", "Carol"])
    state, events = ded.play(state, {"type": "roll", "values": [2, 5, 4]})
    assert state["active"] == 1 and ded.game.current_player(state) == 1
    assert state["roll"] is None and state["phase"] == "attack"
    assert "Bob goes first" in ded.texts(events)


def test_tied_high_rollers_roll_again_and_only_they(ded):
    state = ded.game.new_game(["Alice", "Bob", "Carol"])
    state, events = ded.play(state, {"type": "roll", "values": [5, 2, 5]})
    assert "Alice and Carol tie on 5 and roll again" in ded.texts(events)
    assert state["roll"]["extra"]["seats"] == [0, 2]
    assert [d["colour"] for d in state["roll"]["dice"]] == ["red", "green"]
    with pytest.raises(IllegalAction, match="needs 2 dice"):
        ded.game.apply(state, {"type": "roll", "values": [1, 2, 3]})
    state, _ = ded.play(state, {"type": "roll", "values": [1, 3]})
    assert state["active"] == 2


def test_turns_go_clockwise_in_seat_order(ded):
    state = ded.start(players=3, first=1)
    seats = [state["active"]]
    for _ in range(4):
        state, _ = ded.play(state, {"type": "pass"})
        seats.append(state["active"])
    assert seats == [1, 2, 0, 1, 2]


def test_cleanup_stands_up_all_own_tipped_pyramids_at_turn_start(ded):
    state = ded.layout(ded.start(), tipped=["red-S-1", "red-L-2", "yellow-M-1"])
    state, events = ded.play(state, {"type": "pass"})  # Bob's turn: only yellow stands up
    assert state["pyramids"]["yellow-M-1"]["status"] == "upright"
    assert state["pyramids"]["red-S-1"]["status"] == "tipped"
    assert "Bob: stand up the medium yellow." in ded.texts(events)
    state, events = ded.play(state, {"type": "pass"})  # Alice's turn
    assert state["pyramids"]["red-S-1"]["status"] == state["pyramids"]["red-L-2"]["status"] == "upright"
    assert "Alice: stand up the small red and the large red." in ded.texts(events)


def test_pass_is_legal_when_an_attack_is_possible_and_does_not_end_the_game(ded):
    state = ded.start()
    assert {"type": "pass"} in ded.game.legal_actions(state)
    state, events = ded.play(state, {"type": "pass"})
    assert not ded.game.is_over(state) and state["active"] == 1
    assert "Alice does not attack this turn." in ded.texts(events)


def test_attack_asks_the_attacker_to_roll_its_pips_in_dice(ded):
    state = ded.start()
    for attacker, dice in (("red-S-1", 1), ("red-M-1", 2), ("red-L-1", 3)):
        rolling, _ = ded.play(state, {"type": "attack", "attacker": attacker, "target": "yellow-M-1"})
        assert ded.game.current_player(rolling) == CHANCE
        assert len(rolling["roll"]["dice"]) == dice and rolling["roll"]["player"] == 0
        assert rolling["roll"]["tag"] == "attack" and rolling["roll"]["extra"]["target"] == "yellow-M-1"
        assert ded.game.legal_actions(rolling) == [{"type": "roll", "values": v}
                                                   for v in ded.game.roll_request(rolling).outcomes()]
        assert len(ded.game.legal_actions(rolling)) == 6 ** dice
    assert rolling["roll"]["reason"] == "Alice: 3 dice for the large red"


def test_waiting_for_a_roll_refuses_other_actions(ded):
    state, _ = ded.play(ded.start(), {"type": "attack", "attacker": "red-L-1", "target": "yellow-M-1"})
    with pytest.raises(IllegalAction, match="waiting for a roll: Alice: 3 dice for the large red"):
        ded.game.apply(state, {"type": "pass"})
    with pytest.raises(IllegalAction, match="not a face"):
        ded.game.apply(state, {"type": "roll", "values": [7, 1, 1]})


def test_a_roll_when_none_is_due_is_illegal(ded):
    with pytest.raises(IllegalAction, match="no roll is due: it is Alice's turn"):
        ded.game.apply(ded.start(), {"type": "roll", "values": [6]})


def test_unknown_action_type_is_illegal(ded):
    with pytest.raises(IllegalAction, match="unknown action 'jump'"):
        ded.game.apply(ded.start(), {"type": "jump"})


def test_apply_never_mutates_its_input_and_counts_versions(ded):
    state = ded.start()
    before = copy.deepcopy(state)
    after, _ = ded.game.apply(state, {"type": "attack", "attacker": "red-L-1", "target": "yellow-M-1"})
    assert state == before
    assert after["version"] == state["version"] + 1


def test_view_shows_everything_since_nothing_is_hidden(ded):
    state = ded.start()
    assert ded.game.view(state, 1) == state


@pytest.mark.parametrize("colour", STANDARD_COLOURS)
def test_every_standard_colour_can_play(ded, colour):
    other = "white" if colour != "white" else "red"
    state = ded.game.new_game(["Alice", "Bob"], {"colours": [colour, other]})
    assert f"{colour}-L-3" in state["pyramids"]
