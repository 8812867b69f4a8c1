"""`companion bench vision FOLDER|render:N [--reader both|learned|rules]`: dice reader accuracy and speed.

FOLDER holds labels.csv (+ totals.csv) or crops.csv, as in /work/shared/datasets/dice/. Photos are
read whole; a crop is known to hold one die, so its face is read where it is (`read_crop`), as the
companion reads a die whose box is given.
render:N reads N seeded rendered scenes with every variation (seeds 0..N-1).
Both readers read each photo, crop or scene in turn (each loaded or rendered once), their figures side by
side (`--reader`: one of them): the learned one (`vision.learned`, `--models DIR` or the committed files),
which `serve` and `read` use, and the old rule-tuned one (`vision.dice`), so photos of another camera or
table show what each makes of them.
`compare` reads the measured parts of the shared sets and held-out randomised renders with the
rule-tuned reader and the learned one side by side (`vision.sidebyside`).
--vary NAME reads a labelled folder's photos as another camera or room would take them (one of
`vision.variations.VARIATIONS`).
Prints per-die accuracy, whole-roll accuracy (every die right, none extra), false dice per photo and
the median ms per frame of the read alone: CPU time, best of 3 reads (image decoding not included).
"""

from __future__ import annotations

import csv
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.dice import read_crop, read_dice
from vision.die import Die
from vision.images import load_image
from vision.speedbench import READS, best_of
from vision.variations import VARIATIONS

if TYPE_CHECKING:
    from vision.render import TruthDie

Reader = Callable[[np.ndarray], list[Die]]  # a frame -> the dice read in it
CropReader = Callable[[np.ndarray], Die | None]  # a crop known to hold one die -> that die, or None


@dataclass
class Label:
    value: int | str
    box: tuple[int, int, int, int]
    kind: str = "d6"
    colour: str | None = None  # the die's body colour, where the set knows it (renders); photos say none


@dataclass
class Tally:
    """Counts of a benchmark run."""

    dice: int = 0
    dice_right: int = 0
    photos: int = 0
    photos_right: int = 0
    false_dice: int = 0
    missed: int = 0
    ms: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    kinds: bool = True  # a die is right when its value and its kind are; False: its value alone

    def lines(self) -> list[str]:
        pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
        return [
            f"dice right:      {self.dice_right}/{self.dice} = {pct(self.dice_right, self.dice):.2f} %",
            f"photos right:    {self.photos_right}/{self.photos} = "
            f"{pct(self.photos_right, self.photos):.2f} %",
            f"missed dice:     {self.missed}",
            f"false dice/photo: {self.false_dice / max(self.photos, 1):.3f} ({self.false_dice} in all)",
            f"median ms/frame: {float(np.median(self.ms)) if self.ms else float('nan'):.2f} "
            f"(CPU time, best of {READS} reads per frame)",
        ]

    def score(self, name: str, labels: list[Label], dice: list[Die]) -> None:
        """Count one frame's reading (`score_photo`)."""
        score_photo(self, name, labels, dice)


def match(labels: list[Label], dice: list[Die]) -> tuple[list[Die | None], list[Die]]:
    """Pair labels with dice one to one: a pair needs the label box centre inside the die box, or the
    centres nearer than the die's size; the closest pairs are made first. Returns the die per label
    (or None) and the dice left over (false dice)."""
    pairs = []
    for i, label in enumerate(labels):
        lx, ly = (label.box[0] + label.box[2]) / 2, (label.box[1] + label.box[3]) / 2
        for j, die in enumerate(dice):
            x1, y1, x2, y2 = die.box
            d = math.hypot((x1 + x2) / 2 - lx, (y1 + y2) / 2 - ly)
            if (x1 <= lx <= x2 and y1 <= ly <= y2) or d < max(x2 - x1, y2 - y1):
                pairs.append((d, i, j))
    chosen = closest_first(pairs, len(labels))
    used = {j for j in chosen if j is not None}
    return [None if j is None else dice[j] for j in chosen], [d for j, d in enumerate(dice) if j not in used]


def closest_first(pairs: list[tuple[float, int, int]], labels: int) -> list[int | None]:
    """One to one pairing of `labels` labels with found dice from candidate (distance px, label, die)
    pairs, the closest made first: the die index per label, or None."""
    chosen: list[int | None] = [None] * labels
    used: set[int] = set()
    for _, i, j in sorted(pairs):
        if chosen[i] is None and j not in used:
            chosen[i] = j
            used.add(j)
    return chosen


def score_photo(tally: Tally, name: str, labels: list[Label], dice: list[Die]
                ) -> tuple[list[Die | None], list[Die]]:
    """Count one photo's reading into the tally; returns `match`'s pairs (the die per label, false dice)."""
    paired, extra = match(labels, dice)
    right = sum(1 for lab, die in zip(labels, paired, strict=True)
                if die is not None and die.value == lab.value and (die.kind == lab.kind or not tally.kinds))
    tally.dice += len(labels)
    tally.dice_right += right
    tally.missed += sum(1 for d in paired if d is None)
    tally.false_dice += len(extra)
    tally.photos += 1
    if right == len(labels) and not extra:
        tally.photos_right += 1
    else:
        got = " ".join(f"{d.value}" if d else "-" for d in paired)
        want = " ".join(str(lab.value) for lab in labels)
        tally.wrong.append(f"{name}: want {want} got {got} extra {[d.value for d in extra]}")
    return paired, extra


def _read_image(path: Path) -> np.ndarray:
    return load_image(path)


def folder_labels(folder: Path) -> dict[str, list[Label]]:
    """image name -> its labelled dice, from a folder's labels.csv."""
    rows: dict[str, list[Label]] = defaultdict(list)
    with open(folder / "labels.csv", newline="") as f:
        for row in csv.DictReader(f):
            box = (int(row["x1"]), int(row["y1"]), int(row["x2"]), int(row["y2"]))
            rows[row["image"]].append(Label(int(row["value"]), box))
    return dict(rows)


Frames = Iterable[tuple[str, np.ndarray, list[Label]]]  # (name, image, its labelled dice), one by one


def labelled_photos(folder: Path, limit: int = 0, vary: str | None = None, measured: bool = False) -> Frames:
    """Each labelled photo of the folder (the first `limit`; `measured`: of its measured part alone,
    `vision.diceset.photo_split`), loaded once, changed by the variation named `vary` (`vision.variations`)
    if one is: (name, image, labels)."""
    rows = folder_labels(folder)
    names = sorted(rows)
    if measured:
        from vision.diceset import photo_split  # here: the bench imports no more than it reads with

        held = set(photo_split(folder)[1])
        names = [n for n in names if n in held]
    images = folder / "images" if (folder / "images").is_dir() else folder
    for name in names[: limit or None]:
        image, labels = _read_image(images / name), rows[name]
        if vary:
            image, boxes = VARIATIONS[vary](image, [label.box for label in labels])
            labels = [Label(label.value, box, label.kind) for label, box in zip(labels, boxes, strict=True)]
        yield name, image, labels


def tallies(frames: Frames, readers: Mapping[str, Reader], tally: Callable[[], Tally] = Tally,
            time: Callable = best_of) -> dict[str, Tally]:
    """Each reader's tally (made by `tally`) of the frames, every reader reading each frame as it comes (each
    photo is loaded, or scene rendered, once, whatever the readers); a read's CPU ms as `time` takes them
    (the best of READS reads; `vision.speedbench.timed`: one)."""
    out = {name: tally() for name in readers}
    for name, image, labels in frames:
        for reader, read in readers.items():
            dice, ms = time(partial(read, image))
            out[reader].ms.append(ms)
            out[reader].score(name, labels, dice)
    return out


def crop_frames(folder: Path, rows: list[dict[str, str]]) -> Frames:
    """Each crop of `rows` (crops.csv), loaded once, as a frame whose one die fills it."""
    for row in rows:
        image = _read_image(folder / row["crop"])
        h, w = image.shape[:2]
        yield row["crop"], image, [Label(int(row["value"]), (0, 0, w - 1, h - 1))]


def one_die(read_one: CropReader) -> Reader:
    """A crop reader as a frame reader: the crop's one die, or none."""
    return lambda image: [] if (die := read_one(image)) is None else [die]


def crops_tally(folder: Path, rows: list[dict[str, str]], readers: Mapping[str, CropReader],
                tally: Callable[[], Tally] = Tally, time: Callable = best_of) -> dict[str, Tally]:
    """A crop shows one die (perhaps with bits of its neighbours): each reader is told so and must name it.
    Each reader's tally (`tallies`); each crop is loaded once."""
    return tallies(crop_frames(folder, rows), {name: one_die(read) for name, read in readers.items()},
                   tally, time)


def crop_rows(folder: Path, limit: int = 0, measured: bool = False) -> list[dict[str, str]]:
    """The rows of the folder's crops.csv (the first `limit`; `measured`: of its measured part alone,
    `vision.diceset.crop_split`)."""
    if measured:
        from vision.diceset import crop_split

        rows = crop_split(folder)[1]
    else:
        with open(folder / "crops.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    return rows[: limit or None]


def truth_labels(truth: list[TruthDie]) -> list[Label]:
    """The labels of a rendered scene's dice, from what the scene knows of each (`vision.render.TruthDie`)."""
    return [Label(t.value, t.box, t.kind, t.colour) for t in truth]


def rendered_scenes(count: int, first_seed: int = 0) -> Frames:
    """("seed N", image, labels) for `count` seeded scenes with every variation, each made as it is read."""
    from vision.render import render_scene

    for seed in range(first_seed, first_seed + count):
        image, truth = render_scene(np.random.default_rng(seed))
        yield f"seed {seed}", image, truth_labels(truth)


def readers(choice: str, models: Path | None = None, treehouse: bool = False
            ) -> dict[str, tuple[Reader, CropReader]]:
    """The readers `companion bench vision` reads with, by name, each as (a frame's reader, a crop's): the
    learned one ("learned": the models in `models`, else the committed ones where they are) and the old
    rule-tuned one ("rules"); `choice` "both", "learned" or "rules". `treehouse`: the rule-tuned reader also
    looks for the Treehouse die (rendered scenes hold it), with the templates the table calibrated."""
    out: dict[str, tuple[Reader, CropReader]] = {}
    if choice != "rules":
        from vision.learned import DATA, LearnedReader

        if models is not None or LearnedReader.available(DATA):
            learned = LearnedReader.in_folder(models or DATA)
            out["learned"] = (learned.read, learned.read_crop)
    if choice != "learned":
        rules: Reader = read_dice
        if treehouse:
            from vision.treehouse import TreehouseTemplates

            rules = partial(read_dice, treehouse=TreehouseTemplates.default())
        out["rules"] = (rules, read_crop)
    return out


def run(args) -> int:
    """Entry point of `companion bench vision`."""
    target = str(args.folder)
    if target == "compare":
        from vision.sidebyside import run as compare

        return compare(args)
    vary = args.vary
    if vary:
        if vary not in VARIATIONS:
            print(f"companion bench vision: no variation {vary!r}; known: {', '.join(VARIATIONS)}",
                  file=sys.stderr)
            return 2
        if not (Path(target) / "labels.csv").is_file():
            print("companion bench vision: --vary needs a folder with labels.csv", file=sys.stderr)
            return 2
    folder, render = Path(target), target.startswith("render:")
    if not render and not ((folder / "labels.csv").is_file() or (folder / "crops.csv").is_file()):
        print(f"companion bench vision: {folder} has neither labels.csv nor crops.csv (or use render:N)",
              file=sys.stderr)
        return 2
    chosen = readers(args.reader, args.models, treehouse=render)
    if not chosen:
        print("companion bench vision: no learned reader in vision/data: run 'companion train dice'",
              file=sys.stderr)
        return 2
    measured = args.measured and not render
    print(f"vision bench on {target}" + (", its measured part" if measured else "")
          + (f", every photo {vary}" if vary else ""))
    if render or (folder / "labels.csv").is_file():
        frames = (rendered_scenes(int(target.split(":", 1)[1] or 1000)) if render
                  else labelled_photos(folder, args.limit, args.vary, measured))
        results = tallies(frames, {name: read for name, (read, _) in chosen.items()})
    else:  # a folder of crops, one die each
        results = crops_tally(folder, crop_rows(folder, args.limit, measured),
                              {name: read_one for name, (_, read_one) in chosen.items()})
    for name, tally in results.items():
        print(f"  {name}" + (f" ({args.models})" if name == "learned" and args.models else "") + ":")
        for line in tally.lines():
            print("    " + line)
        if args.verbose:
            for line in tally.wrong:
                print("    wrong: " + line)
    return 0
