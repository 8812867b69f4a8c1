"""Battle Zone scenario tests: using the dice (B7), the end of a turn, victory (B13), the stall draw,
refusals of malformed actions, and the board as a camera would read it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import CHANCE
from companion.games.battle_zone import BattleZone
from companion.games.battle_zone.board import SQUARES, differences, reading

G = BattleZone()


# ---- dice (3.4, B7) -------------------------------------------------------------------------------------
def test_each_die_gives_one_action_and_dice_go_in_any_order(bz):
    state = bz.position(dice=(1, 2, 3))
    state, _ = bz.play(state, {"type": "place", "die": 2, "square": "c1"},
                       {"type": "place", "die": 0, "square": "d1"})
    assert [d["used"] for d in state["dice"]] == [True, False, True]
    assert {a.get("die") for a in G.legal_actions(state)} == {1, None}
    assert "already used" in bz.refused(state, {"type": "place", "die": 0, "square": "e1"})


def test_the_same_pyramid_may_be_used_by_several_dice_in_one_turn(bz):
    state = bz.position({"d4": ("black", 1, 0)}, dice=(5, 5, 5))
    state, _ = bz.play(state, {"type": "upgrade", "die": 0, "square": "d4"},
                       {"type": "move", "die": 1, "square": "d4", "direction": "N"})
    assert state["board"] == {"d6": {"colour": "black", "size": 2, "controller": 0}}


def test_a_player_may_decline_the_dice_left_and_the_turn_passes(bz):
    state = bz.position(dice=(1, 2, 3))
    state, events = bz.play(state, {"type": "place", "die": 0, "square": "c1"}, {"type": "end"})
    assert G.current_player(state) == CHANCE and state["active"] == 1
    assert G.roll_request(state).player == 1 and "Bob's turn" in bz.texts(events)


def test_with_must_use_all_dice_a_die_with_a_legal_action_cannot_be_declined(bz):
    state = bz.position(dice=(1, 2, 3), options={"must_use_all_dice": True})
    assert {"type": "end"} not in G.legal_actions(state)
    assert "B7" in bz.refused(state, {"type": "end"})


def test_the_turn_ends_by_itself_when_every_die_is_used(bz):
    state = bz.position(dice=(1, 2, 3))
    places = ({"type": "place", "die": d, "square": sq} for d, sq in enumerate(("a1", "b1", "c1")))
    state, _ = bz.play(state, *places)
    assert state["active"] == 1 and state["roll"] is not None and state["turn"] == 2


def test_dice_without_a_legal_action_are_skipped(bz):
    # every small of red and blue is gone, nothing on the board: the 1 and 2 can do nothing
    state = bz.position(dice=(3, 1, 2), empty_supply=[("red", 1), ("blue", 1)])
    state, events = bz.play(state, {"type": "place", "die": 0, "square": "a1"})
    assert state["active"] == 1 and "no legal action for the dice left (1, 2)" in bz.texts(events)


def test_a_roll_with_no_legal_action_passes_the_turn():
    state = G.new_game(["Alice", "Bob"])
    for colour in state["supply"]:
        state["supply"][colour][0] = 0
        state["exited"][1] += [{"colour": colour, "size": 1}] * 3
    state, events = G.apply(state, {"type": "roll", "values": [1, 2, 6]})
    assert state["active"] == 1 and state["roll"] is not None


# ---- victory (3.4.3, B13) -------------------------------------------------------------------------------
def test_exiting_the_fifth_colour_wins_at_once(bz):
    state = bz.position({"c7": ("black", 3, 0), "a2": ("red", 1, 0)}, dice=(5, 1, 1))
    state["exited"][0] = [{"colour": c, "size": 1} for c in ("red", "blue", "green", "yellow")]
    state, events = bz.play(state, {"type": "move", "die": 0, "square": "c7", "direction": "N"})
    assert G.is_over(state) and state["winner"] == 0 and G.current_player(state) is None
    assert G.legal_actions(state) == []
    assert "wins" in events[-1]["text"]
    summary = G.summary(state)
    assert summary["winner_name"] == "Alice" and summary["players"][0]["colours"] == [
        "red", "blue", "green", "yellow", "black"]
    assert "over" in bz.refused(state, {"type": "move", "die": 1, "square": "a2", "direction": "N"})


def test_five_exits_of_fewer_colours_do_not_win(bz):
    state = bz.position({"c7": ("black", 3, 0)}, dice=(5, 1, 1))
    state["exited"][0] = [{"colour": c, "size": 1} for c in ("red", "blue", "green", "black")]
    state, _ = bz.play(state, {"type": "move", "die": 0, "square": "c7", "direction": "N"})
    assert not G.is_over(state) and len(state["exited"][0]) == 5


# ---- the stall draw (B13) -------------------------------------------------------------------------------
def test_a_draw_is_offered_after_stall_turns_without_an_exit(bz):
    state = bz.position(dice=(1, 2, 3), options={"stall_turns": 2})
    assert {"type": "draw"} not in G.legal_actions(state)
    assert "B13" in bz.refused(state, {"type": "draw"})
    for _ in range(2):
        state, _ = bz.play(state, {"type": "end"}, {"type": "roll", "values": [1, 2, 3]})
    assert {"type": "draw"} in G.legal_actions(state)
    state, events = bz.play(state, {"type": "draw"})
    assert G.is_over(state) and G.summary(state)["draw"] and G.summary(state)["winner"] is None


def test_an_exit_resets_the_stall_count(bz):
    state = bz.position({"c8": ("black", 1, 0)}, dice=(5, 2, 3), options={"stall_turns": 2})
    state["quiet_turns"] = 5
    state, _ = bz.play(state, {"type": "move", "die": 0, "square": "c8", "direction": "N"}, {"type": "end"})
    assert state["quiet_turns"] == 0


def test_stall_turns_0_never_offers_a_draw(bz):
    state = bz.position(dice=(1, 2, 3), options={"stall_turns": 0})
    state["quiet_turns"] = 1000
    assert {"type": "draw"} not in G.legal_actions(state)


# ---- refusals: the state is untouched and the sentence says why -----------------------------------------
@pytest.mark.parametrize("action, words", [
    ({"type": "place", "die": True, "square": "a1"}, "die"),
    ({"type": "place", "die": 0.0, "square": "a1"}, "die"),
    ({"type": "place", "die": 3, "square": "a1"}, "die"),
    ({"type": "place", "die": "0", "square": "a1"}, "die"),
    ({"type": "place", "die": 0, "square": "z9"}, "square"),
    ({"type": "place", "die": 0, "square": 11}, "square"),
    ({"type": "place", "die": 0}, "square"),
    ({"type": "place", "die": 0, "square": "a1", "size": 2}, "no field 'size'"),
    ({"type": "place", "die": 0, "square": "a1", "colour": "pink"}, "no colour called 'pink'"),
    ({"type": "move", "die": 0, "square": "d4", "direction": "up"}, "direction"),
    ({"type": "fly", "die": 0}, "unknown action"),
    ({"type": "transport", "square": "d4"}, "none is under way"),
    ({"type": "grow", "square": "d4"}, "none is under way"),
    ({"type": "end", "now": True}, "end has no field 'now'"),
    ({"type": "roll", "values": [1, 2, 3]}, "no roll is due"),
    ("place", "JSON object"),
])
def test_malformed_or_untimely_actions_are_refused_with_a_sentence_and_change_nothing(bz, action, words):
    state = bz.position({"d4": ("red", 1, 0)}, dice=(1, 2, 3))
    assert words in bz.refused(state, action)


def test_a_die_action_while_the_roll_is_due_is_refused():
    state = G.new_game(["Alice", "Bob"])
    with pytest.raises(ValueError, match="waiting for a roll"):
        G.apply(state, {"type": "place", "die": 0, "square": "a1"})


# ---- the board as a camera reads it ---------------------------------------------------------------------
def test_reading_lists_every_square_with_colour_size_and_pointing(bz):
    state = bz.position({"c1": ("red", 1, 0), "f8": ("blue", 2, 1), "d4": ("green", 3, None)})
    board = reading(state)
    assert list(board) == list(SQUARES) and sum(v is not None for v in board.values()) == 3
    assert board["c1"] == {"colour": "red", "size": 1, "upright": False, "points": "N", "controller": 0}
    assert board["f8"]["points"] == "S" and board["d4"]["upright"] and board["d4"]["points"] is None


def test_differences_names_the_squares_where_a_reading_disagrees(bz):
    state = bz.position({"c1": ("red", 1, 0), "d4": ("green", 3, None)})
    seen = reading(state)
    seen["c1"] = None
    seen["e5"] = {"colour": "blue", "size": 1, "upright": True, "points": None, "controller": None}
    assert differences(state, seen) == ["c1", "e5"]
    assert differences(state, reading(state)) == []


# ---- the action log ---------------------------------------------------------------------------------------
def test_the_example_log_replays_with_companion_replay(capsys):
    log = Path(__file__).parent / "logs" / "battle-zone-example.jsonl"
    assert main(["replay", "battle-zone", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"]["board"]["d3"] == {"colour": "red", "size": 1, "controller": 0}
    assert out["state"]["active"] == 1 and out["summary"]["winner"] is None


# ---- board correction (the table keeps the physical board in step) ---------------------------------------
def test_a_correction_sets_one_square_and_keeps_the_45_accounted_for(bz):
    state = bz.position({"c3": ("red", 1, 0)}, dice=(1, 2, 3))
    fix = {"type": "correct", "square": "c3", "piece": {"colour": "blue", "size": 2, "controller": 1}}
    state, events = bz.play(state, fix)
    assert state["board"]["c3"] == {"colour": "blue", "size": 2, "controller": 1}
    assert state["supply"]["red"] == [3, 3, 3] and state["supply"]["blue"] == [3, 2, 3]
    said = "c3 now holds a medium blue, lying for Bob (it held a small red, lying for Alice)"
    assert said in events[0]["text"]
    state, _ = bz.play(state, {"type": "correct", "square": "c3", "piece": None})
    assert state["board"] == {} and sum(sum(v) for v in state["supply"].values()) == 45


def test_a_correction_may_come_while_a_roll_is_due_and_replays_from_the_log():
    state = G.new_game(["Alice", "Bob"])
    fix = {"type": "correct", "square": "e4", "piece": {"colour": "green", "size": 3, "controller": None}}
    state, _ = G.apply(state, fix)
    assert G.roll_request(state) is not None and state["board"]["e4"]["size"] == 3
    replayed = G.new_game(["Alice", "Bob"])
    for action in (fix,):
        replayed, _ = G.apply(replayed, action)
    assert replayed == state


@pytest.mark.parametrize("piece, words", [
    ({"colour": "red", "size": 1, "controller": True}, "controller"),
    ({"colour": "red", "size": 4, "controller": None}, "size"),
    ({"colour": "red", "size": 1.0, "controller": None}, "size"),
    ({"colour": "pink", "size": 1, "controller": None}, "not a colour"),
    ({"colour": "red", "size": 1}, '"piece"'),
    ({"colour": "red", "size": 2, "controller": 0}, "no medium red is left"),
    ({"colour": "blue", "size": 1, "controller": 0}, "already holds"),
])
def test_an_impossible_correction_is_refused_with_a_sentence(bz, piece, words):
    state = bz.position({"c3": ("blue", 1, 0)}, empty_supply=[("red", 2)])
    assert words in bz.refused(state, {"type": "correct", "square": "c3", "piece": piece})


def test_no_correction_in_the_middle_of_a_transport(bz):
    state, _ = bz.play(bz.position({"d4": ("yellow", 1, 0), "c3": ("red", 1, 1)}, dice=(4, 5, 5)),
                       {"type": "activate", "die": 0, "square": "d4"})
    assert "finish the transport" in bz.refused(state, {"type": "correct", "square": "a1", "piece": None})


# ---- exact odds of the next roll -------------------------------------------------------------------------
def test_the_chance_of_a_die_of_one_colour_counts_its_face_and_the_six():
    from companion.games.battle_zone.odds import p_at_least

    assert p_at_least(1) == 1 - Fraction(4, 6) ** 3 == Fraction(19, 27)
    assert p_at_least(2) == Fraction(7, 27) and p_at_least(3) == Fraction(1, 27)
    assert p_at_least(1, colours=5) == 1


def test_the_view_shows_the_board_square_by_square_and_the_chance_of_a_missing_colour(bz):
    state = bz.position({"c3": ("blue", 1, 0)})
    state["exited"][0] = [{"colour": c, "size": 1} for c in ("red", "blue", "green")]
    view = G.view(state, 0)
    assert view["squares"]["c3"]["points"] == "N" and view["squares"]["a1"] is None
    assert view["odds"]["one_colour"]["1"]["exact"] == "19/27"
    assert view["odds"]["missing"] == {"colours": ["yellow", "black"], "p": 1 - 0.5**3, "exact": "7/8"}
