"""Load photos from files, with an error a person can read."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageReadError


def load_image(path: str | Path) -> np.ndarray:
    """The BGR image in a file; ImageReadError (a ValueError) if it is missing or not an image."""
    path = Path(path)
    if not path.is_file():
        raise ImageReadError(f"{path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageReadError(f"{path}: not a readable image (corrupt, or not a photo)")
    return image
