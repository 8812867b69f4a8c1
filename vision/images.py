"""Load photos from files, with an error a person can read, and never more pixels than the Pi can hold.

The size is read from the file's header (vision/headers.py) BEFORE decoding: a 1 MB PNG that claims
100000 x 100000 pixels would ask for 30 GB, and a 20000 x 20000 one took 2.4 GB. A file cut short
(a truncated JPEG decodes as a grey lower half with 0 dice on it) is reported as damaged.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageReadError
from vision.headers import HeaderError, read_header

#: The most pixels (width x height) a photo may have: 50 megapixels is more than a phone's full
#: sensor in most phones and 150 MB once decoded (3 bytes a pixel); the Camera Module 3 gives 12.
MAX_PIXELS = 50_000_000
#: The largest photo file read, in bytes (a 50 MP PNG of noise is about 150 MB).
MAX_FILE_BYTES = 200_000_000


QUARTER_TURNS = (None, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)


def turned(image: np.ndarray, k: int) -> np.ndarray:
    """The image turned k quarter turns anticlockwise (`np.rot90`'s way, in a fifth of its time; k < 0:
    clockwise)."""
    return image if k % 4 == 0 else cv2.rotate(image, QUARTER_TURNS[k % 4])


def load_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The BGR image in a file; ImageReadError (a ValueError) saying what is wrong if it is missing, a
    directory, too large, damaged or not an image."""
    path = Path(path)
    data = _read_bytes(path)
    try:
        header = read_header(data)
    except HeaderError as err:
        raise ImageReadError(f"{path}: {err}") from None
    if header.pixels > max_pixels:
        raise ImageReadError(
            f"{path}: {header.width} x {header.height} pixels is too large "
            f"(at most {max_pixels / 1e6:g} megapixels): make the photo smaller")
    if header.pixels == 0:
        raise ImageReadError(f"{path}: a damaged {header.format}: it says it is {header.width} x "
                             f"{header.height} pixels")
    if not header.whole:
        raise ImageReadError(f"{path}: a damaged {header.format}: the file is cut short (truncated)")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as err:
        raise ImageReadError(f"{path}: OpenCV could not decode it ({err.err or 'unknown error'})") from None
    if image is None or image.size == 0:
        raise ImageReadError(f"{path}: not a readable image (a damaged {header.format})")
    return image


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, or ImageReadError for what is not a file of a sensible size."""
    if path.is_dir():
        raise ImageReadError(f"{path}: is a directory")
    if not path.exists():
        raise ImageReadError(f"{path}: no such file")
    if not path.is_file():
        raise ImageReadError(f"{path}: not a regular file")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageReadError(f"{path}: {size / 1e6:.0f} MB is too large for a photo "
                                 f"(at most {MAX_FILE_BYTES / 1e6:.0f} MB)")
        data = path.read_bytes()
    except OSError as err:
        raise ImageReadError(f"{path}: cannot read it ({err.strerror or err})") from None
    if not data:
        raise ImageReadError(f"{path}: an empty file")
    return data
