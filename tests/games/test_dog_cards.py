"""Scenario tests of DOG's cards and movement (rules/dog.md 2.2, 2.4, D1-D6, D12-D14).

Seat 0 plays red (start 0, finish 64-67), seat 1 blue (start 16), seat 2 green (start 32, finish
72-75, red's partner), seat 3 yellow (start 48).
"""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from tests.games.dog_table import GAME, KENNEL, board, play, plays_of, position, targets


def _marbles(state: dict, colour: int) -> list[int]:
    return state["marbles"][colour]


# ---- geometry and the plain cards ---------------------------------------------------------------------
def test_one_step_from_the_start_is_the_first_finish_hole():
    state = position(red=[0], hands={0: ["A"]})
    assert targets(state, "A", 0) == {1, 11, 64}


def test_four_trick_back_from_the_start_then_five_into_f1_or_eight_into_f4():
    state = position(red=[0], hands={0: ["4", "5", "8"]})
    state, _ = play(state, {"type": "move", "card": "4", "marble": 0, "to": 60})
    state["turn"] = 0
    assert 64 in targets(state, "5", 60) and 67 in targets(state, "8", 60)


def test_ace_starts_or_moves_one_or_eleven():
    state = position(red=[5], hands={0: ["A"]})
    assert {"type": "start", "card": "A"} in plays_of(state, "A")
    assert targets(state, "A", 5) == {6, 16}


def test_king_starts_or_moves_thirteen_and_queen_twelve():
    state = position(red=[5], hands={0: ["K", "Q"]})
    assert {"type": "start", "card": "K"} in plays_of(state, "K")
    assert targets(state, "K", 5) == {18}
    assert targets(state, "Q", 5) == {17}
    assert not any(a["type"] == "start" for a in plays_of(state, "Q"))


@pytest.mark.parametrize("card,steps", [("2", 2), ("3", 3), ("5", 5), ("6", 6), ("8", 8), ("9", 9),
                                        ("10", 10)])
def test_number_cards_move_their_value_forward(card, steps):
    state = position(red=[20], hands={0: [card]})
    assert targets(state, card, 20) == {20 + steps}


def test_four_goes_four_forward_or_four_back():
    state = position(red=[20], hands={0: ["4"]})
    assert targets(state, "4", 20) == {24, 16}


# ---- start, the fresh marble and landing ------------------------------------------------------------
def test_start_sends_home_a_non_fresh_marble_on_the_start():
    state = position(red=[30], blue=[0], hands={0: ["A"]})
    state, events = play(state, {"type": "start", "card": "A"})
    assert _marbles(state, 0) == [-1, -1, 0, 30] and state["fresh"][0]
    assert _marbles(state, 1) == [-1] * 4
    assert "send blue at red start home" in events[0]["text"]


def test_no_start_while_own_fresh_marble_stands_on_the_start():
    state = position(fresh=[0], hands={0: ["A", "K"]})
    assert not any(a["type"] == "start" for a in plays_of(state))


def test_fresh_marble_blocks_passing_and_landing_for_everyone():
    state = position(red=[30], blue=[10], fresh=[1], hands={0: ["K"]}, turn=0)
    state["turn"] = 1
    state["hands"][1] = ["8", "6"]
    state["cards_left"][1] = 2
    # blue's marble at 10 may not pass its own fresh marble on 16 with an 8, nor land on it with a 6
    assert targets(state, "8", 10) == set() and targets(state, "6", 10) == set()


def test_fresh_marble_cannot_be_passed_backwards():
    state = position(red=[18], fresh=[1], hands={0: ["4"]})
    assert targets(state, "4", 18) == {22}


def test_marble_that_comes_back_to_its_start_does_not_block():
    state = position(red=[12, 0], hands={0: ["6"]})
    assert targets(state, "6", 12) == {18}


def test_landing_sends_home_any_marble_even_your_own():
    state = position(red=[10, 15], yellow=[20], hands={0: ["5"]})
    state, events = play(state, {"type": "move", "card": "5", "marble": 10, "to": 15})
    assert _marbles(state, 0) == [-1, -1, -1, 15]
    state = position(red=[10], yellow=[15], hands={0: ["5"]})
    state, _ = play(state, {"type": "move", "card": "5", "marble": 10, "to": 15})
    assert _marbles(state, 3) == [-1] * 4


def test_passing_with_a_card_other_than_seven_sends_nobody_home():
    state = position(red=[10], yellow=[12, 14], hands={0: ["5"]})
    state, _ = play(state, {"type": "move", "card": "5", "marble": 10, "to": 15})
    assert _marbles(state, 3) == [-1, -1, 12, 14]


def test_four_backwards_from_the_fresh_start_is_the_fastest_way_home():
    state = position(fresh=[0], blue=[60], hands={0: ["4"]})
    state, _ = play(state, {"type": "move", "card": "4", "marble": 0, "to": 60})
    assert _marbles(state, 0) == [-1, -1, -1, 60] and not state["fresh"][0]
    assert _marbles(state, 1) == [-1] * 4  # landed on: sent home
    state.update(phase="play", turn=0, hands=[["5"], [], [], []], cards_left=[1, 0, 0, 0])
    assert targets(state, "5", 60) == {1, 64}


def test_fresh_marble_never_goes_straight_into_its_finish():
    state = position(fresh=[0], hands={0: ["A", "3"]})
    assert targets(state, "A", 0) == {1, 11} and targets(state, "3", 0) == {3}


# ---- the finish -------------------------------------------------------------------------------------
def test_entering_the_finish_needs_the_exact_count():
    state = position(red=[62], hands={0: ["8"]})
    assert targets(state, "8", 62) == {6}  # 62 -> 0 is 2 steps, F4 is 6: an 8 overshoots and laps on


def test_entering_the_finish_is_optional():
    state = position(red=[62], hands={0: ["5"]})
    assert targets(state, "5", 62) == {3, 66}


def test_no_passing_inside_the_finish():
    state = position(red=[62, 65], hands={0: ["5", "A"]})
    assert targets(state, "5", 62) == {3}  # F3 lies past the marble on F2
    assert targets(state, "A", 65) == {66}


def test_finish_marbles_move_only_forward_and_no_further_than_f4():
    state = position(red=[65], hands={0: ["4", "3"]})
    assert targets(state, "4", 65) == set() and targets(state, "3", 65) == set()
    state = position(red=[64], hands={0: ["3"]})
    assert targets(state, "3", 64) == {67}


def test_backwards_never_enters_the_finish():
    state = position(red=[2], hands={0: ["4"]})
    assert targets(state, "4", 2) == {6, 62}


def test_finish_marbles_cannot_be_landed_on_or_swapped():
    state = position(red=[20], blue=[68], hands={0: ["J"]})
    assert not plays_of(state, "J") or all(a.get("with") != 68 for a in plays_of(state, "J"))


# ---- the Jack ---------------------------------------------------------------------------------------
def test_jack_swaps_own_marble_with_another_players():
    state = position(red=[5], blue=[40], green=[50], hands={0: ["J"]})
    swaps = {(a["marble"], a["with"]) for a in plays_of(state, "J")}
    assert swaps == {(5, 40), (5, 50)}
    state, _ = play(state, {"type": "swap", "card": "J", "marble": 5, "with": 40})
    assert _marbles(state, 0) == [-1, -1, -1, 40] and _marbles(state, 1) == [-1, -1, -1, 5]


def test_jack_never_swaps_a_fresh_kennel_or_finish_marble():
    state = position(red=[5], blue=[16, 69], fresh=[1], hands={0: ["J"]})
    assert not any(a["type"] == "swap" for a in plays_of(state, "J"))


def test_jack_with_only_own_marbles_in_play_has_no_use_while_another_card_can_play():
    state = position(red=[5, 20], hands={0: ["J", "2"]})
    actions = GAME.legal_actions(state)
    assert {a["card"] for a in actions if "card" in a} == {"2"}
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "no_effect", "card": "J"})
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "fold"})


def test_jack_with_only_own_marbles_and_no_other_play_is_laid_without_effect():
    state = position(red=[5, 20], hands={0: ["J", "J"]})
    assert GAME.legal_actions(state) == [{"type": "fold"}, {"type": "no_effect", "card": "J"}]
    state, events = play(state, {"type": "no_effect", "card": "J"})
    assert state["hands"][0] == ["J"] and _marbles(state, 0) == [-1, -1, 5, 20]
    assert "without effect" in events[0]["text"]


def test_jack_without_effect_can_be_turned_off():
    state = position(red=[5], hands={0: ["J"]}, options={"jack_without_effect": False})
    assert GAME.legal_actions(state) == [{"type": "fold"}]


def test_swapped_marble_on_its_start_is_not_fresh():
    state = position(red=[16], blue=[0], hands={0: ["J"]})
    state, _ = play(state, {"type": "swap", "card": "J", "marble": 16, "with": 0})
    assert state["fresh"] == [False] * 4


# ---- the Joker --------------------------------------------------------------------------------------
def test_joker_plays_as_any_card():
    state = position(red=[20], blue=[30], hands={0: ["Joker"]})
    kinds = {a["type"] for a in plays_of(state, "Joker")}
    assert kinds == {"start", "move", "swap", "seven"}
    assert targets(state, "Joker", 20) == {21, 22, 23, 24, 25, 26, 28, 29, 30, 31, 32, 33, 16}


def test_joker_ban_keeps_the_joker_from_bringing_the_eighth_marble_home():
    layout = {"red": [65, 66, 67, 62], "green": [72, 73, 74, 75], "hands": {0: ["Joker"]}}
    assert {"type": "move", "card": "Joker", "marble": 62, "to": 64} in plays_of(position(**layout), "Joker")
    banned = position(**layout, options={"joker_ban": True})
    assert targets(banned, "Joker", 62) == {63, 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 58}
    assert not any(a["type"] == "seven" and a["parts"][-1]["to"] == 64 for a in plays_of(banned, "Joker"))


# ---- folding ----------------------------------------------------------------------------------------
def test_player_with_no_play_folds_the_whole_hand():
    state = position(hands={0: ["5", "Q"], 1: ["2"]})
    assert GAME.legal_actions(state) == [{"type": "fold"}]
    state, _ = play(state, {"type": "fold"})
    assert state["cards_left"][0] == 0 and state["hands"][0] == [] and state["turn"] == 1


def test_illegal_move_is_refused_with_a_reason_and_changes_nothing():
    state = position(red=[62], hands={0: ["8"]})
    with pytest.raises(IllegalAction, match="exact"):
        GAME.apply(state, {"type": "move", "card": "8", "marble": 62, "to": 70})
    with pytest.raises(IllegalAction, match="holds no"):
        GAME.apply(state, {"type": "move", "card": "5", "marble": 62, "to": 67})
    assert board(state) == board(position(red=[62], hands={0: ["8"]}))


@pytest.mark.parametrize("action", [
    {"type": "move", "card": "8", "marble": 62, "to": True},
    {"type": "move", "card": "8", "marble": 62.0, "to": 6},
    {"type": "move", "card": "8", "marble": 62},
    {"type": "move", "card": "8", "marble": 62, "to": 6, "extra": 1},
    {"type": "move", "card": "eight", "marble": 62, "to": 6},
    {"type": "seven", "card": "7", "parts": []},
    {"type": "seven", "card": "7", "parts": [[62, 69]]},
    {"type": "jump"},
])
def test_actions_of_the_wrong_shape_are_refused(action):
    state = position(red=[62], hands={0: ["8", "7"]})
    with pytest.raises(IllegalAction):
        GAME.apply(state, action)


def test_kennel_marbles_cannot_move():
    state = position(hands={0: ["2"]})
    assert board(state)[:4] == (KENNEL,) * 4 and plays_of(state, "2") == []
