"""Scenario tests for the Dice Devils engine: every ability, tie rule, variant and ruling E1..E14."""

from __future__ import annotations

import pytest

from companion.games import CHANCE, BadOptions, IllegalAction
from companion.games.dice_devils import DiceDevils
from companion.games.dice_devils.items import ITEMS, TOTAL_TILES, score, triples

G = DiceDevils()
NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve", "Finn"]
STANDARD = {
    3: ["oberteufel", "putzteufel", "satansbraten"],
    4: ["oberteufel", "spielteufel", "fehlerteufel", "satansbraten"],
    5: ["oberteufel", "spielteufel", "fehlerteufel", "putzteufel", "satansbraten"],
    6: ["oberteufel", "spielteufel", "fehlerteufel", "putzteufel", "springteufel", "satansbraten"],
}


def act(state, action):
    nxt, _ = G.apply(state, action)
    return nxt


def act_events(state, action):
    return G.apply(state, action)


def setup(n, display, ranks=None, options=None, holdings=None):
    """A game at the claim phase of round 1: seats hold `ranks` (default: standard devils in seat order)."""
    state = G.new_game(NAMES[:n], options)
    state = act(state, {"type": "draw_ranks", "ranks": ranks or STANDARD[n]})
    for seat, items in (holdings or {}).items():
        for item in items:
            state["supply"][item] -= 1
            state["collections"][seat].append(item)
    return act(state, {"type": "reveal", "items": display})


def claim_all(state, wanted):
    """Apply claims {seat: display index} in the order the engine asks for them."""
    while state["phase"] == "claim":
        seat = G.current_player(state)
        state = act(state, {"type": "claim", "item": wanted[seat]})
    return state


def roll(state, values):
    return act(state, {"type": "roll", "values": values})


def decide(state, action):
    return act(state, action)


def ranks_of(state, seats):
    return [state["ranks"][s] for s in seats]


# ---- setup and options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n, n_reveal, n_more", [(3, 2, 2), (4, 3, 2), (5, 3, 3), (6, 4, 3)])
def test_devils_and_reveal_count_by_player_count(n, n_reveal, n_more):
    state = G.new_game(NAMES[:n])
    assert state["devils"] == STANDARD[n]
    assert state["reveal_n"] == n_reveal
    assert G.new_game(NAMES[:n], {"more_fights": True})["reveal_n"] == n_more


def test_item_table_has_56_tiles_worth_76_points():
    assert TOTAL_TILES == 56
    assert sum(count * value for count, value in ITEMS.values()) == 76
    assert ITEMS["grill"] == (3, 3) and ITEMS["iron"] == (3, 3)
    assert ITEMS["chili_pepper"] == (4, 2) and ITEMS["hot_bath"] == (4, 2)
    assert sum(1 for count, value in ITEMS.values() if (count, value) == (6, 1)) == 7


def test_variant_selection_of_devils():
    state = G.new_game(NAMES[:3], {"devils": ["springteufel", "oberteufel", "spielteufel"]})
    assert state["devils"] == ["oberteufel", "spielteufel", "springteufel"]


@pytest.mark.parametrize(
    "players, options, words",
    [
        (2, None, "3 to 6 players"),
        (7, None, "3 to 6 players"),
        (3, {"devils": ["spielteufel", "putzteufel", "satansbraten"]}, "needs the Oberteufel"),
        (3, {"devils": ["oberteufel", "putzteufel"]}, "one devil per player"),
        (3, {"devils": ["oberteufel", "oberteufel", "putzteufel"]}, "only once"),
        (3, {"devils": ["oberteufel", "imp", "putzteufel"]}, "unknown devil"),
        (3, {"open_collections": "yes"}, "true or false"),
        (3, {"shuffle": True}, "unknown option"),
    ],
)
def test_bad_setups_are_refused_with_a_sentence(players, options, words):
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(BadOptions, match=words):
        G.new_game(names, options)


def test_rank_draw_is_chance_and_must_be_a_permutation_of_the_devils():
    state = G.new_game(NAMES[:3])
    assert G.current_player(state) == CHANCE
    assert state["draw"]["kind"] == "ranks"
    assert len(G.legal_actions(state)) == 6
    for bad in (["oberteufel", "oberteufel", "putzteufel"], ["oberteufel", "putzteufel"], None):
        with pytest.raises(IllegalAction):
            G.apply(state, {"type": "draw_ranks", "ranks": bad})
    with pytest.raises(IllegalAction, match="rank draw"):
        G.apply(state, {"type": "claim", "item": 0})
    state = act(state, {"type": "draw_ranks", "ranks": ["satansbraten", "oberteufel", "putzteufel"]})
    assert state["ranks"] == ["satansbraten", "oberteufel", "putzteufel"]
    assert state["draw"] == {"kind": "items", "count": 2, "reason": state["draw"]["reason"]}
    assert "Satansbraten (Alice)" in state["draw"]["reason"]


def test_reveal_must_name_items_left_in_the_supply():
    state = G.new_game(NAMES[:6])
    state = act(state, {"type": "draw_ranks", "ranks": STANDARD[6]})
    assert state["draw"]["count"] == 4
    with pytest.raises(IllegalAction, match="only 3 grill"):
        G.apply(state, {"type": "reveal", "items": ["grill"] * 4})
    with pytest.raises(IllegalAction, match="exactly 4"):
        G.apply(state, {"type": "reveal", "items": ["bed"]})
    with pytest.raises(IllegalAction, match="unknown item"):
        G.apply(state, {"type": "reveal", "items": ["bed", "bed", "bed", "sofa"]})
    assert {"type": "reveal", "items": ["iron", "grill", "grill", "grill"]} in G.legal_actions(state)
    assert {"type": "reveal", "items": ["grill"] * 4} not in G.legal_actions(state)
    state = act(state, {"type": "reveal", "items": ["grill", "bed", "grill", "iron"]})
    assert state["display"] == ["grill", "bed", "grill", "iron"]
    assert state["supply"]["grill"] == 1 and state["phase"] == "claim"


# ---- claims and pickups --------------------------------------------------------------------------------
def test_claims_go_in_rank_order_and_every_devil_must_claim():
    ranks = ["satansbraten", "fehlerteufel", "oberteufel", "spielteufel"]
    state = setup(4, ["bed", "scarf", "grill"], ranks=ranks)
    order = []
    while state["phase"] == "claim":
        seat = G.current_player(state)
        order.append(seat)
        assert G.legal_actions(state) == [{"type": "claim", "item": i} for i in range(3)]
        state = act(state, {"type": "claim", "item": len(order) % 3})
    assert ranks_of(state, order) == STANDARD[4]


def test_sole_claimants_take_items_and_unclaimed_items_stay_for_a_top_up():
    state = setup(3, ["bed", "grill"])
    state = claim_all(state, {0: 0, 1: 0, 2: 0})  # all three fight over the bed, the grill stays
    assert state["display"] == ["grill"]
    state = roll(state, [6, 6, 1, 2, 3, 1, 1])  # Oberteufel 12, Putzteufel 5, Satansbraten 2 + 1
    state = decide(state, {"type": "pass"})
    assert state["collections"][0] == ["bed"]
    assert state["round"] == 2 and state["draw"]["count"] == 1  # topped up to N = 2 (E3)
    state = act(state, {"type": "reveal", "items": ["scarf"]})
    state = claim_all(state, {0: 0, 1: 1, 2: 0})
    assert state["collections"][1] == ["scarf"]  # the Putzteufel took it unopposed: no ability, no decision
    assert G.current_player(state) == CHANCE  # the Oberteufel and Satansbraten fight over the grill


def test_option_reveal_n_new_each_round_adds_n_items():
    state = setup(3, ["bed", "grill"], options={"reveal_n_new_each_round": True})
    state = claim_all(state, {0: 0, 1: 0, 2: 0})
    state = roll(state, [6, 6, 1, 2, 3, 1, 1])
    state = decide(state, {"type": "pass"})
    assert state["draw"]["count"] == 2
    state = act(state, {"type": "reveal", "items": ["scarf", "bed"]})
    assert state["display"] == ["grill", "scarf", "bed"]


def test_claiming_refuses_other_actions_and_bad_items():
    state = setup(3, ["bed", "grill"])
    with pytest.raises(IllegalAction, match="must claim"):
        G.apply(state, {"type": "pass"})
    with pytest.raises(IllegalAction, match="0 to 1"):
        G.apply(state, {"type": "claim", "item": 2})
    with pytest.raises(IllegalAction, match="no dice"):
        G.apply(state, {"type": "roll", "values": [1, 2]})


# ---- fights: totals, order, reveals --------------------------------------------------------------------
def test_oberteufel_counts_his_best_two_and_satansbraten_adds_his_lowest_die():
    state = setup(3, ["bed", "grill"])
    state = claim_all(state, {0: 1, 1: 0, 2: 1})
    request = G.roll_request(state)
    assert [(d.kind, d.colour) for d in request.dice] == [("d6", "yellow")] * 3 + [("grey", "grey")] * 2
    assert request.reason == ("Oberteufel (Alice) and Satansbraten (Carol): roll under your cups, "
                              "then reveal your dice")
    state = roll(state, [2, 5, 3, 4, 4])  # Oberteufel 5 + 3 = 8; Satansbraten 4 + 4 + 2 = 10
    fight = state["fights"][0]
    assert fight["totals"] == [8, 10]
    assert fight["winner"] == 2 and fight["losers"] == [0]
    assert state["collections"][2] == ["grill"]


def test_oberteufel_uncontested_still_reveals_for_the_satansbraten():
    state = setup(4, ["bed", "grill", "scarf"])  # Alice Ober, Bob Spiel, Carol Fehler, Dan Satan
    state = claim_all(state, {0: 0, 1: 1, 2: 2, 3: 1})
    assert state["collections"][0] == ["bed"] and state["collections"][2] == ["scarf"]
    request = G.roll_request(state)
    assert request.extra["seats"] == [0, 1, 3]
    assert [d.colour for d in request.dice] == ["yellow"] * 3 + ["black"] * 2 + ["grey"] * 2
    state = roll(state, [1, 6, 6, 5, 5, 3, 4])
    assert state["dice"][0] == [1, 6, 6]
    assert state["fights"][0]["totals"] == [10, 8]  # Satansbraten 3 + 4 + 1
    assert state["decision"]["kind"] == "spielteufel" and G.current_player(state) == 1


def test_oberteufel_fight_first_then_by_best_rank():
    ranks = ["springteufel", "satansbraten", "fehlerteufel", "oberteufel", "putzteufel", "spielteufel"]
    state = setup(6, ["bed", "grill", "scarf", "iron"], ranks=ranks)
    # Fehlerteufel (2) + Springteufel (0) on the bed; Oberteufel (3) + Satansbraten (1) on the grill;
    # Spielteufel (5) + Putzteufel (4) on the scarf; the iron stays.
    state = claim_all(state, {0: 0, 2: 0, 3: 1, 1: 1, 5: 2, 4: 2})
    fights = [(f["item"], ranks_of(state, f["fighters"])) for f in state["fights"]]
    assert fights == [
        ("grill", ["oberteufel", "satansbraten"]),
        ("scarf", ["spielteufel", "putzteufel"]),
        ("bed", ["fehlerteufel", "springteufel"]),
    ]
    assert state["display"] == ["iron"]


def test_black_dice_devils_reveal_in_separate_rolls():
    state = setup(6, ["bed", "grill", "scarf", "iron"])
    state = claim_all(state, {0: 3, 1: 0, 2: 0, 3: 0, 4: 1, 5: 2})
    request = G.roll_request(state)
    assert request.extra["seats"] == [1] and request.player == 1
    state = roll(state, [3, 3])
    assert G.roll_request(state).extra["seats"] == [2]
    state = roll(state, [4, 4])
    assert G.roll_request(state).extra["seats"] == [3]
    assert G.fight_odds(state)[1] > 0 and sum(G.fight_odds(state).values()) == 1


# ---- the Spielteufel --------------------------------------------------------------------------------------
def test_spielteufel_forces_all_opponents_to_reroll_everything_once():
    state = setup(4, ["bed", "grill", "scarf"])
    state = claim_all(state, {0: 0, 1: 0, 2: 1, 3: 0})  # Ober, Spiel, Satan on the bed
    state = roll(state, [6, 6, 6, 2, 2, 4, 4])  # Ober 12, Spiel 4, Satan 8 + 6
    assert state["decision"]["kind"] == "spielteufel"
    assert G.legal_actions(state) == [{"type": "force_reroll"}, {"type": "accept"}]
    with pytest.raises(IllegalAction, match="force a re-roll"):
        G.apply(state, {"type": "pass"})
    state, events = act_events(state, {"type": "force_reroll"})
    request = G.roll_request(state)
    assert request.extra["seats"] == [0, 3] and len(request.dice) == 5  # the Oberteufel re-rolls all 3
    assert "forced by the Spielteufel" in request.reason
    state = roll(state, [1, 1, 2, 1, 1])  # Ober 3 (lowest 1), Satan 1 + 1 + 1 = 3, Spiel keeps 4
    assert state["fights"][0]["totals"] == [3, 4, 3]
    assert state["fights"][0]["winner"] == 1 and state["decision"]["kind"] == "swap"


def test_spielteufel_may_accept_and_gets_no_second_chance_in_a_tie():
    state = setup(4, ["bed", "grill", "scarf"])
    state = claim_all(state, {0: 1, 1: 0, 2: 0, 3: 2})  # Spiel + Fehler on the bed
    assert G.roll_request(state).extra["seats"] == [1]  # no Satansbraten fight: the Oberteufel keeps his cup
    state = roll(state, [5, 5])  # Spiel 10
    state = roll(state, [6, 4])  # Fehler 10
    state = decide(state, {"type": "accept"})
    assert state["fights"][0]["spielteufel_forced"] is False
    assert G.roll_request(state).extra["seats"] == [1]  # the tie: Spielteufel re-rolls first (black)
    state = roll(state, [2, 2])
    state = roll(state, [2, 2])  # tied again at 4
    assert state["fights"][0]["rerolls"] == 2 and state["decision"] is None
    state = roll(state, [6, 6])
    state = roll(state, [1, 1])
    assert state["fights"][0]["winner"] == 1


# ---- ties -------------------------------------------------------------------------------------------------
def test_springteufel_wins_every_tie_he_is_in():
    state = setup(6, ["bed", "grill", "scarf", "iron"])
    state = claim_all(state, {0: 3, 1: 0, 2: 1, 3: 1, 4: 1, 5: 2})  # Fehler, Putz, Spring on the grill
    state = roll(state, [5, 4])
    state = roll(state, [6, 3])
    state = roll(state, [3, 6])
    assert state["fights"][0]["winner"] == 4 and state["fights"][0]["rerolls"] == 0


def test_ties_for_lower_places_do_not_matter_and_only_the_tied_reroll():
    state = setup(6, ["bed", "grill", "scarf", "iron"])
    state = claim_all(state, {0: 3, 1: 0, 2: 1, 3: 1, 4: 1, 5: 2})
    state = roll(state, [5, 5])  # Fehler 10
    state = roll(state, [6, 4])  # Putz 10
    state = roll(state, [1, 2])  # Spring 3
    assert G.roll_request(state).extra["seats"] == [2]
    state = roll(state, [2, 2])
    state = roll(state, [3, 3])
    fight = state["fights"][0]
    assert fight["winner"] == 3 and fight["losers"] == [2, 4] and fight["contenders"] == [2, 3]


def test_satansbraten_rerolls_grey_dice_with_the_oberteufels_lowest_die_kept():
    state = setup(4, ["bed", "grill", "scarf"])
    state = claim_all(state, {0: 0, 1: 2, 2: 1, 3: 1})  # Fehler + Satan on the grill, Ober has the bed
    state = roll(state, [3, 5, 6, 6, 5, 4, 4])  # Ober lowest 3; Fehler 11; Satan 4 + 4 + 3 = 11: tie
    request = G.roll_request(state)
    assert request.extra["seats"] == [2, 3]
    assert [d.kind for d in request.dice] == ["d6", "d6", "grey", "grey"]
    state = roll(state, [4, 4, 3, 3])  # Fehler 8, Satan 3 + 3 + 3 = 9
    assert state["fights"][0]["winner"] == 3


def test_oberteufel_rerolling_in_a_tie_gives_the_satansbraten_a_new_lowest_die():
    state = setup(3, ["bed", "grill"])
    state = claim_all(state, {0: 0, 1: 1, 2: 0})
    state = roll(state, [1, 4, 4, 3, 4])  # Ober 8 (lowest 1), Satan 3 + 4 + 1 = 8: tie
    assert G.roll_request(state).extra["seats"] == [0, 2]
    state = roll(state, [5, 5, 6, 2, 2])  # Ober 11 (lowest 5), Satan 2 + 2 + 5 = 9
    assert state["fights"][0]["totals"] == [11, 9] and state["fights"][0]["winner"] == 0


# ---- the winners' abilities --------------------------------------------------------------------------
def fehler_wins(holdings, options=None):
    """5 players: the Fehlerteufel (Carol) beats the Spielteufel (Bob) and Putzteufel (Dan) for the grill."""
    state = setup(5, ["grill", "bed", "scarf"], options=options, holdings=holdings)
    state = claim_all(state, {0: 1, 1: 0, 2: 0, 3: 0, 4: 2})
    state = roll(state, [1, 1])
    state = roll(state, [6, 6])
    state = roll(state, [1, 2])
    state = decide(state, {"type": "accept"})
    assert state["fights"][0]["winner"] == 2
    return state


def test_fehlerteufel_steals_a_value1_item_the_victim_chooses():
    state = fehler_wins({1: ["bed", "scarf", "grill"]})
    assert state["decision"]["kind"] == "steal" and state["decision"]["losers"] == [1]
    assert G.legal_actions(state) == [{"type": "steal", "from": 1}, {"type": "pass"}]
    state = decide(state, {"type": "steal", "from": 1})
    assert state["decision"] == {**state["decision"], "kind": "give", "player": 1}
    assert G.legal_actions(state) == [{"type": "give", "item": "bed"}, {"type": "give", "item": "scarf"}]
    with pytest.raises(IllegalAction):
        G.apply(state, {"type": "give", "item": "grill"})
    state, events = act_events(state, {"type": "give", "item": "scarf"})
    assert state["collections"][1] == ["bed", "grill"] and state["collections"][2] == ["grill", "scarf"]
    assert "scarf" not in events[0]["text"] and events[0]["visible_to"] == [2, 1]
    assert state["decision"]["kind"] == "swap"


def test_fehlerteufel_takes_the_only_value1_type_and_gets_nothing_from_a_loser_without_one():
    state = fehler_wins({1: ["bed", "bed"], 3: ["grill"]})
    assert state["decision"]["losers"] == [1, 3]
    taken = decide(state, {"type": "steal", "from": 1})
    assert taken["collections"][1] == ["bed"] and taken["decision"]["kind"] == "swap"
    nothing, events = act_events(state, {"type": "steal", "from": 3})
    assert nothing["collections"][3] == ["grill"] and "no value-1 item" in events[0]["text"]


def test_fehlerteufel_with_open_collections_names_the_item():
    state = fehler_wins({1: ["bed", "scarf", "iron"]}, options={"open_collections": True})
    assert G.legal_actions(state) == [
        {"type": "steal", "from": 1, "item": "bed"},
        {"type": "steal", "from": 1, "item": "scarf"},
        {"type": "pass"},
    ]
    state = decide(state, {"type": "steal", "from": 1, "item": "scarf"})
    assert state["collections"][2] == ["grill", "scarf"]


def test_fehlerteufel_without_robbable_losers_goes_straight_to_the_swap():
    state = fehler_wins({})
    assert state["decision"]["kind"] == "swap"


def putz_wins(holdings, options=None):
    """3 players: the Putzteufel (Bob) beats the Oberteufel (Alice) for the grill."""
    state = setup(3, ["grill", "bed"], options=options, holdings=holdings)
    state = claim_all(state, {0: 0, 1: 0, 2: 1})
    state = roll(state, [1, 1, 2, 6, 6])
    assert state["fights"][0]["winner"] == 1
    return state


def test_putzteufel_exchanges_and_picks_the_losers_item_blind():
    state = putz_wins({0: ["iron", "bed"], 1: ["scarf"]})
    assert state["decision"]["kind"] == "exchange"
    assert {"type": "exchange", "give": "grill", "from": 0} in G.legal_actions(state)  # E9: the item just won
    state = decide(state, {"type": "exchange", "give": "scarf", "from": 0})
    assert G.current_player(state) == CHANCE and state["draw"]["kind"] == "blind_pick"
    assert G.legal_actions(state) == [{"type": "pick", "item": "iron"}, {"type": "pick", "item": "bed"}]
    assert "give" not in G.view(state, 2)["draw"] and G.view(state, 0)["draw"]["give"] == "scarf"
    with pytest.raises(IllegalAction, match="enter the tile"):
        G.apply(state, {"type": "pick", "item": "grill"})
    state = act(state, {"type": "pick", "item": "iron"})
    assert sorted(state["collections"][1]) == ["grill", "iron"]
    assert sorted(state["collections"][0]) == ["bed", "scarf"]
    assert state["decision"]["kind"] == "swap"


def test_putzteufel_with_open_collections_chooses_both_items():
    state = putz_wins({0: ["iron", "bed"]}, options={"open_collections": True})
    assert {"type": "exchange", "give": "grill", "from": 0, "take": "iron"} in G.legal_actions(state)
    state = decide(state, {"type": "exchange", "give": "grill", "from": 0, "take": "bed"})
    assert state["collections"][1] == ["bed"] and sorted(state["collections"][0]) == ["grill", "iron"]


def test_putzteufel_may_pass_and_needs_a_loser_with_items():
    state = decide(putz_wins({0: ["iron"]}), {"type": "pass"})
    assert state["decision"]["kind"] == "swap"
    assert putz_wins({})["decision"]["kind"] == "swap"


# ---- rank swap and the end -----------------------------------------------------------------------------
def test_rank_swap_takes_effect_next_round():
    state = putz_wins({})
    assert G.legal_actions(state) == [{"type": "swap", "with": 0}, {"type": "pass"}]
    state = decide(state, {"type": "swap", "with": 0})
    assert state["round"] == 2
    assert state["ranks"] == ["putzteufel", "oberteufel", "satansbraten"]
    state = act(state, {"type": "reveal", "items": ["bed", "scarf"]})
    assert G.current_player(state) == 1  # Bob is the Oberteufel now and claims first


def test_swap_waits_for_the_round_end_while_other_fights_are_pending():
    state = setup(6, ["bed", "grill", "scarf", "iron"])
    state = claim_all(state, {0: 0, 5: 0, 1: 1, 2: 1, 3: 2, 4: 3})  # Ober+Satan, Spiel+Fehler
    state = roll(state, [6, 6, 1, 1, 1])
    state = decide(state, {"type": "swap", "with": 5})
    assert state["ranks"][0] == "oberteufel" and state["next_ranks"][0] == "satansbraten"
    assert state["fight"] == 1 and G.roll_request(state).extra["seats"] == [1]


def test_game_ends_after_the_round_in_which_someone_holds_ten_items():
    state = setup(3, ["grill", "bed"], holdings={2: ["heater"] * 6 + ["scarf"] * 3})
    state = claim_all(state, {0: 0, 1: 0, 2: 1})  # Carol's 10th item, then the fight still happens
    assert len(state["collections"][2]) == 10 and not G.is_over(state)
    state = roll(state, [1, 1, 2, 6, 6])
    state = decide(state, {"type": "pass"})
    assert G.is_over(state) and G.current_player(state) is None and G.legal_actions(state) == []
    assert "Carol holds 10" in state["end_reason"]
    with pytest.raises(IllegalAction, match="over"):
        G.apply(state, {"type": "pass"})


def test_supply_exhaustion_reveals_what_is_left_then_ends():
    state = G.new_game(NAMES[:3])
    state = act(state, {"type": "draw_ranks", "ranks": STANDARD[3]})
    state["supply"] = {item: 0 for item in state["supply"]}
    state["supply"]["grill"] = 1
    state["draw"]["count"] = 1
    state = act(state, {"type": "reveal", "items": ["grill"]})
    state = claim_all(state, {0: 0, 1: 0, 2: 0})
    state = roll(state, [6, 6, 1, 1, 1, 1, 1])
    state = decide(state, {"type": "pass"})
    assert G.is_over(state) and state["end_reason"] == "The supply and the display are empty."


def test_empty_supply_with_items_on_display_keeps_playing_then_ends():
    state = setup(3, ["grill", "bed"])
    state["supply"] = {item: 0 for item in state["supply"]}
    state = claim_all(state, {0: 0, 1: 0, 2: 0})
    state = roll(state, [6, 6, 1, 1, 1, 1, 1])
    state = decide(state, {"type": "pass"})
    assert state["phase"] == "claim" and state["display"] == ["bed"] and state["round"] == 2
    state = claim_all(state, {0: 0, 1: 0, 2: 0})
    state = roll(state, [6, 6, 1, 1, 1, 1, 1])
    state = decide(state, {"type": "pass"})
    assert G.is_over(state) and "empty" in state["end_reason"]


# ---- scoring -------------------------------------------------------------------------------------------
def test_score_is_values_plus_three_per_triple():
    assert triples(["bed"] * 6 + ["grill"] * 2) == 2
    assert score(["bed"] * 6 + ["grill"] * 2) == 6 + 6 + 6
    assert score(["grill"] * 3 + ["hot_bath"]) == 9 + 3 + 2
    assert score([]) == 0


def finished(n, collections, ranks):
    state = G.new_game(NAMES[:n])
    state.update(phase="over", collections=collections, ranks=ranks, next_ranks=ranks)
    return state


def test_final_tie_goes_to_the_springteufel():
    ranks = STANDARD[6]
    collections = [["bed"], ["grill"], [], [], ["iron"], []]
    summary = G.summary(finished(6, collections, ranks))
    assert summary["scores"]["Bob"] == summary["scores"]["Eve"] == 3
    assert summary["winners"] == ["Eve"] and summary["tie_break"] == "springteufel"


def test_final_tie_without_springteufel_goes_to_the_highest_rank():
    ranks = ["satansbraten", "putzteufel", "oberteufel"]
    summary = G.summary(finished(3, [["grill"], ["iron"], ["bed", "scarf", "tea_cup"]], ranks))
    assert summary["winners"] == ["Carol"] and summary["tie_break"] == "highest rank"
    summary = G.summary(finished(3, [["bed"] * 3, ["iron"], []], ranks))
    assert summary["scores"] == {"Alice": 6, "Bob": 3, "Carol": 0}
    assert summary["triples"] == {"Alice": 1, "Bob": 0, "Carol": 0}
    assert summary["winners"] == ["Alice"] and summary["tie_break"] is None


# ---- views ---------------------------------------------------------------------------------------------
def test_view_shows_own_collection_rank_and_ability_only():
    state = putz_wins({0: ["iron", "bed"], 2: ["scarf"]})
    view = G.view(state, 1)
    assert view["collections"] == [None, ["grill"], None]
    assert view["collection_sizes"] == [2, 1, 2]
    assert view["supply"] is None and view["supply_count"] == TOTAL_TILES - 5
    assert view["you"]["rank"] == "putzteufel" and "exchange" in view["you"]["ability"]
    assert view["ranks"] == state["ranks"] and view["fights"] == state["fights"]
    spectator = G.view(state, None)
    assert spectator["collections"] == [None, None, None] and "you" not in spectator
    open_state = putz_wins({0: ["iron"]}, options={"open_collections": True})
    assert G.view(open_state, None)["collections"] == [["iron"], ["grill"], ["bed"]]
    assert G.view(open_state, None)["supply"]["iron"] == 2


def test_fight_odds_before_the_reveal_sum_to_one():
    state = setup(3, ["bed", "grill"])
    state = claim_all(state, {0: 0, 1: 1, 2: 0})
    odds = G.fight_odds(state)
    assert set(odds) == {0, 2} and sum(odds.values()) == 1 and odds[0] > odds[2]
    assert G.fight_odds(roll(state, [1, 4, 4, 3, 4])) is None


def test_decisions_refuse_true_as_a_seat_and_unknown_targets():
    state = putz_wins({})
    for bad, words in (({"type": "swap", "with": True}, "a seat is a whole number from 0 to 2, not true"),
                       ({"type": "swap", "with": 0.0}, "a seat is a whole number from 0 to 2, not 0.0"),
                       ({"type": "swap", "with": 2}, "must swap rank"),
                       ({"type": "swap"}, 'swap needs "with"')):
        with pytest.raises(IllegalAction, match=words):
            G.apply(state, bad)


# ---- secrets: refusals, redaction, who enters a hidden draw --------------------------------------------
def blind_pick_from(holdings):
    state = putz_wins(holdings)
    return decide(state, {"type": "exchange", "give": "scarf", "from": 0})


def refusal(state, action):
    with pytest.raises(IllegalAction) as err:
        G.apply(state, action)
    return str(err.value)


def test_a_blind_pick_refusal_reads_the_same_whatever_the_pile_holds():
    """Before: "Oberteufel (Alice) has no grill to draw" told a prober what the pile lacked."""
    with_grill = blind_pick_from({0: ["grill", "bed"], 1: ["scarf"]})
    without = blind_pick_from({0: ["iron", "bed"], 1: ["scarf"]})
    answers = {refusal(state, {"type": "pick", "item": item})
               for state in (without,) for item in ("grill", "hot_bath", "scarf")}
    answers |= {refusal(with_grill, {"type": "pick", "item": item}) for item in ("iron", "hot_bath")}
    assert len(answers) == 1, answers
    assert "grill" not in answers.pop()
    # a name that is no item at all is refused by its shape, in the same words whatever the pile holds
    unknown = {refusal(state, {"type": "pick", "item": "no-such-item"}) for state in (with_grill, without)}
    assert unknown == {"pick \"item\": unknown item 'no-such-item'; items: " + ", ".join(ITEMS)}


def test_only_the_putzteufel_and_the_loser_are_concerned_by_a_blind_pick():
    state = blind_pick_from({0: ["iron", "bed"], 1: ["scarf"]})
    assert G.secret_chance(state) and G.chance_seats(state) == [1, 0]
    ranks = G.new_game(NAMES[:3])
    items = act(ranks, {"type": "draw_ranks", "ranks": STANDARD[3]})
    for public in (ranks, items):  # the rank draw and the items turned face up: any seat enters them
        assert not G.secret_chance(public) and G.chance_seats(public) is None
    fight = claim_all(setup(3, ["grill", "bed"]), {0: 0, 1: 0, 2: 1})
    assert not G.secret_chance(fight) and G.chance_seats(fight) == [0, 1]  # the fighters who reveal


def test_secret_items_are_redacted_for_everyone_who_may_not_know_them():
    state = putz_wins({0: ["iron", "bed"], 1: ["scarf"]})
    exchange = {"type": "exchange", "give": "scarf", "from": 0}
    assert G.redact(state, exchange, 1) == exchange
    assert G.redact(state, exchange, 0) == G.redact(state, exchange, None) == {"type": "exchange", "from": 0}
    picking = decide(state, exchange)
    pick = {"type": "pick", "item": "iron"}
    assert G.redact(picking, pick, 0) == G.redact(picking, pick, 1) == pick
    assert G.redact(picking, pick, 2) == G.redact(picking, pick, None) == {"type": "pick"}
    claim = {"type": "claim", "item": 0}
    assert G.redact(setup(3, ["grill", "bed"]), claim, None) == claim
    opened = putz_wins({0: ["iron", "bed"]}, options={"open_collections": True})
    trade = {"type": "exchange", "give": "grill", "from": 0, "take": "bed"}
    assert G.redact(opened, trade, None) == trade
