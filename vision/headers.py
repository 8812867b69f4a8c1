"""What an image file says about itself before it is decoded: its format, its size in pixels, and
whether it is whole. `load_image` refuses a photo too large to decode before OpenCV allocates it.

A file names its size in its first bytes; these are read here by the formats' own specifications,
for the formats the companion reads (the frame sources' IMAGE_SUFFIXES):

* PNG: the IHDR chunk, always first (width, height: big-endian uint32 at bytes 16-23); whole when the
  IEND chunk (type and CRC are the same in every PNG) is near the end.
* JPEG: the first start-of-frame marker (SOF0-SOF15 but DHT, JPG, DAC: height, width at +5, +7);
  whole when an end-of-image marker (FF D9) follows the first scan (inside a scan FF is always
  followed by 00 or a restart marker, so FF D9 there is the end).
* BMP: the DIB header (12-byte core header: uint16 sizes, otherwise int32; height < 0 is top-down).
* WebP: the RIFF's first chunk, VP8 (lossy), VP8L (lossless) or VP8X (extended).

Why not Pillow: `vision` imports numpy and cv2 only (DESIGN.md), and these four headers are a few
fixed offsets each; OpenCV has no way to read a size without decoding.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

#: The formats read here, as a player would name them.
FORMATS = ("PNG", "JPEG", "BMP", "WebP")

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"  # the IEND chunk's type and its CRC, the same in every PNG
# JPEG start-of-frame markers: C0-CF except C4 (DHT), C8 (JPG) and CC (DAC).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
# JPEG markers that stand alone, without a length: TEM, RST0-7, SOI, EOI.
_STANDALONE = {0x01, *range(0xD0, 0xD8), 0xD8, 0xD9}


@dataclass(frozen=True)
class Header:
    """An image file's format, size in pixels, and whether its data runs to its end marker."""

    format: str
    width: int
    height: int
    whole: bool

    @property
    def pixels(self) -> int:
        return self.width * self.height


class HeaderError(ValueError):
    """The first bytes are no image header this module reads (the message says what they are)."""


def read_header(data: bytes) -> Header:
    """The header of an image file's bytes; HeaderError if the format is not read here or is damaged."""
    if data.startswith(_PNG_SIGNATURE):
        return _png(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    if data.startswith(b"BM"):
        return _bmp(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    raise HeaderError(f"not a readable image (not {', '.join(FORMATS[:-1])} or {FORMATS[-1]})")


def _png(data: bytes) -> Header:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise HeaderError("a damaged PNG: its header is cut short")
    width, height = struct.unpack(">II", data[16:24])
    return Header("PNG", width, height, _PNG_END in data[-4096:])


def _jpeg(data: bytes) -> Header:
    size: tuple[int, int] | None = None
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            raise HeaderError("a damaged JPEG: its markers are broken")
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _STANDALONE:
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2:at + 4])
        if marker in _SOF and size is None:
            if at + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            size = (width, height)
        if marker == 0xDA:  # start of scan: the image data follows
            if size is None:
                raise HeaderError("a damaged JPEG: its data starts before its size")
            return Header("JPEG", size[0], size[1], data.find(b"\xff\xd9", at + 2 + length) >= 0)
        at += 2 + length
    if size is None:
        raise HeaderError("a damaged JPEG: it ends before saying its size")
    return Header("JPEG", size[0], size[1], False)  # no scan at all: cut short


def _bmp(data: bytes) -> Header:
    if len(data) < 26:
        raise HeaderError("a damaged BMP: its header is cut short")
    (dib,) = struct.unpack("<I", data[14:18])
    if dib == 12:
        width, height = struct.unpack("<HH", data[18:22])
    else:
        width, height = struct.unpack("<ii", data[18:26])
    (declared,) = struct.unpack("<I", data[2:6])
    return Header("BMP", abs(width), abs(height), len(data) >= declared)


def _webp(data: bytes) -> Header:
    chunk = data[12:16]
    (riff,) = struct.unpack("<I", data[4:8])
    whole = len(data) >= riff + 8
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return Header("WebP", width & 0x3FFF, height & 0x3FFF, whole)
    if chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack("<I", data[21:25])
        return Header("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, whole)
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return Header("WebP", width, height, whole)
    raise HeaderError("a damaged WebP: its header is cut short")
