"""Dog Eat Dog scoring (rules 1.8, rulings A7 and A12): pools, trees, the closed formula, winners."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.dog_eat_dog.scoring import arrange, best_score, counts_of, winners

COLOURS = ("yellow", "green", "blue")


@cache
def brute_force(counts: tuple[tuple[int, int, int], ...]) -> int:
    """The best score over every way to pull trees out of a pool (counts per colour: small, medium, large)."""
    best = sum(sum(c) for c in counts)  # no more trees: every pyramid scores 1
    colours = range(len(counts))
    for cs in colours:
        for cm in colours:
            for cl in colours:
                rest = [list(c) for c in counts]
                if not (rest[cs][0] and rest[cm][1] and rest[cl][2]):
                    continue
                rest[cs][0] -= 1
                rest[cm][1] -= 1
                rest[cl][2] -= 1
                points = 7 if cs == cm == cl else 5
                best = max(best, points + brute_force(tuple(tuple(c) for c in rest)))
    return best


pools = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(pools)
def test_closed_formula_equals_brute_force_over_every_arrangement(pool):
    counts = {COLOURS[i]: {1: small, 2: medium, 3: large} for i, (small, medium, large) in enumerate(pool)}
    assert best_score(counts) == brute_force(tuple(pool))


def _state_with_pool(ded, pool):
    """A 4-player state in which Alice (red) holds these yellow/green/blue pyramids set aside."""
    state = ded.start(players=4)
    captured = {}
    for colour, sizes in zip(COLOURS, pool, strict=False):
        for letter, count in zip("SML", sizes, strict=True):
            for copy in range(1, count + 1):
                captured[f"{colour}-{letter}-{copy}"] = 0
    return ded.layout(state, captured=captured), list(captured)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pools)
def test_arrangement_is_valid_and_reaches_the_formula(ded, pool):
    state, ids = _state_with_pool(ded, pool)
    result = arrange(state, ids)
    assert result["score"] == best_score(counts_of(state, ids))
    used = [pid for tree in result["trees"] for pid in tree["pyramids"]] + result["loose"]
    assert sorted(used) == sorted(ids)
    for tree in result["trees"]:
        pyramids = [state["pyramids"][pid] for pid in tree["pyramids"]]
        assert [p["size"] for p in pyramids] == [1, 2, 3]
        same = len({p["colour"] for p in pyramids}) == 1
        assert tree["kind"] == ("mono" if same else "mixed") and tree["points"] == (7 if same else 5)


def test_monochrome_tree_scores_seven(ded):
    stacks = [["yellow-S-1", "red-S-1"], ["yellow-M-1", "yellow-L-1", "red-M-1"]]
    state = ded.layout(ded.start(), stacks=stacks)
    row = ded.game.summary(state)["players"][0]
    assert row["score"] == 7
    assert row["trees"] == [{"kind": "mono", "colour": "yellow", "points": 7,
                             "pyramids": ["yellow-S-1", "yellow-M-1", "yellow-L-1"]}]
    assert row["loose"] == [] and row["discarded"] == ["red-S-1", "red-M-1"]


def test_mixed_tree_scores_five_and_other_pyramids_one_each(ded):
    stacks = [["yellow-S-1", "green-M-1", "blue-L-1", "yellow-L-1", "red-M-1"]]
    state = ded.layout(ded.start(players=4), stacks=stacks)
    row = ded.game.summary(state)["players"][0]
    assert row["score"] == 5 + 1
    assert row["trees"][0]["kind"] == "mixed" and len(row["loose"]) == 1


def test_monochrome_trees_come_first_when_colours_allow(ded):
    # S: 2 yellow; M: yellow, green; L: yellow, green -> one mono yellow tree and one mixed tree = 12
    stacks = [["yellow-S-1", "yellow-S-2", "yellow-M-1", "green-M-1", "yellow-L-1", "green-L-1", "red-S-1"]]
    state = ded.layout(ded.start(players=3), stacks=stacks)
    row = ded.game.summary(state)["players"][0]
    assert row["score"] == 12
    assert [t["kind"] for t in row["trees"]] == ["mono", "mixed"]


def test_own_colour_is_discarded_from_the_pool(ded):
    # SWAP can put two reds in a stack Alice controls: neither scores for her
    state = ded.layout(ded.start(options={"treehouse": True}), stacks=[["red-L-2", "yellow-S-1", "red-S-1"]])
    row = ded.game.summary(state)["players"][0]
    assert row["score"] == 1 and row["discarded"] == ["red-L-2", "red-S-1"]


def test_set_aside_pyramids_score_for_their_captor(ded):
    state = ded.layout(ded.start(players=3), captured={"red-M-1": 2, "yellow-L-1": 2, "red-S-1": 1})
    rows = ded.game.summary(state)["players"]
    assert [r["score"] for r in rows] == [0, 1, 2]
    assert rows[2]["captured_pips"] == 5


def test_lone_pyramids_upright_or_tipped_score_for_nobody(ded):
    state = ded.layout(ded.start(), tipped=["yellow-S-1", "red-L-1"])
    assert [r["score"] for r in ded.game.summary(state)["players"]] == [0, 0]


def _finished_tie(ded, tiebreak):
    """A finished 3-player game where Alice (6 pips) and Carol (2 pips) both score 2; Bob has nothing lone."""
    stacks = [["yellow-L-1", "red-L-1"], ["yellow-L-2", "red-L-2"], ["yellow-S-1", "green-S-1"],
              ["yellow-S-2", "green-S-2"],
              ["yellow-S-3", "yellow-M-1", "yellow-M-2", "yellow-M-3", "yellow-L-3"]]
    state = ded.layout(ded.start(players=3, options={"tiebreak": tiebreak}), stacks=stacks)
    state, _ = ded.play(state, {"type": "pass"})
    assert ded.game.is_over(state)
    return state


def test_tied_top_scores_share_the_win(ded):
    summary = ded.game.summary(_finished_tie(ded, "shared"))
    assert [(r["score"], r["captured_pips"]) for r in summary["players"]] == [(2, 6), (0, 0), (2, 2)]
    assert summary["over"] and summary["winners"] == [0, 2] and summary["winner_names"] == ["Alice", "Carol"]


def test_game_over_event_names_a_shared_win(ded):
    state = _finished_tie(ded, "shared")
    assert "Scores: Alice 2, Bob 0, Carol 2. Alice and Carol share the win." in state["recent"][-1]["text"]


def test_captured_pips_tiebreak_option_gives_the_win_to_the_most_pips(ded):
    summary = ded.game.summary(_finished_tie(ded, "captured-pips"))
    assert summary["winners"] == [0] and summary["winner_names"] == ["Alice"]


def test_captured_pips_tiebreak_still_shares_equal_pips():
    rows = [{"seat": 0, "score": 5, "captured_pips": 6}, {"seat": 1, "score": 5, "captured_pips": 6},
            {"seat": 2, "score": 4, "captured_pips": 9}]
    assert winners(rows, "captured-pips") == [0, 1]
    assert winners(rows, "shared") == [0, 1]


def test_summary_before_the_end_has_leaders_but_no_winners(ded):
    state = ded.layout(ded.start(), stacks=[["yellow-S-1", "red-S-1"]])
    summary = ded.game.summary(state)
    assert not summary["over"] and summary["winners"] == [] and summary["leaders"] == [0]
