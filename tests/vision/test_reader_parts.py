"""Parts of the dice reader on hand-made pips: what counts as clutter on a face, and fits read on a
halved copy of the frame."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.colours import colour_name
from vision.dice import (
    _amid_glyphs,
    _body_face,
    _crowding,
    _fit_group,
    _kind,
    _local_faces,
    _marks,
    _may_be_beside,
    _on_slots,
    _one_side,
    _out_of_scale,
    _pip_like,
    _placed,
    _same_die,
    _scaled,
    _side_face,
    _uncluttered,
)
from vision.faces import fit_layout
from vision.pips import Pip

PITCH = 12.0  # px between pip slots of the hand-made 6 below


def _pip(x: float, y: float, solidity: float = 0.95, elongation: float = 1.05) -> Pip:
    return Pip(x, y, diameter=8.0, area=50, polarity=-1, contrast=60.0, elongation=elongation,
               solidity=solidity)


def _clutter(fit, pips: list[Pip], value: int) -> float:
    return _uncluttered(fit, _crowding([fit], _marks(pips))[0], value)


def _six(solidity: float = 0.95) -> list[Pip]:
    return [_pip(100 + dx * PITCH, 100 + dy * PITCH, solidity) for dx in (-1, 1) for dy in (-1, 0, 1)]


def test_the_rest_of_a_six_is_not_clutter_when_the_face_reads_six():
    six = _six()
    fit = fit_layout([six[0], six[5]])  # only the diagonal was grouped: a 2 as wide as the 6
    assert fit is not None and fit.value == 2
    assert _clutter(fit, six, 6) == 1.0
    assert _clutter(fit, six, 2) == 0.0  # as a 2, four strong marks crowd it


def test_letters_around_dots_are_clutter_whatever_the_value():
    letters = _six(solidity=0.5)  # glyphs: strong marks, but not solid round spots
    fit = fit_layout([_pip(88, 88), _pip(112, 112)])
    assert _clutter(fit, [*fit.pips, *letters[1:5]], 6) == 0.0


def test_a_fit_from_a_halved_copy_is_given_in_frame_pixels():
    fit = fit_layout([_pip(50, 50), _pip(62, 62)])
    big = _scaled(fit, 2)
    assert (big.cx, big.cy) == (2 * fit.cx, 2 * fit.cy)
    assert abs(big.side - 2 * fit.side) < 1e-9
    assert [p.diameter for p in big.pips] == [16.0, 16.0]


def test_spots_of_a_halved_copy_are_given_in_frame_pixels():
    row = _marks([_pip(50, 40)], scale=2)[0]
    assert row[[0, 1, 3]].tolist() == [100, 80, 16]  # x, y, diameter
    assert row[[2, 5, 6]].tolist() == [60.0, 1.05, 0.95]  # contrast and shape do not scale


def _face(cx: float, cy: float, pitch: float = PITCH) -> object:
    """A 4 centred on (cx, cy) px."""
    fit = fit_layout([_pip(cx + dx * pitch, cy + dy * pitch) for dx in (-1, 1) for dy in (-1, 1)])
    assert fit is not None and fit.value == 4
    return fit


WHITE = np.array([200.0, 202.0, 205.0])  # BGR of a white die's top face, lit from above
LIT = (WHITE * 0.85, WHITE)  # the bodies of a white face in shade beside a white top face


def test_a_shaded_face_of_the_same_colour_beside_a_top_face_is_its_side_face():
    top, beside = _face(100, 100), _face(100, 100 + 1.1 * _face(0, 0).side)
    assert _side_face(beside, WHITE * 0.85, top, WHITE)
    assert not _side_face(top, WHITE, beside, WHITE * 0.85)  # the brighter face is the top one


def test_a_neighbour_die_is_not_a_side_face():
    top = _face(100, 100)
    beside = _face(100, 100 + 1.1 * top.side)
    assert not _side_face(beside, WHITE * 0.97, top, WHITE)  # lit alike: two dice side by side
    assert not _side_face(beside, np.array([40.0, 40.0, 190.0]), top, WHITE)  # a red die
    black = np.array([30.0, 30.0, 30.0])
    assert not _side_face(beside, black * 0.87, top, black)  # dark dice: light varies as much
    red = np.array([48.0, 38.0, 222.0])
    assert not _side_face(beside, red * 0.85, top, red)  # a red die in a darker corner of the table
    grey = _face(100, 100 + 0.9 * top.side, pitch=0.72 * PITCH)  # the small grey die, darker and smaller
    assert not _side_face(grey, WHITE * 0.7, top, WHITE)
    far = _face(100, 100 + 2.5 * top.side)
    assert not _side_face(far, WHITE * 0.85, top, WHITE)


def test_squashed_pips_beside_a_top_face_are_its_side_face_only_in_the_same_ink():
    top = _face(100, 100)
    squashed = [_pip(100 + dx * PITCH, 100 + 1.1 * top.side + dy * PITCH, elongation=1.6)
                for dx in (-1, 1) for dy in (-1, 1)]
    beside = fit_layout(squashed)
    assert beside is not None
    assert _same_die(beside, top, *LIT)  # dark pips seen at a slant: the top face's die
    light = fit_layout([replace(p, polarity=1) for p in squashed])  # light pips: a black die touching it
    assert light is not None and not _same_die(light, top, *LIT)
    yellow, white = np.array([40.0, 200.0, 220.0]), np.array([215.0, 220.0, 220.0])
    assert _same_die(beside, top, white * 0.8, white)  # in shade, the top face's hue
    assert not _same_die(beside, top, yellow, white)  # dark pips on a yellow die touching a white one


def test_a_face_showing_the_top_value_or_its_opposite_is_no_side_face_of_it():
    top = fit_layout([_pip(100 - PITCH, 100 - PITCH), _pip(100 + PITCH, 100 + PITCH)])  # a 2
    assert top is not None and top.value == 2  # its side faces show 1, 3, 4 or 6
    y = 100 + 1.1 * top.side

    def slanted(*slots: tuple[int, int]):
        return fit_layout([_pip(100 + dx * PITCH, y + dy * PITCH, elongation=1.6) for dx, dy in slots])

    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    for face, value in [(slanted((-1, -1), (1, 1)), 2), (slanted(*corners, (0, 0)), 5)]:
        assert face is not None and face.value == value and not _same_die(face, top, *LIT)  # a touching die
    three = slanted((-1, -1), (0, 0), (1, 1))
    assert three is not None and three.value == 3 and _same_die(three, top, *LIT)  # may be its side face
    assert _may_be_beside(3, 4) and _may_be_beside(4, 4)  # the grey die's 3 and 4 stand for a 5 and 6 too
    assert not _may_be_beside(6, 1) and not _may_be_beside(1, 1) and _may_be_beside(2, 1)


def test_pips_drawn_out_towards_a_top_face_are_a_touching_die_not_its_side_face():
    top = _face(100, 100)
    # the die below: a slant squashes its side face's pips along the way down, so their long axes lie
    # across it (axis 0, along x); pips drawn out along that way (a glint, a slide) are another die's
    across = fit_layout([_pip(100 + dx * PITCH, 100 + 1.1 * top.side + dy * PITCH, elongation=1.6)
                         for dx in (-1, 1) for dy in (-1, 1)])
    along = fit_layout([replace(p, axis=math.pi / 2) for p in across.pips])
    assert _same_die(across, top, *LIT) and not _same_die(along, top, *LIT)


def test_a_1_with_a_big_pip_touching_a_die_is_a_die_of_its_own():
    top = _face(100, 100)
    x = 100 + top.side  # the 1's centre: the two dice touch
    one = fit_layout([replace(_pip(x, 100), diameter=0.38 * top.side)])  # a big pip: a big guess
    assert one is not None and 0.7 * one.side > x - 100  # so big that the 4's centre is on its face
    assert not _same_die(one, top, *LIT) and not _same_die(top, one, *LIT)  # a 1's pip is larger by design
    part = fit_layout([_pip(100 + PITCH, 100 + PITCH)])  # one pip of the 4 itself, proposed as a 1
    assert part is not None and _same_die(part, top, *LIT)


def test_a_light_spot_amid_light_glyphs_is_a_key_not_a_1():
    one = fit_layout([replace(_pip(100, 100), polarity=1, diameter=12.0)])
    assert one is not None and one.value == 1
    step = one.side  # the keys beside it, a face's side apart

    def letter(x: float, y: float, solidity: float = 0.6, elongation: float = 1.3) -> Pip:
        return replace(_pip(x, y, solidity, elongation), polarity=1)

    keys = [letter(100 - step, 100), letter(100 + step, 100), letter(100, 100 + step)]
    assert _amid_glyphs(one, _marks([*one.pips, *keys]))
    assert not _amid_glyphs(one, _marks([*one.pips, *keys[:1]]))  # one letter: not yet a keyboard
    pips = [letter(x, y, 0.95, 1.05) for x, y in ((100 - step, 100), (100 + step, 100), (100, 100 + step))]
    assert not _amid_glyphs(one, _marks([*one.pips, *pips]))  # round solid pips: dice touching it
    far = [letter(100 - 3 * step, 100), letter(100 + 3 * step, 100), letter(100, 100 + 3 * step)]
    assert not _amid_glyphs(one, _marks([*one.pips, *far]))


def test_a_dark_face_far_smaller_than_the_dice_around_is_not_a_die():
    dice = [_face(100, 100), _face(300, 100), _face(200, 300)]
    key = _face(400, 300, pitch=0.5 * PITCH)  # a key's symbol read as a face: half the size of the dice
    assert _out_of_scale(key, "black", dice)
    assert not _out_of_scale(key, "grey", dice)  # it may be the small grey die
    dot = _face(400, 300, pitch=0.3 * PITCH)  # far smaller than even the grey die: print
    assert _out_of_scale(dot, "white", dice)
    assert _out_of_scale(key, "black", dice[:1])  # one die beside it, its size known from its pips
    one = fit_layout([_pip(100, 100)])  # a 1's size is guessed from its pip: it tells too little
    assert not _out_of_scale(key, "black", [replace(one, pips=(replace(one.pips[0], diameter=20.0),))])
    assert not _out_of_scale(key, "black", [])
    assert not _out_of_scale(_face(400, 300, pitch=0.8 * PITCH), "black", dice)  # farther from the camera


def _small_pip(x: float, y: float) -> Pip:
    return Pip(x, y, diameter=5.5, area=24, polarity=-1, contrast=50.0, elongation=1.5, solidity=0.95)


def test_a_top_face_joined_to_its_side_face_is_found_among_the_pips():
    six = _six()  # centred on (100, 100), rows 12 px apart
    side = [_small_pip(100 + dx * PITCH, 100 + 2.6 * PITCH) for dx in (-1, 0, 1)]  # a 3 seen at a slant
    fits = _local_faces([*six, *side])
    assert sorted((f.value, round(f.cx), round(f.cy)) for f in fits) == [(3, 100, 131), (6, 100, 100)]


def test_a_2_touching_a_die_of_its_colour_is_found_among_the_pips():
    three = [_pip(100 + d * PITCH, 100 + d * PITCH) for d in (-1, 0, 1)]
    x = 100 + 3.8 * PITCH  # the 2's centre: the faces (about 46 px) touch, and all five pips made one group
    two = [_pip(x - PITCH, 100 + PITCH), _pip(x + PITCH, 100 - PITCH)]
    fits = _local_faces([*three, *two])
    assert sorted((f.value, round(f.cx), round(f.cy)) for f in fits) == [(2, round(x), 100), (3, 100, 100)]


def test_a_face_joined_to_a_stronger_pip_of_another_die_is_proposed_whole():
    # a green 5 and, below it, the white pip of a black die: stronger, so it looked like the top face
    # and the 5 like its shaded side faces
    slots = ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))
    five = [_pip(100 + dx * PITCH, 100 + dy * PITCH) for dx, dy in slots]
    other = replace(_pip(108, 100 + 4 * PITCH), contrast=120.0)
    fits = _fit_group([*five, other])
    assert sorted((f.value, round(f.cx), round(f.cy)) for f in fits) == [(1, 108, 148), (5, 100, 100)]


def test_a_2_with_larger_pips_touching_a_die_of_its_colour_is_proposed_whole():
    three = [_pip(100 + d * PITCH, 100 + d * PITCH) for d in (-1, 0, 1)]
    x = 100 + 4.2 * PITCH  # the 2's centre: its pips, a third larger, joined the 3's in one group
    two = [replace(_pip(x + dx * PITCH, 100 - dx * PITCH), diameter=11.0) for dx in (-1, 1)]
    fits = _fit_group([*three, *two])
    assert sorted((f.value, round(f.cx), round(f.cy)) for f in fits if f.value in (2, 3)) == [
        (2, round(x), 100), (3, 100, 100)]  # besides each of the 2's pips as a 1


def test_a_fragment_in_a_2s_group_is_the_pip_dropped_not_a_glint_bitten_pip_of_the_2():
    # scene 271: a grey 2's pips, bitten by glints, and a piece cut from a yellow die's outline beside it
    two = [_pip(333.4, 143.8, 0.87, 1.43), _pip(353.6, 123.8, 0.87, 1.41)]
    fragment = replace(_pip(357.6, 110.2, 0.74, 1.31), diameter=7.3)
    fits = _fit_group([*two, fragment])
    assert any(f.value == 2 and set(f.pips) == set(two) for f in fits)


def test_a_letter_as_big_and_round_as_the_pips_is_dropped_from_their_group_for_not_being_solid():
    # scene 126: a white 4 on printed paper; a letter beside it joined its group, of the pips' size and
    # shape but less solid, and the five spots fitted no layout
    four = [_pip(100 + dx * PITCH, 100 + dy * PITCH) for dx in (-1, 1) for dy in (-1, 1)]
    letter = _pip(100 - 3.5 * PITCH, 100 - 1.5 * PITCH, solidity=0.72, elongation=1.2)
    fits = _fit_group([*four, letter])
    assert any(f.value == 4 and set(f.pips) == set(four) for f in fits)


def test_dots_among_letters_are_not_searched_for_faces():
    letters = [Pip(100 + dx * PITCH, 130, diameter=8.0, area=50, polarity=-1, contrast=60.0, elongation=1.3,
                   solidity=0.6) for dx in (-1, 0, 1)]
    fits = _fit_group([*_six(), *letters])
    assert not [f for f in fits if f.value == 6 and abs(f.cx - 100) < 2 and abs(f.cy - 100) < 2]


GREY = np.array([150.0, 150.0, 152.0])  # BGR of the small grey die's face
COLOURED = [np.array([40.0, 205.0, 240.0]), np.array([30.0, 30.0, 30.0]), np.array([40.0, 35.0, 190.0])]


def _dice(bodies: list[np.ndarray]) -> list[tuple]:
    """Full-size 4s in a row with these body BGRs, as _kind is given the other dice."""
    return [(_face(100 + 100 * k, 100), body, colour_name(body)) for k, body in enumerate(bodies)]


def test_a_small_die_that_looks_white_is_the_grey_die_unless_white_dice_of_full_size_are_as_bright():
    small = _face(400, 300, pitch=0.72 * PITCH)  # its pips as large as the others': only size and light tell
    coloured = _dice(COLOURED)
    assert _kind(small, "white", WHITE, coloured) == "grey"  # the grey die under a bright lamp
    assert _kind(_face(400, 300), "white", WHITE, coloured) == "d6"  # a white d6 of their size
    whites = _dice([WHITE] * 3)
    assert _kind(small, "white", WHITE * 0.95, whites) == "d6"  # a white d6 farther from the camera
    assert _kind(small, "white", WHITE * 0.7, whites) == "grey"  # as small, and dimmer than white dice
    assert _kind(small, "white", WHITE * 0.85, whites) == "grey"  # the grey die in the lamp's brightest spot


def test_a_far_white_die_with_small_pips_is_white_when_as_bright_as_the_brightest_white_die():
    far = fit_layout([replace(p, diameter=5.5) for p in _face(400, 300, pitch=0.75 * PITCH).pips])
    whites = _dice([WHITE] * 3)
    assert _kind(far, "white", WHITE, whites) == "d6"  # far from the camera: smaller, not greyer
    assert _kind(far, "white", WHITE * 0.9, whites) == "grey"  # a little dimmer as well: the grey die


def test_two_grey_dice_do_not_take_each_other_for_the_usual_size():
    one, other = _face(100, 100, pitch=0.72 * PITCH), (_face(300, 100, pitch=0.72 * PITCH), GREY, "grey")
    yellow = (_face(300, 300), COLOURED[0], "yellow")
    assert _kind(one, "grey", GREY, [other]) == "grey"
    assert _kind(one, "grey", GREY, [other, yellow]) == "grey"
    assert _kind(_face(500, 300), "grey", GREY, [other, yellow]) == "d6"


def test_grey_looking_dice_alone_are_grey_dice_whatever_their_pip_sizes():
    ones = [fit_layout([replace(_pip(100 + 100 * k, 100), diameter=d)]) for k, d in enumerate((6.0, 8.0))]
    threes = [fit_layout([replace(_pip(100 + 100 * k + PITCH * t, 300 + PITCH * t), diameter=d)
                          for t in (-1, 0, 1)]) for k, d in enumerate((5.0, 6.5))]
    for a, b in (ones, threes):
        assert _kind(b, "grey", GREY, [(a, GREY, "grey")]) == "grey"  # larger pips, but no d6 to say so
    yellow = (_face(300, 300), COLOURED[0], "yellow")
    big_one = fit_layout([replace(_pip(100, 100), diameter=13.0)])  # a 1 of a d6: its pip 1.35 times larger
    assert _kind(big_one, "grey", GREY, [yellow]) == "d6"  # pips as large as a d6's beside it: a d6 in shade


def test_a_grey_looking_1_beside_d6s_is_grey_only_when_its_pip_is_clearly_smaller():
    # a 1's face is not measured beside 1s only: its pip is all that tells (a white d6 in shade looks grey)
    ones = [fit_layout([replace(_pip(100 + 100 * k, 100), diameter=10.0)]) for k in range(3)]
    whites = [(one, WHITE, "white") for one in ones]
    shaded, grey = (fit_layout([replace(_pip(400, 300), diameter=d)]) for d in (9.0, 7.2))
    assert _kind(shaded, "grey", GREY, whites) == "d6"
    assert _kind(grey, "grey", GREY, whites) == "grey"


def test_a_grey_looking_die_showing_5_or_6_shows_the_others_are_d6s_in_poor_light():
    # white dice in a dim room look grey; the grey die has no 5 or 6, so a grey-looking 6 is a d6 and
    # dice of its size are d6s too
    four, other_four = _face(100, 100), (_face(300, 100), GREY, "grey")
    six = (fit_layout(_six()), GREY, "grey")
    assert _kind(four, "grey", GREY, [other_four]) == "grey"  # nothing shows a d6's size
    assert _kind(four, "grey", GREY, [other_four, six]) == "d6"
    small = _face(100, 100, pitch=0.72 * PITCH)
    assert _kind(small, "grey", GREY, [other_four, six]) == "grey"  # the grey die beside them


def test_three_grey_looking_dice_of_one_size_are_d6s_in_poor_light():
    # a set has two grey dice (the Satansbraten's): a third of their size makes them d6s in a dim room
    four, others = _face(100, 100), [(_face(100 + 100 * k, 300), GREY, "grey") for k in range(2)]
    assert _kind(four, "grey", GREY, others[:1]) == "grey"  # two: the Satansbraten's roll
    assert _kind(four, "grey", GREY, others) == "d6"
    small = _face(400, 100, pitch=0.72 * PITCH)
    assert _kind(small, "grey", GREY, others) == "grey"  # the grey die beside two d6s in a dim room
    assert _kind(four, "grey", GREY, [*others[:1], (small, GREY, "grey")]) == "grey"  # only two of a size
    sizes = (8.0, 8.4, 7.8)
    ones = [fit_layout([replace(_pip(100 + 100 * k, 100), diameter=d)]) for k, d in enumerate(sizes)]
    assert _kind(ones[0], "grey", GREY, [(o, GREY, "grey") for o in ones[1:2]]) == "grey"
    assert _kind(ones[0], "grey", GREY, [(o, GREY, "grey") for o in ones[1:]]) == "d6"  # 1s against 1s
    assert _kind(ones[0], "grey", GREY, [(o, GREY, "grey") for o in (ones[1], four)]) == "grey"


def test_a_grey_looking_face_somewhat_smaller_than_the_others_is_the_grey_die():
    pips = [_pip(400 + dx * 0.86 * PITCH, 300 + dy * 0.86 * PITCH) for dx in (-1, 1) for dy in (-1, 1)]
    smaller = fit_layout([replace(p, diameter=7.5) for p in pips])  # its size measured too large
    assert _kind(smaller, "grey", GREY, _dice(COLOURED)) == "grey"
    assert _kind(smaller, "white", WHITE, _dice([WHITE] * 3)) == "d6"


def _one_on_table(side: float, body: tuple[int, int, int], table: tuple[int, int, int],
                  centre: tuple[int, int] = (100, 100)) -> tuple[np.ndarray, object]:
    """A frame with a 1 of this face side (px) and body BGR, turned 20 degrees, on a plain table; its fit."""
    frame = np.full((200, 200, 3), table, np.uint8)
    corners = cv2.boxPoints((centre, (side, side), 20.0))
    cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], body)
    cv2.circle(frame, centre, round(0.14 * side), (25, 25, 25), -1)
    return frame, fit_layout([replace(_pip(*centre), diameter=0.28 * side)])


def test_the_face_of_a_1_is_measured_from_its_body_where_the_table_differs():
    frame, one = _one_on_table(40, (150, 150, 152), (170, 200, 220))  # the grey die on a beige table
    assert abs(_one_side(frame, one, GREY) - 40) < 3
    frame, one = _one_on_table(40, (150, 150, 152), (150, 152, 150))  # on a table of its own grey
    assert _one_side(frame, one, GREY) is None
    frame, one = _one_on_table(40, (150, 150, 152), (170, 200, 220), centre=(12, 100))  # cut by the frame
    assert _one_side(frame, one, GREY) is None


def test_a_white_looking_1_is_the_grey_die_when_its_measured_face_is_small():
    one = fit_layout([replace(_pip(400, 300), diameter=12.0)])
    d6_side = _face(100, 100).side
    coloured = _dice(COLOURED)
    assert _kind(one, "white", WHITE, coloured, one_side=0.72 * d6_side) == "grey"
    assert _kind(one, "white", WHITE, coloured, one_side=0.95 * d6_side) == "d6"
    assert _kind(one, "white", WHITE, coloured) == "d6"  # not measured: its pip does not tell


def _streaked_four(axis: float, turn: float = 0.0) -> object:
    """A 4 turned by `turn` whose pips are drawn out (elongation 2) along `axis` (radians)."""
    c, s = np.cos(turn), np.sin(turn)
    pips = [replace(_pip(100 + PITCH * (dx * c - dy * s), 100 + PITCH * (dx * s + dy * c), elongation=2.0),
                    axis=axis) for dx in (-1, 1) for dy in (-1, 1)]
    fit = fit_layout(pips)
    assert fit is not None and fit.value == 4
    return fit


def test_pips_all_drawn_out_the_same_way_across_the_grid_are_a_sliding_die_not_glyphs():
    assert _pip_like(_streaked_four(np.radians(30))) > 0.9  # motion blur, or a glint on every pip
    assert _pip_like(_streaked_four(np.radians(60), turn=np.radians(20))) > 0.9
    assert _pip_like(_streaked_four(0.0)) < 0.6  # along the grid: a side face seen at a slant
    assert _pip_like(_streaked_four(np.radians(20), turn=np.radians(20))) < 0.6
    mixed = _streaked_four(np.radians(30))
    mixed = replace(mixed, pips=tuple(replace(p, axis=k * 0.8) for k, p in enumerate(mixed.pips)))
    assert _pip_like(mixed) < 0.6  # drawn out every way: strokes of letters


def test_pips_all_bitten_alike_by_a_glint_may_be_less_solid():
    # a glint at each pip's edge, lit by one lamp: a notch in every pip at the same place
    bitten = [replace(_pip(100 + dx * PITCH, 100 + dy * PITCH, solidity=0.7, elongation=1.3), axis=-0.8)
              for dx in (-1, 1) for dy in (-1, 0, 1)]
    six = fit_layout(bitten)
    assert six is not None and _pip_like(six) >= 0.9
    letters = fit_layout([replace(p, axis=k * 0.8) for k, p in enumerate(bitten)])  # notches every way
    assert letters is not None and _pip_like(letters) < 0.5
    two = fit_layout(bitten[:1] + bitten[-1:])  # two pips alike say less: print has pairs of dots
    assert two is not None and _pip_like(two) < 0.5


def test_a_pip_of_a_two_read_as_the_two_is_placed_on_the_two():
    a, b = _pip(100, 100), _pip(100 + 2 * PITCH, 100 + 2 * PITCH)
    two = fit_layout([a, b])
    part = replace(fit_layout([a]), value=2)  # the classifier saw the other pip in its patch
    assert part.side <= two.side / 0.75
    assert _placed([(part, 0.96), (two, 0.8)]) == [(two, 0.96), (two, 0.8)]
    far_off = fit_layout([a, _pip(100 + 0.5 * PITCH, 100 + 0.5 * PITCH)])  # the pip and a speck beside it
    assert _placed([(part, 0.96), (far_off, 1.0)]) == [(part, 0.96), (far_off, 1.0)]
    three = fit_layout([a, b, _pip(100 + 4 * PITCH, 100 + 4 * PITCH)])  # another value: it stays
    assert _placed([(part, 0.96), (three, 1.0)])[0] == (part, 0.96)
    coarse_part, coarse_two = _scaled(part, 2), _scaled(two, 2)  # read on a halved copy: pips copied
    assert _placed([(coarse_part, 0.96), (coarse_two, 0.8)])[0] == (coarse_two, 0.96)


def test_the_face_round_a_corner_pip_is_found_from_its_body():
    # a grey die's face turned 20 degrees, with one dark pip left in a corner (glare ate the others)
    frame = np.full((200, 200, 3), 60, np.uint8)
    corners = cv2.boxPoints(((100.0, 100.0), (40.0, 40.0), 20.0))
    cv2.fillPoly(frame, [corners.round().astype(np.int32)], GREY.tolist())
    turn = math.radians(20)
    u, v = -11.0, -11.0  # the corner pip's slot, px from the centre along the face's edges
    x, y = 100 + u * math.cos(turn) - v * math.sin(turn), 100 + u * math.sin(turn) + v * math.cos(turn)
    cv2.circle(frame, (round(x), round(y)), 3, (20, 20, 20), -1)
    pip = Pip(x, y, diameter=6.0, area=28, polarity=-1, contrast=80.0, elongation=1.0)
    found = _body_face(frame, pip, GREY, reach=7.0)
    assert found is not None
    cx, cy, side, angle = found
    assert math.hypot(cx - 100, cy - 100) < 2 and abs(side - 40) < 3
    assert abs(math.remainder(math.degrees(angle) - 20, 90)) < 3  # a square's turn is known to a quarter
    assert _body_face(frame, pip, GREY, reach=2.0) is None  # out of reach


def test_a_face_whose_pips_bite_its_edges_is_found_from_its_body():
    # glare draws the shade round the grey die's corner pips out to its edges: they bite the square of
    # its colour, so the region's outline is no square, but its hull still is
    frame = np.full((200, 200, 3), 60, np.uint8)
    cv2.rectangle(frame, (80, 80), (119, 119), GREY.tolist(), -1)
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = 99.5 + 10.5 * sx, 99.5 + 10.5 * sy
            cv2.circle(frame, (round(x + 4 * sx), round(y + 4 * sy)), 6, (105, 105, 107), -1)
            cv2.circle(frame, (round(x), round(y)), 3, (20, 20, 20), -1)
    pip = Pip(89, 89, diameter=6.0, area=28, polarity=-1, contrast=80.0, elongation=1.0)
    found = _body_face(frame, pip, GREY, reach=7.0)
    assert found is not None
    cx, cy, side, angle = found
    assert math.hypot(cx - 99.5, cy - 99.5) < 1 and abs(side - 40) < 2
    assert abs(math.remainder(math.degrees(angle), 90)) < 3


def _squared(value: int, pips: list[Pip]):
    """A face of `value` placed round (100, 100) by its body, holding the first of `pips`."""
    return replace(fit_layout(pips[:1]), value=value, cx=100.0, cy=100.0, angle=0.0, pitch=PITCH,
                   squared=True)


def test_a_face_placed_by_its_body_takes_the_spots_on_its_slots_as_its_pips():
    # a 2 on the other diagonal than the layout's, its pips drawn out by glare, and a letter beside it
    spots = [_pip(100 + PITCH, 100 - PITCH, elongation=2.0), _pip(100 - PITCH, 100 + PITCH, elongation=2.0)]
    pips, strays = _on_slots(_squared(2, spots), _marks(spots), spots)
    assert set(pips) == set(spots) and strays == 0
    letter = _pip(100 + 0.2 * PITCH, 100 - 0.9 * PITCH, solidity=0.6)
    pips, strays = _on_slots(_squared(2, spots), _marks([*spots, letter]), [*spots, letter])
    assert set(pips) == set(spots) and strays == 1
    nothing = [_pip(100 + 0.4 * PITCH, 100 + 0.1 * PITCH)]  # nothing on a 4's slots: the face keeps its pip
    assert _on_slots(_squared(4, nothing), _marks(nothing), nothing) == (tuple(nothing), 1)


def test_a_face_placed_by_its_body_is_no_side_face_of_a_die_beside_it():
    # a grey 4 beside a white 3: its pips are far smaller, as a side face's would be at a slant, but a
    # square of its body's colour is a top face
    three = fit_layout([_pip(60 + d * 1.5 * PITCH, 60 + d * 1.5 * PITCH) for d in (-1, 0, 1)])
    small = [replace(_pip(100 + dx * PITCH, 100 + dy * PITCH), diameter=4.0)
             for dx in (-1, 1) for dy in (-1, 1)]
    four = replace(_squared(4, small), pips=tuple(small))
    assert _same_die(replace(four, squared=False), three, GREY, WHITE)
    assert not _same_die(four, three, GREY, WHITE)


def _touching(body: tuple[int, int, int, int], pips: list[Pip]) -> np.ndarray:
    """A white top face at (100, 100), 46 px wide, and a region of GREY (x1, y1, x2, y2) beside it holding
    `pips`, dark."""
    frame = np.full((200, 200, 3), 60, np.uint8)
    cv2.rectangle(frame, (77, 77), (122, 122), WHITE.tolist(), -1)
    cv2.rectangle(frame, body[:2], body[2:], GREY.tolist(), -1)
    for p in pips:
        cv2.circle(frame, (round(p.x), round(p.y)), round(p.diameter / 2), (20, 20, 20), -1)
    return frame


def test_pips_beside_a_top_face_on_a_square_of_their_colour_are_a_die_of_their_own():
    # a grey 2 touching a white 4: its pips are far smaller than the 4's, or bitten by glints so they look
    # squashed, as a side face's would at a slant; but its body is a square of its size, and a side face
    # at a slant is a strip
    four = [_pip(100 + dx * PITCH, 100 + dy * PITCH) for dx in (-1, 1) for dy in (-1, 1)]
    top = fit_layout(four)
    small = [replace(_pip(138 + d * 8, 100 + d * 8), diameter=4.0) for d in (-1, 1)]
    squashed = [replace(p, diameter=6.0, elongation=1.8, axis=math.pi / 2) for p in small]  # across the way
    for pips in (small, squashed):
        grey = fit_layout(pips)
        assert _same_die(grey, top, GREY, WHITE)  # without the frame: taken for a side face
        assert not _same_die(grey, top, GREY, WHITE, _touching((123, 85, 153, 115), [*four, *pips]))
        assert _same_die(grey, top, GREY, WHITE, _touching((123, 60, 153, 140), [*four, *pips]))  # a strip
