"""Reading card pictures: any file a user or a phone makes becomes BGR uint8, or a DeckError naming it."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
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
