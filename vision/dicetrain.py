"""`companion train dice`: train the learned reader's two networks with PyTorch and export them to ONNX.

    companion train dice [--tiles 4000] [--scenes 2500] [--detector-steps 10000] [--classifier-steps 8000]
                         [--classifiers 2] [--seed 1] [--device cpu|cuda|auto] [--precision auto|bf16|fp32]
                         [--out vision/data] [--recalibrate]

1. Detector: rendered tiles (`vision.diceset.render_tile`) and tiles of the training photos, a
   CenterNet loss (focal loss on the heatmap of top-face centres, L1 on log size and offset).
2. Classifier: colour crops of rendered dice (each boxed anywhere from its top face alone to the whole die,
   `diceset.boxed`), of what the trained detector finds in more renders (`_found_crops`) and of the training
   photos' dice as it finds them (so it learns the crops it will be given), and of what the detector takes
   for a die where there is none (class "none"); the real crops also in other colours (`recolour`).
   `--classifiers N` of them, on the same crops but each from its own seed (`train_classifier`'s
   `member`): the reader averages them (`vision.learned.member_path`).
3. Calibration of the whole reader (`calibrate`): the detector's peak threshold (`reader_threshold`:
   the one of `PEAK_GRID` at which the reader gets the most dice right less false dice, on rendered
   scenes held out of training and on each set of training photos, weighed alike), the weight of the
   classifier's "no die" there (`no_die_weight`, on the held-out scenes alone) and the classifier's
   temperature on the peaks found in the held-out scenes (`reader_logits`); all go to the meta JSON
   beside the weights. `--recalibrate` does only this step for the models already in --out.
   It measures the classifier as the reader runs it: made int8 just before (`quantise`, ONNX Runtime's
   static quantisation on crops of the held-out scenes), which reads as well in about 30 % less time.
Both networks train in bfloat16 where the device computes it natively (`training_precision`; weights,
optimiser and losses in float32), else in float32.
Everything is seeded (numpy and torch), threads are fixed, so the same command on the same machine
gives the same weights. Only this module needs torch and onnx (`pip install -e '.[train]'`).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from vision import bench, diceset
from vision.errors import ModelFileError
from vision.learned import (
    CLASSIFIER,
    COLOURS,
    CONTEXT,
    CROP,
    CROP_FILL,
    DETECTOR,
    KIND_FROM_COLOUR,
    META,
    MIRROR,
    MIRRORS,
    TURNS,
    VALUES,
    Found,
    LearnedReader,
    d6_sizes,
    kind_features,
    may_be_grey,
    member_path,
    pooled,
    weighed,
)

Log = print


# ---------------------------------------------------------------- networks


def _layers():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def conv(i: int, o: int, stride: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    def sep(i: int, o: int, stride: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(i, i, 3, stride, 1, groups=i, bias=False), nn.BatchNorm2d(i),
                             nn.ReLU(inplace=True), nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    class Detector(nn.Module):
        """Top-face centres (heat 0..1), log size and offset (cells) at a quarter of the input."""

        def __init__(self) -> None:
            super().__init__()
            self.stem = conv(3, 16, 2)
            self.c1 = nn.Sequential(sep(16, 24, 2), sep(24, 24))
            self.c2 = nn.Sequential(sep(24, 40, 2), sep(40, 40))
            self.c3 = nn.Sequential(sep(40, 64, 2), sep(64, 64), sep(64, 64))
            self.top = nn.Conv2d(64, 48, 1)
            self.lat2 = nn.Conv2d(40, 48, 1)
            self.lat1 = nn.Conv2d(24, 48, 1)
            self.fuse2 = sep(48, 48)
            self.fuse1 = sep(48, 48)
            self.head = conv(48, 32)
            self.heat = nn.Conv2d(32, 1, 1)
            self.size = nn.Conv2d(32, 2, 1)
            self.offset = nn.Conv2d(32, 2, 1)
            nn.init.constant_(self.heat.bias, -2.19)

        def forward(self, x):
            x = (x - 0.45) / 0.25
            c1 = self.c1(self.stem(x))
            c2 = self.c2(c1)
            c3 = self.c3(c2)
            p2 = self.fuse2(self.lat2(c2) + F.interpolate(self.top(c3), scale_factor=2.0, mode="nearest"))
            p1 = self.fuse1(self.lat1(c1) + F.interpolate(p2, scale_factor=2.0, mode="nearest"))
            h = self.head(p1)
            return torch.sigmoid(self.heat(h)), self.size(h), torch.sigmoid(self.offset(h))

    class Classifier(nn.Module):
        """A CROP x CROP colour crop -> face logits (len(VALUES)) and body colour logits (len(COLOURS)).
        About 15 M multiply-adds a crop: half as wide again as the 7 M network it replaced (16-64 channels,
        96 features), which read fewer real dice on each of two seeds (held-out phone dice 198 and 194
        against 205 and 201) at about 7-11 ms more a 640x480 frame on one core (16-18 -> 23-29 ms)."""

        def __init__(self, features: int = 128) -> None:
            super().__init__()
            side = CROP // 8  # three 2x2 poolings
            self.body = nn.Sequential(conv(3, 24), nn.MaxPool2d(2), conv(24, 48), nn.MaxPool2d(2),
                                      conv(48, 72), conv(72, 72), nn.MaxPool2d(2), conv(72, 96), nn.Flatten(),
                                      nn.Dropout(0.2), nn.Linear(96 * side * side, features),
                                      nn.ReLU(inplace=True))
            self.values = nn.Linear(features, len(VALUES))
            self.colours = nn.Linear(features, len(COLOURS))

        def forward(self, x):
            h = self.body((x - 0.45) / 0.25)
            return self.values(h), self.colours(h)

    return Detector, Classifier


# ---------------------------------------------------------------- data, made in parallel


def _render_tiles(args: tuple[int, int, int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    seed, stream, first, count, oblique = args  # stream 0 trains, stream 3 calibrates
    tiles, maps = [], []
    for k in range(first, first + count):
        tile, boxes = diceset.render_tile(np.random.default_rng([seed, stream, k]), oblique)
        tiles.append(tile)
        maps.append(diceset.targets(boxes))
    return np.stack(tiles), np.stack(maps)


def _scene_crops(args: tuple[int, int, int, int, float, bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, stream, first, count, oblique, upright = args
    crops, values, colours = [], [], []
    for k in range(first, first + count):
        c, v, o = diceset.scene_crops(np.random.default_rng([seed, stream, k]), oblique=oblique,
                                      upright=upright)
        crops += c
        values += v
        colours += o
    return np.stack(crops), np.array(values, np.int64), np.array(colours, np.int64)


def _found_crops(args: tuple[int, int, int, int, float, bool, str]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classifier crops where the trained detector (in folder) finds dice in rendered scenes, one a find:
    on a die (`found_labels`) its value and colour class; anywhere else (a side face, a token, a crumb, the
    gap between dice) "no die". What the reader will actually be given, its false finds above all, which the
    random "no die" crops of `diceset.scene_crops` only sample."""
    from vision.scenes import random_scene

    seed, stream, first, count, oblique, upright, folder = args
    reader = LearnedReader.in_folder(Path(folder), 1)
    crops, values, colours = [], [], []
    for k in range(first, first + count):
        rng = np.random.default_rng([seed, stream, k])
        image, truth = random_scene(rng, oblique=diceset.drawn(rng, oblique))
        found = reader.detect(image)
        classes = {j: (diceset.value_class(t.value), diceset.COLOUR_INDEX[t.colour])
                   for t, j in zip(truth, found_labels(found, [t.box for t in truth]), strict=True)
                   if j is not None}
        for j, f in enumerate(found):
            value, colour = classes.get(j, (0, -1))
            crops.append(diceset.jittered_crop(rng, image, f.cx, f.cy, max(f.w, f.h), upright))
            values.append(value)
            colours.append(colour)
    return (np.stack(crops) if crops else np.zeros((0, CROP, CROP, 3), np.uint8),
            np.array(values, np.int64), np.array(colours, np.int64))


FOUND_SCENES = 0.4  # scenes whose finds `_found_crops` crops (stream 6), a share of the classifier's scenes


def _parallel(fn, jobs: list, workers: int) -> list:
    if workers <= 1:
        return [fn(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, jobs))


def _chunks(seed: int, total: int, size: int, *extra: int) -> list[tuple[int, ...]]:
    return [(seed, *extra, first, min(size, total - first)) for first in range(0, total, size)]


T = TypeVar("T")


def _in_order(submit: Callable[[int], Future], count: int, depth: int) -> Iterator:
    """The results of `submit(k)`'s futures for k = 0 .. count-1, in order, at most `depth` in flight."""
    pending = deque(submit(k) for k in range(min(depth, count)))
    for k in range(count):
        made = pending.popleft().result()
        if k + depth < count:
            pending.append(submit(k + depth))
        yield made


def ahead(make: Callable[[], T], count: int, depth: int = 2) -> Iterator[T]:
    """`make()`'s results, `count` of them, made in one background thread up to `depth` ahead: the next
    batches are cut and augmented (numpy and OpenCV, which let go of the GIL) while PyTorch trains on
    this one. One thread calls `make` in order, so a seeded `make` gives the same batches as a loop."""
    with ThreadPoolExecutor(1, thread_name_prefix="batches") as pool:
        yield from _in_order(lambda _: pool.submit(make), count, depth)


_MAKER: Callable[[np.random.Generator], object] | None = None  # what `forked`'s processes call


def _made(job: tuple[int, int, int]) -> object:
    seed, stream, k = job
    return _MAKER(np.random.default_rng([seed, stream, k]))


def forked(make: Callable[[np.random.Generator], T], count: int, seed: int, stream: int, workers: int,
           depth: int = 4) -> Iterator[T]:
    """`make(rng)`'s results for batches 0 .. count-1 in order, batch k drawn from its own generator
    [seed, stream, k], made by `workers` forked processes up to `depth` each ahead: where a training
    step is far quicker than cutting its batch (on a GPU the detector's step takes a few ms, its batch
    about 60 ms of one core), the batches keep up. Another draw than `ahead`'s one generator, so other
    weights than the CPU's (which are the committed ones). `make` may be a closure: the processes are
    forked after it is set, so it is never pickled."""
    global _MAKER
    _MAKER = make
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            yield from _in_order(lambda k: pool.submit(_made, (seed, stream, k)), count, depth * workers)
    finally:
        _MAKER = None


Labels = list[tuple[int, tuple[int, int, int, int]]]


def training_photos(shared: Path) -> list[tuple[str, np.ndarray, Labels]]:
    """(set name, image, labels) of every training photo of every labels.csv set."""
    out = []
    for folder in sorted(shared.glob("*")) if shared.is_dir() else []:
        if (folder / "labels.csv").is_file():
            labels = diceset.labelled(folder)
            train, _ = diceset.photo_split(folder)
            for name in train:
                image = cv2.imread(str(folder / "images" / name))
                if image is not None:
                    out.append((folder.name, image, labels[name]))
    return out


# ---------------------------------------------------------------- training


def _focal(pred, target):
    import torch

    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - target) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def detector_loss(out, target):
    heat, size, offset = out
    centre = target[:, 0:1].eq(1).float()
    known = target[:, 5:6]
    n = centre.sum().clamp(min=1)
    size_loss = ((size - target[:, 1:3]).abs() * known).sum() / known.sum().clamp(min=1)
    offset_loss = ((offset - target[:, 3:5]).abs() * centre).sum() / n
    return _focal(heat, target[:, 0:1]) + 0.5 * size_loss + offset_loss


def turn(tiles: np.ndarray, maps: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Tiles (n, h, w, 3) and their targets (n, 6, h/4, w/4) turned by k quarter turns together: a
    quarter turn swaps width and height, and a centre's offset in its cell turns with it."""
    tiles, maps = np.rot90(tiles, k, axes=(1, 2)), np.rot90(maps, k, axes=(2, 3))
    if k % 2:
        maps = maps[:, [0, 2, 1, 4, 3, 5]]
    maps = maps.copy()
    centre = maps[:, 0:1] == 1
    if k == 1:
        maps[:, 4:5] = np.where(centre, 1 - maps[:, 4:5], maps[:, 4:5])
    elif k == 2:
        maps[:, 3:5] = np.where(centre, 1 - maps[:, 3:5], maps[:, 3:5])
    elif k == 3:
        maps[:, 3:4] = np.where(centre, 1 - maps[:, 3:4], maps[:, 3:4])
    return tiles, maps


def mirrored(tiles: np.ndarray, maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tiles (n, h, w, 3) and their targets (n, 6, h/4, w/4) mirrored left to right together: a centre's
    offset across its cell mirrors with it."""
    tiles, maps = tiles[:, :, ::-1], maps[:, :, :, ::-1].copy()
    centre = maps[:, 0:1] == 1
    maps[:, 3:4] = np.where(centre, 1 - maps[:, 3:4], maps[:, 3:4])
    return tiles, maps


def _augment_tiles(rng: np.random.Generator, tiles: np.ndarray, maps: np.ndarray,
                   upright: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Quarter turns (with their targets; `upright`: mirror images, which keep the frame's down) and colour
    jitter of a batch; float NHWC tiles 0..1 and targets. In place, in float32 (the brightness offset is
    added in float64 and rounded, as it always was)."""
    if upright:
        tiles, maps = mirrored(tiles, maps) if rng.random() < 0.5 else (tiles, maps)
    else:
        tiles, maps = turn(tiles, maps, int(rng.integers(0, 4)))
    x = tiles.astype(np.float32, order="C")
    x /= 255.0
    x *= rng.uniform(0.7, 1.3, (len(x), 1, 1, 3)).astype(np.float32)
    np.add(x, rng.uniform(-0.1, 0.1, (len(x), 1, 1, 1)), out=x, casting="unsafe")
    return np.clip(x, 0, 1, out=x), maps


def _cosine(opt, step: int, steps: int, peak: float = 2e-3) -> None:
    for group in opt.param_groups:
        group["lr"] = peak * 0.5 * (1 + math.cos(math.pi * step / steps)) + 2e-5


def _batch(x: np.ndarray, device: str):
    """A float NHWC batch as both networks train on it: on `device`, NCHW in channels-last memory (a
    training step about 1.45x faster than in the default layout on a 2-core x86 CPU; the same sums), which
    is the NHWC array's own memory, so no copy is made."""
    import torch

    return torch.from_numpy(x).to(device).permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)


def training_precision(name: str, device: str) -> str:
    """The arithmetic the networks train in, from --precision: "bf16" (bfloat16 autocast, the weights and the
    loss kept in float32: a training step about a third faster, so a whole run fits this machine's hour) where
    the device computes bfloat16 natively (a GPU that has it, or a CPU with AVX512-BF16 or AMX), else "fp32";
    or the one asked for."""
    if name != "auto":
        return name
    import torch

    if device == "cuda":
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    native = (getattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)()
              or getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)())
    return "bf16" if native else "fp32"


def _forward(net, x, device: str, precision: str):
    """The network's outputs for a batch, computed in `precision` (`training_precision`) and returned in
    float32, so the losses (the focal loss clamps probabilities to 1 - 1e-4, which bfloat16 rounds to 1) are
    summed in float32."""
    import torch

    with torch.autocast(device, dtype=torch.bfloat16, enabled=precision == "bf16"):  # "cpu" or "cuda"
        out = net(_batch(x, device))
    return tuple(o.float() for o in out)


def _trained(net):
    """A trained network back on the CPU in the default layout, to export and to read with."""
    import torch

    return net.cpu().to(memory_format=torch.contiguous_format).eval()


def train_detector(tiles: np.ndarray, maps: np.ndarray, photo_tiles, steps: int, seed: int, log=Log,
                   device: str = "cpu", batch_workers: int = 1, upright: bool = False,
                   precision: str = "fp32"):
    """Fit the detector for `steps` batches of 24 tiles, half of them real (photo_tiles(rng, n) gives n),
    on `device` (a torch device: "cpu", or "cuda" where a GPU is lent); returned on the CPU. The batches
    are cut in one background thread from one generator (`ahead`), or with `batch_workers` > 1 by as many
    processes, each batch from its own (`forked`: for a GPU, which would otherwise wait for them).
    `upright`: the tiles are mirrored, never turned, so that a side face always hangs below its top.
    `precision`: "fp32" or "bf16" (`training_precision`)."""
    import torch

    Detector, _ = _layers()
    torch.manual_seed(seed)
    net = Detector().to(device, memory_format=torch.channels_last)  # as `_batch` lays out its input
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    batch, real = 24, 12

    def sample(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        pick = rng.integers(0, len(tiles), batch - real)
        bt, bm = tiles[pick], maps[pick]
        pt, pm = photo_tiles(rng, real)
        if len(pt):  # the photos' few dice and tables also in other colours, as the classifier's crops
            bt, bm = np.concatenate([bt, recolour(rng, pt, 255)]), np.concatenate([bm, pm])
        return _augment_tiles(rng, bt, bm, upright)

    if batch_workers > 1:
        batches = forked(sample, steps, seed, 10, batch_workers)
    else:
        rng = np.random.default_rng([seed, 10])
        batches = ahead(lambda: sample(rng), steps)
    t0, total = time.time(), 0.0
    net.train()
    for step, (x, y) in enumerate(batches):
        _cosine(opt, step, steps)
        loss = detector_loss(_forward(net, x, device, precision), torch.from_numpy(y).to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if (step + 1) % 100 == 0:
            log(f"  detector step {step + 1}/{steps}: loss {total / 100:.3f} "
                f"({time.time() - t0:.0f} s of the detector)")
            total = 0.0
    return _trained(net)


def recolour(rng: np.random.Generator, x: np.ndarray, white: float = 1.0) -> np.ndarray:
    """Real dice in other colours: each crop or tile (n, h, w, 3; float 0..1, or uint8 with `white` 255)
    has its colour channels shuffled (half of them) and its light and dark swapped (a quarter), so a white
    die with black pips also teaches a black die with white pips, a red die a blue or green one, on a
    table of another colour. Only for crops whose colour is not learned."""
    n = len(x)
    order = np.where(rng.random((n, 1)) < 0.5, rng.random((n, 3)).argsort(axis=1), np.arange(3))
    x = np.take_along_axis(x, order[:, None, None, :], axis=3)
    return np.where(rng.random((n, 1, 1, 1)) < 0.25, white - x, x)


SMALLEST_DIE = 15  # px: the smallest die across the reader reads (issue 29: dice of about 15-150 px)
DEGRADED = 0.3  # the share of a classifier batch's crops `degraded`


def degraded(rng: np.random.Generator, x: np.ndarray, share: float = DEGRADED) -> np.ndarray:
    """Crops (n, side, side, 3; float32 0..1) as a smaller, blurrier die gives them, in place: `share` of
    them shrunk to as few px as the crop of a die SMALLEST_DIE px across spans in its frame, or any size
    between that and their own, then enlarged back as the reader enlarges such a crop, blurred by up to
    1 px and noised by up to 3 % of full scale. The training photos' dice are mostly large and sharp; a
    far or out-of-focus die on another camera is not."""
    n, side = len(x), x.shape[1]
    least = math.log(min(side, SMALLEST_DIE * CONTEXT))
    for i in np.flatnonzero(rng.random(n) < share):
        shrunk = round(math.exp(rng.uniform(least, math.log(side))))
        image = cv2.resize(cv2.resize(x[i], (shrunk, shrunk), interpolation=cv2.INTER_AREA), (side, side),
                           interpolation=cv2.INTER_LINEAR)
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.01, 1.0))
        image += rng.normal(0, rng.uniform(0, 0.03), image.shape).astype(np.float32)
        x[i] = image
    return x


def train_classifier(crops: np.ndarray, values: np.ndarray, colours: np.ndarray, steps: int, seed: int,
                     log=Log, first_real: int | None = None, device: str = "cpu", member: int = 0,
                     precision: str = "fp32"):
    """Fit the classifier for `steps` batches of 128 crops (colour -1: unknown, not learned). Crops from
    `first_real` on are of real photos: half of each batch is drawn from them (all crops alike if None),
    `recolour`ed, since the photos hold few dice colours and the renders teach the colours' names; a share of
    every batch is `degraded`, as smaller and blurrier dice give their crops. Trained
    on `device`, returned on the CPU. `member` k > 0 of an ensemble starts from weights and draws batches
    of its own (member 0 is the one classifier runs made before there were several). `precision`: "fp32" or
    "bf16" (`training_precision`)."""
    import torch

    _, Classifier = _layers()
    rng = np.random.default_rng([seed, 20] if member == 0 else [seed, 20, member])
    torch.manual_seed(seed if member == 0 else int(rng.integers(2**31)))
    net = Classifier().to(device, memory_format=torch.channels_last)
    name = "classifier" if member == 0 else f"classifier {member + 1}"
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    value_loss = torch.nn.CrossEntropyLoss()
    colour_loss = torch.nn.CrossEntropyLoss(ignore_index=-1)
    batch = 128

    def make() -> tuple[np.ndarray, np.ndarray]:
        if first_real is None or first_real >= len(crops):
            pick = rng.integers(0, len(crops), batch)
        else:
            pick = np.concatenate([rng.integers(0, first_real, batch // 2),
                                   rng.integers(first_real, len(crops), batch - batch // 2)])
        x = crops[pick].astype(np.float32)
        x /= 255.0
        if first_real is not None and first_real < len(crops):
            x[batch // 2:] = recolour(rng, x[batch // 2:])
        degraded(rng, x)
        x *= rng.uniform(0.75, 1.25, (batch, 1, 1, 3)).astype(np.float32)
        x += rng.uniform(-0.1, 0.1, (batch, 1, 1, 1)).astype(np.float32)
        return np.clip(x, 0, 1, out=x), pick

    t0, total = time.time(), 0.0
    net.train()
    for step, (x, pick) in enumerate(ahead(make, steps)):
        _cosine(opt, step, steps)
        v, c = _forward(net, x, device, precision)
        loss = value_loss(v, torch.from_numpy(values[pick]).to(device)) + \
            0.3 * colour_loss(c, torch.from_numpy(colours[pick]).to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if (step + 1) % 200 == 0:
            log(f"  {name} step {step + 1}/{steps}: loss {total / 200:.3f} "
                f"({time.time() - t0:.0f} s of the {name})")
            total = 0.0
    return _trained(net)


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
    return image, [bench.Label(t.value, t.box, t.kind) for t in truth]


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
    return _parallel(_held_out_scene, jobs, args.workers)


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
        d6 = d6_sizes(faces)
        on = found_labels([f for f, _, _, _ in faces], [lb.box for lb in labels])
        for label, j in zip(labels, on, strict=True):
            if j is None or label.kind not in ("d6", "grey"):
                continue
            f, value, pc, _ = faces[j]
            if may_be_grey(value):
                features.append(kind_features(f, pc, d6))
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
    """The kind model (`vision.learned.grey_probability`) fit on the dice the reader finds in held-out
    renders; the colour head alone where they hold no grey die or no d6 reading 1-4."""
    x, grey = kind_examples(reader, scenes)
    if not 0 < grey.sum() < len(grey):
        return KIND_FROM_COLOUR
    return logistic(x, grey)


# ---------------------------------------------------------------- export


def export(detector, classifier, meta: dict, out: Path, member: int = 0) -> None:
    """Both networks to ONNX (opset 17) and the calibration beside them, in `out` (detector None: the
    detector already in `out` stays; `member`: the classifier is that member of an ensemble)."""
    import torch

    out.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        if detector is not None:
            torch.onnx.export(detector, torch.zeros(1, 3, 224, 224), str(out / DETECTOR.name),
                              input_names=["image"], output_names=["heat", "size", "offset"],
                              opset_version=17,
                              dynamic_axes={"image": {2: "h", 3: "w"}, "heat": {2: "h4", 3: "w4"},
                                            "size": {2: "h4", 3: "w4"}, "offset": {2: "h4", 3: "w4"}},
                              dynamo=False)
        path = member_path(out / CLASSIFIER.name, member)
        torch.onnx.export(classifier, torch.zeros(1, 3, CROP, CROP), str(path),
                          input_names=["crops"], output_names=["values", "colours"], opset_version=17,
                          dynamic_axes={"crops": {0: "n"}, "values": {0: "n"}, "colours": {0: "n"}},
                          dynamo=False)
    save_meta(meta, out)


def drop_other_members(out: Path, members: int) -> None:
    """Remove classifiers of a larger ensemble trained into `out` before (dice_faces_3.onnx after a run of
    `members` 2): the meta would not read them, but beside the weights they would pass for part of them."""
    member = members
    while (path := member_path(out / CLASSIFIER.name, member)).is_file():
        path.unlink()
        member += 1


def save_meta(meta: dict, out: Path) -> None:
    (out / META.name).write_text(json.dumps(meta, indent=1) + "\n")


QUANTISE_CROPS = 1024  # crops whose activations set the int8 classifier's ranges (all held in memory)
QUANTISE_SCENES = 250  # the first calibration scenes, whose crops QUANTISE_CROPS are drawn from
QUANTISE_BATCH = 128  # crops run at a time while the ranges are measured (a min and max: any size gives them)


def calibration_views(reader: LearnedReader, scenes: Scenes) -> np.ndarray:
    """A seeded sample of QUANTISE_CROPS of the classifier's inputs as the reader cuts them from `scenes`
    (float (n, 3, CROP, CROP)), to set the int8 classifier's ranges."""
    views = np.concatenate([reader.views(image, found) for image, _ in scenes
                            if (found := reader.detect(image))])
    pick = np.random.default_rng(40).choice(len(views), min(len(views), QUANTISE_CROPS), replace=False)
    return views[np.sort(pick)]


def quantise(out: Path, views: np.ndarray, member: int = 0) -> None:
    """The classifier in `out` made int8 in place, as the reader runs it: ONNX Runtime's static quantisation
    (QDQ; per-channel int8 weights, uint8 activations), about 30 % less time a crop on one core of this
    machine (a 640x480 frame 19-23 ms against 24-30, read as well: phone 206, wood 228, casino 57 held-out
    dice against 205, 228, 57). The weights keep 7 bits (`reduce_range`): an x86 CPU without VNNI adds
    uint8 x int8 products into saturating 16-bit sums, and on such a CPU (AVX2 only, 2026-11-27) the same
    classifier with 8 bits read phone 191, wood 219, casino 50. On a CPU with AVX512-VNNI (this machine
    kind since 2026-11-29) the 7 bits cost no more than noise: a classifier that read 248 of 288 found
    phone dice in float read 248 with 7 bits and 250 with 8. The activations' ranges (min to max) are those
    of `views`, the classifier's inputs (`calibration_views`). `member`: that classifier of the ensemble."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    batches = iter([{"crops": views[k:k + QUANTISE_BATCH]} for k in range(0, len(views), QUANTISE_BATCH)])

    class Crops(CalibrationDataReader):
        def get_next(self) -> dict | None:
            return next(batches, None)

    model = member_path(out / CLASSIFIER.name, member)
    prepared = out / f"{model.stem}.prepared.onnx"
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    try:
        quantize_static(str(prepared), str(model), Crops(), quant_format=QuantFormat.QDQ, per_channel=True,
                        reduce_range=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
    finally:
        prepared.unlink(missing_ok=True)


# ---------------------------------------------------------------- the whole run


def _photo_crops(reader: LearnedReader, photos, rng: np.random.Generator, copies: int, upright: bool = False
                 ) -> tuple[list[np.ndarray], list[int]]:
    """Classifier crops of the training photos where the trained detector finds dice (every peak down to
    the reader's lowest threshold, `PEAK_GRID[0]`): a found die on a label takes the label's value
    (`copies` crops); a found die on none is "no die" (one crop each, the strongest first, as many as the
    photo's dice have crops). A labelled die the detector missed is cropped at its label. `upright`: the
    crops keep the frame's down (`diceset.jittered_crop`)."""
    crops, values = [], []
    for _, image, labels in photos:
        found = reader.detect(image)
        on = found_labels(found, [box for _, box in labels])
        for (value, (x1, y1, x2, y2)), j in zip(labels, on, strict=True):
            if j is not None:
                f = found[j]
                cx, cy, side = f.cx, f.cy, max(f.w, f.h)
            else:  # boxes of 1-3 are often round the pips only
                side = max(x2 - x1, y2 - y1) * (1.0 if value >= 4 else 1.6)
                cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            for _ in range(copies):
                crops.append(diceset.jittered_crop(rng, image, cx, cy, side, upright))
                values.append(value)
        false = sorted(set(range(len(found))) - set(on), key=lambda i: -found[i].score)
        for i in false[:copies * max(1, len(labels))]:  # the strongest, as many as the dice's crops
            f = found[i]
            crops.append(diceset.jittered_crop(rng, image, f.cx, f.cy, max(f.w, f.h), upright))
            values.append(0)
    return crops, values


def _casino_crops(shared: Path, rng: np.random.Generator, copies: int, upright: bool = False
                  ) -> tuple[list[np.ndarray], list[int]]:
    """Training crops of the casino set: each photo holds one die that fills it (`upright`: kept the way
    up it was photographed)."""
    folder = shared / "casino-crops-train"
    if not (folder / "crops.csv").is_file():
        return [], []
    rows, _ = diceset.crop_split(folder)
    crops, values = [], []
    for row in rows:
        image = cv2.imread(str(folder / row["crop"]))
        if image is None:
            continue
        h, w = image.shape[:2]
        for _ in range(copies):
            crops.append(diceset.jittered_crop(rng, image, w / 2, h / 2, CROP_FILL * min(h, w), upright))
            values.append(int(row["value"]))
    return crops, values


def training_device(name: str) -> str:
    """The torch device to train on: "cpu" (the committed weights are made there, bit for bit), "cuda",
    or "auto" (cuda where a GPU is lent, faster; its weights differ from the CPU's in the last digits)."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: PyTorch sees no GPU here (torch.cuda.is_available() is False)")
    return name


def run(args, log=Log) -> int:
    """Entry point of `companion train dice`."""
    if getattr(args, "recalibrate", False):
        return recalibrate(args, log)
    import torch

    seed, out, workers = args.seed, Path(args.out), args.workers
    device = args.device  # resolved by the command (`training_device`)
    if device == "cuda":  # cuBLAS repeats its sums only with a fixed workspace, set before its first call
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    precision = training_precision(getattr(args, "precision", "fp32"), device)
    t0 = time.time()
    log(f"training on {device} in {precision}")
    keep = getattr(args, "keep_detector", False)
    if keep and not (out / DETECTOR.name).is_file():
        raise ModelFileError(f"--keep-detector: there is no {DETECTOR.name} in {out} to keep")
    photos = training_photos(diceset.SHARED)
    log(f"  {len(photos)} training photos ({time.time() - t0:.0f} s into the run)")

    def photo_tiles(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        ts, ms = [], []
        for k in rng.integers(0, len(photos), n):
            tile, boxes, whole = diceset.photo_tile(rng, photos[k][1], photos[k][2])
            ts.append(tile)
            ms.append(diceset.targets(boxes, whole))
        return np.stack(ts), np.stack(ms)

    log(f"rendering {args.scenes} scenes for the classifier")
    oblique = args.oblique  # the share of renders drawn as phones photograph a table
    upright = args.upright  # the classifier keeps the frame's down (and learns side faces are no die)
    parts = _parallel(_scene_crops, [(*job, oblique, upright) for job in _chunks(seed, args.scenes, 50, 1)],
                      workers)
    crops = np.concatenate([p[0] for p in parts])
    values = np.concatenate([p[1] for p in parts])
    colours = np.concatenate([p[2] for p in parts])
    renders = calibration_renders(args)
    scenes = renders["from above"]
    log(f"  {len(crops)} crops, {len(scenes)} + {len(renders['oblique'])} held-out scenes "
        f"({time.time() - t0:.0f} s into the run)")

    if keep:  # the classifier alone, on the detector of a whole run (whose part is seeded apart)
        detector = None
        log(f"keeping the detector in {out}")
    else:
        log(f"rendering {args.tiles} detector tiles ({workers} processes)")
        jobs = [(*job, oblique) for job in _chunks(seed, args.tiles, 100, 0)]
        parts = _parallel(_render_tiles, jobs, workers)
        tiles = np.concatenate([p[0] for p in parts])
        maps = np.concatenate([p[1] for p in parts])
        log(f"  {len(tiles)} tiles ({time.time() - t0:.0f} s into the run)")
        detector = train_detector(tiles, maps,
                                  photo_tiles if photos else lambda rng, n: (tiles[:0], maps[:0]),
                                  args.detector_steps, seed, log, device,
                                  workers if device != "cpu" else 1, upright, precision)
    _, Classifier = _layers()
    # the detector alone, to find the photos' dice down to the lowest threshold the reader may take (in one
    # look, without the mirrored one: the crops the committed classifier learned from)
    export(detector, Classifier().eval(), {"detect_min": PEAK_GRID[0]}, out)
    reader = LearnedReader.in_folder(out, args.threads)
    found_scenes = round(FOUND_SCENES * args.scenes)
    parts = _parallel(_found_crops, [(*job, oblique, upright, str(out))
                                     for job in _chunks(seed, found_scenes, 50, 6)], workers)
    crops = np.concatenate([crops, *(p[0] for p in parts)])
    values = np.concatenate([values, *(p[1] for p in parts)])
    colours = np.concatenate([colours, *(p[2] for p in parts)])
    none = sum(int((p[1] == 0).sum()) for p in parts)
    log(f"  {sum(len(p[1]) for p in parts)} crops of what the detector finds in {found_scenes} more renders, "
        f"{none} of them no die ({time.time() - t0:.0f} s into the run)")
    rng = np.random.default_rng([seed, 30])
    real, real_values = _photo_crops(reader, photos, rng, copies=6, upright=upright)
    casino, casino_values = _casino_crops(diceset.SHARED, rng, copies=12, upright=upright)
    log(f"  {len(real)} crops of training photos, {len(casino)} of casino crops "
        f"({time.time() - t0:.0f} s into the run)")
    first_real = len(crops)
    if real or casino:
        crops = np.concatenate([crops, np.stack(real + casino)])
        values = np.concatenate([values, np.array(real_values + casino_values, np.int64)])
        colours = np.concatenate([colours, np.full(len(real) + len(casino), -1, np.int64)])
    members = args.classifiers
    for member in range(members):
        classifier = train_classifier(crops, values, colours, args.classifier_steps, seed, log, first_real,
                                      device, member, precision)
        export(None if member else detector, classifier,
               {"detect_min": PEAK_GRID[0], **_looks(upright), "classifiers": members}, out, member)
    drop_other_members(out, members)
    views = calibration_views(LearnedReader.in_folder(out, args.threads), scenes[:QUANTISE_SCENES])
    for member in range(members):
        quantise(out, views, member)
    log(f"  {members} classifier(s) made int8 ({time.time() - t0:.0f} s into the run)")
    reader = LearnedReader.in_folder(out, args.threads)
    save_meta(_meta(calibrate(reader, renders, photos, log), seed, upright, members, device, precision), out)
    for name in (DETECTOR.name, *(member_path(CLASSIFIER, m).name for m in range(members))):
        log(f"saved {out / name} ({(out / name).stat().st_size / 1024:.0f} KB)")
    log(f"done in {(time.time() - t0) / 60:.1f} min")
    return 0


def _looks(upright: bool) -> dict:
    """How the reader looks: its classifier's looks at a crop (quarter turns, or an upright one's crop and
    mirror image) and the detector's mirrored frame."""
    looks = {"turns": MIRRORS, "upright": True} if upright else {"turns": TURNS}
    return {**looks, "mirror": MIRROR}


def _meta(calibrated: dict, seed: int, upright: bool, classifiers: int, device: str, precision: str) -> dict:
    """The reader's meta JSON: what calibration measured (`calibrate`), then the facts of the models'
    training ("context": the box sides the classifier's crops covered; the device and arithmetic they trained
    in, without which the same seed gives other weights)."""
    return {**calibrated, "values": list(VALUES), "colours": list(COLOURS), "context": CONTEXT,
            **_looks(upright), "classifiers": classifiers, "seed": seed, "device": device,
            "precision": precision}


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
    logits depend on its frame and box only (not on the threshold or the temperature)."""
    plain, memo, frames = reader.logits, {}, {}

    def logits(frame: np.ndarray, found: list[Found]) -> tuple[np.ndarray, np.ndarray]:
        if not found:
            return plain(frame, found)
        frames[id(frame)] = frame  # held, so no other frame takes its id while the memo lasts
        keys = [(id(frame), f.cx, f.cy, f.w, f.h) for f in found]
        new = [(f, key) for f, key in zip(found, keys, strict=True) if key not in memo]
        if new:
            values, colours = plain(frame, [f for f, _ in new])
            for i, (_, key) in enumerate(new):
                memo[key] = values[:, i], colours[:, i]
        return (np.stack([memo[key][0] for key in keys], axis=1),
                np.stack([memo[key][1] for key in keys], axis=1))

    with _replaced(reader, "logits", logits):
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


def calibrate(reader: LearnedReader, renders: dict[str, Scenes], photos, log=Log) -> dict:
    """What the reader's meta says of its calibration, under the meta's keys (`MEASURED`): its peak
    threshold (`reader_threshold` on the held-out renders and each set of training photos, "no die" as
    trained), the weight of its "no die" there (`no_die_weight`, on the held-out renders), its temperature
    (on the peaks it then finds in the held-out renders), its kind model (`kind_model`, on the dice it then
    reads there) and its sure bar (`sure_bar`, on its readings there).
    `renders`: the held-out renders by how they were drawn (from above, oblique); all of them count as one
    set, but the sure bar is measured on each and the strictest kept, so that the certain readings are
    right often enough on every kind of table, not only on the mix.
    The temperature decides which class of a die's averaged turns wins and the kind model which dice are
    grey, so the threshold that depends on both is measured twice: first at temperature 1 with the colour
    head alone, then with what was measured there (each run starts alike, so the same models give the same
    calibration whatever their meta said before). The training run and `--recalibrate` write the answer as
    it is."""
    scenes = [scene for part in renders.values() for scene in part]
    sets = {"held-out renders": scenes}
    for name, image, labels in photos:
        sets.setdefault(f"training photos {name}", []).append(
            (image, [bench.Label(value, box) for value, box in labels]))
    reader.temperature, reader.kind_model, reader.sure = 1.0, KIND_FROM_COLOUR, None
    with logits_remembered(reader), peaks_remembered(reader):
        for _ in range(2):
            reader.no_die = 0.0
            detect_min, tried = reader_threshold(reader, sets)
            no_die, weights = no_die_weight(reader, scenes)
            logits, truth = reader_logits(reader, scenes)
            reader.temperature = t = temperature(logits, truth)
            reader.kind_model = kind = kind_model(reader, scenes)
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
    log(f"sure bar {sure:.4f}: readings at least as probable were right at least {100 * SURE_RIGHT:.1f} % "
        f"of the time in each kind of held-out render ({', '.join(measured)}), at every bar from it up")
    return dict(zip(MEASURED, (t, detect_min, no_die, list(kind), sure), strict=True))


SURE_RIGHT = 0.995  # the share of readings at or above the sure bar that must be right (issue 29's target)
SURE_GRID = tuple(round(1 - 0.5 * 0.75 ** k, 4) for k in range(24))  # bars tried: 0.5 .. 0.9993, each
# leaving three quarters of the doubt of the one before


def sure_bar(reader: LearnedReader, scenes: Scenes) -> tuple[float, list[tuple[float, int, int]]]:
    """The least bar of `SURE_GRID` at which the reader's readings of the scenes that are at least as
    probable are right at least `SURE_RIGHT` of the time, and so are those at every higher bar (one lucky
    bar is not enough); 1.0 where no bar holds. A false die (a reading where the scene has none) is a
    wrong reading. Also, per bar: (bar, right, readings at or above it). The reader's `sure` must be None:
    its confidences are then the probabilities themselves."""
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
        if good < SURE_RIGHT * count:
            break
        sure = bar
    return sure, bars


def strictest_bar(reader: LearnedReader, renders: dict[str, Scenes]
                  ) -> tuple[float, dict[str, tuple[float, list[tuple[float, int, int]]]]]:
    """The highest of the sure bars (`sure_bar`) measured on each kind of render apart, and each kind's own:
    a bar measured on the mix may hold there while the harder kind's certain readings are wrong too often."""
    measured = {name: sure_bar(reader, scenes) for name, scenes in renders.items() if scenes}
    return max((bar for bar, _ in measured.values()), default=1.0), measured  # no scenes: no bar holds


def recalibrate(args, log=Log) -> int:
    """`companion train dice --recalibrate`: measure the calibration (`calibrate`) of the models in
    --out again (after a change to how they are measured), without training; rewrites only the meta JSON."""
    out = Path(args.out)
    reader = LearnedReader.in_folder(out, args.threads)
    looks = _looks(reader.upright)  # as it was trained: upright or turned
    reader.turns, reader.mirror = looks["turns"], looks["mirror"]
    renders = calibration_renders(args)
    measured = calibrate(reader, renders, training_photos(diceset.SHARED), log)
    # the models' own meta (crop width, seed, ...: facts of their training) with what was measured rewritten,
    # the measured keys first and in their order, as a training run writes them (`_meta`)
    meta = {**reader.meta, **looks, **measured}
    save_meta({**{key: meta[key] for key in MEASURED}, **meta}, out)
    log(f"saved {out / META.name}")
    return 0
