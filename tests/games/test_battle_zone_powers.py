"""Battle Zone scenario tests: the five powers over a pyramid's range (3.1 table), the range rulings (B1),
supply shortages (B3, B9), transport step by step (B8), and every piece in range hit (B10)."""

from __future__ import annotations

from companion.games.battle_zone import BattleZone, supply
from companion.games.battle_zone.board import zone

G = BattleZone()
ACTIVATE_D4 = {"type": "activate", "die": 0, "square": "d4"}


# ---- range (3.2, B1) ------------------------------------------------------------------------------------
def test_filled_range_is_every_square_at_king_distance_1_to_pips_without_the_centre():
    assert [len(zone("d4", r)) for r in (1, 2, 3)] == [8, 24, 48]
    assert "d4" not in zone("d4", 3)


def test_range_is_clipped_at_the_edges():
    assert sorted(zone("a1", 1)) == ["a2", "b1", "b2"]
    assert len(zone("a1", 3)) == 15


def test_ring_range_is_only_the_squares_at_exactly_pips():
    assert len(zone("d4", 2, ring=True)) == 16
    assert "d5" not in zone("d4", 2, ring=True) and "d6" in zone("d4", 2, ring=True)


def test_ring_option_spares_pyramids_closer_than_the_ring(bz):
    pieces = {"d4": ("red", 2, 0), "d5": ("blue", 1, 1), "d6": ("blue", 2, 1)}
    state, _ = bz.play(bz.position(pieces, dice=(1, 5, 5)), ACTIVATE_D4)
    assert set(state["board"]) == {"d4"}
    state = bz.position(pieces, dice=(1, 5, 5), options={"range": "ring"})
    state, _ = bz.play(state, ACTIVATE_D4)
    assert set(state["board"]) == {"d4", "d5"}


# ---- destroy (1) ----------------------------------------------------------------------------------------
def test_destroy_returns_every_pyramid_in_range_to_the_supply_own_and_upright_ones_too(bz):
    pieces = {"d4": ("red", 1, 0), "c3": ("red", 3, 0), "e5": ("blue", 2, None), "d5": ("green", 1, 1),
              "f6": ("yellow", 1, 1)}
    state, events = bz.play(bz.position(pieces, dice=(1, 5, 5)), ACTIVATE_D4)
    assert set(state["board"]) == {"d4", "f6"}
    assert state["supply"]["red"] == [2, 3, 3] and state["supply"]["blue"] == [3, 3, 3]
    assert supply.total(state) == 45
    assert "Return the large red on c3, the small green on d5 and the medium blue on e5 to the supply" \
        in bz.texts(events)


# ---- control (2) ----------------------------------------------------------------------------------------
def test_control_puts_every_pyramid_in_range_under_your_control(bz):
    pieces = {"d4": ("blue", 1, 0), "c3": ("red", 3, 1), "e5": ("green", 2, None), "d5": ("black", 1, 0)}
    state, events = bz.play(bz.position(pieces, dice=(2, 5, 5)), ACTIVATE_D4)
    controllers = {sq: p["controller"] for sq, p in state["board"].items()}
    assert controllers == {"d4": None, "c3": 0, "e5": 0, "d5": 0}
    assert "Lay the large red on c3 and the medium green on e5 pointing at Bob" in bz.texts(events)


# ---- upgrade power (3, B3, B9) --------------------------------------------------------------------------
def test_upgrade_power_grows_every_pyramid_in_range_keeping_its_orientation(bz):
    pieces = {"d4": ("green", 1, 0), "c3": ("red", 1, 1), "e5": ("blue", 2, None)}
    state, _ = bz.play(bz.position(pieces, dice=(3, 5, 5)), ACTIVATE_D4)
    board = state["board"]
    assert board["c3"] == {"colour": "red", "size": 2, "controller": 1}
    assert board["e5"] == {"colour": "blue", "size": 3, "controller": None}
    assert board["d4"] == {"colour": "green", "size": 1, "controller": None}  # never its own power (B9)
    assert supply.total(state) == 45


def test_upgrade_power_removes_larges_and_pyramids_whose_larger_size_is_missing(bz):
    pieces = {"d4": ("green", 1, 0), "c3": ("red", 3, 1), "e5": ("blue", 1, None)}
    state = bz.position(pieces, dice=(3, 5, 5), empty_supply=[("blue", 2)])
    state, events = bz.play(state, ACTIVATE_D4)
    assert set(state["board"]) == {"d4"}
    assert state["supply"]["red"] == [3, 3, 3] and state["supply"]["blue"] == [3, 0, 3]
    assert "a large cannot grow" in bz.texts(events) and "no medium blue is left" in bz.texts(events)


def test_upgrade_power_resolves_larges_then_mediums_then_smalls_so_freed_pieces_refill_the_supply(bz):
    # every red large but the one in range is gone, every medium but the one in range too:
    # the large leaves first, so the medium grows, and its medium lets the small grow (B9)
    pieces = {"d4": ("green", 1, 0), "c3": ("red", 3, 1), "c4": ("red", 2, 0), "c5": ("red", 1, None)}
    state = bz.position(pieces, dice=(3, 5, 5), empty_supply=[("red", 3), ("red", 2)])
    state, _ = bz.play(state, ACTIVATE_D4)
    assert "c3" not in state["board"]
    assert state["board"]["c4"] == {"colour": "red", "size": 3, "controller": 0}
    assert state["board"]["c5"] == {"colour": "red", "size": 2, "controller": None}
    assert state["supply"]["red"] == [3, 0, 0] and supply.total(state) == 45


def test_when_the_supply_is_short_the_player_picks_which_pyramids_grow_and_the_rest_leave(bz):
    pieces = {"d4": ("green", 1, 0), "c3": ("red", 1, 1), "c4": ("red", 1, 0), "c5": ("red", 1, None)}
    state = bz.position(pieces, dice=(3, 5, 5))
    state["supply"]["red"][1] = 1  # one red medium left: two more sit in the exits
    state["exited"][1] += [{"colour": "red", "size": 2}] * 2
    state, events = bz.play(state, ACTIVATE_D4)
    assert G.legal_actions(state) == [{"type": "grow", "square": sq} for sq in ("c3", "c4", "c5")]
    assert "Only 1 medium red left for 3 small reds" in bz.texts(events)
    assert "picks which pyramid to upgrade" in bz.refused(state, {"type": "end"})
    assert "pick one of" in bz.refused(state, {"type": "grow", "square": "d4"})
    state, _ = bz.play(state, {"type": "grow", "square": "c4"})
    assert set(state["board"]) == {"d4", "c4"} and state["board"]["c4"]["size"] == 2
    assert state["pending"] is None and supply.total(state) == 45


# ---- transport (4, B8) ----------------------------------------------------------------------------------
def test_transport_moves_up_to_x_pyramids_to_empty_squares_in_range_keeping_orientation(bz):
    pieces = {"d4": ("yellow", 2, 0), "c3": ("red", 1, 1), "e5": ("blue", 3, None), "e4": ("black", 1, 0)}
    state, _ = bz.play(bz.position(pieces, dice=(4, 5, 5)), ACTIVATE_D4)
    picks = G.legal_actions(state)
    assert picks == [{"type": "transport", "square": sq} for sq in ("c3", "e4", "e5")] + [{"type": "stop"}]
    state, _ = bz.play(state, {"type": "transport", "square": "c3"})
    puts = [a["square"] for a in G.legal_actions(state) if a["type"] == "put"]
    assert len(puts) == 24 - 3 and "c3" not in puts and "f6" in puts and "g7" not in puts
    state, events = bz.play(state, {"type": "put", "square": "f6"})
    assert state["board"]["f6"] == {"colour": "red", "size": 1, "controller": 1}
    assert "Move the small red from c3 to f6" in bz.texts(events)
    assert {"type": "transport", "square": "f6"} not in G.legal_actions(state)  # not twice
    state, _ = bz.play(state, {"type": "transport", "square": "e5"}, {"type": "put", "square": "b2"})
    assert state["pending"] is None  # X = 2 done
    assert state["board"]["b2"] == {"colour": "blue", "size": 3, "controller": None}


def test_transport_may_stop_early(bz):
    pieces = {"d4": ("yellow", 3, 0), "c3": ("red", 1, 1)}
    state, _ = bz.play(bz.position(pieces, dice=(4, 5, 5)), ACTIVATE_D4,
                       {"type": "stop"})
    assert state["pending"] is None and state["board"]["c3"]["colour"] == "red"


def test_transport_counts_x_after_the_downgrade(bz):
    pieces = {"d4": ("yellow", 3, None), "c3": ("red", 1, 1), "c4": ("red", 1, 1), "c5": ("red", 1, 1)}
    state, _ = bz.play(bz.position(pieces, dice=(4, 5, 5)), ACTIVATE_D4)
    assert state["pending"]["left"] == 2
    state, _ = bz.play(state, {"type": "transport", "square": "c3"}, {"type": "put", "square": "b2"},
                       {"type": "transport", "square": "c4"}, {"type": "put", "square": "b4"})
    assert state["pending"] is None and "c5" in state["board"]


def test_transport_refuses_a_square_out_of_range_or_taken(bz):
    pieces = {"d4": ("yellow", 1, 0), "c3": ("red", 1, 1), "c4": ("red", 1, 1)}
    state, _ = bz.play(bz.position(pieces, dice=(4, 5, 5)), ACTIVATE_D4,
                       {"type": "transport", "square": "c3"})
    assert "empty square in range" in bz.refused(state, {"type": "put", "square": "a1"})
    assert "empty square in range" in bz.refused(state, {"type": "put", "square": "c4"})
    assert "empty square in range" in bz.refused(state, {"type": "put", "square": "d4"})
    assert "not now" in bz.refused(state, {"type": "place", "die": 1, "square": "a1"})


def test_transport_with_nothing_in_range_ends_at_once(bz):
    state, _ = bz.play(bz.position({"d4": ("yellow", 1, 0)}, dice=(4, 5, 5)),
                       ACTIVATE_D4)
    assert state["pending"] is None


# ---- freeze (5) -----------------------------------------------------------------------------------------
def test_freeze_stands_up_every_lying_pyramid_in_range_without_activating_it(bz):
    pieces = {"d4": ("black", 1, 0), "c3": ("red", 1, 1), "e5": ("blue", 3, 0), "d6": ("red", 1, 1)}
    state, events = bz.play(bz.position(pieces, dice=(5, 4, 4)), ACTIVATE_D4)
    assert {sq: p["controller"] for sq, p in state["board"].items()} == {"d4": None, "c3": None, "e5": None,
                                                                         "d6": 1}
    assert {sq: p["size"] for sq, p in state["board"].items()} == {"d4": 1, "c3": 1, "e5": 3, "d6": 1}
    assert "Stand up the small red on c3 and the large blue on e5" in bz.texts(events)
