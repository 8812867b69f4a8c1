"""A smear along a line (a die still sliding, a shaken camera): drawing one, and taking one out of a
small part of a frame.

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


def line_kernel(length: int, degrees: float) -> np.ndarray:
    """A length x length kernel (sum 1): a line `length` px long through its centre, turned `degrees`
    counter-clockwise as seen on screen from along the rows: the smear a straight move of that length
    draws."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), degrees, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return kernel / max(kernel.sum(), 1e-6)


def smear(image: np.ndarray, length: int, degrees: float) -> np.ndarray:
    """image smeared along a line of `length` px at `degrees` (`line_kernel`): motion blur, a die still
    sliding or a shaken camera. The renderer's blurred scenes and `bench --vary shaken` are drawn with it."""
    return cv2.filter2D(image, -1, line_kernel(length, degrees))


def unsmeared(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    """image (H x W or H x W x 3, uint8) with a smear of `length` px along `angle` (rad, from along the
    rows towards down them, as `vision.faces.common_axis` gives it) taken out by a Wiener filter; the
    edges are mirrored first so that they do not ring."""
    size = max(1, round(length))
    pad = size
    kernel = line_kernel(size, -math.degrees(angle))  # (rows run downwards: on screen, the turn is back)
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
