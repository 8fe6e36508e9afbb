"""Filled faces for a retyped corner rank: the pinned Debian font packages read, and a rank drawn in them."""

from __future__ import annotations

import hashlib
import io
import lzma
import tarfile
from pathlib import Path

import numpy as np
import pytest
from PIL import ImageFont

from tests.artwork_helpers import flat_card, graded_style
from tests.test_index_typeface import INK, PAPER, RANK, indexed_card, ink_mask
from tests.test_italian_index import ink_corners, ink_height
from vision.index_typeface import DRAW_HEIGHT, draw_filled_glyph, retype_index
from vision.italian_index import INDEX_HEIGHT, INK_SHARE, print_filled_numerals, print_index
from vision.training.dataset import Augmentations, draw_sample
from vision.training.index_fonts import (
    PACKAGES,
    IndexFontError,
    checked,
    font_files,
    is_letter_face,
    main,
    package_faces,
    package_for,
    write_faces,
)
from vision.training.pysol_decks import PysolDeckError


def deb_of(files: dict[str, bytes]) -> bytes:
    """A Debian package (an ar archive) whose data.tar.xz holds ``files`` (path: bytes)."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as archive:
        for path, blob in files.items():
            info = tarfile.TarInfo("./" + path)
            info.size = len(blob)
            archive.addfile(info, io.BytesIO(blob))
    members = [(b"debian-binary", b"2.0\n"), (b"data.tar.xz", lzma.compress(data.getvalue()))]
    out = b"!<arch>\n"
    for name, blob in members:
        out += name.ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6) + b"100644".ljust(8)
        out += str(len(blob)).encode().ljust(10) + b"`\n" + blob + (b"\n" if len(blob) % 2 else b"")
    return out


@pytest.fixture
def face_file(tmp_path: Path) -> Path:
    """Pillow's own built-in TrueType face (Aileron), written to a file as a package's face would be."""
    path = tmp_path / "faces" / "Aileron-Regular.ttf"
    path.parent.mkdir()
    path.write_bytes(ImageFont.load_default(size=DRAW_HEIGHT).path.getvalue())
    return path


def test_only_letter_faces_are_taken_from_a_package() -> None:
    deb = deb_of({"usr/share/fonts/truetype/x/Sans.ttf": b"sans",
                  "usr/share/fonts/opentype/x/Serif.otf": b"serif",
                  "usr/share/fonts/opentype/x/StandardSymbolsPS.otf": b"symbols",
                  "usr/share/fonts/type1/x/Sans.pfb": b"type1", "usr/share/doc/x/README": b"text"})
    assert package_faces(deb, "x.deb") == {"Sans.ttf": b"sans", "Serif.otf": b"serif"}
    assert is_letter_face("LiberationSans-Bold.ttf") and not is_letter_face("D050000L.otf")


def test_a_package_without_faces_or_not_a_package_is_refused_by_name() -> None:
    with pytest.raises(IndexFontError, match=r"empty\.deb: no TrueType or OpenType face"):
        package_faces(deb_of({"usr/share/doc/x/README": b"text"}), "empty.deb")
    with pytest.raises(PysolDeckError, match=r"fonts\.zip: not a Debian package"):
        package_faces(b"PK\x03\x04 a zip file", "fonts.zip")


def test_a_package_is_pinned_by_its_name_and_its_sha256(tmp_path: Path) -> None:
    liberation = next(package for package in PACKAGES if package.name == "fonts-liberation")
    assert package_for(tmp_path / "fonts-liberation_1%3a1.07.4-11_all.deb") == liberation
    with pytest.raises(IndexFontError, match=r"fonts-noto_1\.deb: not one of the pinned packages"):
        package_for(tmp_path / "fonts-noto_1.deb")
    deb = deb_of({"Sans.ttf": b"sans"})
    with pytest.raises(IndexFontError, match=rf"here\.deb: SHA-256 {hashlib.sha256(deb).hexdigest()}, "
                                         rf"expected {liberation.sha256} \(fonts-liberation\)"):
        checked(deb, liberation, "here.deb")


def test_faces_are_written_a_folder_per_package_and_found_again(tmp_path: Path) -> None:
    dejavu, liberation = PACKAGES[0], PACKAGES[1]
    debs = {dejavu: deb_of({"a/Sans.ttf": b"1"}), liberation: deb_of({"b/Serif.otf": b"2"})}
    written = write_faces(tmp_path, debs)
    assert written == [tmp_path / dejavu.name / "Sans.ttf", tmp_path / liberation.name / "Serif.otf"]
    (tmp_path / "notes.txt").write_text("not a face")
    assert font_files(tmp_path) == tuple(written)
    with pytest.raises(IndexFontError, match="no TrueType or OpenType face in it"):
        font_files(tmp_path / dejavu.name / "missing")


def test_a_rank_is_drawn_filled_and_a_stroke_thickens_it(face_file: Path) -> None:
    thin = draw_filled_glyph("7", str(face_file), 0.0)
    bold = draw_filled_glyph("7", str(face_file), 0.06)
    assert 0.5 * DRAW_HEIGHT < thin.shape[0] < 1.2 * DRAW_HEIGHT
    assert bold.sum() > 1.3 * thin.sum()
    king, ace = (draw_filled_glyph(text, str(face_file), 0.0) for text in ("K", "1"))
    assert king.shape[1] > ace.shape[1]


def test_with_faces_given_most_cards_are_printed_in_them_in_the_index_ink(face_file: Path) -> None:
    card = indexed_card()
    stroked = [retype_index(card, "4b", np.random.default_rng(seed)).image for seed in range(20)]
    faces = (str(face_file),)
    filled = [retype_index(card, "4b", np.random.default_rng(seed), faces).image for seed in range(20)]
    assert sum(not np.array_equal(a, b) for a, b in zip(stroked, filled, strict=True)) >= 12
    for image in filled:
        new_ink = image[RANK][ink_mask(image[RANK])]
        assert len(new_ink) > 20 and np.abs(np.median(new_ink, axis=0) - INK).max() <= 3
        assert np.array_equal(image[200:260, 60:140], np.full((60, 80, 3), PAPER, np.uint8))
    again = retype_index(card, "4b", np.random.default_rng(3), faces).image
    assert np.array_equal(again, filled[3])


def test_the_faces_name_the_pool_by_their_bytes(face_file: Path, tmp_path: Path) -> None:
    key = Augmentations(p_index_typeface=0.4, index_fonts=(str(face_file),)).cache_key()
    assert key[-2] == ["index_typeface", 0.4] and key[-1][:2] == ["index_fonts", 1]
    other = tmp_path / "Other.ttf"
    other.write_bytes(face_file.read_bytes() + b"\0")
    assert Augmentations(p_index_typeface=0.4, index_fonts=(str(other),)).cache_key()[-1] != key[-1]
    assert Augmentations(p_index_typeface=0.4).cache_key()[-1] == ["index_typeface", 0.4]


def test_the_command_refuses_a_package_that_is_not_the_pinned_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    forged = tmp_path / "fonts-liberation_1.07.4-11_all.deb"
    forged.write_bytes(deb_of({"Sans.ttf": b"sans"}))
    assert main(["--out", str(tmp_path / "faces"), "--deb", str(forged)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"index_fonts: {forged}: SHA-256 ") and "(fonts-liberation)" in error
    assert not (tmp_path / "faces").exists()  # nothing written


def test_with_faces_given_most_triestine_indices_are_printed_in_them_in_opposite_corners(
    face_file: Path,
) -> None:
    card = flat_card(230)
    faces = (str(face_file),)
    stroked = [print_index(card, "9c", np.random.default_rng(seed)).image for seed in range(20)]
    filled = [print_index(card, "9c", np.random.default_rng(seed), faces).image for seed in range(20)]
    assert sum(not np.array_equal(a, b) for a, b in zip(stroked, filled, strict=True)) >= 12
    for image in filled:
        assert frozenset(ink_corners(card.image, image)) in ({"tl", "br"}, {"tr", "bl"})
        assert image.min() < 150
    assert np.array_equal(print_index(card, "9c", np.random.default_rng(3), faces).image, filled[3])


def test_a_filled_index_is_as_tall_as_its_drawn_text_box_makes_it(face_file: Path) -> None:
    card = flat_card(230, width=400, height=600)
    for seed in range(10):
        printed = print_filled_numerals(card, "12", str(face_file), np.random.default_rng(seed))
        rows = ink_height(card.image, printed.image)
        assert INK_SHARE * INDEX_HEIGHT[0] * 600 - 2 <= rows <= INK_SHARE * INDEX_HEIGHT[1] * 600 + 2
        assert ink_corners(card.image, printed.image) == {"tl", "br"}


def test_the_training_pool_prints_triestine_indices_in_the_faces_given(face_file: Path) -> None:
    styles = [graded_style("napoletane")]
    faces = (str(face_file),)
    differs = []
    for seed in range(40):
        stroked = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_italian_index=1.0))
        filled = draw_sample(np.random.default_rng(seed), styles,
                             Augmentations(p_italian_index=1.0, index_fonts=faces))
        assert filled[1:] == stroked[1:]
        differs.append(not np.array_equal(stroked[0], filled[0]))
    assert sum(differs) >= 10
