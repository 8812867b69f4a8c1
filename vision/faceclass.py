"""Tell which face of a die points up from a small patch around it: a tiny learned classifier.

    faces = FaceClassifier.default()
    probs = faces.classify(gray, [(cx, cy, side, angle), ...])   # (N, 7): class 0 = not a die top face

The classical stage (`vision.pips`, `vision.faces`) proposes where faces may be; this network decides
what each proposal is. It sees a PATCH x PATCH grey patch covering CROP_SIDES face sides around the
proposal, turned by the proposal's angle and normalised for brightness and contrast, so it reads
white, black, coloured and translucent dice alike. Weights are trained by `companion train faces`
(`vision.training`, which needs PyTorch) and stored as numpy arrays in `vision/data/faces.npz`;
running them needs numpy and OpenCV only, as on the Pi.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

PATCH = 32  # patch side, px
CROP_SIDES = 1.5  # the patch covers this many face sides: the face and a margin showing its edges
CLASSES = 7  # 0: not the top face of a die; 1..6: the value
WEIGHTS = Path(__file__).with_name("data") / "faces.npz"
LAYERS = ("conv1", "conv2", "conv3", "fc1", "fc2")
SURE_NOT = 0.9  # a proposal the first look calls "no face" this surely is not looked at again

Proposal = tuple[float, float, float, float]  # centre x, y (px), face side (px), angle (rad)


def face_patch(gray: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0,
               flip: bool = False) -> np.ndarray:
    """The PATCH x PATCH uint8 patch of `gray` centred on (cx, cy), CROP_SIDES * side px across, turned
    by -angle so the face's edges run along the patch's. Outside the image repeats the border."""
    scale = PATCH / (CROP_SIDES * max(side, 4.0))
    rot = cv2.getRotationMatrix2D((cx, cy), math.degrees(angle), scale)
    rot[:, 2] += ((PATCH - 1) / 2 - cx, (PATCH - 1) / 2 - cy)
    if flip:
        rot[0] = -rot[0]
        rot[0, 2] += PATCH - 1
    interpolation = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    if scale < 0.5:  # shrinking a lot: smooth first so thin pips are not aliased away
        k = int(round(0.5 / scale)) | 1
        reach = 1.2 * side
        x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
        x1, y1 = min(gray.shape[1], int(cx + reach) + 1), min(gray.shape[0], int(cy + reach) + 1)
        region = cv2.blur(gray[y0:y1, x0:x1], (k, k))
        rot[:, 2] += rot[:, :2] @ np.array([x0, y0], float)
        gray = region
    return cv2.warpAffine(gray, rot, (PATCH, PATCH), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


def normalise(patches: np.ndarray) -> np.ndarray:
    """(N, PATCH, PATCH) uint8 -> (N, 1, PATCH, PATCH) float32 of zero mean and about unit spread, so
    the exposure and the die's colour do not matter."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    spread = x.std(axis=(1, 2), keepdims=True) + 8.0
    return ((x - mean) / spread)[:, None]


def _conv_relu_pool(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """3x3 convolution (padding 1), ReLU, 2x2 max pooling. x is (N, H, W, C), channels last, so that
    the nine shifted copies sit side by side for one matrix product; weight is PyTorch's (O, C, 3, 3).
    The pooling comes before the bias and the ReLU, on four times fewer values: the maximum of four
    values plus a bias is the maximum of the four plus the bias, and ReLU keeps order."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), x.dtype)  # zero padding, cheaper than np.pad
    padded[:, 1:-1, 1:-1] = x
    columns = np.concatenate([padded[:, dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)], axis=3)
    kernel = weight.transpose(2, 3, 1, 0).reshape(9 * c, -1)  # rows ordered (dy, dx, c) like the columns
    out = (columns.reshape(n * h * w, 9 * c) @ kernel).reshape(n, h, w, -1)
    pooled = np.maximum(np.maximum(out[:, 0::2, 0::2], out[:, 0::2, 1::2]),
                        np.maximum(out[:, 1::2, 0::2], out[:, 1::2, 1::2]))
    return np.maximum(pooled + bias, 0.0)


def forward(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Class probabilities (N, CLASSES) for normalised patches x (N, 1, PATCH, PATCH)."""
    x = x.transpose(0, 2, 3, 1)
    for name in ("conv1", "conv2", "conv3"):
        x = _conv_relu_pool(x, params[f"{name}.weight"], params[f"{name}.bias"])
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # flattened channel by channel, as PyTorch does
    x = np.maximum(x @ params["fc1.weight"].T + params["fc1.bias"], 0.0)
    logits = x @ params["fc2.weight"].T + params["fc2.bias"]
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


class FaceClassifier:
    """The trained network: weights as float32 numpy arrays."""

    _default: FaceClassifier | None = None

    def __init__(self, params: dict[str, np.ndarray]):
        missing = [f"{n}.{p}" for n in LAYERS for p in ("weight", "bias") if f"{n}.{p}" not in params]
        if missing:
            raise ValueError(f"face classifier weights lack {', '.join(missing)}")
        self.params = {k: np.asarray(v, np.float32) for k, v in params.items()}

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> FaceClassifier:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    @classmethod
    def default(cls) -> FaceClassifier:
        """The weights shipped in vision/data, loaded once."""
        if cls._default is None:
            cls._default = cls.load()
        return cls._default

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, CLASSES) for (N, PATCH, PATCH) uint8 patches."""
        if len(patches) == 0:
            return np.zeros((0, CLASSES), np.float32)
        return forward(self.params, normalise(patches))

    def classify(self, gray: np.ndarray, proposals: Sequence[Proposal]) -> np.ndarray:
        """(N, CLASSES) probabilities for each proposed face (cx, cy, side, angle) of a grey frame.

        A face looks the same turned a quarter, but the network does not quite see it so. Where its
        first look is not sure there is no face, the patch is read again turned a quarter, and the two
        readings are averaged: two looks that agree make a sure reading, and a print or a side face that
        one look mistook for a face seldom fools both (about a quarter of the proposals are looked at
        twice)."""
        if not proposals:
            return np.zeros((0, CLASSES), np.float32)
        patches = np.stack([face_patch(gray, *p) for p in proposals])
        probs = self.probabilities(patches)
        unsure = probs[:, 0] < SURE_NOT
        if unsure.any():
            turned = np.rot90(patches[unsure], 1, axes=(1, 2))
            probs[unsure] = (probs[unsure] + self.probabilities(turned)) / 2
        return probs
