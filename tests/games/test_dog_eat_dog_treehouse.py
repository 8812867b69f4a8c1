"""The Treehouse die (rules 1.6, ruling A9): declared with the attack; TIP, HOP, SWAP, DIG, AIM, WILD."""

from __future__ import annotations

import copy

import pytest

from companion.games import IllegalAction

TH = {"treehouse": True}


def test_treehouse_attack_replaces_one_d6_with_the_treehouse_die(ded):
    state, events = ded.play(ded.start(options=TH), {"type": "attack", "attacker": "red-L-1",
                                                     "target": "yellow-M-1", "treehouse": True})
    assert [d["kind"] for d in state["roll"]["dice"]] == ["d6", "d6", "treehouse"]
    assert state["roll"]["reason"] == "Alice: 2 dice and the Treehouse die for the large red"
    assert "with the large red and the Treehouse die" in ded.texts(events)
    assert len(ded.game.legal_actions(state)) == 6 * 6 * 6


def test_legal_attacks_offer_the_die_to_medium_and_large_only(ded):
    attacks = [a for a in ded.game.legal_actions(ded.start(options=TH)) if a["type"] == "attack"]
    with_die = {a["attacker"] for a in attacks if a["treehouse"]}
    assert with_die and all("-S-" not in pid for pid in with_die)
    assert {a["attacker"] for a in attacks if not a["treehouse"]} >= {"red-S-1", "red-M-1", "red-L-1"}


def test_small_pyramid_cannot_use_the_treehouse_die(ded):
    with pytest.raises(IllegalAction, match="a small pyramid cannot use the Treehouse die"):
        ded.attack(ded.start(options=TH), "red-S-1", "yellow-M-1", treehouse=True)


def test_treehouse_die_is_refused_when_the_variant_is_off(ded):
    with pytest.raises(IllegalAction, match="without the Treehouse die"):
        ded.attack(ded.start(), "red-L-1", "yellow-M-1", treehouse=True)


def test_tip_fails_a_lone_attack_and_tips_both(ded):
    state, events = ded.attack(ded.start(players=3, options=TH), "red-L-1", "green-M-1", [6, 6, "TIP"],
                               treehouse=True)
    assert state["pyramids"]["red-L-1"]["status"] == state["pyramids"]["green-M-1"]["status"] == "tipped"
    assert "TIP: the attack fails" in ded.texts(events)
    assert not any(e["type"] == "defence_roll" for e in events) and state["active"] == 1


def test_tip_against_a_stack_lets_the_top_defenders_owner_capture(ded):
    state = ded.layout(ded.start(players=3, options=TH), stacks=[["green-S-1", "yellow-L-1"]])
    state, events = ded.attack(state, "red-M-1", "yellow-L-1", [6, "TIP"], treehouse=True)
    assert state["pyramids"]["red-M-1"]["captured_by"] == 1
    assert "Bob takes the medium red" in ded.texts(events)


def test_hop_wins_a_lone_attack_without_a_defence_roll(ded):
    state, events = ded.attack(ded.start(options=TH), "red-M-1", "yellow-L-1", [1, "HOP"], treehouse=True)
    assert state["stacks"] == [["yellow-L-1", "red-M-1"]]
    assert not any(e["type"] == "defence_roll" for e in events)


def test_hop_captures_the_whole_stack(ded):
    state = ded.layout(ded.start(players=4, options=TH), stacks=[["blue-L-1", "green-L-1", "yellow-L-1"]])
    state, _ = ded.attack(state, "red-M-1", "yellow-L-1", [1, "HOP"], treehouse=True)
    assert state["stacks"] == [["blue-L-1", "green-L-1", "yellow-L-1", "red-M-1"]]
    assert ded.game.summary(state)["players"][0]["score"] == 3


def test_treehouse_result_is_the_highest_d6_and_ties_compare_pyramid_pips(ded):
    # a medium with the die rolls one d6; on a tie with a large it still has fewer pips, so it wins
    state, events = ded.attack(ded.start(options=TH), "red-M-1", "yellow-L-1", [4, "AIM"], [4, 1, 1],
                               treehouse=True)
    assert state["stacks"] == [["yellow-L-1", "red-M-1"]]
    # a large with the die rolls two d6 but has 3 pips: a tie with a large goes to the defender
    state, _ = ded.attack(ded.start(players=3, options=TH), "red-L-1", "green-L-1", [4, 2, "DIG"], [4, 1, 1],
                          treehouse=True)
    assert state["pyramids"]["green-L-1"]["status"] == "tipped"


def test_follow_up_is_offered_after_the_attack_with_skip(ded):
    state, events = ded.attack(ded.start(options=TH), "red-L-1", "yellow-M-1", [6, 1, "AIM"], [2, 2],
                               treehouse=True)
    assert state["phase"] == "treehouse" and state["follow_up"] == "AIM" and state["active"] == 0
    assert "Alice may tip or stand up any one lone pyramid, or skip" in ded.texts(events)
    actions = ded.game.legal_actions(state)
    assert {"type": "skip"} in actions and {"type": "aim", "pyramid": "yellow-S-1", "tip": True} in actions
    state, events = ded.play(state, {"type": "skip"})
    assert state["active"] == 1 and "Alice does not use the AIM." in ded.texts(events)


def test_aim_tips_an_opponents_lone_pyramid_until_their_next_turn(ded):
    state, _ = ded.attack(ded.start(players=3, options=TH), "red-L-1", "yellow-M-1", [6, 1, "AIM"], [2, 2],
                          treehouse=True)
    state, events = ded.play(state, {"type": "aim", "pyramid": "green-L-1", "tip": True})
    assert state["pyramids"]["green-L-1"]["status"] == "tipped"
    assert "Tip the large green" in ded.texts(events)
    assert state["active"] == 1
    state, _ = ded.play(state, {"type": "pass"})  # Carol's cleanup stands it up again
    assert state["pyramids"]["green-L-1"]["status"] == "upright"


def test_aim_stands_up_a_tipped_pyramid_of_any_colour(ded):
    state = ded.layout(ded.start(players=3, options=TH), tipped=["red-S-1"])
    state, _ = ded.attack(state, "red-L-1", "yellow-M-1", [6, 1, "AIM"], [2, 2], treehouse=True)
    with pytest.raises(IllegalAction, match="the small red is already tipped"):
        ded.game.apply(state, {"type": "aim", "pyramid": "red-S-1", "tip": True})
    with pytest.raises(IllegalAction, match="not a lone pyramid"):
        ded.game.apply(state, {"type": "aim", "pyramid": "red-L-1", "tip": True})
    state, events = ded.play(state, {"type": "aim", "pyramid": "red-S-1", "tip": False})
    assert state["pyramids"]["red-S-1"]["status"] == "upright"
    assert "Stand up the small red" in ded.texts(events)


def test_swap_exchanges_the_tops_of_two_stacks_and_control_follows(ded):
    stacks = [["green-S-1", "yellow-L-1"], ["yellow-S-1", "green-M-1"]]
    state = ded.layout(ded.start(players=3, options=TH), stacks=stacks)
    state, _ = ded.attack(state, "red-L-1", "green-L-1", [6, 1, "SWAP"], [2, 2, 2], treehouse=True)
    actions = ded.game.legal_actions(state)
    assert {"type": "swap", "stacks": ["yellow-L-1", "green-M-1"]} in actions
    state, events = ded.play(state, {"type": "swap", "stacks": ["yellow-L-1", "red-L-1"]})
    assert state["stacks"] == [
        ["green-S-1", "red-L-1"], ["yellow-S-1", "green-M-1"], ["green-L-1", "yellow-L-1"]]
    assert "Alice and Bob control them now" in ded.texts(events)


def test_swap_may_put_two_pyramids_of_one_colour_in_a_stack(ded):
    stacks = [["green-S-1", "yellow-L-1"], ["yellow-S-1", "green-M-1"]]
    state = ded.layout(ded.start(players=3, options=TH), stacks=stacks)
    state, _ = ded.attack(state, "red-L-1", "green-L-1", [6, 1, "SWAP"], [2, 2, 2], treehouse=True)
    state, _ = ded.play(state, {"type": "swap", "stacks": ["yellow-L-1", "green-M-1"]})
    assert state["stacks"][:2] == [["green-S-1", "green-M-1"], ["yellow-S-1", "yellow-L-1"]]


def test_swap_needs_two_stacks_named_by_their_tops(ded):
    stacks = [["green-S-1", "yellow-L-1"], ["yellow-S-1", "green-M-1"]]
    state = ded.layout(ded.start(players=3, options=TH), stacks=stacks)
    state, _ = ded.attack(state, "red-L-1", "green-L-1", [6, 1, "SWAP"], [2, 2, 2], treehouse=True)
    before = copy.deepcopy(state)
    for bad in (["green-S-1", "green-M-1"], ["green-M-1", "green-M-1"], "green-M-1", ["nope", "green-M-1"]):
        with pytest.raises(IllegalAction, match="(?i)swap"):
            ded.game.apply(state, {"type": "swap", "stacks": bad})
    assert state == before


def test_dig_lifts_your_buried_pyramid_to_the_top_and_you_control_the_stack(ded):
    state = ded.layout(ded.start(players=3, options=TH), stacks=[["red-S-1", "green-S-1", "yellow-L-1"]])
    state, _ = ded.attack(state, "red-M-1", "green-M-1", [6, "DIG"], [2, 2], treehouse=True)
    assert ded.game.legal_actions(state) == [{"type": "dig", "pyramid": "red-S-1"}, {"type": "skip"}]
    with pytest.raises(IllegalAction, match="not one of your pyramids buried in a stack"):
        ded.game.apply(state, {"type": "dig", "pyramid": "green-S-1"})
    state, events = ded.play(state, {"type": "dig", "pyramid": "red-S-1"})
    assert state["stacks"][0] == ["green-S-1", "yellow-L-1", "red-S-1"]
    assert "Alice controls that stack now" in ded.texts(events)
    # Alice's pool: small green, large yellow (red discarded) and the medium green she just took: a mixed tree
    assert ded.game.summary(state)["players"][0]["score"] == 5


def test_wild_gives_one_more_attack_and_can_chain(ded):
    start = ded.start(players=3, options=TH)
    state, events = ded.attack(start, "red-L-1", "yellow-M-1", [6, 1, "WILD"], [2, 2], treehouse=True)
    assert state["follow_up"] == "WILD" and "Alice may make one more attack, or skip" in ded.texts(events)
    assert {"type": "skip"} in ded.game.legal_actions(state)
    assert {"type": "pass"} not in ded.game.legal_actions(state)
    state, _ = ded.attack(state, "red-L-2", "green-M-1", [6, 1, "WILD"], [2, 2], treehouse=True)
    assert state["follow_up"] == "WILD" and state["active"] == 0
    state, _ = ded.attack(state, "red-L-3", "green-M-2", [6, 1, 1], [2, 2], treehouse=False)
    assert state["active"] == 1 and len(state["stacks"]) == 3


def test_follow_up_that_is_impossible_has_no_effect(ded):
    # only one stack exists after the attack: SWAP cannot be done, the turn just ends
    state, events = ded.attack(ded.start(options=TH), "red-L-1", "yellow-M-1", [6, 1, "SWAP"], [2, 2],
                               treehouse=True)
    assert state["phase"] == "attack" and state["active"] == 1
    assert "impossible now" in ded.texts(events)


def test_follow_up_actions_need_the_matching_face(ded):
    start = ded.start(options=TH)
    state, _ = ded.attack(start, "red-L-1", "yellow-M-1", [6, 1, "AIM"], [2, 2], treehouse=True)
    with pytest.raises(IllegalAction, match="DIG needs the Treehouse die to show DIG"):
        ded.game.apply(state, {"type": "dig", "pyramid": "red-S-1"})
    with pytest.raises(IllegalAction, match="cannot attack now"):
        ded.attack(state, "red-L-2", "yellow-M-2")
    with pytest.raises(IllegalAction, match="pass ends a turn"):
        ded.game.apply(state, {"type": "pass"})
    with pytest.raises(IllegalAction, match="skip declines"):
        ded.game.apply(ded.start(), {"type": "skip"})
