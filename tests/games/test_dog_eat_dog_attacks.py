"""Dog Eat Dog attacks: who may attack what, duels, ties, stack attacks and the end of the game (1.4-1.7)."""

from __future__ import annotations

import copy

import pytest

from companion.games import IllegalAction

# Alice is red (seat 0), Bob yellow (seat 1), Carol green (seat 2).


def test_lone_attack_win_puts_attacker_on_top(ded):
    state, events = ded.attack(ded.start(), "red-L-1", "yellow-M-1", [6, 2, 1], [5, 3])
    assert state["stacks"] == [["yellow-M-1", "red-L-1"]]
    assert state["pyramids"]["yellow-M-1"]["status"] == state["pyramids"]["red-L-1"]["status"] == "in_stack"
    assert "Put the large red on top of the medium yellow: Alice controls the new stack." in ded.texts(events)
    assert state["active"] == 1  # one attack per turn


def test_lone_attack_loss_tips_both_pyramids(ded):
    # Carol's turn is not next, so her large green stays tipped through Bob's turn
    state, events = ded.attack(ded.start(players=3), "red-M-1", "green-L-1", [3, 2], [5, 1, 1])
    assert state["pyramids"]["red-M-1"]["status"] == state["pyramids"]["green-L-1"]["status"] == "tipped"
    assert state["stacks"] == []
    assert all(p["captured_by"] is None for p in state["pyramids"].values())
    assert "Tip both pyramids" in ded.texts(events)


def test_highest_single_die_counts_not_the_sum(ded):
    # the attacker's dice add up to 7 and the defender's to 8, but 5 beats 4
    state, events = ded.attack(ded.start(), "red-L-1", "yellow-M-1", [5, 1, 1], [4, 4])
    assert state["stacks"] == [["yellow-M-1", "red-L-1"]]
    assert "5 beats 4" in ded.texts(events)


def test_tie_goes_to_the_attacker_with_fewer_pips(ded):
    state, events = ded.attack(ded.start(), "red-S-1", "yellow-L-1", [4], [4, 2, 1])
    assert state["stacks"] == [["yellow-L-1", "red-S-1"]]
    assert "a tie at 4 goes to the pyramid with fewer pips, the small red" in ded.texts(events)


def test_tie_goes_to_the_defender_with_fewer_pips(ded):
    state, events = ded.attack(ded.start(), "red-L-1", "yellow-S-1", [4, 2, 1], [4])
    assert state["stacks"] == [] and state["pyramids"]["red-L-1"]["status"] == "tipped"
    assert "fewer pips, the small yellow" in ded.texts(events)


def test_tie_between_equal_pyramids_goes_to_the_defender(ded):
    state, events = ded.attack(ded.start(players=3), "red-M-1", "green-M-1", [6, 2], [1, 6])
    assert state["pyramids"]["green-M-1"]["status"] == "tipped"
    assert "equal pyramids goes to the defender" in ded.texts(events)


def test_defence_roll_is_asked_of_the_defenders_owner(ded):
    state, _ = ded.attack(ded.start(), "red-L-1", "yellow-M-1", [3, 2, 1])
    request = state["roll"]
    assert request["player"] == 1 and request["tag"] == "defence" and len(request["dice"]) == 2
    assert request["reason"] == "Bob: 2 dice for the medium yellow"
    assert request["extra"] == {"attacker": "red-L-1", "defender": "yellow-M-1", "position": 1, "of": 1}


@pytest.mark.parametrize(("attacker", "target", "tipped", "stacks", "words"), [
    ("red-L-1", "red-M-1", [], [], "the medium red is yours: attack a pyramid of another colour"),
    ("yellow-L-1", "green-M-1", [], [],
     "the large yellow is Bob's: attack with one of your own red pyramids"),
    ("red-L-1", "yellow-S-1", ["yellow-S-1"], [],
     "the small yellow is tipped: it cannot be attacked until Bob's next turn"),
    ("red-L-1", "yellow-S-1", ["red-L-1"], [],
     "the large red is tipped: it is out of play until your next turn"),
    ("red-L-1", "green-S-1", [], [["green-S-1", "yellow-S-1"]],
     "the small green is buried in a stack: attack the stack by its top pyramid, the small yellow"),
    ("red-L-1", "yellow-S-1", [], [["red-S-1", "yellow-S-1"]],
     "the stack under the small yellow holds the small red: you may not attack a stack with your colour"),
    ("red-L-1", "red-S-1", [], [["yellow-S-1", "red-S-1"]],
     "you control the stack under the small red: you cannot attack it"),
    ("red-S-1", "yellow-M-1", [], [["yellow-S-1", "red-S-1"]],
     "the small red is in a stack: only a lone upright pyramid can attack"),
    ("red-L-9", "yellow-M-1", [], [], "there is no pyramid called 'red-L-9'"),
    ("red-L-1", None, [], [], 'attack "target": a pyramid is named by its text id, not null'),
    ("red-L-1", ["yellow-M-1"], [], [], 'attack "target": a pyramid is named by its text id, not a list'),
])
def test_illegal_attacks_explain_why_and_change_nothing(ded, attacker, target, tipped, stacks, words):
    state = ded.layout(ded.start(players=3), stacks=stacks, tipped=tipped)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        ded.game.apply(state, {"type": "attack", "attacker": attacker, "target": target})
    assert words in str(err.value)
    assert state == before


def test_set_aside_pyramid_can_neither_attack_nor_be_attacked(ded):
    state = ded.layout(ded.start(players=3), captured={"red-M-1": 1, "yellow-S-1": 2})
    with pytest.raises(IllegalAction, match="was captured by Bob"):
        ded.game.apply(state, {"type": "attack", "attacker": "red-M-1", "target": "green-S-1"})
    with pytest.raises(IllegalAction, match="set aside by Carol"):
        ded.game.apply(state, {"type": "attack", "attacker": "red-L-1", "target": "yellow-S-1"})


def test_legal_attacks_only_name_lone_upright_attackers_and_allowed_targets(ded):
    stacks = [["yellow-S-1", "green-S-1"], ["red-S-2", "green-M-1"], ["yellow-L-1", "red-L-1"]]
    state = ded.layout(ded.start(players=3), stacks=stacks, tipped=["yellow-M-2", "red-M-2"])
    attacks = [a for a in ded.game.legal_actions(state) if a["type"] == "attack"]
    assert {a["attacker"] for a in attacks} == {
        "red-S-1", "red-S-3", "red-M-1", "red-M-3", "red-L-2", "red-L-3"}
    targets = {a["target"] for a in attacks}
    assert "green-S-1" in targets  # a stack free of red, named by its top
    assert not targets & {"yellow-S-1", "green-M-1", "red-L-1", "yellow-M-2"}
    assert all(not t.startswith("red-") for t in targets)
    assert "treehouse" not in attacks[0]


def test_attacker_on_top_of_its_stack_stays_there(ded):
    state, _ = ded.attack(ded.start(), "red-L-1", "yellow-M-1", [6, 1, 1], [1, 1])
    state, _ = ded.play(state, {"type": "pass"})
    assert all(a.get("attacker") != "red-L-1" for a in ded.game.legal_actions(state))


def test_stack_attack_one_attacker_roll_then_each_defender_top_down(ded):
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    state, _ = ded.attack(state, "red-M-1", "yellow-L-1", [5, 3])
    assert state["roll"]["player"] == 1 and len(state["roll"]["dice"]) == 3
    assert state["roll"]["extra"]["position"] == 1 and state["roll"]["extra"]["of"] == 2
    assert "defender 1 of 2 in the stack" in state["roll"]["reason"]
    state, _ = ded.play(state, {"type": "roll", "values": [4, 4, 1]})
    assert state["roll"]["player"] == 2 and len(state["roll"]["dice"]) == 1
    assert state["roll"]["reason"] == "Carol: 1 die for the small green, defender 2 of 2 in the stack"
    assert state["attack"]["result"] == 5  # the same attack result faces every defender


def test_stack_attack_win_puts_attacker_on_top_of_the_whole_stack(ded):
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [5, 3], [4, 4, 1], [2])
    assert state["stacks"] == [["green-S-1", "yellow-L-1", "red-M-1"]]
    assert "Alice now controls all 3 pyramids" in ded.texts(events)
    summary = ded.game.summary(state)
    assert summary["players"][0]["score"] == 2 and summary["players"][1]["score"] == 0


def test_stack_attack_defender_captures_attacker(ded):
    # the buried small green beats the medium red: Carol, its owner, takes it (ruling A5)
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [5, 3], [4, 4, 1], [5])
    assert state["pyramids"]["red-M-1"] == {
        "colour": "red", "size": 2, "status": "captured", "captured_by": 2}
    assert state["stacks"] == [["green-S-1", "yellow-L-1"]]
    assert "Carol takes the medium red: set it aside in front of Carol" in ded.texts(events)
    assert ded.game.summary(state)["players"][2]["score"] == 1


def test_stack_attack_top_defender_captures_attacker(ded):
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [3, 3], [6, 1, 1])
    assert state["pyramids"]["red-M-1"]["captured_by"] == 1
    assert state["roll"] is None and state["active"] == 1  # no roll asked of the small green
    assert not any(e["type"] == "defence_roll" and e["defender"] == "green-S-1" for e in events)


def test_stack_attack_stops_at_the_first_defender_that_wins(ded):
    state = ded.layout(ded.start(players=4), stacks=[["blue-L-1", "green-S-1", "yellow-M-1"]])
    state, events = ded.attack(state, "red-L-1", "yellow-M-1", [4, 1, 1], [2, 3], [4])
    assert state["pyramids"]["red-L-1"]["captured_by"] == 2  # the small green wins the tie at 4
    assert [e["defender"] for e in events if e["type"] == "defence_roll"] == ["yellow-M-1", "green-S-1"]
    assert state["roll"] is None


def test_failed_stack_attack_is_never_tipped_and_leaves_the_stack_alone(ded):
    state = ded.layout(ded.start(players=3), stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [3, 3], [6, 1, 1])
    assert state["pyramids"]["red-M-1"]["status"] == "captured"
    assert state["pyramids"]["yellow-L-1"]["status"] == "in_stack"
    assert not any(p["status"] == "tipped" for p in state["pyramids"].values())
    assert "Tip" not in ded.texts(events)


def test_stack_controller_option_gives_the_failed_attacker_to_the_controller(ded):
    start = ded.start(players=3, options={"stack_captor": "controller"})
    state = ded.layout(start, stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [5, 3], [4, 4, 1], [5])
    assert state["pyramids"]["red-M-1"]["captured_by"] == 1
    assert "Bob takes the medium red" in ded.texts(events)


def test_game_ends_when_the_player_to_move_has_no_lone_upright_pyramid(ded):
    stacks = [[f"yellow-{s}-{c}", f"red-{s}-{c}"] for s in "SML" for c in (1, 2, 3) if (s, c) != ("L", 3)]
    state = ded.layout(ded.start(), stacks=stacks)
    state, events = ded.attack(state, "red-L-3", "yellow-L-3", [6, 6, 6], [1, 1, 1])
    assert ded.game.is_over(state) and state["phase"] == "over"
    assert ded.game.current_player(state) is None and ded.game.legal_actions(state) == []
    expected = "Bob has no legal attack: the game is over. Scores: Alice 21, Bob 0. Alice wins."
    assert expected in ded.texts(events)
    with pytest.raises(IllegalAction, match="the game is over"):
        ded.game.apply(state, {"type": "pass"})


def test_game_ends_when_no_target_is_left(ded):
    stacks = [[f"yellow-{s}-{c}", f"red-{s}-{c}"] for s in "SML" for c in (1, 2, 3) if (s, c) != ("L", 3)]
    state = ded.layout(ded.start(), stacks=stacks)
    state, events = ded.attack(state, "red-L-3", "yellow-L-3", [1, 1, 1], [6, 6, 6])
    # Bob's cleanup stands up the large yellow, but the large red is tipped and every stack holds yellow
    assert state["pyramids"]["yellow-L-3"]["status"] == "upright"
    assert ded.game.is_over(state)
    assert "Bob has no legal attack" in ded.texts(events)


def test_game_does_not_end_while_the_player_to_move_can_attack(ded):
    stacks = [[f"yellow-{s}-{c}", f"red-{s}-{c}"] for s in "SML" for c in (1, 2, 3) if (s, c) != ("L", 3)]
    state = ded.layout(ded.start(), stacks=stacks)
    state, _ = ded.play(state, {"type": "pass"})
    assert not ded.game.is_over(state)
    assert {"type": "attack", "attacker": "yellow-L-3", "target": "red-L-3"} in ded.game.legal_actions(state)


def test_recent_events_are_kept_in_the_state(ded):
    state, events = ded.attack(ded.start(), "red-L-1", "yellow-M-1", [6, 2, 1], [5, 3])
    assert state["recent"][-len(events):] == events
    assert all(isinstance(e["type"], str) and isinstance(e["text"], str) for e in state["recent"])
