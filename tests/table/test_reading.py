"""Matching a camera reading to the roll that was asked for."""

from companion.games import D6, GREY, TREEHOUSE, DieRequest, RollRequest
from companion.reading import match_reading


def die(value, kind="d6", colour="white", confidence=0.95):
    return {"value": value, "kind": kind, "colour": colour, "box": [0, 0, 1, 1], "confidence": confidence}


def test_dice_are_placed_by_kind_in_the_order_asked():
    request = RollRequest(0, (DieRequest(D6), DieRequest(TREEHOUSE)), "Alice: attack")
    proposal = match_reading(request, [die("HOP", "treehouse", "black"), die(4)])
    assert proposal.certain and proposal.values == [4, "HOP"]


def test_colours_tell_whose_dice_are_whose():
    request = RollRequest(None, (DieRequest(D6, "yellow"),) * 3 + (DieRequest(GREY),) * 2, "fight")
    read = [die(6, colour="yellow"), die(2, "grey", "grey"), die(1, colour="yellow"), die(4, "grey", "grey"),
            die(3, colour="yellow")]
    proposal = match_reading(request, read)
    assert proposal.certain
    assert sorted(proposal.values[:3]) == [1, 3, 6] and sorted(proposal.values[3:]) == [2, 4]


def test_an_extra_die_in_the_tray_makes_the_reading_uncertain():
    request = RollRequest(0, (DieRequest(D6),), "one die")
    proposal = match_reading(request, [die(3), die(5)])
    assert not proposal.certain
    assert "expected 1 die, saw 2" in proposal.problems


def test_a_missing_die_leaves_no_values():
    request = RollRequest(0, (DieRequest(D6),) * 3, "three dice")
    proposal = match_reading(request, [die(3), die(5)])
    assert proposal.values is None and not proposal.certain
    assert "expected 3 dice, saw 2" in proposal.problems


def test_an_impossible_face_is_refused():
    request = RollRequest(0, (DieRequest(GREY),), "grey")
    proposal = match_reading(request, [die(6, "grey", "grey")])
    assert not proposal.certain and proposal.values is None


def test_white_dice_read_as_grey_in_a_dim_room_fill_a_roll_of_d6s():
    # in poor light a white d6 looks grey, and beside only its like the reader takes it for the grey die
    request = RollRequest(0, (DieRequest(D6),) * 3, "Alice: attack")
    proposal = match_reading(request, [die(3, "grey", "grey"), die(4, "grey", "grey"), die(6, "d6", "grey")])
    assert proposal.certain and sorted(proposal.values) == [3, 4, 6]
    coloured = RollRequest(0, (DieRequest(D6, "yellow"),), "yellow")  # a yellow d6 never looks grey
    assert match_reading(coloured, [die(3, "grey", "grey")]).values is None


def test_a_grey_die_read_as_white_fills_a_roll_of_grey_dice_with_its_faces_only():
    request = RollRequest(0, (DieRequest(GREY, "grey"),) * 2, "Satansbraten")
    proposal = match_reading(request, [die(3), die(2, "grey", "grey")])  # one under the lamp looks white
    assert proposal.certain and sorted(proposal.values) == [2, 3]
    assert match_reading(request, [die(5), die(2, "grey", "grey")]).values is None  # no 5 on a grey die


def test_dice_of_both_kinds_asked_are_not_swapped():
    request = RollRequest(None, (DieRequest(D6, "white"), DieRequest(GREY)), "both")
    proposal = match_reading(request, [die(3, "grey", "grey"), die(4, "grey", "grey")])
    assert not proposal.certain and proposal.values is None


def test_each_die_says_whether_it_was_read_as_surely_as_the_table_asks():
    request = RollRequest(0, (DieRequest(D6), DieRequest(D6)), "two dice")
    proposal = match_reading(request, [die(3, confidence=0.85), die(5, confidence=0.95)], min_confidence=0.9)
    assert [d["sure"] for d in proposal.dice] == [False, True]
    assert not proposal.certain and proposal.problems == ["the 3 on the white die is unclear"]
    assert match_reading(request, [die(3, confidence=0.85), die(5)], min_confidence=0.8).certain
