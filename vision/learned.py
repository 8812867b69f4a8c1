"""The learned dice reader: a small detector finds the dice, a small classifier reads each one's colour crop.

    from vision.learned import LearnedReader
    reader = LearnedReader.default()              # the ONNX models in vision/data/, run by ONNX Runtime
    for die in reader.read(frame):                # frame: BGR uint8 of any size
        print(die.value, die.kind, die.colour, die.box, die.confidence)
    reader.read(frame, die_px=48)                 # with the calibrated face side (px) of the table's d6

Two networks, both trained by `companion train dice` (`vision.dicetrain`, PyTorch) and exported to
ONNX; reading needs numpy, cv2 and onnxruntime only.
- The detector (CenterNet-style: a heatmap of top-face centres, their size and sub-cell offset at a
  quarter of its input) looks at the frame and at its mirror image (`MIRROR`: the two heatmaps are
  averaged, which on the held-out photos halves the false dice and finds more dice, for a second run of
  the detector; the first look's too, though its dice only set the scale of the next: without its mirror
  they set it less well, and 4 of 312 held-out phone dice were lost, renders read as before) at a
  working scale that follows the dice (`working_scale`): a first look at `COARSE_LONG` px finds the dice,
  and when they came out smaller than `WORK_DIE` the frame is looked at again, scaled to make them
  `WORK_DIE` px; when it found none, the frame is looked at again as close as the reader looks (dice of
  15-25 px, shrunk to a few px by the first look, are often missed by it). A calibrated die size stands
  in for the first look's: the same scale, one look fewer.
- The classifier reads each die from the full-size frame: a colour crop `CONTEXT` times the die's
  box, resampled to `CROP` px, so a 15 px die and a 150 px one look alike to it. The committed classifier
  is `upright` (meta): it learned which way is down in the frame, since a tilted camera's side faces hang
  below their top face and a turn would hide it, and reads the crop and its mirror image (`MIRRORS`
  looks); one trained on turned crops reads `TURNS` quarter turns. It names the top face (a pip value
  1-6, a Treehouse symbol, or "no die"), the body colour, and the die's side as a share of the crop (a
  turned die's box is up to 1.41 times its side, so the box alone cannot say how big the die is; classifiers
  made before 2026-12-01 measure no side, and the box stands in: `die_side`). `companion train dice` trains
  several classifiers alike but each from its own seed (the meta's "classifiers"; `member_path` names their
  files) and the reader averages all their looks: two read more held-out dice on every set than one.
  Each runs in int8 (`vision.onnxexport.quantise`: as accurate, about 30 % less time a crop). Its
  probabilities are calibrated on held-out renders (temperature scaling) and averaged over the looks.
- A reading's confidence is its probability placed on the table's scale (`confidence`): the sure bar
  (meta "sure", the least probability at which readings of the held-out renders were surely right at
  least 99.5 % of the time, however high the bar was raised, but for bars too sparse to show anything whose
  readings were all right: `vision.readerfit.sure_bar`) becomes `SURE`,
  the table's default certainty threshold, so that by default the table proposes as certain only readings
  as sure as those.
- No threshold is set by hand: the detector's peak threshold (`detect_min`), the weight of "no die"
  (`no_die`: added to that class's logit, since how often the detector's peaks are no die differs from how
  often the classifier's training crops were), the classifier's temperature and the sure bar are measured
  on held-out renders (the peak threshold also on the training photos) by `companion train dice`, stored in
  the model's meta JSON beside the weights; the certainty a reading must reach is the caller's (the
  table's `confidence_threshold`).
The small grey 1-4 die is told from a d6 by its grey body and its size beside the d6s where it lies
(`kind_features`; `D6Sizes`, since a tilted camera sees far dice smaller; the other dice's, not its own),
weighed by a logistic model
that `companion train dice` fits on held-out renders (the meta's "kind"; without one, the colour head's
grey probability alone). A die reading 1-4 is as sure as its face times its kind: where the kind is in
doubt, so is the reading.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.die import Die
from vision.images import turned
from vision.render import GREY_FACES
from vision.symbols import TREEHOUSE_FACES

if TYPE_CHECKING:
    from vision.calibration import TableCalibration

DATA = Path(__file__).with_name("data")
DETECTOR = DATA / "dice_detector.onnx"
CLASSIFIER = DATA / "dice_faces.onnx"
META = DATA / "dice_reader.json"

STRIDE = 4  # the detector's output cell, in working px
MULTIPLE = 16  # working sizes are multiples of this (the detector's coarsest stride)
COARSE_LONG = 320  # px: the first look's longer side
WORK_DIE = 24  # px: a die's face side at the working scale (smaller at the first look: looked at again)
SMALL_DIE = 13  # px: the smallest a die may be at a look (`roll_scales` looks no farther than that)
MAX_LONG = 960  # px: the longest working side
CLOSER = 1.5  # a roll that does not read as it should is looked at again this many times closer or farther
CROP = 40  # px: the classifier's input side
CONTEXT = 1.4  # the crop covers this many box sides round the die's centre (a meta's "context" overrides)
TURNS = 4  # each crop is read in this many quarter turns and their probabilities averaged
MIRRORS = 2  # an upright classifier reads each crop and its mirror image (`looks`)
MIRROR = True  # the detector's heatmap is averaged with that of the mirrored frame (both looks)
VALUES = ("none", "1", "2", "3", "4", "5", "6", *TREEHOUSE_FACES)  # the classifier's face classes
COLOURS = ("white", "cream", "grey", "black", "red", "orange", "yellow", "green", "blue", "purple", "pink")
CROP_FILL = 0.8  # a crop known to hold one die: its face is this share of the crop's shorter side
GREY = COLOURS.index("grey")
#: the kind model of a meta without one: the weights of `kind_features` (grey log-odds, log size ratio, no d6
#: beside it) and a bias, making P(grey die) the colour head's grey probability alone
KIND_FROM_COLOUR = (1.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Found:
    """A die the detector found: top-face centre and box size (px in the frame) and its score 0..1; and,
    once read, the die's side (px) as the classifier measured it (0.0: not measured; `die_side`)."""

    cx: float
    cy: float
    w: float
    h: float
    score: float
    side: float = 0.0


def die_side(found: Found) -> float:
    """A die's side (px): as the classifier measured it, else its box's (which a turned die makes up to 1.41
    times its side)."""
    return found.side or max(found.w, found.h)


#: a die found that reads as a die: where, its face (from VALUES), its colour probabilities, that face's
#: probability (`LearnedReader.faces`)
Face = tuple[Found, str, np.ndarray, float]


def frame_box(cx: float, cy: float, w: float, h: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The box (x1, y1, x2, y2 px) of something w x h px centred at (cx, cy), inside a frame of `shape`."""
    return (max(0, int(cx - w / 2)), max(0, int(cy - h / 2)),
            min(shape[1] - 1, math.ceil(cx + w / 2)), min(shape[0] - 1, math.ceil(cy + h / 2)))


def working_size(width: int, height: int, scale: float) -> tuple[int, int]:
    """The detector's input size (w, h) px for a frame scaled by `scale`: multiples of MULTIPLE."""
    return (max(MULTIPLE, round(width * scale / MULTIPLE) * MULTIPLE),
            max(MULTIPLE, round(height * scale / MULTIPLE) * MULTIPLE))


def look_scales(shape: tuple[int, ...]) -> tuple[float, float]:
    """(the first look's scale, the closest look's) for a frame of `shape`: the first look shrinks the
    longer side to COARSE_LONG px, the closest to MAX_LONG; neither enlarges it."""
    longest = max(shape[:2])
    return min(1.0, COARSE_LONG / longest), min(1.0, MAX_LONG / longest)


def working_scale(die_px: float, coarse: float, closest: float) -> float:
    """The scale a frame whose dice are `die_px` px across is looked at: the one that makes them WORK_DIE px,
    but never farther than the first look's (`coarse`) nor closer than `closest`. Dice of 13-24 px at the
    first look were read there before 2026-12-01. Looked at again, with the classifiers retrained on the crops
    cut there, held-out wood photos read 229 of 229 dice (226 before), phone photos 257 of 312 (254), renders
    0.2-0.7 points more, all with fewer false dice (notes s43/compare_keep.txt), for about 14 ms a 640x480
    frame instead of 7.8. Dice made 20 or 28 px instead read the training photos and 1000 calibration renders
    no better (right less false, per die: phone training photos 0.914 and 0.926 against 24 px's 0.929,
    renders 0.880 and 0.883 against 0.884; notes s51/workdie.txt): 24 px stays, though 20 would look at
    0.69 of the pixels."""
    return max(coarse, min(closest, WORK_DIE / die_px))


def roll_scales(scale: float, shape: tuple[int, ...], die_px: float) -> list[float]:
    """The scales a roll is looked at until it reads as it should (a calibration's typed values, or as many
    dice as the game's roll holds): the reader's own (`scale`), then `CLOSER` times closer each up to the
    closest look, then as many times farther while a die `die_px` across in the frame stays at least
    SMALL_DIE px there (the detector finds a die's pips where it looks close, and the die where it looks
    farther, on some tables). Callers give the largest find's side: farther than that, all it found is
    smaller than a die the reader looks for, whereas their median may be a speck's or a pip's (which set
    the reader's own scale)."""
    _, closest = look_scales(shape)
    scales = [scale]
    while scales[-1] < closest:
        scales.append(min(closest, scales[-1] * CLOSER))
    farther = scale / CLOSER
    while die_px * farther >= SMALL_DIE:
        scales.append(farther)
        farther /= CLOSER
    return scales


def to_input(images: np.ndarray) -> np.ndarray:
    """BGR uint8 images (n, h, w, 3), or one (h, w, 3) -> float32 (n, 3, h, w) in 0..1 (one image: n = 1),
    as both networks take them. Scaled in place: one float array made a look, not two."""
    batch = images[None] if images.ndim == 3 else images
    out = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
    out /= 255.0
    return out


def peaks(heat: np.ndarray, size: np.ndarray, offset: np.ndarray, threshold: float
          ) -> list[tuple[float, float, float, float, float]]:
    """Local maxima of the heatmap (h, w) at or above `threshold`, as (cx, cy, w, h, score) in working px."""
    grown = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= grown) & (heat >= threshold))
    out = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx = (x + float(offset[0, y, x])) * STRIDE
        cy = (y + float(offset[1, y, x])) * STRIDE
        w, h = (math.exp(float(size[k, y, x])) * STRIDE for k in (0, 1))
        out.append((cx, cy, w, h, float(heat[y, x])))
    return out


def one_per_face(found: list[Found]) -> list[Found]:
    """The strongest peak of each top face: a peak whose centre lies on a stronger peak's face is the same
    die seen twice (a pip, or a second box round it), since two top faces never overlap."""
    kept: list[Found] = []
    for f in sorted(found, key=lambda f: -f.score):
        if all(abs(f.cx - k.cx) > k.w / 2 or abs(f.cy - k.cy) > k.h / 2 for k in kept):
            kept.append(f)
    return kept


def crop(frame: np.ndarray, cx: float, cy: float, side: float, size: int = CROP) -> np.ndarray:
    """A size x size BGR crop of the frame: the square of `side` px round (cx, cy), edges replicated."""
    side = max(side, 4.0)
    scale = size / side
    m = np.float32([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]])
    if scale < 0.7:  # shrinking a lot: smooth first so pips do not alias away
        sigma = 0.45 / scale
        # only the crop's square and the blur's reach round it (OpenCV's kernel: radius <= 3 sigma + 1)
        reach = side / 2 + 3 * sigma + 3
        x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
        x1, y1 = int(min(frame.shape[1], cx + reach + 1)), int(min(frame.shape[0], cy + reach + 1))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return np.zeros((size, size, 3), np.uint8)
        region = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), sigma)
        m[:, 2] += m[:, :2] @ np.float32([x0, y0])
        frame = region
    return cv2.warpAffine(frame, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def looks(image: np.ndarray, k: int, upright: bool) -> np.ndarray:
    """The k-th look the classifier takes at a crop: k quarter turns, or for an upright classifier (which
    keeps the frame's down) the crop itself (k even) or its mirror image (k odd)."""
    if upright:
        return image[:, ::-1] if k % 2 else image
    return turned(image, k)


def face_value(face: str) -> tuple[int | str, str]:
    """A face the classifier read (from VALUES, not "none") as a Die's value and kind: a pip value on a d6
    (which the kind model may yet make the small grey die), or a Treehouse symbol on the Treehouse die."""
    return (int(face), "d6") if face.isdigit() else (face, "treehouse")


def may_be_grey(value: str) -> bool:
    """Whether a face the classifier read (from VALUES) is one the small grey die shows (1-4)."""
    return value.isdigit() and int(value) in GREY_FACES


def kind_features(found: Found, colours: np.ndarray, d6: D6Sizes) -> tuple[float, float, float]:
    """What tells the small grey die from a d6, for a die reading 1-4: the colour head's grey probability as
    log-odds, its size beside the side a d6 has where it lies (`d6`, the frame's `d6_sizes`) as a log
    ratio, and 1.0 where there is no d6 to compare with (the ratio is then 0)."""
    p = min(max(float(colours[GREY]), 1e-4), 1 - 1e-4)
    typical = d6.at(found.cx, found.cy)
    ratio = die_side(found) / typical if typical else 1.0
    return math.log(p / (1 - p)), math.log(ratio), 0.0 if typical else 1.0


def grey_probability(model: tuple[float, ...], features: tuple[float, float, float]) -> float:
    """P(the small grey die) under a logistic kind model (three weights and a bias)."""
    z = sum(w * x for w, x in zip(model[:3], features, strict=True)) + model[3]
    return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))


PLANE_FIT = 4  # d6s needed to fit `D6Sizes`' plane: one more than its three unknowns, so no one die sets it


@dataclass(frozen=True)
class D6Sizes:
    """The side (px) a d6 has at each point of one frame, from the dice read in it.

    A camera looking at a flat table sees a die's side in proportion to 1/depth, and 1/depth of a plane is
    an affine function of the image point: side = a*x + b*y + c. Fit by least squares to the d6s' centres
    when there are at least `PLANE_FIT` of them (a tilted phone sees near dice twice the size of far
    ones, so one median for the whole frame makes a far d6 look like the small grey die); with fewer,
    their median everywhere. Kept within the sides seen, so the plane never reaches past its dice."""

    a: float = 0.0
    b: float = 0.0
    c: float = 0.0  # px; 0 everywhere: no d6 in the frame
    low: float = 0.0
    high: float = 0.0

    def at(self, x: float, y: float) -> float:
        """A d6's side (px) at the frame point (x, y) px; 0.0 when the frame holds no d6."""
        return min(max(self.a * x + self.b * y + self.c, self.low), self.high)


def d6_sizes(faces: list[Face], without: int | None = None) -> D6Sizes:
    """The d6 sides (`D6Sizes`) of the dice read as a pip value on a body not read grey: the size a d6
    has in this frame, beside which the grey die is small. faces: as `LearnedReader.faces` gives them;
    `without`: the index of the die being weighed, left out, so that it is measured beside the other dice
    and never beside itself (a grey die its colour head misses would otherwise pull the d6 side towards
    its own: on 1000 held-out renders, the grey dice it read as d6s were a median 12 % smaller than the
    side so fit, against the 28 % they are smaller than a d6)."""
    d6s = [(f.cx, f.cy, die_side(f)) for k, (f, value, colours, _) in enumerate(faces)
           if k != without and value.isdigit() and int(colours.argmax()) != GREY]
    if not d6s:
        return D6Sizes()
    points = np.array(d6s, np.float64)
    sides = points[:, 2]
    if len(d6s) < PLANE_FIT:
        return D6Sizes(0.0, 0.0, float(np.median(sides)), float(sides.min()), float(sides.max()))
    at = np.hstack([points[:, :2], np.ones((len(points), 1))])
    a, b, c = np.linalg.lstsq(at, sides, rcond=None)[0]
    return D6Sizes(float(a), float(b), float(c), float(sides.min()), float(sides.max()))


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = logits / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def weighed(logits: np.ndarray, no_die: float) -> np.ndarray:
    """Face logits (..., len(VALUES)) with `no_die` added to the "no die" class's: the prior of a peak being
    no die, as measured for the reader (meta "no_die"), in place of the share the training crops had."""
    out = np.array(logits, np.float32)
    out[..., 0] += no_die
    return out


def pooled(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """A die read in several turns, logits (turns, n, classes) -> probabilities (n, classes): the mean of
    the turns' probabilities, so turns that disagree make a reading less sure. The one place the turns are
    pooled: the reader and its calibration (`vision.readerfit.temperature`) both call it."""
    return softmax(logits, temperature).mean(axis=0)


SURE = 0.8  # the confidence of a reading at the sure bar: the table's default confidence_threshold


def confidence(p: float, sure: float | None) -> float:
    """A reading's confidence 0-1 from its probability `p`: the sure bar (`sure`, meta "sure") becomes
    `SURE` and the scale is straight on either side of it (0 stays 0, 1 stays 1), so the order of readings
    is kept; without a bar (weights calibrated before 2026-11-28), the probability itself."""
    if sure is None:
        return p
    if p < sure:
        return SURE * p / sure
    return SURE + (1.0 - SURE) * (p - sure) / max(1.0 - sure, 1e-9)


def game_palette(colours: Sequence[str]) -> tuple[int, ...]:
    """The COLOURS indices of the colour names the game's sets of dice go by (`colours`), which `game_colour`
    names dice among; none where the game names no colours, or one the reader cannot name (its dice would be
    forced into another's). Once a frame, not once a die."""
    known = tuple(COLOURS.index(c) for c in dict.fromkeys(colours) if c in COLOURS)
    return known if len(known) == len(set(colours)) else ()


def game_colour(colour_p: np.ndarray, palette: Sequence[int]) -> str | None:
    """The likeliest of the game's colours (`palette`, from `game_palette`) for a die with these colour
    probabilities (one per COLOURS): a game's dice are of its sets' colours, so a cream die the reader finds
    a little likelier white is "cream" where the game has a cream set and no white one. None for none."""
    return COLOURS[max(palette, key=lambda c: colour_p[c])] if palette else None


def member_path(classifier: Path, member: int) -> Path:
    """The ONNX file of the classifier ensemble's `member` (0: `classifier` itself; then dice_faces_2.onnx
    beside it, and so on)."""
    classifier = Path(classifier)
    return classifier if member == 0 else classifier.with_name(f"{classifier.stem}_{member + 1}.onnx")


class LearnedReader:
    """The ONNX networks and their calibration; `read` a frame into Die readings."""

    _default: LearnedReader | None = None
    others: tuple = ()  # the classifier ensemble's other members' sessions (`member_path`)
    kind_model: tuple[float, ...] = KIND_FROM_COLOUR
    sure: float | None = None  # the sure bar, a probability (`confidence`)
    no_die = 0.0  # added to the "no die" logit of each look (`weighed`)
    mirror = False
    upright = False
    context = CONTEXT

    def __init__(self, detector: Path = DETECTOR, classifier: Path = CLASSIFIER, meta: Path = META,
                 threads: int = 1):
        import onnxruntime as ort

        self.meta = json.loads(Path(meta).read_text()) if Path(meta).is_file() else {}
        self.temperature = float(self.meta.get("temperature", 1.0))
        if "detect_min" not in self.meta:
            raise ValueError(f"{meta} holds no calibrated detect_min (the detector's peak threshold): "
                             "run 'companion train dice'")
        self.detect_min = float(self.meta["detect_min"])  # measured on held-out renders by the training
        self.no_die = float(self.meta.get("no_die", 0.0))  # likewise (none before 2026-11-30)
        if not math.isfinite(self.no_die):
            raise ValueError(f"{meta}: 'no_die' must be a number, not {self.meta['no_die']!r}")
        self.sure = float(self.meta["sure"]) if "sure" in self.meta else None
        if self.sure is not None and not 0.0 < self.sure <= 1.0:
            raise ValueError(f"{meta}: 'sure' must be a probability above 0 and at most 1, not {self.sure}")
        self.turns = int(self.meta.get("turns", 1))  # looks at each crop, as calibrated (`looks`)
        self.upright = bool(self.meta.get("upright", False))  # the classifier keeps the frame's down
        self.mirror = bool(self.meta.get("mirror", False))  # the detector also looks at the mirrored frame
        self.context = float(self.meta.get("context", CONTEXT))  # box sides a crop covers, as trained
        if not self.context > 0:
            raise ValueError(f"{meta}: 'context' must be above 0, not {self.context}")
        self.kind_model = tuple(float(w) for w in self.meta.get("kind", KIND_FROM_COLOUR))
        if len(self.kind_model) != 4:
            raise ValueError(f"{meta}: 'kind' must hold three weights and a bias, not {self.kind_model}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        providers = ["CPUExecutionProvider"]
        self.detector = ort.InferenceSession(str(detector), options, providers=providers)
        self.classifier = ort.InferenceSession(str(classifier), options, providers=providers)
        self.others = tuple(  # the ensemble's other classifiers
            ort.InferenceSession(str(member_path(classifier, m)), options, providers=providers)
            for m in range(1, int(self.meta.get("classifiers", 1))))

    @classmethod
    def default(cls) -> LearnedReader:
        """The committed models, loaded once."""
        if cls._default is None:
            cls._default = cls()
        return cls._default

    @classmethod
    def in_folder(cls, folder: Path, threads: int = 1) -> LearnedReader:
        """The models and meta saved in `folder` under the committed files' names (a training run's --out)."""
        folder = Path(folder)
        return cls(folder / DETECTOR.name, folder / CLASSIFIER.name, folder / META.name, threads)

    @staticmethod
    def available(folder: Path = DATA) -> bool:
        """Whether `folder` holds a trained reader's networks (the committed ones by default)."""
        return (Path(folder) / DETECTOR.name).is_file() and (Path(folder) / CLASSIFIER.name).is_file()

    def candidates(self, frame: np.ndarray, scale: float, threshold: float) -> list[Found]:
        """The detector's peaks scoring at least `threshold` with the frame scaled by `scale` (px in the
        frame), before two peaks on one face are told apart (`one_per_face`)."""
        height, width = frame.shape[:2]
        ww, wh = working_size(width, height, scale)
        work = cv2.resize(frame, (ww, wh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        heat, size, offset = self.detector.run(None, {"image": to_input(work)})
        if self.mirror:  # a second opinion of every cell: the mirrored frame's heatmap, mirrored back
            heat = (heat + self.detector.run(None, {"image": to_input(work[:, ::-1])})[0][..., ::-1]) / 2
        sx, sy = width / ww, height / wh
        return [Found(cx * sx, cy * sy, w * sx, h * sy, s)
                for cx, cy, w, h, s in peaks(heat[0, 0], size[0], offset[0], threshold)]

    def detect_at(self, frame: np.ndarray, scale: float) -> list[Found]:
        """Dice found with the frame scaled by `scale` (px in the frame)."""
        return one_per_face(self.candidates(frame, scale, self.detect_min))

    def detect(self, frame: np.ndarray, die_px: float | None = None, work_px: float | None = None
               ) -> list[Found]:
        """Dice in the frame, looked at the `working_scale` of their size (`scaled_detect`)."""
        return self.scaled_detect(frame, die_px, work_px)[1]

    def scaled_detect(self, frame: np.ndarray, die_px: float | None = None, work_px: float | None = None
                      ) -> tuple[float, list[Found]]:
        """(the scale the frame was looked at, the dice found there): the `working_scale` of the calibrated
        `die_px` (px in the frame) when given, otherwise of the median size of the dice a first look at
        `COARSE_LONG` px found. `work_px`: with `die_px`, the side (px) the table's calibration read its dice
        at, instead."""
        coarse, closest = look_scales(frame.shape)
        if die_px:  # the calibrated size stands in for the first look's
            scale = min(closest, work_px / die_px) if work_px else working_scale(die_px, coarse, closest)
            return scale, self.detect_at(frame, scale)
        found = self.detect_at(frame, coarse)
        if coarse >= 1.0:
            return coarse, found
        if not found:  # the first look shrinks a 15 px die to a few px: nothing seen is not yet no dice
            return closest, self.detect_at(frame, closest)
        scale = working_scale(float(np.median([max(f.w, f.h) for f in found])), coarse, closest)
        return scale, found if scale == coarse else self.detect_at(frame, scale)

    def logits(self, frame: np.ndarray, found: list[Found]) -> tuple[np.ndarray, np.ndarray]:
        """The classifiers' face (looks, n, len(VALUES)) and colour (looks, n, len(COLOURS)) logits for
        each die found: each classifier of the ensemble's reading of each of its crop's `self.turns` looks
        (quarter turns or mirror images: a face's value and colour do not turn, so they are looks at the
        same die), classifier by classifier."""
        values, colours, _ = self.outputs(frame, found)
        return values, colours

    def outputs(self, frame: np.ndarray, found: list[Found]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """`logits`, and the classifiers' side shares (looks, n: `diceset.side_share`), None where they
        measure no side (classifiers trained before 2026-12-01)."""
        count = self.turns * (1 + len(self.others))
        if not found:
            return (np.zeros((count, 0, len(VALUES)), np.float32),
                    np.zeros((count, 0, len(COLOURS)), np.float32), None)
        views = {"crops": self.views(frame, found)}
        read = [session.run(None, views) for session in (self.classifier, *self.others)]
        n = len(found)
        shares = (np.concatenate([r[2].reshape(self.turns, n) for r in read])
                  if all(len(r) > 2 for r in read) else None)
        return (np.concatenate([r[0].reshape(self.turns, n, -1) for r in read]),
                np.concatenate([r[1].reshape(self.turns, n, -1) for r in read]), shares)

    def crop_side(self, found: Found) -> float:
        """The side (px in the frame) of a found die's crop: `context` box sides."""
        return self.context * max(found.w, found.h)

    def views(self, frame: np.ndarray, found: list[Found]) -> np.ndarray:
        """The classifier's input for the dice found (at least one): each die's crop in each of its
        `self.turns` looks, look by look, float (turns * n, 3, CROP, CROP) in 0..1."""
        crops = [crop(frame, f.cx, f.cy, self.crop_side(f)) for f in found]
        views = np.stack([looks(c, k, self.upright) for k in range(self.turns) for c in crops])
        return to_input(views)

    def classify(self, frame: np.ndarray, found: list[Found], no_die: float | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Calibrated probabilities of each die's face (n, len(VALUES)) and colour (n, len(COLOURS)),
        "no die" `weighed` by `no_die` (the reader's measured weight when None), its turns `pooled`
        (averaging their logits instead ranked right readings above wrong ones less well on the calibration
        renders); and each die's side (n, px; 0.0 where the classifiers measure none), the geometric mean
        of its looks'."""
        values, colours, shares = self.outputs(frame, found)
        weight = self.no_die if no_die is None else no_die
        crop_sides = np.array([self.crop_side(f) for f in found], np.float64)
        sides = np.exp(shares.mean(axis=0)) * crop_sides if shares is not None else np.zeros(len(found))
        return pooled(weighed(values, weight), self.temperature), pooled(colours), sides

    def read_crop(self, image: np.ndarray) -> Die | None:
        """The one die a crop is known to hold (it fills most of it), or None when it reads as no die.
        "No die" is not weighed (`no_die`): that weight is how often the detector's peaks are none, and
        this crop was cut round a die."""
        h, w = image.shape[:2]
        side = CROP_FILL * min(h, w)
        values, colours, _ = self.classify(image, [Found(w / 2, h / 2, side, side, 1.0)], no_die=0.0)
        best = int(values[0].argmax())
        if best == 0:
            return None
        value, kind = face_value(VALUES[best])
        return Die(value, kind, COLOURS[int(colours[0].argmax())], (0, 0, w - 1, h - 1),
                   confidence(float(values[0, best]), self.sure))

    def faces(self, frame: np.ndarray, die_px: float | None = None, table: TableCalibration | None = None,
              count: int | None = None) -> list[Face]:
        """Each die found that reads as a die: (where, its face from VALUES, its colour probabilities, the
        probability of that face). `read` makes them Die readings; training fits the kind model on them.
        count: how many dice the roll holds (the game asks for them). Where the reader's own scale reads
        another number of dice, or one less surely than the sure bar, the frame is read again at the scales
        round it (`roll_scales`), and the reading kept is the one whose number of dice is nearest `count`,
        then with the most dice at the sure bar or above (the reader's own on ties): on 450 throws of
        held-out rendered tables, 1266 -> 1310 of 1380 dice right, false dice 26 -> 4, read again on 55 %
        of the throws (notes s42/count_scale.py)."""
        if table is not None:
            die_px = die_px or table.die_px_for(frame)
        scale, found = self.scaled_detect(frame, die_px, table.work_px if table is not None else None)
        if count is None or self.sure is None:
            return self._faces_of(frame, found, table)

        def fit(faces: list[Face]) -> tuple[int, int]:
            return -abs(len(faces) - count), sum(p >= self.sure for *_, p in faces)

        faces, best = [], (-math.inf, 0)
        for _, seen in self.looks_round(frame, scale, found):
            other = self._faces_of(frame, seen, table)
            if (better := fit(other)) > best:
                faces, best = other, better
            if best == (0, count):  # as many dice as the roll holds, each at the sure bar or above
                break
        return faces

    def looks_round(self, frame: np.ndarray, scale: float, found: list[Found]
                    ) -> Iterator[tuple[float, list[Found]]]:
        """(scale, the dice found there) at each of `roll_scales` round the reader's own `scale`, where it
        found `found` (given back, not looked for again), each look taken only when asked for; farther looks
        go as far as the largest of `found` stays a die the reader looks for. None but the first where
        nothing was found."""
        yield scale, found
        if found:
            for other in roll_scales(scale, frame.shape, max(max(f.w, f.h) for f in found))[1:]:
                yield other, self.detect_at(frame, other)

    def _faces_of(self, frame: np.ndarray, found: list[Found], table: TableCalibration | None) -> list[Face]:
        """`faces` of the dice found (less those the table's calibration says are its empty spots)."""
        if table is not None:
            found = table.keep(frame, found)
        values, colours, sides = self.classify(frame, found)
        return [(replace(f, side=float(side)), VALUES[int(pv.argmax())], pc, float(pv.max()))
                for f, pv, pc, side in zip(found, values, colours, sides, strict=True) if pv.argmax() != 0]

    def kind_of(self, faces: list[Face], k: int, grey_die: bool = True) -> tuple[str, float]:
        """(kind, its probability) of the die `faces[k]` (read as a pip value, with its colour
        probabilities), beside the frame's other dice (`d6_sizes`): the small grey die ("grey") or a d6
        ("d6"), by the kind model; never the grey die where `grey_die` is False (a calibration roll that held
        none, or a roll that asks for none)."""
        found, value, colour_p, _ = faces[k]
        if not (grey_die and may_be_grey(value)):
            return "d6", 1.0
        grey = grey_probability(self.kind_model, kind_features(found, colour_p, d6_sizes(faces, without=k)))
        return ("grey", grey) if grey >= 0.5 else ("d6", 1.0 - grey)

    def read(self, frame: np.ndarray, die_px: float | None = None, table: TableCalibration | None = None,
             kinds: Collection[str] | None = None, colours: Sequence[str] = (), count: int | None = None
             ) -> list[Die]:
        """Every die in the BGR frame: value, kind, colour, top-face box and calibrated confidence.

        table: the table's calibration (`vision.calibration`): its die size sets the working scale
        (unless `die_px` is given), a die found where the empty table fooled the detector is
        dropped while the frame there still looks empty, and each die's colour is named after the
        calibration roll's die it looks most like (`TableCalibration.name_of`: a cream die read as a little
        orange stays "cream", and takes the name the player typed for it; a calibration saved before
        signatures names it among the colours the roll showed). Whether a die is the small grey die is
        weighed on the reader's own colour probabilities, as the kind model was fitted.
        kinds: the kinds of dice that may lie there ("d6", "grey", "treehouse": those the game's roll asks
        for), None for any: where the small grey die is not among them, no die is read as it (a white d6 in
        a dim room would otherwise read as a grey die, less surely a d6). Without them, the table's
        calibration says whether it may be there: only where its roll held one, as the reader judged it.
        colours: the colour names the game's sets of dice go by (`game_palette`): without a calibration, a d6
        is named the likeliest of them, where the reader knows them all.
        count: how many dice the roll holds: where the reader's own scale reads otherwise, or unsurely, the
        frame is read at the scales round it too (`faces`)."""
        faces = self.faces(frame, die_px, table, count)
        if table is not None:  # the table's dice: named after the roll's, else among the colours it showed
            names = [table.name_of(pc) or COLOURS[int(table.roll_colours(pc).argmax())]
                     for _, _, pc, _ in faces]
        else:  # the game's dice: named among its sets' colours, and grey where the small grey die may lie (a
            # grey die taken for a d6 stays grey, so the roll's matching may still take it for the grey die)
            palette = game_palette((*colours, "grey") if colours and (kinds is None or "grey" in kinds)
                                   else colours)
            names = [game_colour(pc, palette) for _, _, pc, _ in faces]
        grey_die = "grey" in kinds if kinds is not None else table is None or table.may_hold_grey
        dice = []
        for k, ((f, value, pc, p), named) in enumerate(zip(faces, names, strict=True)):
            box, (face, kind) = frame_box(f.cx, f.cy, f.w, f.h, frame.shape), face_value(value)
            if kind == "treehouse":
                dice.append(Die(face, kind, "black", box, confidence(p, self.sure)))
                continue
            kind, p_kind = self.kind_of(faces, k, grey_die)
            colour = "grey" if kind == "grey" else named or COLOURS[int(pc.argmax())]
            dice.append(Die(face, kind, colour, box, confidence(p * p_kind, self.sure)))
        return dice


def read_dice(frame: np.ndarray, die_px: float | None = None,
              reader: LearnedReader | None = None, table: TableCalibration | None = None) -> list[Die]:
    """The dice in a BGR frame, read by the learned reader (`die_px`: the calibrated d6 face side, px;
    `table`: the table's calibration)."""
    return (reader or LearnedReader.default()).read(frame, die_px, table)
