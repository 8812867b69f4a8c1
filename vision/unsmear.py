"""Undo a smear along a line (a die still sliding, a shaken camera) in a small part of a frame.

A die that moves while the shutter is open is drawn as its sharp image averaged along a line: its pips
become streaks, and two pips in a row may run together. Knowing the line (its direction and length,
from the streaks' common axis and how drawn out they are), a Wiener filter takes most of the smear out,
and the pips come back round enough to be read.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

NOISE = 0.01  # noise-to-signal power the filter assumes: less sharpens more, and rings more


def line_kernel(length: float, angle: float, size: int) -> np.ndarray:
    """A size x size kernel (sum 1) of a line `length` px long through its centre at `angle` (rad),
    drawn anti-aliased: the smear a straight move of that length draws."""
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    shift = 4  # the ends in 1/16 px
    ends = [(round((c + s * dx) * (1 << shift)), round((c + s * dy) * (1 << shift))) for s in (-1, 1)]
    cv2.line(kernel, ends[0], ends[1], 1.0, 1, lineType=cv2.LINE_AA, shift=shift)
    return kernel / kernel.sum()


def unsmeared(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    """image (H x W or H x W x 3, uint8) with a smear of `length` px along `angle` (rad) taken out by a
    Wiener filter; the edges are mirrored first so that they do not ring."""
    size = int(math.ceil(length)) | 1
    pad = size
    kernel = line_kernel(length, angle, size)
    planes = image.reshape(image.shape[0], image.shape[1], -1)
    h, w = planes.shape[:2]
    spread = np.zeros((h + 2 * pad, w + 2 * pad), np.float32)
    spread[:size, :size] = kernel
    spread = np.roll(spread, (-(size // 2), -(size // 2)), (0, 1))
    response = np.fft.rfft2(spread)
    wiener = np.conj(response) / (np.abs(response) ** 2 + NOISE)
    out = np.empty(planes.shape, np.uint8)
    for i in range(planes.shape[2]):
        plane = cv2.copyMakeBorder(planes[:, :, i], pad, pad, pad, pad, cv2.BORDER_REFLECT).astype(np.float32)
        sharp = np.fft.irfft2(np.fft.rfft2(plane) * wiener, plane.shape)
        out[:, :, i] = np.clip(sharp[pad:pad + h, pad:pad + w], 0, 255)
    return out.reshape(image.shape)
