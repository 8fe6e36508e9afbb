"""Filled typefaces for the corner rank printed again (``train --index-fonts``), from Debian's font packages.

    .venv/bin/python -m vision.training.index_fonts --out /tmp/index-fonts [--deb FILE ...]

downloads the four pinned packages of ``PACKAGES`` (each checked by its SHA-256; or reads them with
``--deb``) and writes their TrueType and OpenType faces (``.ttf``, ``.otf``; symbol and dingbat faces
left out: ``is_letter_face``) into one folder per package under ``--out``, 67 faces in all. The
trainer's ``vision.index_typeface`` draws a rank in one of them as well as in OpenCV's stroke faces. No
torch here.
"""

from __future__ import annotations

import argparse
import hashlib
import posixpath
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from vision.training.pysol_decks import PysolDeckError, data_archive

POOL = "http://deb.debian.org/debian/pool/main/f/"
FONT_SUFFIXES = (".ttf", ".otf")
NOT_LETTERS = ("Symbol", "D050000L", "Dingbat")  # faces without digits and letters


class FontPackage(NamedTuple):
    """A pinned Debian font package."""

    name: str
    url: str
    sha256: str


PACKAGES: tuple[FontPackage, ...] = (
    FontPackage("fonts-dejavu-core", POOL + "fonts-dejavu/fonts-dejavu-core_2.37-6_all.deb",
                "8892669e51aab4dc56682c8e39d8ddb7d70fad83c369344e1e240bf3ca22bb76"),
    FontPackage("fonts-liberation", POOL + "fonts-liberation/fonts-liberation_1.07.4-11_all.deb",
                "efd381517f958b01969343634ffcbdd60056be7779af84c6f53a005090430204"),
    FontPackage("fonts-freefont-otf", POOL + "fonts-freefont/fonts-freefont-otf_20120503-10_all.deb",
                "0b63996c80c6c660424af6d3832818e647960d6f65a51de010bb57dd0762faa7"),
    FontPackage("fonts-urw-base35", POOL + "fonts-urw-base35/fonts-urw-base35_20200910-7_all.deb",
                "93e4997c99c4c31ea88c5d37e2259af0a0c826b9358931d5a69f794f7f0c73ac"),
)


class IndexFontError(PysolDeckError):
    """A font package that is not the pinned one, or holds no face."""


def is_letter_face(file_name: str) -> bool:
    """Whether a font file is a face of letters and digits: a TrueType or OpenType file, not a symbol or
    dingbat face."""
    return file_name.endswith(FONT_SUFFIXES) and not any(word in file_name for word in NOT_LETTERS)


def package_faces(deb: bytes, where: str) -> dict[str, bytes]:
    """``{file name: bytes}`` of the letter faces in a Debian package's data archive (a face stored twice
    under two folders is kept once); IndexFontError naming ``where`` where it is not a package with a
    data archive, or holds no face."""
    faces: dict[str, bytes] = {}
    try:
        archive = data_archive(deb)
    except PysolDeckError as error:
        raise IndexFontError(f"{where}: {error}") from None
    with archive:
        for member in archive:
            file_name = posixpath.basename(member.name)
            if member.isfile() and is_letter_face(file_name) and (handle := archive.extractfile(member)):
                faces[file_name] = handle.read()
    if not faces:
        raise IndexFontError(f"{where}: no TrueType or OpenType face in the package")
    return faces


def checked(deb: bytes, package: FontPackage, where: str) -> bytes:
    """``deb`` itself when its SHA-256 is the package's pinned one, else an IndexFontError naming
    ``where``."""
    digest = hashlib.sha256(deb).hexdigest()
    if digest != package.sha256:
        raise IndexFontError(f"{where}: SHA-256 {digest}, expected {package.sha256} ({package.name})")
    return deb


def package_for(deb_file: Path) -> FontPackage:
    """The pinned package a ``--deb`` file is, by its name (``fonts-liberation_...deb``)."""
    for package in PACKAGES:
        if deb_file.name.startswith(package.name + "_"):
            return package
    names = ", ".join(package.name for package in PACKAGES)
    raise IndexFontError(f"{deb_file}: not one of the pinned packages ({names})")


def write_faces(out: Path, debs: dict[FontPackage, bytes]) -> list[Path]:
    """Each package's letter faces written to ``out/<package>/``; the files written, sorted."""
    written = []
    for package, deb in debs.items():
        folder = out / package.name
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, blob in sorted(package_faces(deb, package.url).items()):
            (folder / file_name).write_bytes(blob)
            written.append(folder / file_name)
    return sorted(written)


def font_files(folder: Path) -> tuple[Path, ...]:
    """The letter faces under ``folder`` (any depth), sorted; IndexFontError when there are none."""
    files = tuple(sorted(path for path in folder.rglob("*") if path.is_file() and is_letter_face(path.name)))
    if not files:
        raise IndexFontError(f"{folder}: no TrueType or OpenType face in it "
                             "(python -m vision.training.index_fonts --out FOLDER writes them)")
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.index_fonts", description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="the folder to write the faces into")
    parser.add_argument("--deb", type=Path, action="append", default=[],
                        help="a pinned package file, instead of downloading it (repeatable)")
    args = parser.parse_args(argv)
    try:
        given: dict[FontPackage, bytes] = {}
        for path in args.deb:
            package = package_for(path)
            given[package] = checked(path.read_bytes(), package, str(path))
        for package in PACKAGES:
            if package not in given:
                with urllib.request.urlopen(package.url, timeout=300) as response:
                    given[package] = checked(response.read(), package, package.url)
        written = write_faces(args.out, given)
    except (PysolDeckError, OSError) as error:
        print(f"index_fonts: {error}", file=sys.stderr)
        return 1
    print(f"{len(written)} faces of {len(given)} packages written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
