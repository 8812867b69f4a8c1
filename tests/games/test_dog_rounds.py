"""DOG's flow (rules/dog.md 2.3, D7-D11): deals, the partners' exchange, turns, folding, reshuffling,
what each seat sees, and the game without hands (cards entered as laid)."""

from __future__ import annotations

import pytest

from companion.games import CHANCE, BadOptions, IllegalAction, get
from tests.games.dog_table import GAME, NAMES, play, position

HANDS = {0: ["A", "2", "3", "4", "5", "K"], 1: ["A", "7", "7", "9", "J", "Q"],
         2: ["6", "8", "10", "K", "K", "Joker"], 3: ["A", "A", "2", "3", "J", "Q"]}


def _dealt(options: dict | None = None) -> dict:
    state = GAME.new_game(list(NAMES), options)
    for seat in (2, 0, 3, 1):  # any order
        state, _ = GAME.apply(state, {"type": "deal", "seat": seat, "cards": HANDS[seat]})
    return state


def test_registered_as_dog():
    assert get("dog").title == "DOG"


def test_needs_two_to_six_players_and_known_options():
    with pytest.raises(BadOptions):
        GAME.new_game(NAMES[:1])
    with pytest.raises(BadOptions):
        GAME.new_game(list(NAMES), {"hands": "maybe"})
    with pytest.raises(BadOptions):
        GAME.new_game(list(NAMES), {"canadian_seven": 1})


def test_first_round_deals_six_and_the_seat_after_the_dealer_starts():
    state = GAME.new_game(list(NAMES))
    assert state["phase"] == "deal" and state["hand_size"] == 6 and GAME.current_player(state) == CHANCE
    assert state["dealer"] == 3 and state["starter"] == 0


def test_deal_must_fit_the_hand_size_and_the_stock():
    state = GAME.new_game(list(NAMES))
    with pytest.raises(IllegalAction, match="6 cards"):
        GAME.apply(state, {"type": "deal", "seat": 0, "cards": ["A"] * 5})
    state, _ = GAME.apply(state, {"type": "deal", "seat": 0, "cards": ["Joker"] * 5 + ["2"]})
    with pytest.raises(IllegalAction, match="only 1 more Joker"):
        GAME.apply(state, {"type": "deal", "seat": 1, "cards": ["Joker"] * 2 + ["2"] * 4})
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "deal", "seat": 0, "cards": ["2"] * 6})


def test_deal_lists_every_hand_a_waiting_seat_may_hold():
    state = position()
    state.update(phase="deal", hand_size=2, hands=[["A", "A"], ["A", "A"], ["A", "A"], None])
    state["stock"] = dict.fromkeys(state["stock"], 0) | {"A": 2, "5": 1}
    assert GAME.legal_actions(state) == [{"type": "deal", "seat": 3, "cards": c}
                                         for c in (["A", "A"], ["A", "5"])]


def test_partners_exchange_one_hidden_card_each():
    state = _dealt()
    assert state["phase"] == "exchange" and GAME.current_player(state) == 0
    state, events = play(state, {"type": "give", "seat": 0, "card": "5"})
    assert events[0]["visible_to"] == [0] and "5" not in events[0]["text"]
    assert GAME.view(state, 2)["given"] == [None] * 4 and GAME.view(state, 0)["given"][0] == "5"
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"type": "give", "seat": 1, "card": "K"})
    gifts = [{"type": "give", "seat": 1, "card": "J"}, {"type": "give", "seat": 2, "card": "Joker"},
             {"type": "give", "seat": 3, "card": "Q"}]
    state, events = play(state, *gifts)
    assert state["hands"][0] == ["A", "2", "3", "4", "K", "Joker"]
    assert state["hands"][2] == ["5", "6", "8", "10", "K", "K"]
    assert state["hands"][1] == ["A", "7", "7", "9", "Q", "Q"]
    assert state["phase"] == "play" and state["turn"] == 0


def test_view_shows_a_seat_its_own_hand_only_not_even_the_partners():
    state = _dealt()
    for seat in range(4):
        view = GAME.view(state, seat)
        assert view["hands"][seat] == HANDS[seat]
        assert all(view["hands"][s] is None for s in range(4) if s != seat)
        assert view["stock"] is None and view["cards_left"] == [6] * 4
    assert GAME.view(state, None)["hands"] == [None] * 4


def test_dealt_and_given_cards_are_redacted_for_every_other_seat():
    state = GAME.new_game(list(NAMES))
    deal = {"type": "deal", "seat": 1, "cards": HANDS[1]}
    assert GAME.redact(state, deal, 1) == deal
    assert GAME.redact(state, deal, 3) == {"type": "deal", "seat": 1}
    assert GAME.redact(state, deal, None) == {"type": "deal", "seat": 1}
    assert GAME.redact(state, {"type": "give", "seat": 1, "card": "A"}, 3) == {"type": "give", "seat": 1}
    assert GAME.redact(state, {"type": "start", "card": "A"}, 3) == {"type": "start", "card": "A"}


def test_only_the_next_seat_enters_its_dealt_cards():
    state = GAME.new_game(list(NAMES))
    assert GAME.secret_chance(state) and GAME.chance_seats(state) == [0]
    state, _ = GAME.apply(state, {"type": "deal", "seat": 0, "cards": HANDS[0]})
    assert GAME.chance_seats(state) == [1]
    assert not GAME.secret_chance(_dealt()) and GAME.chance_seats(_dealt()) is None


def test_forced_play_a_playable_hand_cannot_fold():
    state = position(red=[10], hands={0: ["5", "Q"]})
    with pytest.raises(IllegalAction, match="must"):
        GAME.apply(state, {"type": "fold"})


def test_turns_skip_seats_without_cards_and_the_round_ends_when_all_hands_are_empty():
    state = position(red=[10], blue=[20], hands={0: ["2", "2"], 1: [], 2: [], 3: []})
    state, _ = play(state, {"type": "move", "card": "2", "marble": 10, "to": 12})
    assert state["turn"] == 0
    state, events = play(state, {"type": "move", "card": "2", "marble": 12, "to": 14})
    assert state["round"] == 2 and state["phase"] == "deal" and state["hand_size"] == 5
    assert state["starter"] == 1 and events[-1]["type"] == "round"


def _fold_round(state: dict) -> dict:
    """Every seat folds (allowed without hands): the next round is dealt."""
    number = state["round"]
    while state["round"] == number:
        state, _ = GAME.apply(state, {"type": "fold"})
    return state


def test_hand_sizes_cycle_six_to_two_starters_rotate_and_the_stock_is_reshuffled_when_short():
    state = GAME.new_game(list(NAMES), {"hands": "laid"})
    sizes, starters, stock = [], [], []
    for _ in range(7):
        sizes.append(state["hand_size"])
        starters.append(state["starter"])
        stock.append(state["stock_size"])
        state = _fold_round(state)
    assert sizes == [6, 5, 4, 3, 2, 6, 5]
    assert starters == [0, 1, 2, 3, 0, 1, 2]
    assert stock == [86, 66, 50, 38, 30, 6, 90]  # round 7 needs 20 of 6 left: all 110 reshuffled


def test_dealer_is_fixed_or_rotates_by_option():
    fixed = _fold_round(GAME.new_game(list(NAMES), {"hands": "laid", "dealer": 1}))
    rotating = _fold_round(GAME.new_game(list(NAMES), {"hands": "laid", "dealer": 1, "rotate_dealer": True}))
    assert (fixed["dealer"], rotating["dealer"]) == (1, 2)
    assert fixed["starter"] == rotating["starter"] == 3


def test_without_hands_any_card_not_yet_all_laid_may_be_entered():
    state = position(red=[10], hands={0: ["x"], 1: ["x"]}, options={"hands": "laid"})
    assert state["hands"] == [None] * 4
    assert {"type": "fold"} in GAME.legal_actions(state)
    state["seen"]["5"] = 8
    with pytest.raises(IllegalAction, match="all 8"):
        GAME.apply(state, {"type": "move", "card": "5", "marble": 10, "to": 15})
    state, _ = play(state, {"type": "move", "card": "6", "marble": 10, "to": 16})
    assert state["cards_left"][0] == 0 and state["seen"]["6"] == 1 and state["turn"] == 1


def test_the_top_bar_says_what_to_do_on_the_board():
    state = position(red=[10], yellow=[15], hands={0: ["5"], 1: ["2"]})
    state, events = play(state, {"type": "move", "card": "5", "marble": 10, "to": 15})
    prompt = GAME.view(state, 1)["prompt"]
    assert "move red at red 10 to blue start" not in prompt
    assert "move red at red 10 to red 15, send yellow at red 15 home" in prompt and "Ben to play" in prompt
    assert events[0]["text"] == "Ann lays a 5: move red at red 10 to red 15, send yellow at red 15 home."
