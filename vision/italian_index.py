"""An Italian-suited card with its rank printed in two opposite corners, as a Triestine deck prints it.

Triestine, a pattern of the field the artwork lacks (a child of Trevisane), prints 1 to 7 on its number
cards and 11, 12, 13 on the Fante, Cavallo and Re, in two opposite corners (which two varies from card
to card). A model that learnt corner indices from French decks only reads such an index as a French
one: black digits as a black suit, now and then a Re's 13 as an Asso (the shipped recipe's
held-out twin read its three unseen patterns 58.5% as drawn and 51.7% with such an index, the
figures' suit going to bastoni: notebook, "The shipped recipe's held-out twin, and a Triestine index
on the patterns it never saw").
``print_index`` prints the card's own rank so, with ``vision.numeral_swap.stamp_numerals`` (one face,
ink, height and inset from ``rng``; the ink is any suit's, so that its colour tells nothing), in the
top-left and bottom-right corners or, with chance ``P_RIGHT``, the top-right and bottom-left ones. Its
heights (``INDEX_HEIGHT``) and strokes (``INDEX_STROKE``) reach further than numeral swap's: the twin
trained with numeral swap's range lost at most 1.4 points to an index of that range, about 3 to 4 to
a taller or bolder one (notebook, "The held-out twin trained with ``--italian-index 0.3``"). On the
small decks OpenCV's stroke faces all look alike, so given TrueType or OpenType faces
(``vision.training.index_fonts``) ``P_FILLED`` of the indices are printed in one of those, filled, as a
real deck prints them (``print_filled_numerals``); the twin trained so lost at most a point to an index
of that kind in a face it never saw (notebook, "The held-out twin with a wider Triestine index, in
filled faces too"). The index agrees with the card, so the card needs no legible rendering. No torch
here.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from engine.cards import is_card_code
from vision.crops import Artwork
from vision.errors import VisionError
from vision.index_typeface import FILLED_STROKE, P_FILLED, draw_filled_glyph, lay_ink
from vision.numeral_swap import STAMP_INKS, STAMP_LEFT, STAMP_TOP, paper_colour, stamp_numerals

# What a Triestine deck prints for each rank of the Tressette codes (8, 9, 10: Fante, Cavallo, Re).
INDEX_TEXTS: dict[str, str] = {"1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
                               "8": "11", "9": "12", "10": "13"}
P_RIGHT = 0.5
INDEX_HEIGHT = (0.045, 0.09)  # the index's text box height (its ink ~3/4 of it), as a share of the card's
INDEX_STROKE = (0.7, 2.2)  # its stroke, as a multiple of a ninth of its height
INK_SHARE = 0.75  # a filled index's ink height over the text box height drawn from INDEX_HEIGHT


class ItalianIndexError(VisionError):
    """A card code that names no Tressette card."""


def index_text(code: str) -> str:
    """What a Triestine deck prints in the corners of card ``code`` (``"9c"`` -> ``"12"``); a code that is
    not one of the 40 (``engine.cards.is_card_code``) is refused."""
    if not is_card_code(code):
        raise ItalianIndexError(
            f"{code!r} is not a card code of the 40 (rank {code[:-1]!r}): no index to print")
    return INDEX_TEXTS[code[:-1]]


def print_index(art: Artwork, code: str, rng: np.random.Generator, fonts: Sequence[str] = ()) -> Artwork:
    """``art`` (card ``code`` of an Italian-suited deck) with its rank printed in two opposite corners as
    Triestine prints it (``index_text``); its outline (``alpha``) unchanged. With ``fonts`` (paths of
    TrueType or OpenType faces) given, ``P_FILLED`` of the time in one of those, filled
    (``print_filled_numerals``), else in OpenCV's stroke faces (``stamp_numerals``); without ``fonts`` no
    random number is drawn for that choice."""
    text = index_text(code)
    right = bool(rng.random() < P_RIGHT)
    if fonts and rng.random() < P_FILLED:
        return print_filled_numerals(art, text, fonts[int(rng.integers(len(fonts)))], rng, right)
    return stamp_numerals(art, text, rng, right=right, heights=INDEX_HEIGHT, strokes=INDEX_STROKE)


def print_filled_numerals(art: Artwork, text: str, font_path: str, rng: np.random.Generator,
                          right: bool = False) -> Artwork:
    """``art`` with ``text`` printed filled in face ``font_path`` on a patch of its paper in the top-left
    corner and, upside down, in the bottom-right one (``right``: the top-right and the bottom-left); its
    ink height ``INK_SHARE`` of a text box height drawn from ``INDEX_HEIGHT``, its outline thickened by a
    share drawn from ``FILLED_STROKE``, its ink, inset and place drawn as ``stamp_numerals`` draws them."""
    glyph = draw_filled_glyph(text, font_path, float(rng.uniform(*FILLED_STROKE)))
    ink = np.array(STAMP_INKS[int(rng.integers(len(STAMP_INKS)))], np.float32)
    rows, columns = art.image.shape[:2]
    height = max(2, round(rng.uniform(*INDEX_HEIGHT) * INK_SHARE * rows))
    width = min(columns // 3, max(2, round(height * glyph.shape[1] / glyph.shape[0])))
    inset, top = rng.uniform(*STAMP_LEFT), rng.uniform(*STAMP_TOP)
    coverage = cv2.resize(glyph, (width, height), interpolation=cv2.INTER_AREA)[:, :, None]
    image = art.image.copy()
    for _ in range(2):  # the second numeral is the first one on the card turned half a turn
        x = columns - round(inset * columns) - width if right else round(inset * columns)
        y = round(top * rows)
        image[max(0, y - 1):y + height + 1, max(0, x - 1):x + width + 1] = paper_colour(image)
        lay_ink(image, y, x, coverage, ink)
        image = np.ascontiguousarray(image[::-1, ::-1])
    return Artwork(image=image, alpha=art.alpha)
