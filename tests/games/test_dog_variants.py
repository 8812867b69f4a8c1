"""DOG's official player-count variants (rules/dog.md 2.6): 2, 3 and 5 players each for themselves, six in
teams on a 96-field board; each test is named for the rule it checks."""

from __future__ import annotations

import pytest

from companion.games import BadOptions, IllegalAction
from companion.games.dog import Dog
from companion.games.dog.board import fresh_of, to_state
from tests.games.dog_table import play

GAME = Dog()
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
KENNEL = -1


def position(seats: int, marbles: dict, fresh=(), hands=None, turn=0, options=None) -> dict:
    """A state in play for `seats` players: `marbles` per colour the holes out (the rest in the kennel),
    `fresh` the colours whose start holds a fresh marble, `hands` per seat (default: no cards)."""
    state = GAME.new_game(NAMES[:seats], options)
    board: list[int] = []
    for colour in range(seats):
        holes = marbles.get(colour, ())
        codes = [fresh_of(seats) + colour if colour in fresh and h == 16 * colour else h for h in holes]
        board += codes + [KENNEL] * (4 - len(codes))
    state["marbles"], state["fresh"] = to_state(tuple(board))
    hands = hands or {}
    laid = state["options"]["hands"] == "laid"
    state["hands"] = [None if laid else list(hands.get(s, [])) for s in range(seats)]
    state["cards_left"] = [len(hands.get(s, [])) for s in range(seats)]
    state.update(phase="play", turn=turn, given=[None] * seats)
    return state


def deal_all(state: dict, hands: dict) -> dict:
    for seat in range(len(state["players"])):
        state, _ = GAME.apply(state, {"type": "deal", "seat": seat, "cards": hands[seat]})
    return state


# ---- players and board --------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [1, 7])
def test_dog_is_played_by_two_to_six(count):
    with pytest.raises(BadOptions, match="2 to 6 players"):
        GAME.new_game(NAMES[:count] + ["Gus"] * (count == 7))


def test_the_track_has_sixteen_fields_a_player_and_wraps_after_them():
    six = position(6, {0: [90]}, hands={0: ["8"]})
    assert {"type": "move", "card": "8", "marble": 90, "to": 2} in GAME.legal_actions(six)
    two = position(2, {0: [30]}, hands={0: ["8"]})
    assert {"type": "move", "card": "8", "marble": 30, "to": 6} in GAME.legal_actions(two)


def test_each_colour_finishes_in_its_own_holes_after_the_track():
    six = position(6, {5: [78]}, hands={5: ["5"]}, turn=5)
    # black's start is field 80; F1-F4 of black are 96 + 20 .. 96 + 23: 2 steps to the start, F3 in 5
    assert {"type": "move", "card": "5", "marble": 78, "to": 118} in GAME.legal_actions(six)
    after, _ = play(six, {"type": "move", "card": "5", "marble": 78, "to": 118})
    assert after["marbles"][5] == [-1, -1, -1, 118]


def test_a_hole_beyond_this_board_is_refused_with_words():
    four = position(4, {0: [10]}, hands={0: ["8"]})
    with pytest.raises(IllegalAction, match="out of range"):
        GAME.apply(four, {"type": "move", "card": "8", "marble": 10, "to": 100})
    six = position(6, {0: [10]}, hands={0: ["8"]})
    with pytest.raises(IllegalAction, match="cannot take"):
        GAME.apply(six, {"type": "move", "card": "8", "marble": 10, "to": 100})


def test_six_players_play_with_six_colours_on_ninety_six_fields():
    state = GAME.new_game(NAMES)
    assert state["colours"] == ["red", "blue", "green", "yellow", "white", "black"]
    assert state["marbles"] == [[KENNEL] * 4] * 6 and state["fresh"] == [False] * 6
    assert state["dealer"] == 5 and state["starter"] == 0


def test_the_dealer_is_the_last_seat_by_default_and_must_be_a_seat():
    assert GAME.new_game(NAMES[:3])["dealer"] == 2
    assert GAME.new_game(NAMES[:4])["dealer"] == 3
    with pytest.raises(BadOptions, match="0 to 2"):
        GAME.new_game(NAMES[:3], {"dealer": 3})


# ---- individual play: 2, 3, 5 players -----------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_individual_play_starts_with_three_marbles_in_the_kennel_and_one_fresh_on_the_start(seats):
    state = GAME.new_game(NAMES[:seats])
    assert state["marbles"] == [sorted([KENNEL] * 3 + [16 * c]) for c in range(seats)]
    assert state["fresh"] == [True] * seats
    assert state["teams"] == [[s] for s in range(seats)]


def test_individual_exchange_takes_a_card_from_the_right_hand_neighbour():
    state = deal_all(GAME.new_game(NAMES[:3]), {0: list("23456A"), 1: list("789AKQ"), 2: ["10"] * 6})
    assert "right-hand neighbour" in GAME.view(state, 0)["prompt"]
    # each seat's phone enters the card its left-hand neighbour took from it (seat 1's card goes to seat 0)
    state, events = play(state, {"type": "give", "seat": 1, "card": "K"},
                         {"type": "give", "seat": 2, "card": "10"}, {"type": "give", "seat": 0, "card": "A"})
    assert sorted(state["hands"][0]) == sorted(list("23456") + ["K"])
    assert "A" in state["hands"][2] and "K" not in state["hands"][1] and "10" in state["hands"][1]
    received = [e for e in events if e["type"] == "receive"]
    assert {(e["seat"], e["card"]) for e in received} == {(0, "K"), (1, "10"), (2, "A")}
    assert all(e["visible_to"] == [e["seat"]] for e in received)


def test_individual_seven_may_move_an_opponents_fresh_marble_and_break_its_blockade():
    state = position(3, {0: [10], 1: [16]}, fresh=(1,), hands={0: ["7"]})
    sevens = [a for a in GAME.legal_actions(state) if a["type"] == "seven"]
    assert {"type": "seven", "card": "7", "parts": [{"marble": 16, "to": 23}]} in sevens
    after, _ = play(state, {"type": "seven", "card": "7", "parts": [{"marble": 16, "to": 20},
                                                                     {"marble": 10, "to": 13}]})
    assert after["marbles"][1] == [-1, -1, -1, 20] and not after["fresh"][1]
    assert after["marbles"][0] == [-1, -1, -1, 13]


def test_in_team_play_a_seven_moves_only_the_players_own_marbles():
    state = position(4, {0: [10], 1: [16]}, fresh=(1,), hands={0: ["7"]})
    assert not [a for a in GAME.legal_actions(state) if a["type"] == "seven"]
    six = position(6, {0: [10], 1: [20]}, hands={0: ["7"]})
    moved = {p["marble"] for a in GAME.legal_actions(six) if a["type"] == "seven" for p in a["parts"]}
    assert moved == {10}


def test_individual_seven_passing_any_marble_sends_it_home():
    state = position(2, {0: [10], 1: [12, 20]}, hands={0: ["7"]})
    after, _ = play(state, {"type": "seven", "card": "7", "parts": [{"marble": 10, "to": 17}]})
    assert after["marbles"][1] == [-1, -1, -1, 20]


def test_a_two_may_take_a_card_from_an_opponent_whose_phone_enters_it():
    state = position(3, {0: [5]}, hands={0: ["2"], 1: ["K", "Q"], 2: []})
    takes = [a for a in GAME.legal_actions(state) if a["type"] == "take"]
    assert takes == [{"type": "take", "card": "2", "from": 1}]  # seat 2 holds no card
    state, events = play(state, takes[0])
    assert state["phase"] == "take" and GAME.current_player(state) == 1
    assert state["hands"][0] == [] and state["seen"]["2"] == 1
    assert sorted(a["card"] for a in GAME.legal_actions(state)) == ["K", "Q"]
    assert {a["type"] for a in GAME.legal_actions(state)} == {"hand_over"}
    with pytest.raises(IllegalAction, match="Ben's phone enters the card taken"):
        GAME.apply(state, {"type": "hand_over", "seat": 0, "card": "K"})
    state, events = play(state, {"type": "hand_over", "seat": 1, "card": "K"})
    assert state["hands"][0] == ["K"] and state["hands"][1] == ["Q"]
    assert state["cards_left"] == [1, 1, 0] and state["phase"] == "play" and state["turn"] == 1
    assert events[0]["visible_to"] == [1, 0] and "K" not in events[0]["text"]


def test_the_card_taken_by_a_two_is_seen_only_by_the_two_players_concerned():
    state = position(3, {0: [5]}, hands={0: ["2"], 1: ["K", "Q"], 2: ["5"]})
    state, _ = play(state, {"type": "take", "card": "2", "from": 1})
    hand_over = {"type": "hand_over", "seat": 1, "card": "K"}
    for seat in (0, 2, None):
        assert "card" not in GAME.redact(state, hand_over, seat)
        assert GAME.view(state, seat)["hands"][1] is None
    assert GAME.redact(state, hand_over, 1) == hand_over


def test_without_hands_a_two_moves_one_card_from_the_opponent():
    state = position(2, {0: [5]}, hands={0: ["2", "3"], 1: ["4", "5"]}, options={"hands": "laid"})
    state, _ = play(state, {"type": "take", "card": "2", "from": 1})
    assert state["cards_left"] == [2, 1] and state["phase"] == "play" and state["turn"] == 1


def test_a_two_takes_nothing_in_team_play():
    state = position(4, {0: [5]}, hands={0: ["2"], 1: ["K"]})
    assert not [a for a in GAME.legal_actions(state) if a["type"] == "take"]
    with pytest.raises(IllegalAction, match="only in individual play"):
        GAME.apply(state, {"type": "take", "card": "2", "from": 1})


def test_a_two_that_could_take_forbids_folding():
    state = position(3, {}, hands={0: ["2"], 1: ["K"]})
    assert {"type": "fold"} not in GAME.legal_actions(state)
    assert {"type": "take", "card": "2", "from": 1} in GAME.legal_actions(state)


def test_in_individual_play_the_first_with_four_marbles_home_wins():
    blue_f1 = 16 * 3 + 4
    state = position(3, {1: [blue_f1 + 1, blue_f1 + 2, blue_f1 + 3, 14]}, hands={1: ["3"]}, turn=1)
    state, events = play(state, {"type": "move", "card": "3", "marble": 14, "to": blue_f1})
    assert state["phase"] == "over" and state["winners"] == [1]
    assert events[-1]["text"] == "Ben has all four marbles home and wins!"


# ---- six players --------------------------------------------------------------------------------------
def test_six_players_play_as_three_pairs_opposite_by_default():
    state = GAME.new_game(NAMES)
    assert state["options"]["teams"] == "3x2" and state["teams"] == [[0, 3], [1, 4], [2, 5]]
    state = deal_all(state, {s: list("A23456") if s == 0 else [str(s + 4)] * 6 for s in range(6)})
    state, events = play(state, *({"type": "give", "seat": s, "card": "A" if s == 0 else str(s + 4)}
                                  for s in range(6)))
    assert "A" in state["hands"][3] and "A" not in state["hands"][0]
    assert {(e["seat"], e["card"]) for e in events if e["type"] == "receive" and e["seat"] in (0, 3)} == {
        (0, "7"), (3, "A")}


def test_two_teams_of_three_exchange_with_the_next_team_mate():
    state = GAME.new_game(NAMES, {"teams": "2x3"})
    assert state["teams"] == [[0, 2, 4], [1, 3, 5]]
    state = deal_all(state, {s: [str(s + 2)] * 6 for s in range(6)})
    state, _ = play(state, *({"type": "give", "seat": s, "card": str(s + 2)} for s in range(6)))
    # 0 gives to 2, 2 to 4, 4 to 0
    assert "2" in state["hands"][2] and "4" in state["hands"][4] and "6" in state["hands"][0]


def test_a_team_of_three_plays_the_next_team_mates_marbles_once_its_own_are_home():
    home = [96, 97, 98, 99]
    green = [96 + 8 + h for h in range(4)]
    state = position(6, {0: home, 2: [33], 4: [70]}, hands={0: ["2"]}, options={"teams": "2x3"})
    assert GAME.legal_actions(state) == [{"type": "move", "card": "2", "marble": 33, "to": 35}]
    state = position(6, {0: home, 2: green, 4: [70]}, hands={0: ["2"]}, options={"teams": "2x3"})
    assert GAME.legal_actions(state) == [{"type": "move", "card": "2", "marble": 70, "to": 72}]


def test_a_team_of_three_wins_with_all_twelve_marbles_home():
    white = [96 + 16 + h for h in range(4)]
    state = position(6, {0: [96, 97, 98, 99], 2: [96 + 8 + h for h in range(4)], 4: white[1:] + [62]},
                     hands={0: ["3"]}, options={"teams": "2x3"})
    state, events = play(state, {"type": "move", "card": "3", "marble": 62, "to": 112})
    assert state["winners"] == [0, 2, 4]
    assert events[-1]["text"] == "Ann, Cat and Eve have all twelve marbles home and win!"


def test_a_pair_of_six_wins_when_both_partners_are_home():
    state = position(6, {0: [96, 97, 98, 99], 3: [109, 110, 111, 46]}, hands={0: ["3"]})
    state, events = play(state, {"type": "move", "card": "3", "marble": 46, "to": 108})
    assert state["winners"] == [0, 3]
    assert events[-1]["text"] == "Ann and Dan have all eight marbles home and win!"
