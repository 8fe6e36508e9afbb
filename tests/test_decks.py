"""Reading card pictures: any file a user or a phone makes becomes BGR uint8, or a DeckError naming it."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
import pytest

from vision.decks import DeckError, read_image


def exif_orientation_segment(orientation: int) -> bytes:
    """An APP1 EXIF segment holding only the orientation tag (0x0112), big-endian TIFF."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def test_a_phone_jpeg_is_turned_the_way_its_exif_orientation_says(tmp_path: Path) -> None:
    stored = np.zeros((20, 40, 3), np.uint8)
    stored[:, 20:] = 255  # landscape as stored: dark left half, light right half
    ok, encoded = cv2.imencode(".jpg", stored)
    assert ok
    data = encoded.tobytes()
    path = tmp_path / "3c.jpg"
    path.write_bytes(data[:2] + exif_orientation_segment(6) + data[2:])  # 6: turn 90 degrees clockwise
    image = read_image(path)
    assert image.shape == (40, 20, 3) and image.dtype == np.uint8
    assert image[:15].mean() < 60 and image[25:].mean() > 200  # the dark half is now on top


def test_a_16_bit_png_is_scaled_to_8_bits(tmp_path: Path) -> None:
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), np.full((12, 8, 3), 65535 // 2, np.uint16))
    image = read_image(path)
    assert image.dtype == np.uint8 and image.shape == (12, 8, 3)
    assert int(image[0, 0, 0]) == 127


def test_grey_and_transparent_pictures_become_bgr(tmp_path: Path) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((6, 4), 90, np.uint8))
    assert read_image(grey).shape == (6, 4, 3)
    clear = tmp_path / "clear.png"
    rgba = np.zeros((6, 4, 4), np.uint8)
    rgba[:, :2, 3] = 255  # left half opaque black, right half transparent
    cv2.imwrite(str(clear), rgba)
    image = read_image(clear)
    assert image[:, :2].max() == 0 and image[:, 2:].min() == 255


@pytest.mark.parametrize("content", [b"", b"not an image at all", b"\xff\xd8\xff\xe0 truncated jpeg"])
def test_an_unreadable_file_raises_a_deck_error_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "5s.jpg"
    path.write_bytes(content)
    with pytest.raises(DeckError, match=r"5s\.jpg: not a readable image"):
        read_image(path)


def write_heic(path: Path, bgr: np.ndarray, orientation: int = 1, quality: int = 92) -> Path:
    """Save a BGR (or BGRA) picture as a HEIC photo with pillow-heif, an EXIF ``orientation`` stored as
    HEIF's own turn (as an iPhone stores it)."""
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGRA2RGBA if bgr.shape[2] == 4 else cv2.COLOR_BGR2RGB)
    mode = "RGBA" if bgr.shape[2] == 4 else "RGB"
    heif = pillow_heif.from_bytes(mode=mode, size=(rgb.shape[1], rgb.shape[0]), data=rgb.tobytes())
    exif = b"Exif\x00\x00" + exif_orientation_segment(orientation)[10:] if orientation != 1 else None
    heif.save(path, quality=quality, exif=exif)
    return path


def _landscape_halves() -> np.ndarray:
    stored = np.zeros((40, 80, 3), np.uint8)
    stored[:, 40:] = 255  # landscape as stored: dark left half, light right half
    return stored


def test_a_heic_photo_reads_as_the_picture_it_holds(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (90, 60, 3), dtype=np.uint8), (9, 9), 3)
    image = read_image(write_heic(tmp_path / "3c.heic", picture, quality=95))
    assert image.shape == picture.shape and image.dtype == np.uint8
    assert np.abs(image.astype(int) - picture).mean() < 4  # lossy, but the same picture


def test_a_heic_photo_is_turned_the_way_it_says(tmp_path: Path) -> None:
    image = read_image(write_heic(tmp_path / "IMG_0042.HEIC", _landscape_halves(), orientation=6))
    assert image.shape == (80, 40, 3)
    assert image[:30].mean() < 60 and image[50:].mean() > 200  # the dark half is now on top


def test_a_transparent_heic_becomes_white_where_it_is_clear(tmp_path: Path) -> None:
    bgra = np.zeros((32, 32, 4), np.uint8)
    bgra[:, :16, 3] = 255  # left half opaque black, right half transparent
    image = read_image(write_heic(tmp_path / "clear.heif", bgra, quality=100))
    assert image.shape == (32, 32, 3)
    assert image[:, :12].max() < 30 and image[:, 20:].min() > 225


def test_a_heic_is_told_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    named_jpeg = tmp_path / "5s.jpg"  # a phone's photo renamed by hand
    named_jpeg.write_bytes(write_heic(tmp_path / "5s.heic", _landscape_halves()).read_bytes())
    assert read_image(named_jpeg).shape == (40, 80, 3)


def test_a_truncated_heic_raises_a_deck_error_naming_it(tmp_path: Path) -> None:
    whole = write_heic(tmp_path / "whole.heic", _landscape_halves()).read_bytes()
    broken = tmp_path / "7d.heic"
    broken.write_bytes(whole[:64])
    with pytest.raises(DeckError, match=r"7d\.heic: not a readable HEIC image"):
        read_image(broken)


def test_a_heic_without_pillow_heif_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = write_heic(tmp_path / "1b.heic", _landscape_halves())
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # import pillow_heif now raises ImportError
    with pytest.raises(DeckError, match=r"1b\.heic: a HEIC photo.*pip install pillow-heif.*JPEG"):
        read_image(path)
