"""Photos from files: the size is read from the header before decoding and a photo over the pixel limit
is refused; a file cut short is damaged; a directory is a directory; `companion read` reads the rest."""

from __future__ import annotations

import json
import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from vision.errors import CameraError, ImageReadError
from vision.headers import HeaderError, read_header
from vision.images import MAX_PIXELS, load_image
from vision.render import DieSpec, render_scene
from vision.sources import ReplaySource


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says width x height, holding one row of black pixels: small on disk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00" * (1 + 3 * width))) + chunk(b"IEND", b""))


def photo(seed: int = 3) -> np.ndarray:
    return render_scene(np.random.default_rng(seed), [DieSpec("d6", "white", 4)], variations=False)[0]


def encoded(image: np.ndarray, suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp"])
@pytest.mark.parametrize("height, width", [(480, 640), (23, 37), (1, 1)])
def test_the_header_gives_the_size_opencv_decodes(suffix, height, width):
    image = cv2.resize(photo(), (width, height))
    header = read_header(encoded(image, suffix))
    assert (header.width, header.height, header.whole) == (width, height, True)


def test_a_png_claiming_100000_squared_is_refused_from_its_header_before_decoding(tmp_path, monkeypatch):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_claiming(100_000, 100_000))
    assert path.stat().st_size < 2_000

    def no_decoding(*args):
        raise AssertionError("decoded a photo over the pixel limit")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    monkeypatch.setattr(cv2, "imread", no_decoding)
    with pytest.raises(ImageReadError) as err:
        load_image(path)
    assert str(err.value) == (f"{path}: 100000 x 100000 pixels is too large (at most 50 megapixels): "
                              "make the photo smaller")


def test_the_pixel_limit_is_width_times_height(tmp_path):
    path = tmp_path / "small.png"
    path.write_bytes(encoded(np.zeros((100, 100, 3), np.uint8), ".png"))
    assert load_image(path, max_pixels=10_000).shape == (100, 100, 3)
    with pytest.raises(ImageReadError, match="100 x 100 pixels is too large"):
        load_image(path, max_pixels=9_999)
    assert MAX_PIXELS == 50_000_000


@pytest.mark.parametrize("suffix, kind", [(".jpg", "JPEG"), (".png", "PNG"), (".webp", "WebP"),
                                          (".bmp", "BMP")])
@pytest.mark.parametrize("kept", [0.3, 0.9, 0.995])
def test_a_photo_cut_short_is_damaged_not_zero_dice(tmp_path, suffix, kind, kept):
    data = encoded(photo(), suffix)
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(data[:int(len(data) * kept)])
    with pytest.raises(ImageReadError) as err:
        load_image(path)
    assert str(err.value) == f"{path}: a damaged {kind}: the file is cut short (truncated)"


@pytest.mark.parametrize("content, words", [
    (None, "is a directory"),
    (b"", "an empty file"),
    (b"dice: 3, 4, 6\n", "not a readable image (not PNG, JPEG, BMP or WebP)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "a damaged PNG: its header is cut short"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "a damaged JPEG: it ends before saying its size"),
])
def test_what_is_not_a_photo_says_what_it_is(tmp_path, content, words):
    path = tmp_path / "roll.jpg"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(ImageReadError) as err:
        load_image(path)
    assert str(err.value) == f"{path}: {words}"


def test_read_reports_each_bad_photo_reads_the_good_one_and_exits_non_zero(tmp_path, capsys):
    bomb, cut, folder, good = (tmp_path / n for n in ("bomb.png", "cut.jpg", "folder", "good.png"))
    bomb.write_bytes(png_claiming(100_000, 100_000))
    data = encoded(photo(), ".jpg")
    cut.write_bytes(data[:len(data) // 2])
    folder.mkdir()
    cv2.imwrite(str(good), photo())
    code = main(["read", str(bomb), str(cut), str(folder), str(good), "--json", "--reader", "rules"])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert [r["image"] for r in records] == [str(bomb), str(cut), str(folder), str(good)]
    assert "100000 x 100000 pixels is too large" in records[0]["error"]
    assert records[1]["error"].endswith("a damaged JPEG: the file is cut short (truncated)")
    assert records[2]["error"] == f"{folder}: is a directory"
    assert records[3]["error"] is None and [d["value"] for d in records[3]["dice"]] == [4]
    assert main(["read", str(folder), str(good)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == f"{folder}: is a directory"


def test_a_photo_the_reader_cannot_take_does_not_stop_the_batch(tmp_path, capsys):
    thin, good = tmp_path / "thin.png", tmp_path / "good.png"
    cv2.imwrite(str(thin), np.full((2, 5000, 3), 128, np.uint8))
    cv2.imwrite(str(good), photo())
    assert main(["read", str(thin), str(good), "--reader", "rules"]) == 1  # the rules fail on a 2 px photo
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{thin}: the dice reader failed on this photo")
    assert lines[1].startswith(f"{good}: 1 dice: 4 (d6")


def test_a_replayed_folder_passes_over_a_photo_over_the_limit(tmp_path):
    (tmp_path / "a.png").write_bytes(png_claiming(100_000, 100_000))
    cv2.imwrite(str(tmp_path / "b.png"), photo())
    with ReplaySource(tmp_path, fps=0) as source:
        assert source.read().shape == (480, 640, 3)
        assert "100000 x 100000 pixels is too large" in source.skipped["a.png"]
    (tmp_path / "b.png").unlink()
    with ReplaySource(tmp_path, fps=0) as source, pytest.raises(CameraError, match="no readable image"):
        source.read()


@settings(max_examples=200, deadline=None)
@given(head=st.sampled_from([b"\x89PNG\r\n\x1a\n", b"\xff\xd8", b"BM", b"RIFF\x10\x00\x00\x00WEBP", b""]),
       tail=st.binary(max_size=64))
def test_any_bytes_give_a_header_or_a_header_error_never_a_crash(head, tail):
    try:
        header = read_header(head + tail)
    except HeaderError as err:
        assert str(err)
    else:
        assert header.width >= 0 and header.height >= 0
