"""Card artwork on disk: one folder per deck style, one image per card named by its code.

The training data and the renderer's decks live in ``../shared/cards`` beside the
repository (or wherever ``TRESSETTE_CARDS`` points). A deck folder holds ``1c.jpg`` ..
``10b.png`` and, where the style has one, ``back.jpg``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

import cv2
import numpy as np

from engine.cards import BACK, CARD_CODES
from vision.errors import VisionError

CARDS_ENV = "TRESSETTE_CARDS"
IMAGE_SUFFIXES: tuple[str, ...] = (
    ".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif",
)
# The major brands (an ISO file's ``ftyp`` box) of HEIF stills: an iPhone's photos and their kin.
HEIF_BRANDS: frozenset[bytes] = frozenset({b"heic", b"heix", b"heim", b"heis", b"mif1", b"msf1"})

# Italian-suited styles in ../shared/cards (every other folder there is French-suited), and the
# Latin-suited tarot converted from Debian's PySolFC sets (vision.training.pysol_decks --latin).
ITALIAN_STYLES: frozenset[str] = frozenset({
    "napoletane", "napoletane-b", "piacentine", "piacentine-b", "bergamasche", "bergamasche-b",
    "trevisane", "trentine", "bolognesi", "romagnole", "sarde", "siciliane", "pysol-1880-tarot",
})


class DeckError(VisionError):
    """A deck folder that is missing, incomplete or holds an unreadable image."""


def find_cards_root() -> Path | None:
    """The folder of deck styles: ``$TRESSETTE_CARDS``, else ``../shared/cards`` beside the checkout.

    Returns None when neither exists (a user's machine has no training artwork).
    """
    configured = os.environ.get(CARDS_ENV)
    if configured:
        return Path(configured) if Path(configured).is_dir() else None
    beside_checkout = Path(__file__).resolve().parents[2] / "shared" / "cards"
    return beside_checkout if beside_checkout.is_dir() else None


def list_styles(root: Path) -> list[str]:
    """Names of the deck folders under ``root``, sorted."""
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


# Invented Italian-suited decks for training (vision.training.synth_latin) are named with this prefix.
SYNTH_LATIN_PREFIX = "synth-latin-"


def is_italian_style(name: str) -> bool:
    """True for the Italian-suited patterns (coppe, denari, spade, bastoni): the regional ones of
    ``ITALIAN_STYLES`` and the invented ``synth-latin-*`` training decks."""
    return name in ITALIAN_STYLES or name.startswith(SYNTH_LATIN_PREFIX)


_JPEG_MAGIC = b"\xff\xd8\xff"


def is_heif(data: bytes) -> bool:
    """Whether a file's first bytes are those of a HEIF still (HEIC, an iPhone's usual photo)."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def read_image(path: Path) -> np.ndarray:
    """Read an image file as BGR uint8; raise DeckError naming the file.

    Transparent pixels become white; 16-bit images are scaled to 8 bits; a photo is turned the way it
    says (a JPEG's EXIF orientation, a HEIC's own turn), as a phone shows it. HEIC/HEIF photos are
    read with pillow-heif (``decode_heif``)."""
    data = np.fromfile(str(path), dtype=np.uint8)
    if is_heif(data[:12].tobytes()):
        image = decode_heif(data.tobytes(), path)
    elif data.size:
        is_jpeg = data[:3].tobytes() == _JPEG_MAGIC
        image = cv2.imdecode(data, cv2.IMREAD_COLOR if is_jpeg else cv2.IMREAD_UNCHANGED)
    else:
        image = None
    if image is None:
        raise DeckError(f"{path}: not a readable image", f"{path}: immagine illeggibile")
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise DeckError(f"{path}: pixels of type {image.dtype} are not supported; save it as 8- or 16-bit",
                        f"{path}: pixel di tipo {image.dtype} non supportati; salvatela a 8 o 16 bit")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        rgb = image[:, :, :3].astype(np.float32)
        return (rgb * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return image[:, :, :3]


def decode_heif(data: bytes, path: Path) -> np.ndarray:
    """A HEIF still's primary image as BGR (BGRA where it has alpha) uint8, turned as the file says
    (libheif applies its rotation and mirroring); raise DeckError naming ``path`` where pillow-heif is
    not installed or the file cannot be decoded."""
    try:
        import pillow_heif  # imported here: only HEIC photos need it
    except ImportError:
        raise DeckError(f"{path}: a HEIC photo, and pillow-heif, which reads them, is not installed; "
                        "install it (pip install pillow-heif) or save the photo as JPEG",
                        f"{path}: è una foto HEIC, e pillow-heif, che le legge, non è installato; "
                        "installatelo (pip install pillow-heif) o salvate la foto come JPEG") from None
    try:
        heif = pillow_heif.open_heif(BytesIO(data), convert_hdr_to_8bit=True, bgr_mode=True)
        return np.ascontiguousarray(np.asarray(heif))
    except (ValueError, RuntimeError, OSError, SyntaxError) as error:
        raise DeckError(f"{path}: not a readable HEIC image ({error})",
                        f"{path}: immagine HEIC illeggibile ({error})") from None


def find_image(folder: Path, stem: str) -> Path | None:
    """The image file ``folder/stem.<suffix>`` for any known suffix, or None."""
    for suffix in IMAGE_SUFFIXES:
        candidate = folder / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class Deck:
    """One deck style's artwork: ``faces[code]`` is a BGR image; ``back`` may be None."""

    name: str
    faces: dict[str, np.ndarray]
    back: np.ndarray | None = None
    italian: bool = field(default=False)

    @classmethod
    def load(cls, folder: Path) -> Deck:
        """Load all 40 faces (and the back, if present); raise DeckError naming the missing card."""
        if not folder.is_dir():
            raise DeckError(f"{folder}: no such deck folder",
                            f"{folder}: questa cartella di mazzo non esiste")
        faces: dict[str, np.ndarray] = {}
        for code in CARD_CODES:
            path = find_image(folder, code)
            if path is None:
                raise DeckError(f"{folder}: no image for card {code!r} (expected {code}.jpg or {code}.png)",
                                f"{folder}: manca l'immagine della carta {code!r} ({code}.jpg o {code}.png)")
            faces[code] = read_image(path)
        back_path = find_image(folder, BACK)
        back = read_image(back_path) if back_path else None
        return cls(name=folder.name, faces=faces, back=back, italian=is_italian_style(folder.name))
