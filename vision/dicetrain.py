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
3. Calibration of the whole reader (`vision.readerfit.calibrate`): the detector's peak threshold, the
   weight of the classifier's "no die", its temperature, the kind model and the sure bar, measured on
   rendered scenes held out of training (the peak threshold also on each set of training photos); all go
   to the meta JSON beside the weights. `--recalibrate` does only this step for the models already in
   --out. It measures the classifier as the reader runs it: made int8 just before
   (`vision.onnxexport.quantise`, ONNX Runtime's static quantisation on crops of the held-out scenes), which
   reads as well in about 30 % less time.
Both networks train in bfloat16 where the device computes it natively (`training_precision`; weights,
optimiser and losses in float32), else in float32.
Everything is seeded (numpy and torch), threads are fixed, so the same command on the same machine
gives the same weights. Only this module and `vision.onnxexport` need torch and onnx (`pip install -e
'.[train]'`); the data is made in parallel by `vision.batches`.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import cv2
import numpy as np

from vision import diceset
from vision.batches import ahead, chunks, forked, parallel
from vision.errors import ModelFileError
from vision.learned import (
    CLASSIFIER,
    COLOURS,
    CONTEXT,
    CROP,
    CROP_FILL,
    DETECTOR,
    META,
    MIRROR,
    MIRRORS,
    TURNS,
    VALUES,
    LearnedReader,
    member_path,
)
from vision.onnxexport import (
    calibration_views,
    drop_other_members,
    export,
    quantise,
    save_meta,
)
from vision.readerfit import MEASURED, PEAK_GRID, calibrate, calibration_renders, found_labels

Log = print
SIDE_WEIGHT = 1.0  # the side share's loss (`train_classifier`) beside the value's cross-entropy


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
        """A CROP x CROP colour crop -> face logits (len(VALUES)), body colour logits (len(COLOURS)) and
        the die's side as a share of the crop's, as a log (`diceset.side_share`): what its box, which grows
        up to 1.41 times with the die's turn, does not tell. The side is read off the features the face and
        colour learned (`side`: its gradient stops there, and its weights are drawn apart), so the face and
        colour heads train exactly as they did without it.
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
            with torch.random.fork_rng(devices=[]):  # the draws of the rest (dropout) stay as they were
                self.side = nn.Sequential(nn.Linear(features, 32), nn.ReLU(inplace=True), nn.Linear(32, 1))

        def forward(self, x):
            h = self.body((x - 0.45) / 0.25)
            return self.values(h), self.colours(h), self.side(h.detach())[:, 0]

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


Crops = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # crops, value and colour classes, side shares


def _scene_crops(args: tuple[int, int, int, int, float, bool]) -> Crops:
    seed, stream, first, count, oblique, upright = args
    crops, values, colours, shares = [], [], [], []
    for k in range(first, first + count):
        c, v, o, s = diceset.scene_crops(np.random.default_rng([seed, stream, k]), oblique=oblique,
                                         upright=upright)
        crops += c
        values += v
        colours += o
        shares += s
    return (np.stack(crops), np.array(values, np.int64), np.array(colours, np.int64),
            np.array(shares, np.float32))


def _found_crops(args: tuple[int, int, int, int, float, bool, str]) -> Crops:
    """Classifier crops where the trained detector (in folder) finds dice in rendered scenes, one a find:
    on a die (`found_labels`) its value, colour class and side share; anywhere else (a side face, a token, a
    crumb, the gap between dice) "no die". What the reader will actually be given, its false finds above
    all, which the random "no die" crops of `diceset.scene_crops` only sample."""
    from vision.scenes import random_scene

    seed, stream, first, count, oblique, upright, folder = args
    reader = LearnedReader.in_folder(Path(folder), 1)
    crops, values, colours, shares = [], [], [], []
    for k in range(first, first + count):
        rng = np.random.default_rng([seed, stream, k])
        image, truth = random_scene(rng, oblique=diceset.drawn(rng, oblique))
        found = reader.detect(image)
        classes = {j: (diceset.value_class(t.value), diceset.COLOUR_INDEX[t.colour], t.side)
                   for t, j in zip(truth, found_labels(found, [t.box for t in truth]), strict=True)
                   if j is not None}
        for j, f in enumerate(found):
            value, colour, side = classes.get(j, (0, -1, 0.0))
            crop_of_find, crop_side = diceset.jittered_crop(rng, image, f.cx, f.cy, max(f.w, f.h), upright)
            crops.append(crop_of_find)
            values.append(value)
            colours.append(colour)
            shares.append(diceset.side_share(side, crop_side))
    return (np.stack(crops) if crops else np.zeros((0, CROP, CROP, 3), np.uint8),
            np.array(values, np.int64), np.array(colours, np.int64), np.array(shares, np.float32))


FOUND_SCENES = 0.4  # scenes whose finds `_found_crops` crops (stream 6), a share of the classifier's scenes


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


def train_classifier(crops: np.ndarray, values: np.ndarray, colours: np.ndarray, steps: int, seed: int,
                     log=Log, first_real: int | None = None, device: str = "cpu", member: int = 0,
                     precision: str = "fp32", shares: np.ndarray | None = None):
    """Fit the classifier for `steps` batches of 128 crops (colour -1: unknown, not learned; `shares`, the
    die's side as a share of the crop's (`diceset.side_share`), NaN or None: unknown, not learned). Crops from
    `first_real` on are of real photos: half of each batch is drawn from them (all crops alike if None),
    `recolour`ed, since the photos hold few dice colours and the renders teach the colours' names. Trained
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
        x *= rng.uniform(0.75, 1.25, (batch, 1, 1, 3)).astype(np.float32)
        x += rng.uniform(-0.1, 0.1, (batch, 1, 1, 1)).astype(np.float32)
        return np.clip(x, 0, 1, out=x), pick

    t0, total = time.time(), 0.0
    net.train()
    for step, (x, pick) in enumerate(ahead(make, steps)):
        _cosine(opt, step, steps)
        v, c, s = _forward(net, x, device, precision)
        loss = value_loss(v, torch.from_numpy(values[pick]).to(device)) + \
            0.3 * colour_loss(c, torch.from_numpy(colours[pick]).to(device))
        known = None if shares is None else torch.from_numpy(shares[pick]).to(device)
        if known is not None and bool((seen := ~torch.isnan(known)).any()):
            loss = loss + SIDE_WEIGHT * torch.nn.functional.smooth_l1_loss(s[seen], known[seen], beta=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if (step + 1) % 200 == 0:
            log(f"  {name} step {step + 1}/{steps}: loss {total / 200:.3f} "
                f"({time.time() - t0:.0f} s of the {name})")
            total = 0.0
    return _trained(net)

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
                crops.append(diceset.jittered_crop(rng, image, cx, cy, side, upright)[0])
                values.append(value)
        false = sorted(set(range(len(found))) - set(on), key=lambda i: -found[i].score)
        for i in false[:copies * max(1, len(labels))]:  # the strongest, as many as the dice's crops
            f = found[i]
            crops.append(diceset.jittered_crop(rng, image, f.cx, f.cy, max(f.w, f.h), upright)[0])
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
            crops.append(diceset.jittered_crop(rng, image, w / 2, h / 2, CROP_FILL * min(h, w), upright)[0])
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
    parts = parallel(_scene_crops, [(*job, oblique, upright) for job in chunks(seed, args.scenes, 50, 1)],
                      workers)
    crops = np.concatenate([p[0] for p in parts])
    values = np.concatenate([p[1] for p in parts])
    colours = np.concatenate([p[2] for p in parts])
    shares = np.concatenate([p[3] for p in parts])
    renders = calibration_renders(args)
    scenes = renders["from above"]
    log(f"  {len(crops)} crops, {len(scenes)} + {len(renders['oblique'])} held-out scenes "
        f"({time.time() - t0:.0f} s into the run)")

    if keep:  # the classifier alone, on the detector of a whole run (whose part is seeded apart)
        detector = None
        log(f"keeping the detector in {out}")
    else:
        log(f"rendering {args.tiles} detector tiles ({workers} processes)")
        jobs = [(*job, oblique) for job in chunks(seed, args.tiles, 100, 0)]
        parts = parallel(_render_tiles, jobs, workers)
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
    parts = parallel(_found_crops, [(*job, oblique, upright, str(out))
                                     for job in chunks(seed, found_scenes, 50, 6)], workers)
    crops = np.concatenate([crops, *(p[0] for p in parts)])
    values = np.concatenate([values, *(p[1] for p in parts)])
    colours = np.concatenate([colours, *(p[2] for p in parts)])
    shares = np.concatenate([shares, *(p[3] for p in parts)])
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
        shares = np.concatenate([shares, np.full(len(real) + len(casino), np.nan, np.float32)])
    members = args.classifiers
    for member in range(members):
        classifier = train_classifier(crops, values, colours, args.classifier_steps, seed, log, first_real,
                                      device, member, precision, shares)
        export(None if member else detector, classifier,
               {"detect_min": PEAK_GRID[0], **_looks(upright), "classifiers": members}, out, member)
    drop_other_members(out, members)
    views = calibration_views(LearnedReader.in_folder(out, args.threads), scenes)
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
