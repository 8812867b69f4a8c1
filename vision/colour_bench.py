"""`companion bench colours [--tables N] [--rolls N] [--models DIR]`: are dice named in their colours?

Colours tell players' dice apart (Dog Eat Dog's seats, Dice Devils' yellow and black dice), so a die must
be named as the players name it. For each of N rendered tables (held-out seeds, frame sizes and surfaces;
one lamp and camera per table, `random_scene`'s `lamp`), it draws the game's dice: 2-4 sets of distinct
colour names, one die each (on a third of the tables one of them is Dice Devils' small grey die). It
learns the table's calibration from the empty table and one roll of them with each die's value and colour
name typed (`vision.calibration`), then throws the same dice `rolls` more times and counts, among the dice
found, those named in the colour they were drawn in and those of the right kind: by the reader alone, by
the reader told the game's dice as serve tells it (the kinds its roll asks for: whether the small grey die
may be there; the colour names its sets of d6s go by; and how many dice the roll holds), and with the
calibration as well (as serve reads). Seeds are fixed: the same models print the same figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from vision import diceset
from vision.bench import match, truth_labels
from vision.calibration import CalibrationError, learn_table
from vision.calibration_bench import models, print_refused, refusal
from vision.die import Die
from vision.learned import LearnedReader
from vision.render import GREY_FACES, TruthDie
from vision.scenes import HELD_OUT_SIZES, SceneDie, clutter, random_die, random_scene, table

FIRST_SEED = diceset.HELD_OUT_SEED + 200_000  # past `companion bench vision compare`'s renders
DIE_PX = (25.0, 90.0)  # a d6's face side on these tables, px: dice a camera over a table reads
GREY_TABLES = 1 / 3  # share of tables whose dice are Dice Devils' (with the small grey die)
D6_FACES = (1, 2, 3, 4, 5, 6)
#: how each throw is read: by the reader alone, told the game's dice (kinds and colours), and calibrated too
READERS = ("reader alone", "the game's dice", "calibrated")


def game_dice(rng: np.random.Generator, sets: int) -> list[SceneDie]:
    """One die of each of `sets` sets, each set of another colour name (as players' sets are): d6s, and on
    a share of the tables (GREY_TABLES) Dice Devils' small grey die for one of them."""
    dice: dict[str, SceneDie] = {}
    if rng.random() < GREY_TABLES:
        dice["grey"] = random_die(rng, "grey")
    while len(dice) < sets:
        die = random_die(rng, "d6")
        dice.setdefault(die.colour, die)
    return list(dice.values())


def found_pairs(dice: list[Die], truth: list[TruthDie]) -> list[tuple[TruthDie, Die]]:
    """(the true die, the reading) for each die found, paired as `companion bench vision` pairs them."""
    paired, _ = match(truth_labels(truth), dice)
    return [(t, die) for t, die in zip(truth, paired, strict=True) if die]


@dataclass(frozen=True)
class Table:
    """One rendered table: its surface with clutter, its d6's side (px), its lamp and camera (a seed of
    `random_scene`'s `lamp`) and the game's dice."""

    surface: np.ndarray
    die_px: float
    lamp: int
    dice: tuple[SceneDie, ...]

    @classmethod
    def drawn(cls, rng: np.random.Generator) -> Table:
        """A table of held-out size and surface, with clutter, and the dice of a game on it."""
        width, height = HELD_OUT_SIZES[int(rng.integers(0, len(HELD_OUT_SIZES)))]
        die_px = float(np.exp(rng.uniform(*np.log(DIE_PX))))
        surface = table(rng, height, width, die_px, held_out=True)
        clutter(rng, surface, die_px)
        return cls(surface, die_px, int(rng.integers(2**32)), tuple(game_dice(rng, int(rng.integers(2, 5)))))

    def photo(self, rng: np.random.Generator, thrown: bool = True) -> tuple[np.ndarray, list[TruthDie]]:
        """A photo of the game's dice thrown (new values and places), or of the empty table."""
        dice = [replace(d, value=int(rng.choice(GREY_FACES if d.kind == "grey" else D6_FACES)))
                for d in self.dice] if thrown else []
        return random_scene(rng, die_px=self.die_px, dice=dice, surface=self.surface,
                            lamp=np.random.default_rng(self.lamp))


def measure(reader: LearnedReader, tables: int, rolls: int) -> dict:
    """Calibrate each table from its empty photo and one roll with values and names typed as a player reads
    them off the table (left to right), then read `rolls` throws by the reader alone, told the game's dice,
    and calibrated as well."""
    refused: Counter[str] = Counter()
    figures = {name: [0, 0, 0] for name in READERS}  # dice found, named as drawn, kind right
    confused: dict[str, Counter[tuple[str, str]]] = {name: Counter() for name in figures}  # (drawn, named)
    for k in range(tables):
        rng = np.random.default_rng(FIRST_SEED + k)
        at = Table.drawn(rng)
        empty, _ = at.photo(rng, thrown=False)
        roll, truth = at.photo(rng)
        typed = sorted(truth, key=lambda t: t.box[0] + t.box[2])
        try:
            calibration = learn_table(
                reader, empty, roll, [t.value for t in typed], [t.colour for t in typed])
        except CalibrationError as err:
            refused[refusal(err)] += 1
            continue
        kinds = {die.kind for die in at.dice}  # as the game's roll asks for them
        colours = tuple(die.colour for die in at.dice if die.kind == "d6")  # as `Game.dice_colours` says
        ways = [(READERS[0], None, None, (), None), (READERS[1], None, kinds, colours, len(at.dice)),
                (READERS[2], calibration, kinds, colours, len(at.dice))]
        for _ in range(rolls):
            image, truth = at.photo(rng)
            for name, known, told, named, count in ways:
                pairs = found_pairs(reader.read(image, table=known, kinds=told, colours=named, count=count),
                                    truth)
                figures[name][0] += len(pairs)
                figures[name][1] += sum(t.colour == die.colour for t, die in pairs)
                figures[name][2] += sum(t.kind == die.kind for t, die in pairs)
                confused[name].update((t.colour, die.colour) for t, die in pairs if t.colour != die.colour)
    return {"tables": tables, "refused": refused, "confused": confused, **figures}


def run(args) -> int:
    result = measure(models(args.models), args.tables, args.rolls)
    print(f"tables:               {result['tables']}, each: the empty photo and a roll of its 2-4 sets "
          f"with values and colour names typed")
    print_refused(result["refused"])
    for name in READERS:
        found, right, kinds = result[name]
        share, kind_share = (100 * right / found, 100 * kinds / found) if found else (0.0, 0.0)
        print(f"{name + ':':<21} named as drawn {right}/{found} dice found ({share:.2f} %), "
              f"kind right (d6 or grey die) {kinds} ({kind_share:.2f} %)")
        wrong = ", ".join(f"{drawn} as {named} {count}" for (drawn, named), count in
                          result["confused"][name].most_common(8))
        print(f"  named otherwise: {wrong or 'none'}")
    return 0
