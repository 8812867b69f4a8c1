"""What `companion train dice` measures of the whole learned reader on rendered scenes held out of training
(and the training photos), for its meta JSON (`MEASURED`): the detector's peak threshold
(`reader_threshold`), the weight of the classifier's "no die" (`no_die_weight`), the classifier's temperature
(`temperature`), the kind model that tells the small grey die from a d6 (`kind_model`) and the sure bar
(`strictest_bar`). `calibrate` measures them all, in the order each depends on the others.
Not the table's calibration (`vision.calibration`): this one belongs to the models, not to a table."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from vision import bench
from vision.batches import parallel
from vision.learned import (
    KIND_FROM_COLOUR,
    VALUES,
    Found,
    LearnedReader,
    d6_sizes,
    kind_features,
    may_be_grey,
    pooled,
    weighed,
)


def temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that makes held-out probabilities honest (least negative log-likelihood).
    logits: (n, classes), or (turns, n, classes) for crops read in several turns, whose probabilities the
    reader pools (`vision.learned.pooled`)."""
    turns = logits if logits.ndim == 3 else logits[None]
    best, best_t = float("inf"), 1.0
    for t in np.exp(np.linspace(math.log(0.5), math.log(5), 60)):
        p = pooled(turns, float(t))[np.arange(len(labels)), labels]
        nll = float(-np.log(np.maximum(p, 1e-30)).mean())
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


PEAK_GRID = tuple(round(0.1 + 0.05 * k, 2) for k in range(11))  # peak thresholds tried: 0.10 .. 0.60
NO_DIE_GRID = tuple(0.5 * k for k in range(-1, 7))  # weights of "no die" tried (`weighed`): -0.5 .. 3.0


def _held_out_scene(args: tuple[int, int, int, bool]) -> tuple[np.ndarray, list[bench.Label]]:
    """Scene k of a stream (seed, stream, k, oblique) held out of training, as a phone photographs a table
    when `oblique`, else looked at from above."""
    from vision.scenes import random_scene

    seed, stream, k, oblique = args
    image, truth = random_scene(np.random.default_rng([seed, stream, k]), oblique=oblique)
    return image, bench.truth_labels(truth)


Scenes = list[tuple[np.ndarray, list[bench.Label]]]


def calibration_scenes(args, oblique: bool = False) -> Scenes:
    """The rendered scenes held out of training that the reader is calibrated on: two fifths as many as the
    classifier's scenes, 1000 by default (250 before the sure bar: one scene of a printed board whose hexes
    read as big dice then weighed a quarter of the readings above a bar). Looked at from above (stream 4 of
    the seed; also the scenes whose crops set the int8 classifier's ranges), or `oblique`, as a phone
    photographs a table (stream 5; none when the training draws no oblique scenes, `--oblique 0`). The
    reader is calibrated on both, and its sure bar must hold on each (`calibrate`): before 2026-11-29 only
    the scenes from above were measured, and the certain readings of held-out oblique renders were right
    99.14 % of the time."""
    if oblique and not args.oblique:
        return []
    jobs = [(args.seed, 5 if oblique else 4, k, oblique) for k in range(max(50, args.scenes * 2 // 5))]
    return parallel(_held_out_scene, jobs, args.workers)


def calibration_renders(args) -> dict[str, Scenes]:
    """Both kinds of calibration scenes (`calibration_scenes`), by name: the sure bar must hold on each."""
    return {"from above": calibration_scenes(args), "oblique": calibration_scenes(args, oblique=True)}


def right_and_false(reader: LearnedReader, scenes: Scenes) -> tuple[int, int]:
    """The dice the reader reads right (values; kinds left out) and the false dice it reads, in the scenes."""
    tally = bench.Tally(kinds=False)
    for image, labels in scenes:
        bench.score_photo(tally, "", labels, reader.read(image))
    return tally.dice_right, tally.false_dice


def reader_threshold(reader: LearnedReader, sets: dict[str, Scenes]
                     ) -> tuple[float, list[tuple[float, dict[str, tuple[int, int]]]]]:
    """The detector's peak threshold at which the whole reader (the detector's peaks, then the classifier's
    "no die") gets the most dice's values right less false dice, from `PEAK_GRID`: a missed die and a false
    one each cost a player one correction. A die's kind is left out (`bench.Tally(kinds=False)`): it is the
    kind model's to get right (`kind_model`, fit at the threshold found here), not the detector's. Each set's
    count is divided by its dice, so the held-out renders and each set of training photos weigh alike. Also,
    for each threshold tried, (right, false) per set."""
    tried = []
    for t in PEAK_GRID:
        reader.detect_min = t
        tried.append((t, {name: right_and_false(reader, scenes) for name, scenes in sets.items()}))
    dice = {name: max(1, sum(len(labels) for _, labels in scenes)) for name, scenes in sets.items()}
    best, _ = max(tried, key=lambda r: (sum((r[1][n][0] - r[1][n][1]) / dice[n] for n in sets), -r[0]))
    reader.detect_min = best
    return best, tried


def no_die_weight(reader: LearnedReader, scenes: Scenes) -> tuple[float, list[tuple[float, tuple[int, int]]]]:
    """The weight of the classifier's "no die" (`vision.learned.weighed`, from `NO_DIE_GRID`) at which the
    whole reader gets the most dice's values right less false dice in held-out renders, at its peak
    threshold: the classifier learned "no die" as often as its training crops showed it, not as often as the
    detector's peaks are none. Only held-out scenes measure it: the training photos' own false finds were
    among the classifier's training crops, so they would show it keeping out more than it does. Ties go to
    the weight nearest 0. Also, for each weight tried, (right, false)."""
    tried = []
    for w in NO_DIE_GRID:
        reader.no_die = w
        tried.append((w, right_and_false(reader, scenes)))
    best, _ = max(tried, key=lambda r: (r[1][0] - r[1][1], -abs(r[0])))
    reader.no_die = best
    return best, tried


def found_labels(found: list[Found], boxes: list[tuple[float, float, float, float]]) -> list[int | None]:
    """For each labelled box (x1, y1, x2, y2 px), the index of the found die on it (the label's centre
    within half the found die's size of its centre; nearest pairs first, one die a label), or None."""
    pairs = []
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        lx, ly = (x1 + x2) / 2, (y1 + y2) / 2
        for j, f in enumerate(found):
            d = math.hypot(f.cx - lx, f.cy - ly)
            if d < 0.5 * max(f.w, f.h):
                pairs.append((d, i, j))
    return bench.closest_first(pairs, len(boxes))


def reader_logits(reader: LearnedReader, scenes: Scenes) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's face logits (turns, n, classes), "no die" `weighed` as the reader weighs it, for every
    die the detector finds in held-out scenes, and the true class of each (the value of the die it lies on,
    or "no die"): what the reader's confidence says."""
    logits, truth = [], []
    for image, labels in scenes:
        found = reader.detect(image)
        if not found:
            continue
        classes = [0] * len(found)
        for label, j in zip(labels, found_labels(found, [lb.box for lb in labels]), strict=True):
            if j is not None:
                classes[j] = VALUES.index(str(label.value))
        logits.append(weighed(reader.logits(image, found)[0], reader.no_die))
        truth += classes
    return np.concatenate(logits, axis=1), np.array(truth, np.int64)


def kind_examples(reader: LearnedReader, scenes: Scenes) -> tuple[np.ndarray, np.ndarray]:
    """`kind_features` (n, 3) of every die reading 1-4 that the reader finds on a d6 or a grey die in the
    scenes, and whether that die is the grey one (n,)."""
    features, grey = [], []
    for image, labels in scenes:
        faces = reader.faces(image)
        on = found_labels([f for f, _, _, _ in faces], [lb.box for lb in labels])
        for label, j in zip(labels, on, strict=True):
            if j is None or label.kind not in ("d6", "grey"):
                continue
            f, value, pc, _ = faces[j]
            if may_be_grey(value):
                features.append(kind_features(f, pc, d6_sizes(faces, without=j)))
                grey.append(label.kind == "grey")
    return np.array(features, np.float64).reshape(-1, 3), np.array(grey, np.float64)


def logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 50) -> tuple[float, ...]:
    """Weights and bias of a logistic regression of y (0/1) on x (n, k), by Newton's method, the weights
    (not the bias) held back by an L2 penalty `l2` so that data a line separates still gives finite ones."""
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    penalty = np.diag([l2] * x.shape[1] + [0.0])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -50, 50)))
        gradient = a.T @ (p - y) + penalty @ w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + penalty + 1e-9 * np.eye(len(w))
        w = w - np.linalg.solve(hessian, gradient)
    return tuple(float(v) for v in w)


def kind_model(reader: LearnedReader, scenes: Scenes) -> tuple[float, ...]:
    """The kind model (`vision.learned.grey_probability`) fit on the dice the reader finds in the scenes
    (held-out renders and training photos); the colour head alone where they hold no grey die or no d6
    reading 1-4."""
    x, grey = kind_examples(reader, scenes)
    if not 0 < grey.sum() < len(grey):
        return KIND_FROM_COLOUR
    return logistic(x, grey)



@contextmanager
def _replaced(reader: LearnedReader, name: str, method: Callable) -> Iterator[None]:
    """While it lasts, this reader's `name` is `method` (an instance attribute over the class's method)."""
    setattr(reader, name, method)
    try:
        yield
    finally:
        delattr(reader, name)


@contextmanager
def logits_remembered(reader: LearnedReader) -> Iterator[None]:
    """While it lasts, the classifier reads each die the detector finds in a frame once: calibrating sweeps
    the peak threshold twice over the same frames, which finds the same dice again and again, and a die's
    outputs (`LearnedReader.outputs`: logits and side shares) depend on its frame and box only (not on the
    threshold or the temperature)."""
    plain, memo, frames = reader.outputs, {}, {}

    def outputs(frame: np.ndarray, found: list[Found]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        if not found:
            return plain(frame, found)
        frames[id(frame)] = frame  # held, so no other frame takes its id while the memo lasts
        keys = [(id(frame), f.cx, f.cy, f.w, f.h) for f in found]
        new = [(f, key) for f, key in zip(found, keys, strict=True) if key not in memo]
        if new:
            read = plain(frame, [f for f, _ in new])
            for i, (_, key) in enumerate(new):
                memo[key] = tuple(None if part is None else part[:, i] for part in read)
        got = [memo[key] for key in keys]
        return tuple(None if got[0][k] is None else np.stack([g[k] for g in got], axis=1)  # type: ignore
                     for k in range(3))

    with _replaced(reader, "outputs", outputs):
        yield


@contextmanager
def peaks_remembered(reader: LearnedReader) -> Iterator[None]:
    """While it lasts, the detector looks at each frame at each scale once: calibrating sweeps the peak
    threshold over the same frames, and the peaks at a threshold are those at the sweep's lowest
    (`PEAK_GRID[0]`) scoring at least it (a local maximum is one whatever the threshold)."""
    plain, memo, frames, floor = reader.candidates, {}, {}, PEAK_GRID[0]

    def candidates(frame: np.ndarray, scale: float, threshold: float) -> list[Found]:
        if threshold < floor:
            return plain(frame, scale, threshold)
        key = (id(frame), scale)
        if key not in memo:
            frames[id(frame)] = frame  # held, so no other frame takes its id while the memo lasts
            memo[key] = plain(frame, scale, floor)
        return [f for f in memo[key] if f.score >= threshold]

    with _replaced(reader, "candidates", candidates):
        yield


#: what `calibrate` measures, in the order the meta JSON keeps them
MEASURED = ("temperature", "detect_min", "no_die", "kind", "sure")


def calibrate(reader: LearnedReader, renders: dict[str, Scenes], photos, log=print) -> dict:
    """What the reader's meta says of its calibration, under the meta's keys (`MEASURED`): its peak
    threshold (`reader_threshold` on the held-out renders and each set of training photos, "no die" as
    trained), the weight of its "no die" there (`no_die_weight`, on the held-out renders), its temperature
    (on the peaks it then finds in the held-out renders), its kind model (`kind_model`, on the dice it then
    reads there and in the training photos, whose dice are all d6s: they teach how far a real d6's measured
    side strays from its neighbours', which renders understate) and its sure bar (`sure_bar`, on its readings
    in the held-out renders).
    `renders`: the held-out renders by how they were drawn (from above, oblique); all of them count as one
    set, but the sure bar is measured on each and the strictest kept, so that the certain readings are
    right often enough on every kind of table, not only on the mix.
    The temperature decides which class of a die's averaged turns wins and the kind model which dice are
    grey, so the threshold that depends on both is measured twice: first at temperature 1 with the colour
    head alone, then with what was measured there (each run starts alike, so the same models give the same
    calibration whatever their meta said before). The training run and `--recalibrate` write the answer as
    it is."""
    scenes = [scene for part in renders.values() for scene in part]
    photographed: dict[str, Scenes] = {}
    for name, image, labels in photos:
        photographed.setdefault(f"training photos {name}", []).append(
            (image, [bench.Label(value, box) for value, box in labels]))
    sets = {"held-out renders": scenes, **photographed}
    taken = [scene for part in photographed.values() for scene in part]  # the training photos, every set
    reader.temperature, reader.kind_model, reader.sure = 1.0, KIND_FROM_COLOUR, None
    with logits_remembered(reader), peaks_remembered(reader):
        for _ in range(2):
            reader.no_die = 0.0
            detect_min, tried = reader_threshold(reader, sets)
            no_die, weights = no_die_weight(reader, scenes)
            logits, truth = reader_logits(reader, scenes)
            reader.temperature = t = temperature(logits, truth)
            reader.kind_model = kind = kind_model(reader, [*scenes, *taken])
        sure, measured = strictest_bar(reader, renders)
    for threshold, counts in tried:
        log(f"  peak threshold {threshold:.2f}: " + "; ".join(f"{name} {right} right, {false} false"
                                                            for name, (right, false) in counts.items()))
    for weight, (right, false) in weights:
        log(f"  no die weighed {weight:+.1f}: held-out renders {right} right, {false} false")
    right = float((pooled(logits, t).argmax(1) == truth).mean())
    log(f"peak threshold {detect_min:.2f}; no die weighed {no_die:+.1f}; in the held-out renders "
        f"{len(truth)} peaks, {100 * right:.2f} % classed right; temperature {t:.2f}; "
        f"kind model {', '.join(f'{w:.3f}' for w in kind)}")
    for name, (bar_there, bars) in measured.items():
        log(f"  {name}: readings at least as probable as: " + "; ".join(
            f"{bar:.4f} {right}/{count} right" for bar, right, count in bars) + f"; its bar {bar_there:.4f}")
    log(f"sure bar {sure:.4f}: readings at least as probable were surely right at least "
        f"{100 * SURE_RIGHT:.1f} % of the time (`surely_right`) in each kind of held-out render "
        f"({', '.join(measured)}), at every bar from it up")
    return dict(zip(MEASURED, (t, detect_min, no_die, list(kind), sure), strict=True))


SURE_RIGHT = 0.995  # the share of readings at or above the sure bar that must be right (issue 29's target)
SURE_Z = 1.645  # ... not only among the readings measured: at one-sided confidence 95 % (`surely_right`)
SURE_GRID = tuple(round(1 - 0.5 * 0.75 ** k, 4) for k in range(24))  # bars tried: 0.5 .. 0.9993, each
# leaving three quarters of the doubt of the one before


def surely_right(right: int, count: int) -> bool:
    """Whether `right` of `count` readings show that such readings are right at least `SURE_RIGHT` of the
    time: the Wilson score interval's lower end at `SURE_Z` reaches it (so 3 wrong of 1000, 99.7 % in the
    sample, do not: another thousand may well hold 6). No readings hold nothing wrong."""
    if count == 0:
        return True
    share, z2 = right / count, SURE_Z**2
    centre = share + z2 / (2 * count)
    spread = SURE_Z * math.sqrt(share * (1 - share) / count + z2 / (4 * count**2))
    return (centre - spread) / (1 + z2 / count) >= SURE_RIGHT


def sure_bar(reader: LearnedReader, scenes: Scenes) -> tuple[float, list[tuple[float, int, int]]]:
    """The least bar of `SURE_GRID` at which the reader's readings of the scenes that are at least as
    probable are surely right at least `SURE_RIGHT` of the time (`surely_right`), and so are those at every
    higher bar (one lucky bar is not enough), except a bar whose readings are all right but too few to show
    it: their fewness is no evidence against the bars below, which hold them too (a model whose surest
    readings are rare would otherwise get no bar, however many lower readings are right). 1.0 where no bar
    holds. A false die (a reading where the scene has none) is a wrong reading. Also, per bar: (bar, right,
    readings at or above it). The reader's `sure` must be None: its confidences are then the probabilities
    themselves."""
    probability, right = [], []
    for image, labels in scenes:
        paired, extra = bench.match(labels, reader.read(image))
        for label, die in zip(labels, paired, strict=True):
            if die is not None:
                probability.append(die.confidence)
                right.append(die.value == label.value and die.kind == label.kind)
        probability += [die.confidence for die in extra]
        right += [False] * len(extra)
    p, ok = np.array(probability), np.array(right, bool)
    bars = [(bar, int(ok[p >= bar].sum()), int((p >= bar).sum())) for bar in SURE_GRID]
    sure = 1.0
    for bar, good, count in reversed(bars):
        if surely_right(good, count):
            sure = bar
        elif good < count:
            break
    return sure, bars


def strictest_bar(reader: LearnedReader, renders: dict[str, Scenes]
                  ) -> tuple[float, dict[str, tuple[float, list[tuple[float, int, int]]]]]:
    """The highest of the sure bars (`sure_bar`) measured on each kind of render apart, and each kind's own:
    a bar measured on the mix may hold there while the harder kind's certain readings are wrong too often."""
    measured = {name: sure_bar(reader, scenes) for name, scenes in renders.items() if scenes}
    return max((bar for bar, _ in measured.values()), default=1.0), measured  # no scenes: no bar holds
