"""Battle Zone scenario tests: setup, the roll, and the five actions of a die, from rules/battle-zone.md
(section and ruling ids cited in each test)."""

from __future__ import annotations

import pytest

from companion.games import CHANCE, BadOptions, get
from companion.games.battle_zone import BattleZone, supply

G = BattleZone()


# ---- setup and the roll (3.1, 3.3) ---------------------------------------------------------------------
def test_new_game_has_an_empty_board_and_all_45_pyramids_in_the_supply():
    state = G.new_game(["Alice", "Bob"])
    assert state["board"] == {}
    assert supply.total(state) == 45
    assert state["supply"] == {c: [3, 3, 3] for c in ("red", "blue", "green", "yellow", "black")}
    assert G.current_player(state) == CHANCE
    request = G.roll_request(state)
    assert request.player == 0 and [d.kind for d in request.dice] == ["d6"] * 3


def test_registered_as_battle_zone():
    assert isinstance(get("battle-zone"), BattleZone)


def test_xeno_colours_map_die_faces_to_the_xeno_pairs():
    state = G.new_game(["Alice", "Bob"], {"colours": "xeno"})
    assert state["colours"] == ["orange", "purple", "cyan", "clear", "white"]
    state, events = G.apply(state, {"type": "roll", "values": [1, 4, 6]})
    assert "1 (orange), 4 (clear), 6 (any colour)" in events[0]["text"]


@pytest.mark.parametrize("players, options", [
    (["Alice"], None), (["Alice", "Bob", "Carol"], None), (["Alice", "Alice"], None),
    (["Alice", "Bob"], {"colours": "pink"}), (["Alice", "Bob"], {"range": "square"}),
    (["Alice", "Bob"], {"upgrade_standing": 1}), (["Alice", "Bob"], {"stall_turns": -1}),
    (["Alice", "Bob"], {"stall_turns": True}), (["Alice", "Bob"], {"jokers": True}),
])
def test_impossible_players_or_options_are_refused(players, options):
    with pytest.raises(BadOptions):
        G.new_game(players, options)


def test_roll_gives_the_player_three_dice_to_use():
    state = G.new_game(["Alice", "Bob"])
    state, _ = G.apply(state, {"type": "roll", "values": [1, 2, 6]})
    assert G.current_player(state) == 0
    assert [d["value"] for d in state["dice"]] == [1, 2, 6]
    dice = {a["die"] for a in G.legal_actions(state) if "die" in a}
    assert dice == {0, 1, 2}


# ---- place (3.4.1, B11) ---------------------------------------------------------------------------------
def test_place_puts_a_small_of_the_die_colour_on_an_empty_square_of_ones_starting_line(bz):
    state = bz.position(dice=(1, 5, 5))
    state, events = bz.play(state, {"type": "place", "die": 0, "colour": "red", "square": "c1"})
    assert state["board"]["c1"] == {"colour": "red", "size": 1, "controller": 0}
    assert state["supply"]["red"] == [2, 3, 3]
    assert "pointing at Bob" in events[0]["text"]


def test_place_lists_every_empty_square_of_the_starting_line(bz):
    state = bz.position({"a1": ("black", 1, 0)}, dice=(1, 5, 5))
    places = [a["square"] for a in G.legal_actions(state) if a["type"] == "place" and a["die"] == 0]
    assert places == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]


def test_second_player_places_on_rank_8(bz):
    state = bz.position(dice=(2, 5, 5), active=1)
    state, _ = bz.play(state, {"type": "place", "die": 0, "square": "h8"})
    assert state["board"]["h8"] == {"colour": "blue", "size": 1, "controller": 1}
    assert "rank 8" in bz.refused(state, {"type": "place", "die": 1, "square": "h1"})


def test_place_is_refused_off_the_starting_line_on_a_taken_square_or_without_a_small(bz):
    state = bz.position({"c1": ("black", 2, None)}, dice=(1, 2, 3), empty_supply=[("blue", 1)])
    assert "starting line" in bz.refused(state, {"type": "place", "die": 0, "square": "c2"})
    assert "not empty" in bz.refused(state, {"type": "place", "die": 0, "square": "c1"})
    assert "no small blue" in bz.refused(state, {"type": "place", "die": 1, "square": "d1"})


def test_a_six_acts_with_any_colour_chosen(bz):
    state = bz.position(dice=(6, 5, 5))
    places = {a["colour"] for a in G.legal_actions(state) if a["type"] == "place" and a["die"] == 0}
    assert places == {"red", "blue", "green", "yellow", "black"}
    state, _ = bz.play(state, {"type": "place", "die": 0, "colour": "green", "square": "a1"})
    assert state["board"]["a1"]["colour"] == "green"


def test_a_six_needs_its_colour_named(bz):
    state = bz.position(dice=(6, 5, 5))
    assert "which colour" in bz.refused(state, {"type": "place", "die": 0, "square": "a1"})


def test_a_die_acts_only_with_its_own_colour(bz):
    state = bz.position(dice=(1, 5, 5))
    assert "which is red, not blue" in bz.refused(
        state, {"type": "place", "die": 0, "colour": "blue", "square": "a1"})


# ---- take control (3.4.2, B5) ---------------------------------------------------------------------------
def test_take_lays_an_upright_pyramid_pointing_at_the_opponent(bz):
    state = bz.position({"d4": ("blue", 3, None)}, dice=(2, 5, 5))
    state, events = bz.play(state, {"type": "take", "die": 0, "square": "d4"})
    assert state["board"]["d4"] == {"colour": "blue", "size": 3, "controller": 0}
    assert "lay it pointing at Bob" in events[0]["text"]


def test_an_opponents_pyramid_cannot_be_taken(bz):
    state = bz.position({"d4": ("blue", 3, 1)}, dice=(2, 5, 5))
    assert "upright" in bz.refused(state, {"type": "take", "die": 0, "square": "d4"})
    assert not [a for a in G.legal_actions(state) if a["type"] == "take"]


# ---- upgrade (3.4.3, B4) --------------------------------------------------------------------------------
def test_upgrade_swaps_a_controlled_pyramid_for_the_next_size_keeping_its_orientation(bz):
    state = bz.position({"c1": ("green", 1, 0)}, dice=(3, 5, 5))
    state, _ = bz.play(state, {"type": "upgrade", "die": 0, "square": "c1"})
    assert state["board"]["c1"] == {"colour": "green", "size": 2, "controller": 0}
    assert state["supply"]["green"] == [3, 2, 3]  # the small came back, a medium left


def test_upgrade_of_an_upright_pyramid_is_refused_by_default_and_allowed_with_upgrade_standing(bz):
    pieces = {"c3": ("green", 1, None)}
    state = bz.position(pieces, dice=(3, 5, 5))
    assert "upright" in bz.refused(state, {"type": "upgrade", "die": 0, "square": "c3"})
    state = bz.position(pieces, dice=(3, 5, 5), options={"upgrade_standing": True})
    state, _ = bz.play(state, {"type": "upgrade", "die": 0, "square": "c3"})
    assert state["board"]["c3"] == {"colour": "green", "size": 2, "controller": None}


def test_upgrade_is_refused_for_a_large_or_when_the_supply_lacks_the_size(bz):
    state = bz.position({"c1": ("green", 3, 0), "d1": ("green", 1, 0)}, dice=(3, 5, 5),
                        empty_supply=[("green", 2)])
    assert "no larger size" in bz.refused(state, {"type": "upgrade", "die": 0, "square": "c1"})
    assert "no medium green" in bz.refused(state, {"type": "upgrade", "die": 0, "square": "d1"})


def test_an_opponents_pyramid_cannot_be_upgraded(bz):
    state = bz.position({"c8": ("green", 1, 1)}, dice=(3, 5, 5))
    assert "Bob's" in bz.refused(state, {"type": "upgrade", "die": 0, "square": "c8"})


# ---- activate (3.2, B12) --------------------------------------------------------------------------------
def test_activating_a_controlled_pyramid_stands_it_up_and_uses_its_full_size_range(bz):
    state = bz.position({"d4": ("red", 2, 0), "f6": ("blue", 1, 1), "g7": ("blue", 1, 1)}, dice=(1, 5, 5))
    state, events = bz.play(state, {"type": "activate", "die": 0, "square": "d4"})
    assert state["board"]["d4"] == {"colour": "red", "size": 2, "controller": None}
    assert "f6" not in state["board"] and "g7" in state["board"]  # range 2 reaches f6, not g7
    assert "stand it up" in events[0]["text"]


def test_activating_an_upright_pyramid_downgrades_it_and_uses_the_range_after_downgrade(bz):
    state = bz.position({"d4": ("red", 3, None), "f6": ("blue", 1, 1), "g7": ("blue", 1, 1)}, dice=(1, 5, 5))
    state, _ = bz.play(state, {"type": "activate", "die": 0, "square": "d4"})
    assert state["board"]["d4"] == {"colour": "red", "size": 2, "controller": None}
    assert state["supply"]["red"][1:] == [2, 3]  # a medium left the supply, the large came back
    assert "f6" not in state["board"] and "g7" in state["board"]  # range 2 (after), not 3 (before)


def test_an_upright_small_cannot_be_activated_but_a_controlled_small_can(bz):
    state = bz.position({"d4": ("red", 1, None), "e4": ("red", 1, 0)}, dice=(1, 5, 5))
    assert "B12" in bz.refused(state, {"type": "activate", "die": 0, "square": "d4"})
    state, _ = bz.play(state, {"type": "activate", "die": 0, "square": "e4"})
    assert "d4" not in state["board"] and state["board"]["e4"]["controller"] is None


def test_an_upright_pyramid_cannot_be_activated_when_the_smaller_size_is_missing(bz):
    state = bz.position({"d4": ("red", 2, None)}, dice=(1, 5, 5), empty_supply=[("red", 1)])
    assert "cannot be downgraded" in bz.refused(state, {"type": "activate", "die": 0, "square": "d4"})


def test_an_opponents_pyramid_cannot_be_activated(bz):
    state = bz.position({"d4": ("red", 2, 1)}, dice=(1, 5, 5))
    assert "Bob's" in bz.refused(state, {"type": "activate", "die": 0, "square": "d4"})


# ---- move (3.4.5, B6) -----------------------------------------------------------------------------------
def test_move_goes_exactly_its_pips_in_any_of_eight_directions(bz):
    state = bz.position({"d4": ("black", 2, 0)}, dice=(5, 4, 4))
    moves = {a["direction"] for a in G.legal_actions(state) if a["type"] == "move"}
    assert moves == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
    state, events = bz.play(state, {"type": "move", "die": 0, "square": "d4", "direction": "SE"})
    assert list(state["board"]) == ["f2"] and state["board"]["f2"]["controller"] == 0
    assert "from d4 to f2" in events[0]["text"]


def test_move_passes_over_pyramids_but_may_not_end_on_one(bz):
    state = bz.position({"d4": ("black", 3, 0), "d5": ("red", 3, 1), "d6": ("red", 1, None),
                         "d7": ("red", 2, None)}, dice=(5, 4, 4))
    assert "d7 is taken" in bz.refused(state, {"type": "move", "die": 0, "square": "d4", "direction": "N"})
    state = bz.position({"d4": ("black", 3, 0), "d5": ("red", 3, 1), "d6": ("red", 1, None)}, dice=(5, 4, 4))
    state, _ = bz.play(state, {"type": "move", "die": 0, "square": "d4", "direction": "N"})
    assert state["board"]["d7"]["colour"] == "black"


def test_only_a_pyramid_you_control_moves(bz):
    state = bz.position({"d4": ("black", 1, None), "e4": ("black", 1, 1)}, dice=(5, 4, 4))
    assert "upright" in bz.refused(state, {"type": "move", "die": 0, "square": "d4", "direction": "N"})
    assert "Bob's" in bz.refused(state, {"type": "move", "die": 0, "square": "e4", "direction": "N"})


def test_moving_off_a_side_edge_or_ones_own_edge_is_illegal(bz):
    state = bz.position({"g2": ("black", 2, 0)}, dice=(5, 4, 4))
    for direction in ("E", "S", "NE", "SE", "SW"):
        move = {"type": "move", "die": 0, "square": "g2", "direction": direction}
        assert "leave the board" in bz.refused(state, move)
    moves = {a["direction"] for a in G.legal_actions(state) if a["type"] == "move"}
    assert moves == {"N", "W", "NW"}


def test_moving_past_the_opponents_starting_line_exits_the_pyramid_and_the_player_keeps_it(bz):
    state = bz.position({"c7": ("black", 3, 0)}, dice=(5, 4, 4))
    state, events = bz.play(state, {"type": "move", "die": 0, "square": "c7", "direction": "N"})
    assert state["board"] == {} and state["exited"][0] == [{"colour": "black", "size": 3}]
    assert supply.total(state) == 45 and state["supply"]["black"] == [3, 3, 2]
    assert "Alice keeps it" in events[0]["text"]


@pytest.mark.parametrize("start, direction", [("c8", "NE"), ("h8", "NE"), ("g7", "NE"), ("a8", "NW")])
def test_a_diagonal_exit_through_the_far_edge_or_far_corner_counts(bz, start, direction):
    size = 2 if start == "g7" else 1
    state = bz.position({start: ("black", size, 0)}, dice=(5, 4, 4))
    state, _ = bz.play(state, {"type": "move", "die": 0, "square": start, "direction": direction})
    assert state["exited"][0] == [{"colour": "black", "size": size}]


@pytest.mark.parametrize("start, size", [("h6", 3), ("h7", 2)])
def test_a_diagonal_that_leaves_by_the_side_before_the_far_edge_is_illegal(bz, start, size):
    state = bz.position({start: ("black", size, 0)}, dice=(5, 4, 4))
    move = {"type": "move", "die": 0, "square": start, "direction": "NE"}
    assert "leave the board" in bz.refused(state, move)


def test_the_second_player_exits_past_rank_1(bz):
    state = bz.position({"e2": ("black", 2, 1), "e7": ("black", 2, 1)}, dice=(5, 4, 4), active=1)
    move = {"type": "move", "die": 0, "square": "e7", "direction": "N"}
    assert "leave the board" in bz.refused(state, move)
    state, _ = bz.play(state, {"type": "move", "die": 0, "square": "e2", "direction": "S"})
    assert state["exited"][1] == [{"colour": "black", "size": 2}]
