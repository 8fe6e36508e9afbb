"""More French-suited deck designs for training: Debian's ``pysolfc-cardsets`` package, converted.

``python -m vision.training.pysol_decks --out DIR`` downloads the package (pinned by version and
SHA-256; or reads it with ``--deb FILE``), converts the French-suited card sets of ``DECKS`` into deck
folders named ``pysol-<set>`` in the layout of ``../shared/cards`` (one image per card code, ``back``),
and links every style of the default artwork folder beside them, so that ``TRESSETTE_CARDS=DIR`` gives
the trainer, the evaluation and the bank builder all of them. Training only: the runtime never needs it.

The package holds 52-card French decks (``01c`` .. ``13s``: ace to king of clubs, diamonds, hearts,
spades); a Tressette deck keeps ace to seven and the three figures, with hearts as coppe, diamonds as
denari, spades as spade, clubs as bastoni and Jack, Queen, King as 8, 9, 10 (``../shared/cards``'s
README). The sets left out, and why, are in ``LEFT_OUT``.

Each French set's cards that a Tressette deck does not hold, its 8, 9 and 10 of every suit and its
jokers where it has them, go into the deck folder's ``foreign/`` sub-folder under their PySolFC names
(``08h.png``, ``01z.png``): a player who forgets to strip a French deck puts them on the table, and the
trainer can teach the model to read them as ``none`` (``vision.training.dataset``, ``--foreign-none``).

With ``--latin`` it also converts the Latin-suited sets of ``LATIN_DECKS`` (the 1880 Tarot de
Marseille, the one such set in the package, whose pips are those of the northern Italian patterns):
pips ace to seven, Valet, Cavalier and King as 8, 9, 10 (its Queen and trumps left out), cups as
coppe, coins as denari, swords as spade, batons as bastoni. They are Italian-suited styles
(``vision.decks.is_italian_style``). Off by default, so that the folder the shipped recipe trains on
stays as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import lzma
import posixpath
import sys
import tarfile
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from engine.cards import BACK, CARD_CODES
from vision.decks import find_cards_root, list_styles
from vision.errors import VisionError

PACKAGE_URL = ("http://deb.debian.org/debian/pool/main/p/pysolfc-cardsets/"
               "pysolfc-cardsets_3.0+dfsg-1_all.deb")
PACKAGE_SHA256 = "f2deadbb9e5f41aa3175bf4c2afd4e3898ee3ed11f0292b15b45ac8979fde24f"
CARDSETS_DIR = "usr/share/games/pysolfc/"
STYLE_PREFIX = "pysol-"
FOREIGN_DIR = "foreign"
_FOREIGN_RANKS = (8, 9, 10)
_JOKERS = ("01z", "02z")

# French-suited card sets (PySolFC type 1) converted for training, each a design of its own.
DECKS: tuple[str, ...] = (
    "1567", "1750", "1815", "1890-grimaud", "aisleriot", "bavarian-court", "belgium-export", "briscola",
    "cardmage", "culemann-1850a", "culemann-1850b", "denizens", "dondorf-kinder", "dondorf-whist-a",
    "dondorf-whist-b", "emperial-dondorf", "fantasy", "french-1816", "fromman-1890", "gdkcard-bonded",
    "gortz-1841", "gortz-1842", "gpl", "greywyvern", "hamburg-1864", "hamburg-a", "hamburg-b",
    "hannover-court", "hard-a-port", "hegewald-1770", "houbigant", "india-pantheon", "jacoby", "joan-darc",
    "kabale", "kenney", "konqi-modern", "lhombre", "liege", "little-sorcerer", "maritimes", "me-uk",
    "melange", "migeon-costume", "momoko", "muller-schaffhausen", "national-patriotic", "nickel-ante",
    "nicu", "nicu-ornamental", "oxymoron-small", "revolution-1", "revolution-2", "revolution-3",
    "rivers-banks", "russian-bezique", "russian-mini", "schweitzertrachtenkarte", "seminole-war",
    "shakespeare", "sn-dietsche", "sn-dietsche-small", "spider", "spin-dist", "standard-small",
    "stralsund-1890", "sylly", "transformation", "traugott-1800", "traugott-1834", "tuscany-court",
    "ukiyoe-sharaku", "warwick", "wilhelm-tell-l", "wilhelmtell", "xpat2-nox-large", "z-minimal",
    "z-minimal-fourcolor",
)

# Sets of ``DECKS`` whose Jack, Queen and King carry a corner index (a letter, or ``11``..``13``) outside
# the middle band that figure swap redraws (``vision.figure_swap.BAND``), so that a figure of theirs may
# be drawn as another figure and still be told by its index. Left out: sets with no index, ``momoko``
# (the figure is its letter), the ``z-minimal`` pair (an index too wide for the margins), ``liege`` and
# ``hannover-court`` (rings and digits in place of letters).
INDEXED_DECKS: tuple[str, ...] = (
    "aisleriot", "briscola", "cardmage", "gdkcard-bonded", "gpl", "greywyvern", "hard-a-port",
    "india-pantheon", "jacoby", "kabale", "kenney", "konqi-modern", "maritimes", "me-uk", "nickel-ante",
    "nicu", "nicu-ornamental", "oxymoron-small", "sn-dietsche-small", "spider", "spin-dist",
    "standard-small", "sylly", "warwick", "wilhelmtell", "xpat2-nox-large",
)

# The package's other French-type sets, and why each is not converted.
LEFT_OUT: dict[str, str] = {
    "bavarian-half-court": "square half cards", "bavarian-half-court-s": "square half cards",
    "colossus": "27x32 px", "mini": "26x36 px", "get-a-round": "round cards", "naylor": "square cards",
    "ovale-salon": "oval cards", "xskat-german": "German suits", "tensho": "Japanese suits drawn as French",
    "prince-charles": "suits drawn as spades and batons of another system",
    "xskat-french": "the same art as kde-xskat-french",
    "xskat-french-large": "the same art as kde-xskat-french",
    "xpat2-nox-medium": "xpat2 smaller", "xpat2-nox-small": "xpat2 smaller",
    "xpat2-nox-tiny": "xpat2 smaller", "standard-tiny": "standard-small smaller",
    "nicu-small": "nicu smaller", "z-minimal-fourcolor-grad": "z-minimal-fourcolor again",
    "penguins": "penguin figures, like the held-out kde-penguins", "dondorf": "gnome-dondorf's art",
    "paris": "gnome-paris's art", "bellot": "gnome-bellot's art",
}

# Latin-suited tarot sets (PySolFC type 3) converted with --latin; their names are Italian-suited styles.
LATIN_DECKS: tuple[str, ...] = ("1880-tarot",)

_SUIT_FILES = {"c": "h", "d": "d", "s": "s", "b": "c"}  # Tressette suit -> PySolFC file letter
_RANK_FILES = {8: 11, 9: 12, 10: 13}  # Fante, Cavallo, Re -> Jack, Queen, King
_TAROT_RANK_FILES = {8: 11, 9: 12, 10: 14}  # Fante, Cavallo, Re -> Valet, Cavalier, King


class PysolDeckError(VisionError):
    """The package is not the one pinned, or a card set in it is missing or unreadable."""


def source_file(code: str, suffix: str, tarot: bool = False) -> str:
    """The PySolFC file name of Tressette card ``code`` (``"8b"`` -> ``"11c.gif"``; in a tarot set the
    Re is the King, ``"10b"`` -> ``"14c.gif"``)."""
    rank, suit = int(code[:-1]), code[-1]
    ranks = _TAROT_RANK_FILES if tarot else _RANK_FILES
    return f"{ranks.get(rank, rank):02d}{_SUIT_FILES[suit]}{suffix}"


def deb_members(deb: bytes) -> Iterator[tuple[str, bytes]]:
    """The members of a Debian package (an ``ar`` archive) as (name, data) pairs."""
    if not deb.startswith(b"!<arch>\n"):
        raise PysolDeckError("not a Debian package (no ar archive header)")
    offset = 8
    while offset + 60 <= len(deb):
        header = deb[offset:offset + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        yield name, deb[offset + 60:offset + 60 + size]
        offset += 60 + size + (size % 2)


def data_archive(deb: bytes) -> tarfile.TarFile:
    """The data archive (``data.tar``, plain or xz-compressed) of a Debian package, opened; PysolDeckError
    where the package has none."""
    data = next((blob for name, blob in deb_members(deb) if name.startswith("data.tar")), None)
    if data is None:
        raise PysolDeckError("the package has no data archive")
    return tarfile.open(fileobj=io.BytesIO(lzma.decompress(data) if data[:6] == b"\xfd7zXZ\x00" else data))


def read_cardsets(deb: bytes, names: Sequence[str]) -> dict[str, dict[str, bytes]]:
    """``{set: {file name: bytes}}`` for the card sets ``names`` in the package's data archive."""
    blobs: dict[str, bytes] = {}
    links: dict[str, str] = {}
    with data_archive(deb) as archive:
        for member in archive:
            path = posixpath.normpath(member.name.lstrip("./"))
            if not path.startswith(CARDSETS_DIR):
                continue
            if member.issym():
                links[path] = posixpath.normpath(posixpath.join(posixpath.dirname(path), member.linkname))
            elif member.isfile() and (handle := archive.extractfile(member)) is not None:
                blobs[path] = handle.read()
    for path, target in links.items():
        if target in blobs:  # a card the package shares with another set, stored once
            blobs[path] = blobs[target]
    sets: dict[str, dict[str, bytes]] = {name: {} for name in names}
    for path, blob in blobs.items():
        parts = path.removeprefix(CARDSETS_DIR).split("/")
        name = parts[0].removeprefix("cardset-")
        if len(parts) == 2 and name in sets:
            sets[name][parts[1]] = blob
    return sets


def foreign_files(files: dict[str, bytes], suffix: str) -> list[str]:
    """The file names of a French set's cards a Tressette deck does not hold: the 8, 9 and 10 of each
    suit and the jokers the set has, in that order; PysolDeckError naming a missing 8, 9 or 10."""
    names = [f"{rank:02d}{suit}{suffix}" for rank in _FOREIGN_RANKS for suit in "cdhs"]
    missing = [name for name in names if name not in files]
    if missing:
        raise PysolDeckError(f"no {', '.join(missing)} in the set (its 8, 9 and 10)")
    return names + [f"{joker}{suffix}" for joker in _JOKERS if f"{joker}{suffix}" in files]


def decode(blob: bytes, where: str) -> np.ndarray:
    """A BGR image from the bytes of a GIF or PNG; PysolDeckError naming ``where`` if it cannot be read."""
    image = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise PysolDeckError(f"{where}: not a readable image")
    return image


def convert_set(name: str, files: dict[str, bytes], out: Path) -> Path:
    """Write card set ``name`` as the deck folder ``out/pysol-<name>``: 40 PNGs, the back, and for a French
    set its 8, 9, 10 and jokers in ``foreign/`` (``foreign_files``)."""
    config = files.get("config.txt")
    if config is None:
        raise PysolDeckError(f"cardset-{name}: no config.txt in the package")
    lines = config.decode("latin-1").splitlines()
    fields = lines[0].split(";")
    tarot = name in LATIN_DECKS
    if len(fields) < 4 or fields[3] != ("3" if tarot else "1"):
        kind = "a tarot set" if tarot else "a French-suited set"
        raise PysolDeckError(f"cardset-{name}/config.txt, line 1: not {kind} ({lines[0]!r})")
    suffix, back_name = fields[2], lines[4].strip() if len(lines) > 4 else ""
    folder = out / f"{STYLE_PREFIX}{name}"
    folder.mkdir(parents=True, exist_ok=True)
    for code in CARD_CODES:
        file_name = source_file(code, suffix, tarot)
        if file_name not in files:
            raise PysolDeckError(f"cardset-{name}: no {file_name} for card {code}")
        cv2.imwrite(str(folder / f"{code}.png"), decode(files[file_name], f"cardset-{name}/{file_name}"))
    if back_name in files:
        cv2.imwrite(str(folder / f"{BACK}.png"), decode(files[back_name], f"cardset-{name}/{back_name}"))
    if not tarot:
        _write_foreign(name, files, suffix, folder / FOREIGN_DIR)
    return folder


def _write_foreign(name: str, files: dict[str, bytes], suffix: str, folder: Path) -> None:
    """Write the set's cards that are not Tressette cards (``foreign_files``) into ``folder``."""
    try:
        names = foreign_files(files, suffix)
    except PysolDeckError as error:
        raise PysolDeckError(f"cardset-{name}: {error}") from None
    folder.mkdir(exist_ok=True)
    for file_name in names:
        stem = file_name.removesuffix(suffix)
        cv2.imwrite(str(folder / f"{stem}.png"), decode(files[file_name], f"cardset-{name}/{file_name}"))


def fetch_package(url: str = PACKAGE_URL) -> bytes:
    """Download the pinned package; PysolDeckError if its SHA-256 is not the pinned one."""
    with urllib.request.urlopen(url, timeout=300) as response:
        deb = response.read()
    return checked(deb, url)


def checked(deb: bytes, where: str) -> bytes:
    """``deb`` itself when its SHA-256 is the pinned one, else a PysolDeckError naming ``where``."""
    digest = hashlib.sha256(deb).hexdigest()
    if digest != PACKAGE_SHA256:
        raise PysolDeckError(f"{where}: SHA-256 {digest}, expected {PACKAGE_SHA256} "
                             "(pysolfc-cardsets 3.0+dfsg-1)")
    return deb


def unknown_styles_message(wanted: Sequence[str], root: Path | None) -> str | None:
    """None when every style of ``wanted`` is a folder under ``root``; else the error that names the
    missing ones and what is there, and, when they are all PySolFC sets, the command that makes them."""
    available = list_styles(root) if root else []
    unknown = sorted(set(wanted) - set(available))
    if not unknown:
        return None
    if all(style.startswith(STYLE_PREFIX) for style in unknown):
        return (f"{len(unknown)} styles are Debian's PySolFC card sets, not under {root}: make them with "
                ".venv/bin/python -m vision.training.pysol_decks --out DIR, then TRESSETTE_CARDS=DIR")
    return f"unknown styles {unknown}; available under {root}: {', '.join(available)}"


def link_styles(source: Path, out: Path) -> list[str]:
    """Link every style folder of ``source`` into ``out`` (an existing link is kept); their names."""
    linked = []
    for style in list_styles(source):
        target = out / style
        if not target.exists():
            target.symlink_to((source / style).resolve(), target_is_directory=True)
        linked.append(style)
    return linked


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.pysol_decks",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True,
                        help="folder to write the decks to (then TRESSETTE_CARDS=that folder)")
    parser.add_argument("--deb", type=Path, help="the package file, instead of downloading it")
    parser.add_argument("--no-link", action="store_true", help="do not link the default artwork's styles in")
    parser.add_argument("--latin", action="store_true",
                        help="also convert the Latin-suited tarot sets (LATIN_DECKS), Italian-suited styles")
    args = parser.parse_args(argv)
    names = DECKS + (LATIN_DECKS if args.latin else ())
    try:
        deb = checked(args.deb.read_bytes(), str(args.deb)) if args.deb else fetch_package()
        sets = read_cardsets(deb, names)
        for name in names:
            convert_set(name, sets[name], args.out)
        linked: list[str] = []
        root = find_cards_root()
        if not args.no_link and root is not None and root.resolve() != args.out.resolve():
            linked = link_styles(root, args.out)
    except (OSError, PysolDeckError) as error:
        print(f"pysol_decks: {error}", file=sys.stderr)
        return 1
    print(f"pysol_decks: {len(names)} decks written to {args.out}, {len(linked)} styles linked from {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
