"""A number card drawn with another number card's pips: Italian-suited cards that only their numerals tell.

Most Italian-suited patterns show the rank of a number card only by its pips, drawn the pattern's own
way (the curved, interlaced swords of the northern decks are counted wrong by a model that never saw
the pattern: a Quattro di spade read as a Sei). Some also print the rank as a numeral: Trevisane in
the top-left and bottom-right corners, Trentine at the top and the bottom; so do Triestine, a pattern
of the field that is not in the artwork. ``swap_pips`` lays the middle of another number card of the
same suit over a number card, keeping the card's own top and bottom strips, where its numerals are:
the pips now say one rank and the numerals another, and the label follows the numerals (the suit is
the same in both, and the pips are all that show it). A model trained on some of these learns to read
the numeral where a deck prints one, as ``vision.figure_swap`` teaches it the French corner index.

Two decks are few to learn numerals from, so the other Italian-suited decks get numerals too
(``stamp_numerals``: the rank in a plain serif or sans-serif face, dark ink on a patch of the card's
paper, in the top-left corner and upside down in the bottom-right one), over their own pips or, half
the time (``P_STAMPED_SWAP``), over another number card of the suit. ``numbered_card`` chooses. A
numbered card is only ever rendered where its numerals can be read (``LEGIBLE_MIN_CARD_WIDTH``, no
corner cut off). No torch here.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.crops import Artwork
from vision.decorate import NUMBER_RANKS  # 2..7: the Asso prints no numeral
from vision.figure_swap import band_weights, lay_donor, same_suit_donors

# Italian-suited styles of ../shared/cards that print the rank of their number cards as a numeral.
NUMERAL_STYLES: frozenset[str] = frozenset({"trevisane", "trentine"})
STRIP = 0.1  # the share of the card's height kept at the top and at the bottom: the numerals lie there
FEATHER = 0.025  # share of the height over which the donor's middle fades in
# The numerals are about 5% of the card's height: on a card 80 px wide (144 tall) some 7 pixels.
LEGIBLE_MIN_CARD_WIDTH = 80
P_STAMPED_SWAP = 0.5
STAMP_HEIGHT = (0.045, 0.07)  # a numeral's text box height (its ink ~3/4 of it), as a share of the card's
STAMP_LEFT = (0.04, 0.1)  # its inset from the card's side, as a share of the card's width
STAMP_TOP = (0.02, 0.05)  # and down
STAMP_STROKE = (0.7, 1.4)  # a stamped numeral's stroke, as a multiple of a ninth of its height
STAMP_FONTS: tuple[int, ...] = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                                cv2.FONT_HERSHEY_TRIPLEX)
STAMP_INKS: tuple[tuple[int, int, int], ...] = ((25, 25, 25), (110, 40, 25), (35, 35, 140), (60, 60, 60))


def numeral_donors(code: str) -> tuple[str, ...]:
    """The other number cards 2..7 of the card's suit (``"4s"`` -> ``("2s", "3s", "5s", "6s", "7s")``);
    ``()`` for an Asso or a figure."""
    return same_suit_donors(code, NUMBER_RANKS)


def swap_pips(art: Artwork, donor: Artwork) -> Artwork:
    """``art`` with the middle of ``donor`` (resized to it) over its pips; its top and bottom STRIP, and
    so its numerals, and its outline (``alpha``) stay as they are."""
    return lay_donor(art, donor, band_weights(art.image.shape[0], STRIP, 1.0 - STRIP, FEATHER)[:, None])


def paper_colour(image: np.ndarray) -> np.ndarray:
    """The card's paper: the per-channel median of the brightest tenth of its pixels."""
    pixels = image.reshape(-1, 3)
    brightness = pixels.astype(np.int32).sum(axis=1)
    return np.median(pixels[brightness >= np.percentile(brightness, 90)], axis=0)


def _stamp_top_corner(image: np.ndarray, rank: str, font: int, height: float, thickness: int,
                      ink: tuple[int, int, int], inset: float, top: float, right: bool) -> None:
    rows, columns = image.shape[:2]
    (width, glyph), _ = cv2.getTextSize(rank, font, 1.0, 1)
    scale = height / glyph
    text_width, text_height = round(width * scale), round(height)
    x = columns - round(inset * columns) - text_width if right else round(inset * columns)
    y = round(top * rows)
    pad = max(1, thickness)
    image[max(0, y - pad):y + text_height + pad, max(0, x - pad):x + text_width + pad] = paper_colour(image)
    cv2.putText(image, rank, (x, y + text_height), font, scale, ink, thickness, cv2.LINE_AA)


def stamp_numerals(art: Artwork, rank: str, rng: np.random.Generator, right: bool = False,
                   heights: tuple[float, float] = STAMP_HEIGHT,
                   strokes: tuple[float, float] = STAMP_STROKE) -> Artwork:
    """``art`` with ``rank`` printed on a patch of its paper in the top-left corner and, upside down, in
    the bottom-right one (``right``: the top-right and the bottom-left): one face, ink, size and place,
    drawn from ``rng``; the height a share of the card's drawn from ``heights``, the stroke that height's
    ninth times a factor drawn from ``strokes``."""
    font = STAMP_FONTS[int(rng.integers(len(STAMP_FONTS)))]
    ink = STAMP_INKS[int(rng.integers(len(STAMP_INKS)))]
    height = rng.uniform(*heights) * art.image.shape[0]
    thickness = max(1, round(height / 9 * rng.uniform(*strokes)))
    inset, top = rng.uniform(*STAMP_LEFT), rng.uniform(*STAMP_TOP)
    image = art.image.copy()
    for _ in range(2):  # the second numeral is the first one on the card turned half a turn
        _stamp_top_corner(image, rank, font, height, thickness, ink, inset, top, right)
        image = np.ascontiguousarray(image[::-1, ::-1])
    return Artwork(image=image, alpha=art.alpha)


def numbered_card(art: Artwork, donors: Sequence[Artwork], code: str, style: str,
                  rng: np.random.Generator) -> Artwork:
    """A training card of ``code`` whose numerals tell its rank: on a deck that prints numerals
    (``NUMERAL_STYLES``) another number card's pips (one of ``donors``, the suit's other number cards)
    under its own numerals; on any other deck ``code``'s rank stamped over its own pips or, with chance
    ``P_STAMPED_SWAP``, over a donor's."""
    donor = donors[int(rng.integers(len(donors)))]
    if style in NUMERAL_STYLES:
        return swap_pips(art, donor)
    return stamp_numerals(donor if rng.random() < P_STAMPED_SWAP else art, code[:-1], rng)
