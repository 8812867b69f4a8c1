"""`companion bench vision compare`: the rule-tuned reader and the learned one, side by side, on data
neither was trained on.

- each shared set's measured part (`vision.diceset`: whole sessions held out of training),
- `--renders N` randomised scenes from held-out seeds (`diceset.HELD_OUT_SEED` onwards) and settings
  (`scenes.HELD_OUT_SIZES` frames, half of them on a tiled floor: `random_scene(held_out=True)`),
- `--oblique N` such scenes as a phone photographs a table (cameras down to 65 degrees, nearer dice
  larger, dice in heaps: `random_scene(oblique=True)`, half of the default training's renders), from
  seeds of their own (nothing trains on them),
- the learned reader's speed on 640x480 and 1280x720 frames, as `companion bench speed` measures it
  (`vision.speedbench`: one core, OpenCV on one thread).
Per reader and set: dice right, whole rolls right, false dice per photo, how often a reading at or
above the table's certainty threshold is right (the caller passes it: `companion bench vision compare
--sure`, whose default is the table's `confidence_threshold` setting), and the median CPU ms per frame
(one read each). On renders, which know each die's body colour, also how often a die found is given the
colour name it was drawn in (the photos' labels have no colours).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from vision import bench, diceset
from vision.die import Die
from vision.images import load_image
from vision.speedbench import speed, timed


@dataclass
class Scores(bench.Tally):
    """A bench tally that also counts the readings at or above `threshold` (0-1, the table's certainty
    threshold) and how many of them are right; and, where the labels know the dice's colours, how many
    found dice are given the colour name they were drawn in."""

    threshold: float = field(kw_only=True)
    sure: int = 0
    sure_right: int = 0
    coloured: int = 0
    colour_right: int = 0
    extra: list[str] = field(default_factory=list)

    def score(self, name: str, labels: list[bench.Label], dice: list[Die]) -> None:
        paired, extra = bench.score_photo(self, name, labels, dice)
        for label, die in zip(labels, paired, strict=True):
            if die is not None and label.colour is not None:
                self.coloured += 1
                self.colour_right += die.colour == label.colour
            if die is not None and die.confidence >= self.threshold:
                self.sure += 1
                self.sure_right += die.value == label.value and die.kind == label.kind
        self.sure += sum(1 for d in extra if d.confidence >= self.threshold)

    def line(self) -> str:
        pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
        return (f"dice {pct(self.dice_right, self.dice):6.2f} % ({self.dice_right}/{self.dice})  "
                f"rolls {pct(self.photos_right, self.photos):6.2f} %  "
                f"false/photo {self.false_dice / max(self.photos, 1):.3f}  "
                f"sure right {pct(self.sure_right, self.sure):6.2f} % ({self.sure_right}/{self.sure})  "
                f"{float(np.median(self.ms)) if self.ms else float('nan'):6.1f} ms/frame"
                + (f"  colours {pct(self.colour_right, self.coloured):6.2f} % ({self.colour_right}/"
                   f"{self.coloured})" if self.coloured else ""))


def held_out_photos(shared: Path = diceset.SHARED) -> Iterator[tuple[str, list[tuple[str, np.ndarray,
                                                                                   list[bench.Label]]]]]:
    """(set name, [(photo name, image, labels)]) for the measured part of each labels.csv set."""
    for folder in sorted(shared.glob("*")) if shared.is_dir() else []:
        if (folder / "labels.csv").is_file():
            labels = bench.folder_labels(folder)
            _, held = diceset.photo_split(folder)
            yield folder.name, [(n, load_image(folder / "images" / n), labels[n]) for n in held]


OBLIQUE_SEEDS = 100_000  # the oblique renders' seeds start this far past diceset.HELD_OUT_SEED


def held_out_renders(count: int, oblique: bool = False) -> list[tuple[str, np.ndarray, list[bench.Label]]]:
    """`count` renders from held-out seeds and settings; oblique: as a phone photographs a table (cameras
    down to 65 degrees, nearer dice larger, dice in heaps: `random_scene(oblique=True)`, as half of the
    default training's renders are), from seeds of their own that nothing trains on."""
    from vision.scenes import random_scene

    first = diceset.HELD_OUT_SEED + (OBLIQUE_SEEDS if oblique else 0)
    out = []
    for seed in range(first, first + count):
        image, truth = random_scene(np.random.default_rng(seed), held_out=True, oblique=oblique)
        out.append((f"seed {seed}", image, bench.truth_labels(truth)))
    return out


def heading(name: str, frames: int) -> str:
    """A set's heading in the comparison. A set that leaves dice unlabelled says so
    (`diceset.UNBOXED_DICE`): a real die read there counts as a false one."""
    line = f"{name}, measured part: {frames} frames"
    if name not in diceset.UNBOXED_DICE:
        return line
    return line + "\n  (its labels leave some dice out: a real die read there can count as a false one)"


def run(args) -> int:
    """Entry point of `companion bench vision compare`."""
    from vision.scenes import OBLIQUE_TILT

    readers = bench.readers(args.reader, args.models, treehouse=True)
    sure = float(args.sure)
    print(f"readings at or above {sure} count as sure; ms are CPU ms, one read per frame")
    sets = list(held_out_photos())
    renders = int(getattr(args, "renders", 1000))
    if renders:
        sets.append((f"renders ({renders} held-out seeds and settings)", held_out_renders(renders)))
    oblique = int(getattr(args, "oblique", 300))
    if oblique:
        title = f"oblique renders ({oblique} held-out seeds: heaps, cameras down to {OBLIQUE_TILT} degrees)"
        sets.append((title, held_out_renders(oblique, oblique=True)))
    for name, photos in sets:
        print(heading(name, len(photos)))
        scores = bench.tallies(photos, {reader: read for reader, (read, _) in readers.items()},
                               partial(Scores, threshold=sure), timed)
        for reader, tally in scores.items():
            print(f"  {reader:8s} {tally.line()}")
    casino = diceset.SHARED / "casino-crops-train"
    if (casino / "crops.csv").is_file():
        _, rows = diceset.crop_split(casino)
        print(f"{casino.name}, measured part ('val'): {len(rows)} crops")
        one = {reader: read_one for reader, (_, read_one) in readers.items()}
        scores = bench.crops_tally(casino, rows, one, partial(Scores, threshold=sure), timed)
        for reader, tally in scores.items():
            print(f"  {reader:8s} {tally.line()}")
    if "learned" in readers:
        for (w, h), ms in speed(readers["learned"][0]).items():  # as `companion bench speed` measures it
            print(f"learned reader at {w}x{h}: median {ms:.1f} ms per frame (one core)")
    return 0
