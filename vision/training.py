"""Train the face classifier (`vision.faceclass`) from rendered scenes and labelled real photos.

    companion train faces [--renders 2500] [--epochs 10] [--out vision/data/faces.npz] [--hold-out]

Every training sample is what the reader will see: a patch around a face proposed by the classical
stage (`vision.dice.propose_faces`). A proposal on a labelled die gets its value; one far from every
die (a side face, print, wood grain, a Treehouse symbol) gets class 0. Each is cut several times with
random shifts, sizes, turns, mirroring, light, blur, noise and inverted polarity, so the network
learns faces, not one camera or one set of dice. Real photos come from the folders of
`../shared/datasets/dice/` (labels.csv or crops.csv). Only the training needs PyTorch (`pip install
.[train]`); the weights are saved as numpy arrays.

With --hold-out, every other labelled photo and the crops of the 'val' split are kept out of
training and the reader is measured on them afterwards: accuracy on photos the network never saw.
"""

from __future__ import annotations

import csv
import math
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from vision import bench
from vision.dice import crop_proposal, propose_faces, read_crop, read_dice
from vision.faceclass import CLASSES, PATCH, face_patch

POSITIVE = 0.3  # a proposal this close to a die's centre (in face sides) shows that die
NEGATIVE = 0.45  # one farther than this from every die centre shows none (or a side face)
SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "dice"


@dataclass
class Samples:
    """Patches (N, PATCH, PATCH) uint8 and their classes (N,) 0..6, collected piecewise."""

    patches: list[np.ndarray] = field(default_factory=list)
    classes: list[int] = field(default_factory=list)

    def add(self, patch: np.ndarray, cls: int) -> None:
        self.patches.append(patch)
        self.classes.append(cls)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.stack(self.patches), np.array(self.classes, np.int64)


def augmented(rng: np.random.Generator, gray: np.ndarray, cx: float, cy: float, side: float,
              angle: float | None) -> np.ndarray:
    """One randomly varied patch around a face (angle None: any turn)."""
    cx += rng.normal(0, 0.06) * side
    cy += rng.normal(0, 0.06) * side
    side *= math.exp(rng.normal(0, 0.12))
    turn = rng.uniform(0, 2 * math.pi) if angle is None or rng.random() < 0.3 else angle + rng.normal(0, 0.08)
    patch = face_patch(gray, cx, cy, side, turn, flip=bool(rng.random() < 0.5)).astype(np.float32)
    if rng.random() < 0.3:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.4, 1.2))
    gamma = math.exp(rng.normal(0, 0.3))
    patch = 255.0 * (patch / 255.0) ** gamma
    patch = patch * rng.uniform(0.6, 1.2) + rng.uniform(-30, 30)
    patch += rng.normal(0, rng.uniform(0, 8), patch.shape)
    if rng.random() < 0.2:
        patch = 255.0 - patch
    return patch.clip(0, 255).astype(np.uint8)


def photo_samples(out: Samples, rng: np.random.Generator, frame: np.ndarray,
                  dice: list[tuple[float, float, int]], copies: int, negatives: float = 1.0) -> None:
    """Samples from one photo whose dice are (centre x, centre y, class) in px; class 0 marks an object
    that is not a pip die (a Treehouse die): proposals on it are negatives."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    fits = propose_faces(gray, frame)
    sides: dict[int, list[float]] = defaultdict(list)
    for fit in fits:
        near = [(math.hypot(fit.cx - x, fit.cy - y) / fit.side, k) for k, (x, y, _) in enumerate(dice)]
        d, k = min(near, default=(99.0, -1))
        if d < POSITIVE:
            cls = dice[k][2]
            if cls:
                sides[k].append(fit.side)
            n = copies if cls else max(1, copies // 4)
        elif d > NEGATIVE:
            cls, n = 0, int(negatives) + (rng.random() < negatives % 1)
        else:
            continue
        for _ in range(n):
            out.add(augmented(rng, gray, fit.cx, fit.cy, fit.side, fit.angle), cls)
    # every labelled die also from its own centre, at the size its proposals saw (a die with no
    # proposal at all takes the photo's typical size): the reader must also know the faces it finds badly
    typical = float(np.median([s for v in sides.values() for s in v])) if sides else 0.0
    for k, (x, y, cls) in enumerate(dice):
        side = float(np.median(sides[k])) if sides[k] else typical
        if cls and side > 0:
            for _ in range(copies):
                out.add(augmented(rng, gray, x, y, side, None), cls)


def render_samples(out: Samples, rng: np.random.Generator, scenes: int, copies: int = 3) -> None:
    from vision.render import render_scene

    for _ in range(scenes):
        image, truth = render_scene(rng)
        dice = [((x1 + x2) / 2, (y1 + y2) / 2, 0 if t.kind == "treehouse" else t.value)
                for t in truth for x1, y1, x2, y2 in [t.box]]
        photo_samples(out, rng, image, dice, copies, negatives=0.5)


def labelled_photos(folder: Path) -> dict[str, list[tuple[float, float, int]]]:
    """image name -> its dice (centre x, centre y, value) from a labels.csv folder."""
    return {name: [((x1 + x2) / 2, (y1 + y2) / 2, label.value) for label in labels
                   for x1, y1, x2, y2 in [label.box]]
            for name, labels in sorted(bench.folder_labels(folder).items())}


def crop_rows(folder: Path) -> list[dict[str, str]]:
    with open(folder / "crops.csv", newline="") as f:
        return list(csv.DictReader(f))


def crop_samples(out: Samples, rng: np.random.Generator, folder: Path, rows: Iterable[dict[str, str]],
                 copies: int) -> None:
    for row in rows:
        image = cv2.imread(str(folder / row["crop"]))
        if image is None:
            continue
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        cx, cy, side, _ = crop_proposal(image)
        for _ in range(copies):
            out.add(augmented(rng, gray, cx, cy, side, None), int(row["value"]))


def split(names: list[str], hold_out: bool) -> tuple[list[str], list[str]]:
    """(training, held out) names: every other one is held out when asked."""
    if not hold_out:
        return names, []
    return names[0::2], names[1::2]


def build(renders: int, hold_out: bool, seed: int, log=print) -> tuple[Samples, dict]:
    """All training samples, and what was held out: {'photos': {folder: names}, 'crops': {folder: rows}}."""
    rng = np.random.default_rng(seed)
    out = Samples()
    held: dict = {"photos": {}, "crops": {}}
    t0 = time.time()
    render_samples(out, rng, renders)
    log(f"  {len(out.classes)} patches from {renders} rendered scenes ({time.time() - t0:.0f} s)")
    for folder in sorted(SHARED.glob("*")) if SHARED.is_dir() else []:
        before = len(out.classes)
        if (folder / "labels.csv").is_file():
            photos = labelled_photos(folder)
            train, kept = split(list(photos), hold_out)
            held["photos"][folder] = kept
            for name in train:
                image = cv2.imread(str(folder / "images" / name))
                if image is not None:
                    photo_samples(out, rng, image, photos[name], copies=8, negatives=3.0)
        elif (folder / "crops.csv").is_file():
            rows = crop_rows(folder)
            kept = [r for r in rows if hold_out and r.get("split") == "val"]
            held["crops"][folder] = kept
            crop_samples(out, rng, folder, [r for r in rows if r not in kept], copies=40)
        log(f"  {len(out.classes) - before} patches from {folder.name}")
    return out, held


WIDTHS = (8, 16, 32, 32)  # channels of the three convolutions, then units of the hidden layer


def _network():
    """Three 3x3 convolutions with 2x2 pooling, then two dense layers: about 23k weights, about 0.7 M
    multiply-adds per patch (a frame's twenty-odd proposals take a millisecond or two)."""
    import torch.nn as nn

    a, b, c, d = WIDTHS
    return nn.Sequential(
        nn.Conv2d(1, a, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.1),
        nn.Linear(c * (PATCH // 8) ** 2, d), nn.ReLU(), nn.Linear(d, CLASSES),
    )


NAMES = {"0": "conv1", "3": "conv2", "6": "conv3", "11": "fc1", "13": "fc2"}  # Sequential index -> layer


def train(patches: np.ndarray, classes: np.ndarray, epochs: int, seed: int,
          log=print) -> dict[str, np.ndarray]:
    """Fit the network; its weights as float32 arrays named as `vision.faceclass` expects."""
    import torch

    from vision.faceclass import normalise

    torch.manual_seed(seed)
    net = _network()
    x = torch.from_numpy(normalise(patches))
    y = torch.from_numpy(classes)
    counts = np.bincount(classes, minlength=CLASSES).astype(np.float32)
    weight = torch.from_numpy((counts.sum() / CLASSES / np.maximum(counts, 1)) ** 0.5)
    loss_fn = torch.nn.CrossEntropyLoss(weight=weight)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    steps = epochs * math.ceil(len(x) / 256)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        t0, total, right = time.time(), 0.0, 0
        for idx in torch.randperm(len(x), generator=gen).split(256):
            opt.zero_grad()
            logits = net(x[idx])
            loss = loss_fn(logits, y[idx])
            loss.backward()
            opt.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == y[idx]).sum())
        log(f"  epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}, training accuracy "
            f"{100 * right / len(x):.2f} % ({time.time() - t0:.0f} s)")
    net.eval()
    params = {}
    for key, value in net.state_dict().items():
        index, kind = key.split(".")
        params[f"{NAMES[index]}.{kind}"] = value.numpy().astype(np.float32)
    with torch.no_grad():
        check = x[:16]
        params["check.inputs"] = patches[:16]
        params["check.probs"] = torch.softmax(net(check), 1).numpy()
    return params


def save(params: dict[str, np.ndarray], path: Path) -> None:
    """Weights as float16 (half the size; the loss in the outputs is far below a percent)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    half = {k: v.astype(np.float16) if v.dtype == np.float32 and not k.startswith("check") else v
            for k, v in params.items()}
    np.savez_compressed(path, **half)


def _held_out_figures(held: dict, faces, log=print) -> None:
    for folder, names in held["photos"].items():
        labels = bench.folder_labels(folder)
        tally = bench.Tally()
        for name in names:
            image = cv2.imread(str(folder / "images" / name))
            bench.score_photo(tally, name, labels[name], read_dice(image, faces=faces))
        log(f"held-out photos of {folder.name} ({len(names)}):")
        for line in tally.lines()[:4]:
            log("  " + line)
    for folder, rows in held["crops"].items():
        if rows:
            tally = bench.crops_tally(folder, rows, {"rules": partial(read_crop, faces=faces)})["rules"]
            log(f"held-out crops of {folder.name} ({len(rows)}):")
            log("  " + tally.lines()[0])


def run(args) -> int:
    """Entry point of `companion train faces`."""
    from vision.faceclass import FaceClassifier

    print(f"building samples ({args.renders} rendered scenes and the photos in {SHARED})")
    samples, held = build(args.renders, args.hold_out, args.seed)
    patches, classes = samples.arrays()
    print(f"  {len(classes)} patches; per class {np.bincount(classes, minlength=CLASSES).tolist()}")
    params = train(patches, classes, args.epochs, args.seed)
    out = Path(args.out)
    save(params, out)
    print(f"saved {out} ({out.stat().st_size / 1024:.0f} KB)")
    if args.hold_out:
        _held_out_figures(held, FaceClassifier.load(out))
    return 0
