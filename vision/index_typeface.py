"""A French card whose corner index is printed in another typeface: its rank told by shape, not font.

A French deck tells its rank by the index in its corners, each deck in its own face: a pixel font, a
bold grotesque, a thin jumbo numeral, a Gothic letter. A model that learnt the faces of the decks it
trained on can take another deck's Two for a Three (the `sylly` design the shipped model never saw:
23 of 40 of its Twos read as Threes, its index plain to see). ``retype_index`` finds the rank in a card's
top-left corner (the topmost blot of ink in ``CORNER_BOX``, above the suit sign: ``rank_box``),
paints it over with the card's paper, and prints the same rank there in a face drawn from
``FACES`` (one of OpenCV's Hershey faces, upright or slanted, thin or bold, narrow or wide), in the
index's own ink, at the index's own height; the bottom-right index, half a turn round, gets the same.
A figure's letter is drawn from the letters decks print for it (``RANK_TEXTS``: a Jack is J, V, B or
F; a Queen Q or D; a King K or R); an Ace's is A or 1. The card's suit sign, picture and pips stay as
they are; where no index is found in the corner the card is left as it is. Given TrueType or OpenType
faces (``vision.training.index_fonts``), ``P_FILLED`` of the ranks are printed in one of them, filled,
instead. No torch here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import cv2
import numpy as np

from vision.crops import Artwork
from vision.jumbo_index import INDEX_BOX, INSET
from vision.numeral_swap import paper_colour

# What a French deck prints in its corners for each rank of the Tressette codes (8, 9, 10 are the
# Jack, Queen and King): English, French, German and Italian letters for the figures.
RANK_TEXTS: dict[str, tuple[str, ...]] = {
    "1": ("A", "1"), "2": ("2",), "3": ("3",), "4": ("4",), "5": ("5",), "6": ("6",), "7": ("7",),
    "8": ("J", "V", "B", "F"), "9": ("Q", "D"), "10": ("K", "R"),
}
FACES: tuple[int, ...] = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)
P_SLANTED = 0.2
STROKE = (0.08, 0.22)  # the stroke's width, as a share of the glyph's height
WIDTH_SCALE = (0.75, 1.3)  # the new glyph's width over the old one's
INK_FROM = 70  # a pixel differs from the paper by this much in some channel: ink
MIN_RANK_HEIGHT = 0.03  # of the card's height: smaller ink bands are specks, not an index
MAX_RANK_HEIGHT = 0.16  # of the card's height: taller bands are a picture or a frame, not an index
# The corner searched: the jumbo index's box with its inset, as shares of the card's width and height,
# from the card's edge (the inset is not left out, so an index printed close to the edge is found whole).
CORNER_BOX = (INSET + INDEX_BOX[0], INSET + INDEX_BOX[1])
EDGE = 1  # pixels: the card's own first row and column, left out
OUTLINE_FROM = 0.6  # of the index box's width or height: a blot along its edge this long
MIN_BLOT = 0.0002  # of the card's height squared: smaller blots of ink are specks
DRAW_HEIGHT = 96  # pixels: the glyph is drawn this tall, then resized to the index
P_FILLED = 0.8  # with filled faces given, the share of the cards printed in one of them
FILLED_STROKE = (0.0, 0.06)  # a filled glyph's outline thickened by this share of its height


def rank_texts(code: str) -> tuple[str, ...]:
    """What a French deck prints in the corners of card ``code`` (``"9c"`` -> ``("Q", "D")``)."""
    return RANK_TEXTS[code[:-1]]


def rank_box(image: np.ndarray, alpha: np.ndarray, paper: np.ndarray) -> tuple[int, int, int, int] | None:
    """``(top, bottom, left, right)`` (ends excluded) of the rank in the card's top-left corner: the
    topmost blot of ink (on the card: ``alpha``) in ``CORNER_BOX``, with every blot
    beside it that stays inside the box (a figure's picture beside its letter runs out of it), the card's
    outline left aside (a blot along the box's top or left side, ``OUTLINE_FROM`` of its width or height
    long); None where there is none, where the rank touches a side of the box (cut by it, or a frame, a
    picture, or an index too large for the box: the suit sign below it is not to be taken for it), or
    where it is not an index's height (``MIN_RANK_HEIGHT`` to ``MAX_RANK_HEIGHT`` of
    the card's)."""
    rows = image.shape[0]
    ink, _ = corner_ink(image, alpha, paper)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    box_rows, box_columns = ink.shape
    min_area = max(2, round(MIN_BLOT * rows * rows))
    blots = sorted((int(y), int(y + h), int(x), int(x + w)) for x, y, w, h, area in stats[1:count]
                   if area >= min_area and not _is_outline(x, y, w, h, box_rows, box_columns))
    if not blots:
        return None
    top, low, left, right_end = blots[0]
    for y0, y1, x0, x1 in blots[1:]:
        if y0 < low and x1 < box_columns:  # a part of the rank beside it, not the suit below nor a picture
            low, left, right_end = max(low, y1), min(left, x0), max(right_end, x1)
    if top == 0 or left == 0 or right_end >= box_columns or low >= box_rows:
        return None
    if not MIN_RANK_HEIGHT * rows <= low - top <= MAX_RANK_HEIGHT * rows:
        return None
    return EDGE + top, EDGE + low, EDGE + left, EDGE + right_end


def corner_ink(image: np.ndarray, alpha: np.ndarray, paper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ink, on_card)``, bool masks of the top-left ``CORNER_BOX`` without the card's first row and column
    (``EDGE``): where the card is (``alpha``), and where on it a pixel differs from ``paper`` by
    ``INK_FROM`` in some channel."""
    rows, columns = image.shape[:2]
    bottom, right = round(CORNER_BOX[1] * rows), round(CORNER_BOX[0] * columns)
    box = image[EDGE:bottom, EDGE:right].astype(np.int16)
    on_card = alpha[EDGE:bottom, EDGE:right] >= 0.5
    return (np.abs(box - paper.astype(np.int16)).max(axis=2) >= INK_FROM) & on_card, on_card


def _is_outline(x: int, y: int, width: int, height: int, box_rows: int, box_columns: int) -> bool:
    """Whether a blot of the index box is the card's outline: along its top or left side, long."""
    return (y == 0 or x == 0) and (width >= OUTLINE_FROM * box_columns or height >= OUTLINE_FROM * box_rows)


def draw_glyph(text: str, face: int, stroke: float, slanted: bool) -> np.ndarray:
    """``text`` drawn white on black, ``DRAW_HEIGHT`` pixels tall, cut to its ink: float32 coverage."""
    scale = DRAW_HEIGHT / cv2.getTextSize(text, face, 1.0, 1)[0][1]
    thickness = max(1, round(stroke * DRAW_HEIGHT))
    drawn_face = face | (cv2.FONT_ITALIC if slanted else 0)
    (width, height), baseline = cv2.getTextSize(text, drawn_face, scale, thickness)
    pad = thickness + DRAW_HEIGHT // 4
    canvas = np.zeros((height + baseline + 2 * pad, width + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + height), drawn_face, scale, 255, thickness, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    return canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255.0


@functools.lru_cache(maxsize=128)
def _filled_face(path: str) -> object:
    from PIL import ImageFont  # pillow comes with pillow-heif; only the trainer draws filled faces

    return ImageFont.truetype(path, DRAW_HEIGHT)


def draw_filled_glyph(text: str, font_path: str, stroke: float) -> np.ndarray:
    """``text`` drawn white on black in the TrueType or OpenType face ``font_path``, its outline thickened
    by ``stroke`` of ``DRAW_HEIGHT``, cut to its ink: float32 coverage (a blank glyph is a 1x1 zero)."""
    from PIL import Image, ImageDraw

    width = round(stroke * DRAW_HEIGHT)
    canvas = Image.new("L", (DRAW_HEIGHT * 2 * len(text) + 4 * width, DRAW_HEIGHT * 2 + 4 * width), 0)
    ImageDraw.Draw(canvas).text((DRAW_HEIGHT // 2, DRAW_HEIGHT // 2), text, fill=255,
                                font=_filled_face(font_path), stroke_width=width, stroke_fill=255)
    coverage = np.asarray(canvas, np.float32) / 255.0
    ys, xs = np.nonzero(coverage > 0.05)
    if not ys.size:
        return np.zeros((1, 1), np.float32)
    return coverage[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def retype_index(art: Artwork, code: str, rng: np.random.Generator, fonts: Sequence[str] = ()) -> Artwork:
    """``art`` (card ``code`` of a French deck with corner indices) with the rank of its top-left index,
    and of its bottom-right one half a turn round, printed again in one face, stroke, slant and width
    drawn from ``rng``, in the index's ink and at its height; unchanged where ``rank_box`` finds no rank
    in the corner. The face is one of OpenCV's stroke faces (``FACES``) or, with ``fonts`` (paths of
    TrueType or OpenType faces: ``vision.training.index_fonts``) given, ``P_FILLED`` of the time one of
    those, filled; without ``fonts`` no random number is drawn for that choice."""
    texts = rank_texts(code)
    text = texts[int(rng.integers(len(texts)))]
    if fonts and rng.random() < P_FILLED:
        font = fonts[int(rng.integers(len(fonts)))]
        glyph = draw_filled_glyph(text, font, float(rng.uniform(*FILLED_STROKE)))
    else:
        face = FACES[int(rng.integers(len(FACES)))]
        glyph = draw_glyph(text, face, float(rng.uniform(*STROKE)), bool(rng.random() < P_SLANTED))
    if glyph.shape[0] < 2:
        return art
    width_scale = float(rng.uniform(*WIDTH_SCALE))
    image, alpha = art.image.copy(), art.alpha
    paper = paper_colour(image)
    for _ in range(2):  # the second index is the first one on the card turned half a turn
        _retype_top_left(image, alpha, paper, glyph, width_scale)
        image, alpha = np.ascontiguousarray(image[::-1, ::-1]), alpha[::-1, ::-1]
    return Artwork(image=image, alpha=art.alpha)


def _retype_top_left(image: np.ndarray, alpha: np.ndarray, paper: np.ndarray, glyph: np.ndarray,
                     width_scale: float) -> None:
    found = rank_box(image, alpha, paper)
    if found is None:
        return
    top, bottom, left, right = found
    region = image[top:bottom, left:right].astype(np.int16)
    is_ink = np.abs(region - paper.astype(np.int16)).max(axis=2) >= INK_FROM
    ink = np.median(region[is_ink], axis=0).astype(np.float32)
    height = bottom - top
    width = max(2, round(height * glyph.shape[1] / glyph.shape[0] * width_scale))
    width = min(width, image.shape[1] // 3)
    image[top:bottom, left:right] = paper.astype(np.uint8)
    coverage = cv2.resize(glyph, (width, height), interpolation=cv2.INTER_AREA)[:, :, None]
    centre = (left + right) // 2
    x0 = max(0, centre - width // 2)
    x1 = min(image.shape[1], x0 + width)
    lay_ink(image, top, x0, coverage[:, :x1 - x0], ink)


def lay_ink(image: np.ndarray, top: int, left: int, coverage: np.ndarray, ink: np.ndarray) -> None:
    """Print ``ink`` (a BGR colour) on ``image`` in place as much as ``coverage`` (float32 0-1, rows x
    columns x 1, within the image) covers it, its top-left pixel at (``top``, ``left``)."""
    rows, columns = coverage.shape[:2]
    under = image[top:top + rows, left:left + columns].astype(np.float32)
    mixed = under * (1.0 - coverage) + ink * coverage
    image[top:top + rows, left:left + columns] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)
