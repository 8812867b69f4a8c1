"""Read the dice in a frame: value, kind, colour, box and an honest confidence for each die.

    from vision.dice import read_dice
    for die in read_dice(frame):                 # frame: BGR uint8, e.g. 640 x 480
        print(die.value, die.kind, die.colour, die.box, die.confidence)

Two stages. The classical one proposes where faces may be: round pips of either polarity
(`vision.pips`), grouped into faces joined by die body and fitted to the 1..6 layouts
(`vision.faces`), in the frame and in halved copies of it (dice too near the camera for the pip
finder at full size). A small learned classifier (`vision.faceclass`) then says what each proposal
is: a face showing 1..6, or no die at all (a side face, print, a key). Its probability, lowered for
spots that are not round solid pips, for faces crowded by other marks and for faces cut by the
frame's edge, is the confidence. Where the pips were found only in part (a die still sliding), the
classifier looks again at a face of the roll's usual size. Of two faces on one die the top one speaks:
a face beside a brighter one of the same colour is its side face, in shade (light comes from above),
as is one beside it whose pips a slant squashed, unless it shows what no side face of that die can
(the top's value or the one opposite). The grey 1-4
die is told by its smaller face and pips and its grey body; the Treehouse die by matching its symbol
against calibrated templates (`vision.treehouse`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from statistics import median

import cv2
import numpy as np

from vision.colours import colour_name
from vision.die import Die
from vision.faceclass import FaceClassifier
from vision.faces import (
    LAYOUT,
    PITCH_PER_SIDE,
    FaceFit,
    Pairing,
    angle_apart,
    chromaticity,
    common_axis,
    drawn_across,
    fit_layout,
    in_shade,
    more_squashed,
)
from vision.pips import OPEN_KERNEL, WINDOW_PX, Pip, find_pips, local_contrast
from vision.smear import unsmeared

MIN_CONFIDENCE = 0.5  # below this a "die" is more often a side face, a key or print than a die
MAX_ELONGATION = 2.2  # spots squashed more than this (major / minor axis) are not pips


def _box(fit: FaceFit, width: int, height: int) -> tuple[int, int, int, int]:
    """The face's box (x1, y1, x2, y2) px in the frame: its turned square's, or a 1's square round its pip
    (a lone pip shows no turn)."""
    turn = 1.0 if fit.value == 1 else abs(math.cos(fit.angle)) + abs(math.sin(fit.angle))
    half = fit.side / 2 * turn
    x1, y1 = max(0, int(fit.cx - half)), max(0, int(fit.cy - half))
    x2, y2 = min(width - 1, int(math.ceil(fit.cx + half))), min(height - 1, int(math.ceil(fit.cy + half)))
    return x1, y1, x2, y2


def _body_colour(frame: np.ndarray, fit: FaceFit) -> np.ndarray:
    """Median BGR of the face's body: between its pips (half a pitch diagonally off the face's centre,
    clear of the pips of every layout and of the table past the face's edge), or around a lone pip."""
    h, w = frame.shape[:2]
    if len(fit.pips) == 1:
        p = fit.pips[0]
        r = p.diameter * 1.05
        points = [(p.x + r * math.cos(a), p.y + r * math.sin(a))
                  for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)]
    else:
        points = [_frame_point(fit, u, v) for u in (-0.5, 0.5) for v in (-0.5, 0.5)]
    samples = [frame[int(round(y)), int(round(x))] for x, y in points
               if 0 <= x < w - 0.5 and 0 <= y < h - 0.5]
    return np.median(np.array(samples, np.float32), axis=0) if samples else np.zeros(3, np.float32)


FULL_SIZE = 0.9  # a face at least this share of the dice's usual size is a full-size die's
DIMMER = 0.87  # the grey die's body is at most this share as bright as a white d6's in the same light
AS_BRIGHT = 0.95  # a face this share as bright as the brightest white d6 is white, its pips' size aside


def _kind(fit: FaceFit, colour: str, body: np.ndarray, others: list[tuple[FaceFit, np.ndarray, str]],
          one_side: float | None = None) -> str:
    """'grey' for the small grey 1-4 die, else 'd6'; others are the other dice: face, body BGR, colour.
    one_side: a 1's face side (px) as measured by `_one_side`, if it could be.

    Beside other dice its face size tells (about 0.72 of a d6's; known from the pip spacing for faces
    of 2 or more pips, from the body round the pip for a 1), and its pips are smaller too. Grey-looking
    dice beside it may be grey dice too, so only the others set the usual size. A grey-looking face
    somewhat smaller than the others, its pips no larger, is the grey die (a white d6 seldom looks
    grey). Light can make grey look white and shade a white die grey, and a d6 far from the camera
    looks smaller, so the colour alone never makes a die grey when other dice show its size. A
    white-looking die clearly smaller than the others is grey when no white die of the others' size is
    in sight (a white d6 far from the camera has its fellows, as small as it, beside it), when it is
    clearly dimmer than those white dice, or when its pips are clearly smaller too and it is not as
    bright as the brightest of them (far dice look smaller, not greyer). A white 1 whose face could not
    be measured never is (real dice give the 1 pips of every size). A grey-looking die showing 5 or 6
    is a d6 in poor light (the grey die has no 5 or 6), so it shows a d6's size too. A grey-looking die
    whose size is unknown (a 1 not measured) beside d6s is grey only when its pips are clearly smaller
    than theirs (a white d6 in shade looks grey too). A grey-looking die with only grey-looking dice of
    1..4 around is grey: nothing shows a d6's size, unless more of them are of one size than a set has
    grey dice (`_too_many_alike`)."""
    roll = [(fit, body, colour), *others]
    if fit.value > 4 or colour not in ("grey", "white") or colour == "grey" and _too_many_alike(fit, roll):
        return "d6"
    fits = [o for o, _, _ in others]
    usual = float(np.percentile([_plain_pip_size(o) for o in fits], 75)) if fits else _plain_pip_size(fit)
    pips = _plain_pip_size(fit) / usual
    d6s = [(o, name) for o, _, name in others if name != "grey" or o.value > 4 or _too_many_alike(o, roll)]
    spaced = [o.side for o, name in d6s if o.value > 1]
    side = fit.side if fit.value > 1 else one_side
    if side is not None and spaced:
        usual_side = float(np.percentile(spaced, 75))
        size = side / usual_side
        if colour == "grey":
            return "grey" if size < 0.78 or size < 0.9 and pips < 1.0 else "d6"
        if size >= 0.8:
            return "d6"
        white = [float(b.max()) for o, b, name in others
                 if name == "white" and o.value > 1 and o.side >= FULL_SIZE * usual_side]
        if not white:
            return "grey"
        bright = float(body.max()) / max(white)
        return "grey" if bright < DIMMER or pips < 0.75 and bright < AS_BRIGHT else "d6"
    if colour != "grey":
        return "d6"
    plain = [_plain_pip_size(o) for o, _ in d6s]
    # only grey-looking dice around (the grey dice of one roll): nothing says it is a d6
    return "grey" if not plain or _plain_pip_size(fit) / float(np.percentile(plain, 75)) < GREY_PIPS else "d6"


GREY_PIPS = 0.86  # a grey-looking die whose size is unknown is grey when its pips are smaller than this
# share of the d6s': midway between the grey die's (0.72 of a d6's, as its face) and a d6's in shade
GREY_DICE = 2  # a set has this many grey dice (the Satansbraten's), all of one size
ALIKE = 0.15  # faces whose measured sides are this near (share of the side) are dice of one size


def _too_many_alike(fit: FaceFit, roll: list[tuple[FaceFit, np.ndarray, str]]) -> bool:
    """Whether more than GREY_DICE grey-looking faces of the roll (face, body BGR, colour; fit among
    them) are of fit's size: a set has no more grey dice than that, so they are d6s in a dim room, and
    show the d6 size. A 1's side is guessed from its pip: 1s are compared with 1s only, the others by
    their pip spacing."""
    alike = [o for o, _, name in roll if name == "grey" and (o.value > 1) == (fit.value > 1)
             and abs(o.side / fit.side - 1) < ALIKE]
    return len(alike) > GREY_DICE


ONE_REACH = 3.5  # a 1's face is sought this many pip diameters round its pip (a pip 0.15 of the side or more)
BODY_ALIKE = (12.0, 0.1)  # a pixel is the body's when no channel is off by more than a + b * the body's level


def _one_side(frame: np.ndarray, fit: FaceFit, body: np.ndarray) -> float | None:
    """The side (px) of a 1's face, measured as the square of its body's colour round the pip: the pip
    only guesses it, as real dice have 1 pips of every size. None when the table is too like the body
    (the region runs out of reach), the frame cuts it, or it is no square."""
    face = _body_face(frame, fit.pips[0], body, ONE_REACH)
    return face[2] if face is not None else None


def _body_face(frame: np.ndarray, pip: Pip, body: np.ndarray,
               reach: float) -> tuple[float, float, float, float] | None:
    """The face round a pip, as the square of its body's colour within `reach` pip diameters: centre x, y
    (px), side (px) and angle (rad). Other pips on it are holes in the region and count as the face's;
    pips whose shade reaches its edges bite it, so its hull, not its outline, must fill the square. None
    when the table is too like the body (the region runs out of reach), the frame cuts it, or it is no
    square."""
    span = int(math.ceil(reach * pip.diameter))
    px, py = int(round(pip.x)), int(round(pip.y))
    height, width = frame.shape[:2]
    x0, y0 = max(0, px - span), max(0, py - span)  # the window, inside the frame
    x1, y1 = min(width, px + span + 1), min(height, py + span + 1)
    if not (x0 <= px < x1 and y0 <= py < y1):
        return None
    apart = cv2.split(cv2.absdiff(frame[y0:y1, x0:x1], (*(float(int(v)) for v in body), 0.0)))
    worst = cv2.max(cv2.max(apart[0], apart[1]), apart[2])  # the channel farthest off (numpy's max is slow)
    mask = (worst < BODY_ALIKE[0] + BODY_ALIKE[1] * float(body.max())).astype(np.uint8)
    cv2.circle(mask, (px - x0, py - y0), int(round(0.65 * pip.diameter)), 1, -1)  # the pip is the face's too
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, OPEN_KERNEL)  # cut thin bridges to the table
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    label = labels[py - y0, px - x0]
    x, y, w, h, _ = stats[label]
    if label == 0 or x == 0 or y == 0 or x + w == x1 - x0 or y + h == y1 - y0:
        return None  # out of reach, or cut by the frame
    face = (labels == label).astype(np.uint8)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    (fx, fy), (rw, rh), degrees = cv2.minAreaRect(outline)
    if max(rw, rh) > 1.3 * min(rw, rh) or cv2.contourArea(cv2.convexHull(outline)) < 0.75 * rw * rh:
        return None  # not a square face: a patch of table, or the face and its side
    return fx + x0, fy + y0, math.sqrt(rw * rh), math.radians(degrees)


def _plain_pip_size(fit: FaceFit) -> float:
    """Pip diameter (px) as a face of 2..6 would have it: the lone pip of a 1 is larger."""
    return _pip_size(fit) / (ONE_PIP_SCALE if fit.value == 1 else 1.0)


ONE_PIP_SCALE = 1.35  # the pip of a 1 is about this much wider than the pips of the other faces


def _inside(x: float, y: float, box: tuple[int, int, int, int]) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _pip_size(fit: FaceFit) -> float:
    return median([p.diameter for p in fit.pips])


def _unit(value: float) -> float:
    """value clipped to 0..1 (faster than numpy on one number)."""
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else float(value)


def _split(group: list[Pip]) -> list[list[Pip]]:
    """Two touching dice whose seam hides: split the pips in two clusters (2-means on position, seeded
    with the two pips farthest apart, so the result never depends on a random generator)."""
    pts = np.array([(p.x, p.y) for p in group])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    i, j = np.unravel_index(int(d.argmax()), d.shape)
    centres = pts[[i, j]]
    labels = np.zeros(len(pts), int)
    for _ in range(8):
        labels = np.linalg.norm(pts[:, None] - centres[None], axis=2).argmin(axis=1)
        if labels.min() == labels.max():
            break
        centres = np.array([pts[labels == k].mean(axis=0) for k in (0, 1)])
    return [[p for p, k in zip(group, labels, strict=True) if k == c] for c in (0, 1)]


def _fit_group(group: list[Pip], depth: int = 0) -> list[FaceFit]:
    """Layout fits for a group: as a whole, without its odd pips, or split in two touching dice."""
    fit = fit_layout(group) if len(group) <= 6 else None
    if fit is not None and fit.residual < 0.3:
        return [fit]
    best = fit
    if len(group) <= 9:
        # try without the pips that look least like the others (at most two): off the usual size,
        # squashed, or not solid (a piece cut from an outline; a glint bites a pip but leaves it solid)
        median_d = median([p.diameter for p in group])
        odd = sorted(group, key=lambda p: -(abs(p.diameter - median_d) / median_d + (p.elongation - 1)
                                            + (1 - p.solidity)))
        for drop in (1, 2):
            if len(group) - drop < 2:
                break
            dropped = odd[:drop]
            if all(abs(p.diameter - median_d) < 0.25 * median_d and p.elongation < 1.3 and p.solidity >= SOLID
                   for p in dropped):
                break  # nothing odd to drop
            candidate = fit_layout([p for p in group if p not in dropped])
            if candidate is not None and candidate.residual < 0.3:
                # a dropped pip may be the 1 of a die touching this one, two the 2 of one
                alone = [fit_layout([p]) for p in dropped if p.elongation <= 1.3]
                if drop == 2:
                    alone.append(fit_layout(dropped))
                return [candidate, *(f for f in alone if f is not None)]
    if len(group) >= 3 and depth < 2:
        # a top face and the shaded side faces next to it: the top face's pips are the strongest
        strongest = max(p.contrast for p in group)
        top = [p for p in group if p.contrast >= 0.72 * strongest]
        if 1 <= len(top) < len(group):
            fits = _fit_group(top, depth + 1)
            if fits and all(f.residual < 0.3 for f in fits):
                # the weaker pips may be a whole face of their own (a white die's, beside a black die's)
                rest = [p for p in group if p not in top]
                whole = fit_layout(rest) if 2 <= len(rest) <= 6 else None
                return fits + ([whole] if whole is not None and whole.residual < 0.3 else [])
    if len(group) >= 4 and depth < 2:
        parts = [_fit_group(part, depth + 1) for part in _split(group)]
        if all(parts) and all(f.residual < 0.3 for fits in parts for f in fits):
            return [f for fits in parts for f in fits]
    if len(group) >= 2 and depth < 2:
        # a 1 (its pip is larger) touching a die of its colour: read it apart from the others
        big = max(group, key=lambda p: p.diameter)
        rest = [p for p in group if p is not big]
        if big.diameter >= 1.2 * median([p.diameter for p in rest]):
            alone = fit_layout([big])
            others = _fit_group(rest, depth + 1)
            if alone is not None and (others or len(rest) == 1):
                return [alone, *others]
    if (depth == 0 and len(group) >= 4 and (best is None or best.residual >= 0.3)
            and all(p.solidity >= SOLID for p in group)):  # pips only: print mixes dots and letters
        found = _local_faces(group)
        if found:
            return found
    return [best] if best is not None else []


LOCAL_FIT = 0.4  # a face found among a crowd of pips must fit its layout this well (pitches)


def _local_faces(group: list[Pip]) -> list[FaceFit]:
    """Faces in a group of pips from more than one face (a top face joined to its side faces, or to a
    touching die): each pip with its nearest neighbours, where they are alike in size and fit a layout
    of 2..6 closely, with no stray pip of the group on the face; most pips and closest fits first,
    each pip used once."""
    pts = np.array([(p.x, p.y) for p in group])
    apart = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    tried: set[frozenset[int]] = set()
    found = []
    for i in range(len(group)):
        order = np.argsort(apart[i])
        for n in range(min(6, len(group)), 1, -1):
            members = frozenset(int(k) for k in order[:n])
            if members in tried:
                continue
            tried.add(members)
            pips = [group[k] for k in sorted(members)]
            sizes = [p.diameter for p in pips]
            if max(sizes) > 1.3 * min(sizes):
                continue  # a side face's pips look smaller than the top face's
            fit = fit_layout(pips)
            if fit is None or fit.residual >= LOCAL_FIT:
                continue
            half = 0.45 * fit.side
            u, v = _face_frame(pts[:, 0], pts[:, 1], fit.cx, fit.cy, fit.angle)
            on_face = set(np.nonzero((np.abs(u) < half) & (np.abs(v) < half))[0].tolist())
            if on_face <= members:
                found.append((-n, fit.residual, members, fit))
    faces, used = [], set()
    for _, _, members, fit in sorted(found, key=lambda f: f[:2]):
        if not members & used:
            faces.append(fit)
            used |= members
    return faces


def propose_faces(gray: np.ndarray, frame: np.ndarray | None = None) -> list[FaceFit]:
    """Every place a die face may be: pips grouped into faces and fitted to the 1..6 layouts, however
    poorly (the face classifier, not the fit, decides what each one is), at every scale."""
    return [fit for fits, _, _ in _levels(gray, frame) for fit in fits]


LEVEL_MIN_PX = 150  # halved copies are read while their shorter side is at least this many px
COARSE_PIP_PX = 10.0  # on a halved copy only pips this big (its px) count: larger dice than the
# full-size pip finder sees (it looks for pips of at most about 20 px)


def _levels(gray: np.ndarray, frame: np.ndarray | None) -> list[tuple[list[FaceFit], np.ndarray, list[Pip]]]:
    """(proposed faces, marks, spots) of the frame and of its halved copies (dice too big for the pip
    finder at full size: a phone photo, a low camera); faces and marks in the frame's pixels, spots in
    the copy's own."""
    levels = [_proposals(gray, frame)]
    scale = 1
    while min(gray.shape[:2]) >= 2 * LEVEL_MIN_PX:
        gray = cv2.pyrDown(gray)
        frame = cv2.pyrDown(frame) if frame is not None else None
        scale *= 2
        levels.append(_proposals(gray, frame, COARSE_PIP_PX, scale))
    return levels


def _scaled(fit: FaceFit, k: float) -> FaceFit:
    """A fit read on a copy shrunk k times, in the frame's pixels."""
    pips = tuple(replace(p, x=p.x * k, y=p.y * k, diameter=p.diameter * k, area=int(p.area * k * k))
                 for p in fit.pips)
    return replace(fit, cx=fit.cx * k, cy=fit.cy * k, pitch=fit.pitch * k, pips=pips)


def _proposals(gray: np.ndarray, frame: np.ndarray | None, min_pip_px: float = 0.0,
               scale: float = 1) -> tuple[list[FaceFit], np.ndarray, list[Pip]]:
    """The faces proposed from pips at least min_pip_px wide and every spot found, pip-like or not, as
    `_marks` in the pixels of a frame `scale` times larger than gray, and as found (in gray's pixels)."""
    found = find_pips(gray, min_area=max(10, int(0.5 * min_pip_px ** 2)))
    pips = [p for p in found if p.elongation <= MAX_ELONGATION and p.diameter >= min_pip_px]
    pairing = Pairing(gray, pips, frame=frame)
    groups = pairing.groups()
    fits = [fit for group in groups for fit in _fit_group(group)]
    # two solid spots kept apart for their shapes alone may be a 2 (a glint bites a small pip's edge)
    lone = [group[0] for group in groups if len(group) == 1 and group[0].solidity >= LOOSE_SOLID]
    pairs = [fit_layout(list(pair)) for pair in pairing.loose_pairs(lone)]
    fits += [replace(f, loose=True) for f in pairs if f is not None]
    # two spots may be a 1 and a pip of a side face beside it: also propose each spot as a 1
    ones = [fit_layout([p]) for fit in fits if fit.value == 2 for p in fit.pips]
    fits += [f for f in ones if f is not None]
    # the same spots reached by two routes (a pip dropped from a group, a 2's pip) are one proposal
    unique: dict[tuple[int, ...], FaceFit] = {}
    for fit in fits:
        unique.setdefault(tuple(map(id, fit.pips)), fit)
    fits = list(unique.values())
    return [_scaled(f, scale) for f in fits] if scale != 1 else fits, _marks(found, scale), found


LOOSE_SOLID = 0.85  # spots paired in spite of their shapes must be this solid (a key's letters reach 0.8)


def _marks(spots: list[Pip], scale: float = 1) -> np.ndarray:
    """(N, 7) rows of x, y (px), contrast, diameter (px), polarity, elongation, solidity: every spot,
    for telling a die's plain face from print. Pixels are multiplied by scale."""
    if not spots:
        return np.zeros((0, 7))
    return np.array([(p.x * scale, p.y * scale, p.contrast, p.diameter * scale, p.polarity, p.elongation,
                      p.solidity) for p in spots])


def _crowding(fits: list[FaceFit], marks: np.ndarray) -> np.ndarray:
    """(N, 2): for each fit, the strong marks on its face (as strong and nearly as big as its pips;
    ghost pips of a translucent die are fainter), and how many of those are round solid spots of its
    pips' polarity. All fits at once: a frame has dozens of proposals and hundreds of marks."""
    if not fits or len(marks) == 0:
        return np.zeros((len(fits), 2), int)
    inside, _, _ = _strong_on_face(fits, marks)
    polarity = np.array([f.pips[0].polarity for f in fits])[:, None]
    round_ = (inside & (marks[None, :, 4] == polarity) & (marks[None, :, 5] <= ROUND)
              & (marks[None, :, 6] >= SOLID))
    return np.stack([inside.sum(axis=1), round_.sum(axis=1)], axis=1)


def _strong_on_face(fits: list[FaceFit], marks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N fits, M marks) booleans: the mark lies on the fit's face and is as strong and nearly as big as
    its pips; and the marks' places u, v (px) in each face's frame (`_face_frame`)."""
    cx, cy, angle, side = (np.array([getattr(f, k) for f in fits]) for k in ("cx", "cy", "angle", "side"))
    contrast = np.array([min(p.contrast for p in f.pips) for f in fits])[:, None]
    size = np.array([_pip_size(f) for f in fits])[:, None]
    u, v = _face_frame(marks[None, :, 0], marks[None, :, 1], cx[:, None], cy[:, None], angle[:, None])
    half = 0.42 * side[:, None]
    inside = ((np.abs(u) < half) & (np.abs(v) < half) & (marks[None, :, 2] >= 0.7 * contrast)
              & (marks[None, :, 3] >= 0.6 * size))
    return inside, u, v


ON_SLOT = 0.45  # a mark this near (pitches) one of a layout's pip slots is that pip


def _turns(value: int) -> tuple[np.ndarray, np.ndarray]:
    """The pip slots (pitches) of value's layout and of it turned a quarter (those of 2, 3 and 6 are not
    square, and a fit's angle is known only up to a quarter turn)."""
    return LAYOUT[value], LAYOUT[value][:, ::-1] * (1, -1)


def _on_slots(fit: FaceFit, marks: np.ndarray, spots: list[Pip]) -> tuple[tuple[Pip, ...], int]:
    """The spots (rows of marks) that lie on the pip slots of a face's value, turned either way
    (`_turns`), or fit's own pips if none do; and how many strong marks on
    the face (`_strong_on_face`) lie on no slot. For a face placed by its body: its pips are what lies
    on its slots, whatever their shapes (glare draws them out), and only the rest is clutter."""
    inside, u, v = _strong_on_face([fit], marks)
    index = np.flatnonzero(inside[0])
    at = np.stack([u[0, index], v[0, index]], axis=1) / fit.pitch
    on, strays = index[:0], len(index)
    for slots in _turns(fit.value):
        near = np.hypot(*(at[:, None, :] - slots[None, :, :]).transpose(2, 0, 1)).min(axis=1) < ON_SLOT
        if int((~near).sum()) < strays:
            on, strays = index[near], int((~near).sum())
    return tuple(spots[i] for i in on) if len(on) else fit.pips, strays


def _face_frame(x: np.ndarray, y: np.ndarray, cx: float | np.ndarray, cy: float | np.ndarray,
                angle: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points x, y (px) in the frame of a face centred at cx, cy and turned by angle (rad): along its
    edges, px from its centre. Arrays broadcast (many faces and many points at once)."""
    c, s = np.cos(angle), np.sin(angle)
    dx, dy = x - cx, y - cy
    return dx * c + dy * s, -dx * s + dy * c


def _frame_point(fit: FaceFit, u: float, v: float) -> tuple[float, float]:
    """The frame's point (px) at (u, v) pitches from fit's centre along its edges: `_face_frame` undone."""
    c, s = math.cos(fit.angle), math.sin(fit.angle)
    return fit.cx + fit.pitch * (u * c - v * s), fit.cy + fit.pitch * (u * s + v * c)


def _uncluttered(fit: FaceFit, crowding: np.ndarray, value: int) -> float:
    """1 when the face holds no strong marks but the pips of `value`; less for each other one. A die's
    face is plain around its pips, while printed text has letters all round the dots it lends a 'face'.
    A fit may hold only some of a face's pips: round solid spots, up to the `value` less the fit's
    own, may be the rest. crowding: the fit's row of `_crowding`."""
    inside, round_ = int(crowding[0]), int(crowding[1])
    own = len(fit.pips)
    strangers = max(0, inside - own)  # marks that are not the fit's pips
    others = strangers - max(0, min(round_ - own, value - own, strangers))  # less the rest of the face
    return _plainness(others)


def _plainness(strays: int) -> float:
    """1 for a face holding no marks but its pips, less for each stray one, 0 from three on."""
    return (1.0, 0.6, 0.3)[strays] if strays < 3 else 0.0


WORK_SIDE_PX = 800  # larger photos are read shrunk to this longer side (pip sizes are tuned to ~640 px)


def read_dice(frame: np.ndarray, treehouse=None, min_confidence: float = MIN_CONFIDENCE,
              faces=None) -> list[Die]:
    """All dice in a BGR frame, most confident first (see `read_frame`). A photo larger than
    WORK_SIDE_PX on its longer side is read shrunk, and the boxes are given in its own pixels."""
    if frame is None or frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise ValueError("read_dice needs a BGR image of shape (height, width, 3)")
    if frame.shape[2] == 4:
        frame = np.ascontiguousarray(frame[:, :, :3])  # BGRA / XRGB: drop the fourth channel
    longer = max(frame.shape[:2])
    if longer <= WORK_SIDE_PX * 1.2:
        return read_frame(frame, treehouse, min_confidence, faces)
    scale = WORK_SIDE_PX / longer
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = frame.shape[:2]

    def back(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        x1, y1, x2, y2 = box
        return (int(x1 / scale), int(y1 / scale), min(w - 1, int(x2 / scale + 0.999)),
                min(h - 1, int(y2 / scale + 0.999)))

    return [replace(d, box=back(d.box)) for d in read_frame(small, treehouse, min_confidence, faces)]


def read_frame(frame: np.ndarray, treehouse=None, min_confidence: float = MIN_CONFIDENCE,
               faces=None) -> list[Die]:
    """All dice in a BGR frame of about 640 x 480 px, most confident first.

    treehouse: a `vision.treehouse.TreehouseTemplates` to also read the Treehouse die, or None.
    min_confidence: drop readings below this (0..1). Between it and about 0.8 the caller should show
        the reading as unsure.
    faces: the `FaceClassifier` that tells what each proposed face is (default: the shipped one).
    """
    faces = faces or FaceClassifier.default()
    height, width = frame.shape[:2]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    symbols: list[Die] = []
    if treehouse is not None:
        from vision.treehouse import find_treehouse

        symbols = [d for d in find_treehouse(frame, gray, treehouse, []) if d.confidence >= min_confidence]
    scored, levels, maybe = _readings(frame, gray, faces, min_confidence)
    scored += _unsmeared(frame, gray, faces, maybe, scored, min_confidence)
    # a light spot amid light glyphs (a key's letter on a keyboard) must be a sure 1; a light die's 1
    # seen at a slant has its side faces' squashed dark pips round it
    scored = [(f, c) for f, c in scored if f.value > 1 or len(f.pips) > 1 or f.pips[0].polarity < 0
              or c >= AMID_GLYPHS_SURE or not _amid_glyphs(f, levels[0][1])]
    # the symbol of a Treehouse face (the AIM target has a dot) is not a pip face, nor one of its pips;
    # a lone dot on a symbol is the symbol's even when the symbol is less sure
    def under_symbol(f: FaceFit, c: float) -> bool:
        spots = [(f.cx, f.cy), *((p.x, p.y) for p in f.pips)]
        return any(any(_inside(x, y, d.box) for x, y in spots)
                   and (d.confidence >= c or f.value == 1 and d.confidence >= 0.3) for d in symbols)

    scored = _placed([(f, c) for f, c in scored if not under_symbol(f, c)])
    scored.sort(key=lambda fc: -fc[1])
    seen = _one_per_die(frame, scored)
    # a face far smaller than the set's is no die: what it stood for on its die is chosen again without it
    small = _out_of_set(seen)
    if small:
        seen = _one_per_die(frame, [(f, c) for f, c in scored if all(f is not s for s in small)])
        small = _out_of_set(seen)
    dice = []
    for i, (fit, conf, body, colour) in enumerate(seen):
        if any(fit is s for s in small):
            continue
        others = [other for j, other in enumerate(seen) if j != i]
        sure = [(k, b, name) for k, c, b, name in others if c >= 0.5]
        # a 1's face is measured only where it can tell: a white or grey 1 beside dice of known size
        sized = fit.value == 1 and colour in ("white", "grey") and any(k.value > 1 for k, _, _ in sure)
        kind = _kind(fit, colour, body, sure, _one_side(frame, fit, body) if sized else None)
        dice.append(Die(fit.value, kind, colour, _box(fit, width, height), conf))
    for symbol in symbols:
        cx, cy = (symbol.box[0] + symbol.box[2]) / 2, (symbol.box[1] + symbol.box[3]) / 2
        if not any(_inside(cx, cy, d.box) for d in dice):
            dice.append(symbol)
    dice.sort(key=lambda d: -d.confidence)
    return dice


def _readings(frame: np.ndarray, gray: np.ndarray, faces: FaceClassifier, min_confidence: float,
              second_looks: bool = True) -> tuple[list[tuple[FaceFit, float]], list, list]:
    """(fit, confidence) of every face read at least min_confidence surely (several may lie on one die;
    with second_looks, also those of `_at_usual_size` and `_from_bodies`), the levels of `_levels`, and
    the gated proposals (fit, gate, crowding, marks) where the classifier did not surely see nothing."""
    height, width = gray.shape[:2]
    # what the spots' shapes already rule out (even as a 6) is not worth the classifier's time
    least = max(min_confidence, 0.01)
    gated = []
    levels = _levels(gray, frame)
    for fits, marks, _ in levels:
        for fit, crowding in zip(fits, _crowding(fits, marks), strict=True):
            gate = _inside_frame(fit, width, height) * _pip_like(fit)
            if gate >= least and gate * _uncluttered(fit, crowding, 6) >= least:
                gated.append((fit, gate, crowding, marks))
    probs = faces.classify(gray, [(f.cx, f.cy, f.side, f.angle) for f, _, _, _ in gated])
    scored = []
    for (fit, gate, crowding, _), p in zip(gated, probs, strict=True):
        value = int(p[1:].argmax()) + 1
        if fit.loose and value != len(fit.pips):
            continue  # the pair is no face of its own
        conf = float(p[value]) * gate
        # streaks look like a 6's columns: where the classifier is unsure of a smeared face of four or more
        # pips, and a slot its value adds to them is plain, the pips tell the value (as sure as it is a face)
        if (value != fit.value == len(fit.pips) >= 4 and p[value] < SURE and _streak(fit)
                and _slots_blank(gray, fit, value)):
            value, conf = fit.value, float(1 - p[0]) * gate
        if conf >= min_confidence:
            conf *= _uncluttered(fit, crowding, value)
        if conf >= min_confidence:
            scored.append((replace(fit, value=value), conf))
    maybe = [g for g, p in zip(gated, probs, strict=True) if p[0] < NOTHING_THERE]
    if second_looks:
        scored += _at_usual_size(gray, faces, maybe, scored, min_confidence)
        scored += _from_bodies(frame, gray, faces, gated, scored, min_confidence, *levels[0][1:])
    return scored, levels, maybe


def _streak(fit: FaceFit) -> tuple[float, float] | None:
    """The common axis (rad) and median elongation of a face's pips when they are drawn out alike along
    one axis (`STREAKED`, `SMEARED`): smeared by a move. None when they are not."""
    axis, agreement = common_axis(fit.pips)
    drawn = median([p.elongation for p in fit.pips])
    return (axis, drawn) if agreement >= STREAKED and drawn >= SMEARED else None


def _slots_blank(gray: np.ndarray, fit: FaceFit, value: int) -> bool:
    """Whether the face of `value` laid on fit, turned either way (`_turns`), has a pip slot that fit's
    pips leave empty and that is plain in the frame: not SMEAR_TRACE as dark (or light) as fit's pips.
    (A value whose slots fit's pips all fill, fewer pips than found, has no such slot.)"""
    reach = int(2 * fit.side)
    x0, y0 = max(0, int(fit.cx) - reach), max(0, int(fit.cy) - reach)
    around = local_contrast(gray[y0:y0 + 2 * reach, x0:x0 + 2 * reach], WINDOW_PX)
    strength = median([p.contrast for p in fit.pips])
    polarity = fit.pips[0].polarity

    def plain(x: float, y: float) -> bool:
        row, col = int(y) - y0, int(x) - x0
        inside = 0 <= row < around.shape[0] and 0 <= col < around.shape[1]
        return inside and around[row, col] * polarity < SMEAR_TRACE * strength

    for slots in _turns(value):
        places = [_frame_point(fit, u, v) for u, v in slots]
        empty = [(x, y) for x, y in places
                 if all(math.hypot(x - p.x, y - p.y) >= ON_SLOT * fit.pitch for p in fit.pips)]
        if not any(plain(x, y) for x, y in empty):
            return False
    return True


SMEARED = 1.4  # pips of one face drawn out alike (`STREAKED`) at least this much are smeared by a move
SMEAR_REACH = 4.0  # a smeared face is read again in a square reaching this many pip diameters round it
LONGEST_SMEAR = 2.0  # smears are taken to be at most this many pip diameters long
SMEAR_TRACE = 0.35  # a pip found once the smear is out is this share as dark (or light) in the smeared frame


def _unsmeared(frame: np.ndarray, gray: np.ndarray, faces: FaceClassifier,
               maybe: list[tuple[FaceFit, float, np.ndarray, np.ndarray]],
               scored: list[tuple[FaceFit, float]], min_confidence: float) -> list[tuple[FaceFit, float]]:
    """Faces of a die still sliding (or of a shaken camera) read again once the smear is taken out: clear
    of every die read, a group of two or more pips drawn out along one axis tells the move's direction,
    and how drawn out they are tells its length (a round pip of radius r smeared over L px has a variance
    larger by L^2 / 12 along the move). r lies between half the streak's width and half its area's
    diameter (which grows with the smear): the face is read at both lengths, and kept when what is read
    agrees. Kept: whole faces of two or more pips, read surely, of about the roll's size, each of whose
    pips shows in the smeared frame too. maybe: the proposals of `_readings` where the classifier did not
    surely see nothing (it seldom does on a smear; most looks are saved)."""
    spaced = [f.side for f, _ in scored if f.value > 1]  # sides measured by pip spacing
    if not spaced:
        return []
    usual = median(spaced)
    read = [(f.cx, f.cy, f.side) for f, _ in scored]
    looked: list[tuple[float, float, float]] = []
    found: list[tuple[FaceFit, float]] = []
    for fit, _, _, _ in maybe:
        if len(fit.pips) < 2 or _near(fit.cx, fit.cy, looked, SAME_DIE):
            continue
        streak = _streak(fit)
        if streak is None or _near(fit.cx, fit.cy, read, SIDE_FACE_REACH):
            continue  # (beside a die read, its side face's pips, squashed at a slant, look smeared)
        looked.append((fit.cx, fit.cy, fit.side))
        axis, drawn = streak
        pip = median([p.diameter for p in fit.pips])  # of a disc as large as the streak
        across = median([p.diameter / math.sqrt(p.elongation) for p in fit.pips])  # the streak's width
        here = []
        for width in (across, pip):
            length = min(width / 2 * math.sqrt(3 * (drawn ** 2 - 1)), LONGEST_SMEAR * pip)
            for face, conf in _read_unsmeared(frame, gray, faces, fit, length, axis,
                                              SMEAR_REACH * pip + length, max(min_confidence, SURE)):
                whole = face.value == len(face.pips) > 1 and abs(face.side / usual - 1) < 1 - OUT_OF_SCALE
                streaked_here = _near(fit.cx, fit.cy, [(face.cx, face.cy, face.side)], SAME_DIE)
                if whole and streaked_here and not _near(face.cx, face.cy, read, SIDE_FACE_REACH):
                    here.append((face, conf))
        if len({face.value for face, _ in here}) == 1:  # (two readings of one face at two lengths)
            found.append(max(here, key=lambda fc: fc[1]))
    return found


def _read_unsmeared(frame: np.ndarray, gray: np.ndarray, faces: FaceClassifier, fit: FaceFit, length: float,
                    axis: float, reach: float, least: float) -> list[tuple[FaceFit, float]]:
    """The faces read (first looks only) in the square reaching `reach` px round fit once a smear of
    `length` px along `axis` (rad) is taken out, in the frame's pixels; only faces each of whose pips
    shows in the smeared frame too, SMEAR_TRACE as strong (the filter's ringing draws ghosts beside them)."""
    height, width = gray.shape[:2]
    x0, y0 = max(0, int(fit.cx - reach)), max(0, int(fit.cy - reach))
    x1, y1 = min(width, int(fit.cx + reach) + 1), min(height, int(fit.cy + reach) + 1)
    crop = unsmeared(frame[y0:y1, x0:x1], length, axis)
    around = local_contrast(gray[y0:y1, x0:x1], WINDOW_PX)
    again, _, _ = _readings(crop, cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), faces, least, second_looks=False)
    return [(_moved(face, x0, y0), conf) for face, conf in again
            if all(around[int(p.y), int(p.x)] * p.polarity >= SMEAR_TRACE * p.contrast for p in face.pips)]


def _near(x: float, y: float, places: list[tuple[float, float, float]], sides: float) -> bool:
    """Whether (x, y) px lies within `sides` face sides of the centre of one of places (x, y, face side;
    px): on a face read, or beside it."""
    return any(math.hypot(x - px, y - py) < sides * side for px, py, side in places)


def _moved(fit: FaceFit, dx: float, dy: float) -> FaceFit:
    """fit moved by (dx, dy) px, its pips with it."""
    pips = tuple(replace(p, x=p.x + dx, y=p.y + dy) for p in fit.pips)
    return replace(fit, cx=fit.cx + dx, cy=fit.cy + dy, pips=pips)


def _one_per_die(frame: np.ndarray,
                 scored: list[tuple[FaceFit, float]]) -> list[tuple[FaceFit, float, np.ndarray, str]]:
    """(fit, confidence, body BGR, colour name) of each die: of the proposals on one die (parts of its
    face, its side faces) the most confident speaks for it, but a face beside a brighter one of the same
    colour is that die's side face, however confident. scored: most confident first."""
    kept: list[tuple[FaceFit, float, np.ndarray]] = []
    for fit, conf in scored:
        body = _body_colour(frame, fit)
        for i, (k, _, k_body) in enumerate(kept):
            if _side_face(k, k_body, fit, body):  # what was kept is this die's side face
                kept[i] = (fit, conf, body)
                break
            if _same_die(fit, k, body, k_body, frame) or _side_face(fit, body, k, k_body):
                break
        else:
            kept.append((fit, conf, body))
    return [(fit, conf, body, colour_name(body)) for fit, conf, body in kept]


def _out_of_set(seen: list[tuple[FaceFit, float, np.ndarray, str]]) -> list[FaceFit]:
    """The faces of `_one_per_die` far smaller than the sure others (`_out_of_scale`)."""
    return [fit for i, (fit, _, _, colour) in enumerate(seen)
            if _out_of_scale(fit, colour, [k for j, (k, c, _, _) in enumerate(seen) if j != i and c >= 0.8])]


AMID_GLYPHS = 2  # a lone light spot with this many glyph-like spots of its ink round its face ...
AMID_GLYPHS_SURE = 0.95  # ... is a 1 only when read this surely: a key's letter among the keyboard's


def _amid_glyphs(fit: FaceFit, marks: np.ndarray) -> bool:
    """Whether a 1's lone pip has AMID_GLYPHS or more glyph-like spots (not solid, or not round) of its
    ink and nearly its strength just round its face (0.7 to 1.6 of its side from the pip): the letters
    of the keys beside a key, or print. marks: `_marks` of the frame."""
    p = fit.pips[0]
    dist = np.hypot(marks[:, 0] - p.x, marks[:, 1] - p.y)
    around = ((dist > 0.7 * fit.side) & (dist < 1.6 * fit.side) & (marks[:, 4] == p.polarity)
              & (marks[:, 2] > 0.5 * p.contrast))
    glyph = (marks[:, 6] < SOLID) | (marks[:, 5] > ROUND)
    return int((around & glyph).sum()) >= AMID_GLYPHS


SURE = 0.8  # a reading this confident is sure: with another of two or more pips, it tells the roll's
# usual face size
RESIZED = 0.15  # a proposal this far off the usual size is looked at again at that size
NOTHING_THERE = 0.995  # ... unless the classifier was this sure it saw no face of a die there at all


def _at_usual_size(gray: np.ndarray, faces: FaceClassifier,
                   gated: list[tuple[FaceFit, float, np.ndarray, np.ndarray]],
                   scored: list[tuple[FaceFit, float]], min_confidence: float) -> list[tuple[FaceFit, float]]:
    """Faces whose pips were found only in part (a die still sliding: pips smeared, merged or lost), read
    again at the size of the roll's other dice: where no reading lies, each group of pips is looked at
    as the face of a die of the usual size around it, and kept when read surely and plain. Dice of a
    roll are one size (the grey die aside); only two or more sure faces tell it. gated: (fit, gate,
    crowding, marks of its level) of the proposals the classifier saw, less those where it surely saw
    nothing of a die (print, wood grain: most of them, and each look costs a patch)."""
    sure = [f.side for f, c in scored if c >= SURE and f.value > 1]
    if len(sure) < 2:
        return []
    usual = median(sure)
    looks: list[tuple[FaceFit, float, np.ndarray]] = []
    taken = [(f.cx, f.cy) for f, _ in scored]  # centres of readings, and of looks already chosen
    for fit, gate, _, marks in gated:
        if abs(fit.side - usual) < RESIZED * usual:
            continue  # seen at that size already
        if any(math.hypot(fit.cx - x, fit.cy - y) < SAME_DIE * usual for x, y in taken):
            continue
        looks.append((replace(fit, pitch=usual * PITCH_PER_SIDE), gate, marks))
        taken.append((fit.cx, fit.cy))
    if not looks:
        return []
    return _sure_and_plain(gray, faces, looks, max(min_confidence, SURE))


def _sure_and_plain(gray: np.ndarray, faces: FaceClassifier, looks: list[tuple[FaceFit, float, np.ndarray]],
                    least: float, spots: list[Pip] | None = None) -> list[tuple[FaceFit, float]]:
    """Second looks (fit, gate, marks that may clutter it), each at the side its pitch gives (a fit of one
    pip takes its own side from the pip), kept as faces of 2..6 read at least `least` surely and plain.
    spots: the marks' spots, for looks placed by their bodies (`_from_bodies`): a face's pips are then
    the spots on its slots, and it is plain also when nothing else is on it (`_on_slots`)."""
    probs = faces.classify(gray, [(f.cx, f.cy, f.pitch / PITCH_PER_SIDE, f.angle) for f, _, _ in looks])
    found = []
    for (fit, gate, marks), p in zip(looks, probs, strict=True):
        value = int(p[1:].argmax()) + 1
        if value == 1 or value < len(fit.pips):
            continue  # a 1 is one pip, found whole or not at all
        fit = replace(fit, value=value)
        pips, strays = _on_slots(fit, marks, spots) if spots is not None else (fit.pips, None)
        if strays is not None:  # its best-shaped pip says it is a face of pips (glare draws the others out)
            gate = max(gate, *(_pip_like(replace(fit, pips=(pip,))) for pip in pips))
        conf = float(p[value]) * gate
        if conf < least:
            continue
        plain = _uncluttered(fit, _crowding([fit], marks)[0], value)  # only now: one fit at a time
        conf *= plain if strays is None else max(plain, _plainness(strays))
        if conf >= least:
            found.append((replace(fit, pips=pips), conf))
    return found


BODY_REACH = 7.0  # a face is sought this many pip diameters round a lone pip (a corner pip of the grey die)
FACE_PER_PIP = 2.5  # ... and is at least this many pip diameters wide
BODY_PIP_CONTRAST = 35  # ... round a pip at least this much darker than around it (grey levels): not a shadow


def _from_bodies(frame: np.ndarray, gray: np.ndarray, faces: FaceClassifier,
                 gated: list[tuple[FaceFit, float, np.ndarray, np.ndarray]],
                 scored: list[tuple[FaceFit, float]], min_confidence: float,
                 marks: np.ndarray, spots: list[Pip]) -> list[tuple[FaceFit, float]]:
    """Faces most of whose pips were not found (glare eats the grey die's small dark pips), read where
    the body round one found pip lies: the square of its colour. Only strong dark lone pips of the
    full-size frame (its `marks` and `spots`), far from every sure reading, and only faces of two or
    more read surely and plain. gated: (fit, gate, crowding, marks of its level) as in `read_frame`."""
    looks: list[tuple[FaceFit, float, np.ndarray]] = []
    dark = np.flatnonzero(marks[:, 4] < 0)  # (glints are light spots on the face)
    dark_marks = marks[dark]
    taken = [(f.cx, f.cy, f.side) for f, c in scored if c >= SURE]
    for fit, gate, _, fit_marks in gated:
        if len(fit.pips) != 1 or fit.pips[0].polarity > 0 or fit_marks is not marks:
            continue  # (glare brightens a light pip, but eats a dark one)
        pip = fit.pips[0]
        if pip.contrast < BODY_PIP_CONTRAST:
            continue
        if _near(pip.x, pip.y, taken, SAME_DIE):
            continue
        face = _body_face(frame, pip, _body_colour(frame, fit), BODY_REACH)
        if face is None:
            continue
        cx, cy, side, angle = face
        if side < FACE_PER_PIP * pip.diameter:
            continue  # the pip alone: its body was not found round it
        if any(math.hypot(cx - x, cy - y) < SAME_DIE * max(side, other) for x, y, other in taken):
            continue  # a die read already: the body may be its top and side faces, seen at a slant
        taken.append((cx, cy, side))
        looks.append((replace(fit, cx=cx, cy=cy, angle=angle, pitch=side * PITCH_PER_SIDE, squared=True),
                      gate, dark_marks))
    if not looks:
        return []
    return _sure_and_plain(gray, faces, looks, max(min_confidence, SURE), [spots[i] for i in dark])


WHOLE_SIZE = 0.75  # a whole face at least this share of the part's size (a 1's guessed from its pip)


def _placed(scored: list[tuple[FaceFit, float]]) -> list[tuple[FaceFit, float]]:
    """Readings from part of a face (one pip of a 2 that the classifier reads as the 2 around it) moved
    onto a reading of the whole face with the same value holding that part, and about as large: it knows
    where the face is, and two parts of one face are then one die. Each keeps the surer confidence.
    Spots are compared by value: a halved copy's fits carry copies of its pips."""
    whole = [(f, c) for f, c in scored if len(f.pips) == f.value]
    out = []
    for fit, conf in scored:
        if len(fit.pips) < fit.value:
            around = [(f, c) for f, c in whole if f.value == fit.value and f.side >= WHOLE_SIZE * fit.side
                      and set(fit.pips) <= set(f.pips)]
            if around:
                face, face_conf = max(around, key=lambda fc: fc[1])
                fit, conf = face, max(conf, face_conf)
        out.append((fit, conf))
    return out


def _out_of_scale(fit: FaceFit, colour: str, others: list[FaceFit]) -> bool:
    """True for a face far smaller than the dice around it: a symbol on a key or a dot of print, not a
    die (dice of a set are one size; only distance shrinks them, and not this much). A white or grey
    face may be the small grey die, so only one far smaller than even that is dropped. Beside a single
    die, that die's size is trusted only when its pip spacing measures it (a 1's is guessed from its
    pip, and a key's letter read as a 1 can look big)."""
    least = OUT_OF_SCALE_LIGHT if colour in ("white", "grey") else OUT_OF_SCALE
    if len(others) == 1:
        return others[0].value > 1 and fit.side < least * others[0].side
    if not others:
        return False
    # the median counts the face itself: one big false face (keys read as one) must not shrink the rest
    return fit.side < least * median([fit.side, *(o.side for o in others)])


OUT_OF_SCALE = 0.65  # a face this much smaller than the median of the others is not a die of the set
OUT_OF_SCALE_LIGHT = 0.45  # ... for a white or grey face, which may be the grey die (0.72 of a d6)


SAME_DIE = 0.7  # two proposals whose centres are nearer than this many face sides lie on one die


def _same_die(fit: FaceFit, top: FaceFit, body: np.ndarray, top_body: np.ndarray,
              frame: np.ndarray | None = None) -> bool:
    """True when fit lies on the die whose top face is `top` (read with more confidence): on the face
    itself, or just beside it with pips of the same ink that are far smaller or more squashed, along the
    way from the top face (a side face, seen at a slant; a yellow die's dark pips beside a black die's
    light ones are another die), showing a value a side face of `top` may show, on a body of the same
    hue (bodies: BGR of `_body_colour`; a yellow die touching a white one is another die), unless it lies
    on a square of its body's colour (`_on_a_square`; frame: the BGR frame, to look for one)."""
    apart = math.hypot(fit.cx - top.cx, fit.cy - top.cy)
    # a 1's side is guessed from its pip: the other face's, measured by its pip spacing, says more
    measured = [f.side for f in (fit, top) if f.value > 1] or [fit.side, top.side]
    if apart < SAME_DIE * max(measured):
        return True
    if apart > SIDE_FACE_REACH * top.side or fit.pips[0].polarity != top.pips[0].polarity:
        return False  # far, or pips of another ink: a touching die of another colour
    if len(fit.pips) > 1 and not _may_be_beside(fit.value, top.value):
        return False  # (a lone pip at a slant may be what shows of any side face)
    if not _same_hue(body, top_body):
        return False  # a touching die of another colour
    squashed = more_squashed(fit.pips, top.pips)
    if squashed and len(fit.pips) > 1:  # one pip's axis says little (a glint bites it anywhere)
        squashed = drawn_across(fit.pips, math.atan2(fit.cy - top.cy, fit.cx - top.cx))
    # not merely smaller (a grey die beside a d6), and the pip of a 1 is larger by design
    if not squashed and _plain_pip_size(fit) >= 0.6 * _plain_pip_size(top):
        return False
    # pips squashed or far smaller: a side face at a slant, unless its body is a square as large as its
    # pips say (a grey die touching a white one; glints bite pips, so they look squashed)
    return not _on_a_square(frame, fit, body)


def _on_a_square(frame: np.ndarray | None, fit: FaceFit, body: np.ndarray) -> bool:
    """Whether a face lies on a square of its body's colour about its size: a top face (a side face at a
    slant is a strip, or one region with its top face). A face placed by such a square does; one of two
    or more pips is looked at in the frame, when given."""
    if fit.squared:
        return True
    if frame is None or len(fit.pips) < 2:
        return False
    face = _body_face(frame, fit.pips[0], body, BODY_REACH)
    return face is not None and abs(face[2] / fit.side - 1) < SQUARED_SIZE


SQUARED_SIZE = 0.25  # a body square this near a face's size (share of it) is that face's


def _may_be_beside(side: int, top: int) -> bool:
    """Whether a die showing `top` may show `side` on a side face: never its top's value nor the one
    opposite (a d6's opposite faces sum to 7). The grey die's 3 and 4 stand for a 5 and a 6 too, so
    beside its 3 or 4 it may show a 3 or a 4."""
    return side not in (top, 7 - top) or {side, top} <= {3, 4}


SIDE_FACE_REACH = 1.3  # a side face's pips lie within this many face sides of the top face's centre
SAME_HUE = 0.04  # bodies whose chromaticities are this near are one colour


def _side_face(fit: FaceFit, body: np.ndarray, top: FaceFit, top_body: np.ndarray) -> bool:
    """True when fit looks like a side face of the die whose top face is `top`: beside it (the centres
    half to one and a half of its faces apart), its body the same colour in shade, and its face no smaller
    (a grey die beside a white d6 is darker too, but smaller). bodies: BGR of `_body_colour`."""
    apart = math.hypot(fit.cx - top.cx, fit.cy - top.cy)
    if not 0.5 * top.side <= apart <= 1.5 * top.side or fit.side < 0.85 * top.side:
        return False
    if len(fit.pips) > 1 and not _may_be_beside(fit.value, top.value):
        return False
    return in_shade(float(body.mean()), float(top_body.mean())) and _same_hue(body, top_body)


def _same_hue(body: np.ndarray, top_body: np.ndarray) -> bool:
    """Whether two bodies (BGR of `_body_colour`) are of one colour, whatever their shade: their
    chromaticities within SAME_HUE. A side face in shade keeps its top face's hue."""
    return bool(np.abs(chromaticity(body) - chromaticity(top_body)).max() < SAME_HUE)


ROUND = 1.6  # a spot at most this elongated (major / minor axis) is round
SOLID = 0.8  # a spot filling at least this share of its convex hull is solid (a glyph is not)


def _pip_like(fit: FaceFit) -> float:
    """1 for round solid spots, less for squashed ones or glyphs (letters on keys and labels): the
    classifier sees a small patch, the pip finder sees each spot's shape at full resolution. Pips all
    drawn out the same way (a die still sliding, a glint at the same place on every pip, lit by one
    lamp) may be longer and, three or more, less solid: a letter's strokes point every way."""
    axis, agreement = common_axis(fit.pips) if len(fit.pips) > 1 else (0.0, 0.0)
    alike = agreement >= STREAKED
    least_solid = SOLID - BITTEN if alike and len(fit.pips) >= 3 else SOLID
    solid = _unit((median([p.solidity for p in fit.pips]) - (least_solid - 0.2)) / 0.2)
    longest = max(p.elongation for p in fit.pips)
    # a side face seen at a slant has its pips squashed along its grid: not a streak
    streak = alike and angle_apart(axis, fit.angle, math.pi / 2) >= STREAK_OFF_GRID
    round_ = 1.0 if longest <= ROUND else _unit(1.0 - (longest - (STREAK_ROUND if streak else ROUND)) / 0.8)
    return solid * round_


STREAKED = 0.9  # pips whose long axes agree this well (mean resultant length of twice their angles)
STREAK_ROUND = 2.1  # ... count as round up to this elongation
STREAK_OFF_GRID = math.radians(15)  # ... when their common axis is this far off the face's grid
BITTEN = 0.1  # ... and, three or more, may be this much less solid than SOLID


def _inside_frame(fit: FaceFit, width: int, height: int) -> float:
    """1, or 0.3 for a face cut by the frame's edge: it may show more pips than we see."""
    half = fit.side / 2
    cut = fit.cx - half < 0 or fit.cy - half < 0 or fit.cx + half > width or fit.cy + half > height
    return 0.3 if cut else 1.0


CROP_FACE = 0.62  # in a crop of one die, its top face spans about this share of the crop's shorter side


def crop_proposal(image: np.ndarray) -> tuple[float, float, float, float]:
    """The face proposal (cx, cy, side px, angle) of an image that is a crop of one die."""
    h, w = image.shape[:2]
    return (w - 1) / 2, (h - 1) / 2, CROP_FACE * min(h, w), 0.0


def read_crop(image: np.ndarray, faces=None) -> Die | None:
    """The die of an image known to hold one die, cut out around it (as a detector's crops are): its
    face is read where it must be, whatever pips the classical stage finds. None when the classifier
    sees no die face there."""
    faces = faces or FaceClassifier.default()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    cx, cy, side, _ = crop_proposal(image)
    # the face's size and turn are unknown: look at a few and average
    views = [(cx, cy, side * s, a) for s in (0.9, 1.0, 1.1) for a in (0.0, math.pi / 4)]
    p = faces.classify(gray, views).mean(axis=0)
    value = int(p[1:].argmax()) + 1
    if p[value] < p[0]:
        return None
    h, w = gray.shape
    return Die(value, "d6", colour_name(np.median(image.reshape(-1, 3), axis=0)), (0, 0, w - 1, h - 1),
               float(p[value]))
