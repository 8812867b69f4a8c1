"""`companion bench calibration [--tables N] [--later N] [--models DIR]`: what a table's calibration is worth.

For each of N seeded rendered tables (wood, felt or plain, with printed text, keys or cables, and dark
or light printed dots a die's pip across) it takes the empty table and one roll of three d6 of other
colours, learns the calibration from them with the roll's true values typed (`vision.calibration`),
then reads `later` further rolls on the same table without it, with it, and with it told how many dice the
roll holds (as serve reads a game's roll). Prints how many calibrations were refused (and why), the dice read
right and the false dice (found where there is no die), each way.
Seeds and scenes are fixed: the same models print the same figures.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import CalibrationError, learn_table
from vision.learned import LearnedReader
from vision.render import D6_STYLES, DieSpec, TruthDie, background, render_scene

WAYS = ("plain", "calibrated", "calibrated, count")  # each later roll: without, with, and told its count
NOISE = 2.0  # the camera's noise, grey levels (standard deviation), different in every photo


def _table(rng: np.random.Generator, side: float) -> np.ndarray:
    """A cluttered table with 2-6 printed dots, dark or light, about a pip across."""
    table = background(rng, 640, 480, clutter=True)
    for _ in range(int(rng.integers(2, 7))):
        x, y = int(rng.integers(20, 620)), int(rng.integers(20, 460))
        radius = int(rng.integers(3, int(side / 6) + 4))
        dark = rng.random() < 0.7
        colour = tuple(int(c) for c in rng.integers(0, 60, 3)) if dark else (235, 235, 235)
        cv2.circle(table, (x, y), radius, colour, -1, cv2.LINE_AA)
    return table


def _photo(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    noise = rng.normal(0, NOISE, image.shape)
    return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def score(dice, truth: list[TruthDie]) -> tuple[int, int]:
    """(dice read right, false dice): a die matches the true die whose box holds its centre, once."""
    right = false = 0
    used: set[int] = set()
    for die in dice:
        cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
        hits = [i for i, t in enumerate(truth)
                if i not in used and t.box[0] <= cx <= t.box[2] and t.box[1] <= cy <= t.box[3]]
        if not hits:
            false += 1
            continue
        used.add(hits[0])
        right += die.value == truth[hits[0]].value
    return right, false


def measure(reader: LearnedReader, tables: int, later: int) -> dict:
    refused: Counter[str] = Counter()
    figures = {name: [0, 0] for name in WAYS}
    dice = photos = 0
    for seed in range(tables):
        rng = np.random.default_rng(10_000 + seed)
        side = float(rng.uniform(36, 70))
        table = _table(rng, side)
        styles = [str(s) for s in rng.choice(D6_STYLES, 3, replace=False)]
        roll, truth = render_scene(rng, [DieSpec("d6", s) for s in styles], variations=False, backdrop=table,
                                   side_px=side)
        try:
            calibration = learn_table(reader, _photo(rng, table), _photo(rng, roll), [t.value for t in truth])
        except CalibrationError as err:
            refused[refusal(err)] += 1
            continue
        for _ in range(later):
            image, truth = render_scene(rng, int(rng.integers(1, 5)), variations=False, backdrop=table,
                                        side_px=side)
            image = _photo(rng, image)
            dice += len(truth)
            photos += 1
            plain, calibrated, counted = WAYS
            for name, known, count in ((plain, None, None), (calibrated, calibration, None),
                                       (counted, calibration, len(truth))):
                right, false = score(reader.read(image, table=known, count=count), truth)
                figures[name][0] += right
                figures[name][1] += false
    return {"tables": tables, "refused": refused, "dice": dice, "photos": photos, **figures}


def refusal(err: CalibrationError) -> str:
    """Why a calibration was refused, without the particulars: "found 2 dice, you typed 3 values"."""
    return str(err).split(":")[0]


def models(folder: Path | None) -> LearnedReader:
    """The learned reader of `--models DIR` (checked by the command line), or the committed one."""
    return LearnedReader.in_folder(folder) if folder else LearnedReader.default()


def print_refused(refused: Counter[str]) -> None:
    """How many calibrations were refused, and why, most often first."""
    print(f"calibrations refused: {sum(refused.values())}")
    for reason, count in refused.most_common():
        print(f"  {count} x {reason}")


def run(args) -> int:
    result = measure(models(args.models), args.tables, args.later)
    print(f"tables:               {result['tables']}, each: the empty photo and a roll of 3 d6 "
          f"with its values typed")
    print_refused(result["refused"])
    print(f"later photos:         {result['photos']}, {result['dice']} dice")
    for name in WAYS:
        right, false = result[name]
        share = 100 * right / result["dice"] if result["dice"] else 0.0
        print(f"{name + ':':<21} dice right {right}/{result['dice']} ({share:.1f} %), "
              f"false dice {false} in {result['photos']} photos")
    return 0
