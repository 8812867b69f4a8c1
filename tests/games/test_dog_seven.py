"""The 7 (rules/dog.md 2.4, D2), team play after finishing (2.5, D8) and the Canadian 7 (2.6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction
from companion.games.dog import seven
from companion.games.dog.board import FRESH, canonical, teams_for
from tests.games.dog_table import GAME, play, plays_of, position, targets


def _sevens(state: dict) -> list[list[dict]]:
    return [a["parts"] for a in plays_of(state, "7") if a["type"] == "seven"]


def test_seven_passes_its_own_start_into_the_finish_sending_home_what_it_passes():
    state = position(red=[61], blue=[63], yellow=[62], hands={0: ["7"]})
    assert [{"marble": 61, "to": 67}] in _sevens(state)
    state, events = play(state, {"type": "seven", "card": "7", "parts": [{"marble": 61, "to": 67}]})
    assert state["marbles"][0] == [-1, -1, -1, 67]
    assert state["marbles"][1] == [-1] * 4 and state["marbles"][3] == [-1] * 4
    assert "send yellow at yellow 14 home" in events[0]["text"]


def test_seven_sends_home_own_marbles_it_passes():
    state = position(red=[10, 12], hands={0: ["7"]})
    state, _ = play(state, {"type": "seven", "card": "7", "parts": [{"marble": 10, "to": 17}]})
    assert state["marbles"][0] == [-1, -1, -1, 17]


def test_seven_splits_among_marbles_in_any_parts():
    state = position(red=[10, 30], hands={0: ["7"]})
    splits = _sevens(state)
    assert [{"marble": 10, "to": 15}, {"marble": 30, "to": 32}] in splits
    assert len(splits) == 8  # 0+7, 1+6, ..., 7+0: one move per board
    state, _ = play(state, {"type": "seven", "card": "7",
                            "parts": [{"marble": 30, "to": 31}, {"marble": 10, "to": 15},
                                      {"marble": 31, "to": 32}]})
    assert state["marbles"][0] == [-1, -1, 15, 32]


def test_seven_lists_each_resulting_board_once():
    state = position(red=[10, 11, 40], blue=[14], green=[20], hands={0: ["7"]})
    boards = []
    for action in plays_of(state, "7"):
        after, _ = GAME.apply(state, action)
        boards.append((str(after["marbles"]), str(after["fresh"])))
    assert len(boards) == len(set(boards)) > 0


def test_seven_cannot_pass_a_fresh_start_marble():
    state = position(red=[28], fresh=[2], hands={0: ["7"]})
    assert _sevens(state) == [] and GAME.legal_actions(state) == [{"type": "fold"}]


def test_seven_is_never_played_in_part_when_the_steps_cannot_all_be_used():
    state = position(red=[65], hands={0: ["7"]})
    assert _sevens(state) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "seven", "card": "7", "parts": [{"marble": 65, "to": 67}]})


def test_seven_cannot_start_a_marble_or_go_back():
    state = position(red=[20], hands={0: ["7"]})
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "seven", "card": "7", "parts": [{"marble": 20, "to": 13}]})
    assert all(len(p) == 1 and p[0]["to"] == 27 for p in _sevens(state))


def test_seven_laid_part_by_part():
    state = position(red=[10, 30], hands={0: ["7"], 1: ["2"]})
    state, events = play(state, {"type": "seven", "card": "7", "parts": [{"marble": 10, "to": 13}]})
    assert state["seven"] == {"card": "7", "left": 4} and state["turn"] == 0
    assert state["hands"][0] == []
    assert {"type": "part", "marble": 30, "to": 34} in GAME.legal_actions(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "fold"})
    state, _ = play(state, {"type": "part", "marble": 13, "to": 15}, {"type": "part", "marble": 30, "to": 32})
    assert state["seven"] is None and state["turn"] == 1 and state["marbles"][0] == [-1, -1, 15, 32]


def test_seven_part_that_leaves_no_way_to_finish_is_refused():
    state = position(red=[62], hands={0: ["7"]})
    with pytest.raises(IllegalAction, match="could not be finished"):
        GAME.apply(state, {"type": "seven", "card": "7", "parts": [{"marble": 62, "to": 64}]})


def test_seven_moves_no_partner_marble_before_own_are_home():
    state = position(red=[5], green=[40], hands={0: ["7"]})
    assert _sevens(state) == [[{"marble": 5, "to": 12}]]


def test_canadian_seven_moves_partner_marbles_any_time():
    state = position(red=[5], green=[40], hands={0: ["7"]}, options={"canadian_seven": True})
    assert [{"marble": 5, "to": 8}, {"marble": 40, "to": 44}] in _sevens(state)
    assert len(_sevens(state)) == 8


def test_seven_split_across_own_last_marble_and_partner_marbles():
    state = position(red=[65, 66, 67, 62], green=[40], hands={0: ["7"]})
    assert [{"marble": 62, "to": 64}, {"marble": 40, "to": 44}] in _sevens(state)
    state, _ = play(state, {"type": "seven", "card": "7",
                            "parts": [{"marble": 62, "to": 64}, {"marble": 40, "to": 44}]})
    assert state["marbles"][0] == [64, 65, 66, 67] and state["marbles"][2] == [-1, -1, -1, 44]


def test_player_with_four_home_plays_the_partner_marbles():
    state = position(red=[64, 65, 66, 67], green=[30], hands={0: ["2", "A"]})
    assert targets(state, "2", 30) == {32}
    state, _ = play(state, {"type": "start", "card": "A"})
    assert state["marbles"][2] == [-1, -1, 30, 32] and state["fresh"][2]


def test_jack_of_a_finished_player_swaps_a_partner_marble():
    state = position(red=[64, 65, 66, 67], green=[30], blue=[50], hands={0: ["J"]})
    assert [(a["marble"], a["with"]) for a in plays_of(state, "J")] == [(30, 50)]


def test_finishing_with_the_partner_marbles_wins_the_game():
    state = position(red=[64, 65, 66, 67], green=[73, 74, 75, 30], hands={0: ["3"], 1: ["2"]})
    state, events = play(state, {"type": "move", "card": "3", "marble": 30, "to": 72})
    assert GAME.is_over(state) and state["winners"] == [0, 2]
    assert events[-1]["type"] == "win" and GAME.summary(state)["winners"] == ["Ann", "Cat"]
    assert GAME.legal_actions(state) == [] and GAME.current_player(state) is None


def test_joker_as_seven_splits_like_a_seven():
    state = position(red=[10, 30], hands={0: ["Joker"]})
    assert [{"marble": 10, "to": 15}, {"marble": 30, "to": 32}] in [
        a["parts"] for a in plays_of(state, "Joker") if a["type"] == "seven"]


# ---- the search: grouped and deduplicated, the same as every path of single steps ------------------
def _plain(board: tuple, seat: int, canadian: bool) -> set[tuple]:
    layers = seven._switching_layers(board, seat, canadian, 7)
    return {canonical(end) for end in layers[-1]}


holes = st.sampled_from(list(range(64)) + [-1] * 20 + [64, 65, 66, 67, 72, 73, 74, 75])


@settings(max_examples=150, deadline=None)
@given(st.lists(holes, min_size=16, max_size=16), st.booleans(), st.sampled_from([(), (0,), (2,), (1, 3)]))
def test_grouped_search_finds_exactly_the_boards_of_every_single_step_path(codes, canadian, fresh):
    board = []
    for i, code in enumerate(codes):  # finish holes belong to red (0-3) or green (8-11) only
        colour = i // 4
        if code >= 64 and colour not in (0, 2) or (code >= 64 and (code - 64) // 4 != colour):
            code = -1
        board.append(code if code not in board or code == -1 else -1)
    for colour in fresh:
        start = 16 * colour
        if start in board:
            board[board.index(start)] = -1
        slot = next(i for i in range(4 * colour, 4 * colour + 4))
        board[slot] = FRESH + colour
    board = tuple(board)
    found = seven.outcomes(board, 0, canadian)
    assert set(found) == _plain(board, 0, canadian)
    for end, path in found.items():  # each listed path really reaches its board
        here = board
        for index, code in path:
            here = next(b for b, step in seven.children(here, 0, canadian) if step == (index, code))
        assert canonical(here) == end


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(5, "3x2"), (6, "3x2"), (6, "2x3")]), st.booleans(),
       st.randoms(use_true_random=False))
def test_five_and_six_seat_boards_list_the_boards_of_every_single_step_path(seated, canadian, rng):
    seats, layout = seated
    teams = teams_for(seats, layout)
    track, fresh = 16 * seats, 20 * seats
    board, used = [], set()
    for i in range(4 * seats):  # a quarter of the marbles out: enough to meet, few enough to search
        colour = i // 4
        code = rng.choice([-1, -1, -1, rng.randrange(track), track + 4 * colour + rng.randrange(4)])
        if i % 4 == 0 and rng.random() < 0.2 and 16 * colour not in used:
            code = fresh + colour  # a fresh start marble, its start hole left free
        board.append(-1 if code in used else code)
        used.add(code if code < fresh else 16 * colour)
    board = tuple(board)
    seat = rng.randrange(seats)
    found = seven.outcomes(board, seat, canadian, 7, teams)
    layers = seven._switching_layers(board, seat, canadian, 7, teams)
    assert set(found) == {canonical(end) for end in layers[-1]}
    for end, path in found.items():
        here = board
        for index, code in path:
            here = next(b for b, step in seven.children(here, seat, canadian, teams) if step == (index, code))
        assert canonical(here) == end
