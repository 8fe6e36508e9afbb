"""A card printed with a jumbo index: its own corner index enlarged, as poker and bar decks print it.

Many French-suited decks of the field print the rank in the corners at two or three times the common
size (a "jumbo index", the numeral down to a third of the card's height), and some print little else
that tells the rank: small pips in a framed box. A model that only ever saw common indices reads such a
card by its pips, or not at all. ``enlarge_index`` takes a card's top-left corner, where a French deck
prints its index (``INDEX_BOX``, inside its border: ``INSET``), enlarges it by a factor drawn from
``SCALE`` in the deck's own face and ink, and lays it back over the corner (at most ``MAX_COVER`` of the
card, its right and bottom edges faded in), and the same half a turn round in the bottom-right corner.
The table that showed around the rounded corner is painted with the card's paper first, so that only the
card is enlarged. Together with ``vision.figure_swap`` (another card's picture or pips between the
indices) the enlarged index is then all that tells the card. No torch here.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import Artwork
from vision.numeral_swap import paper_colour

INDEX_BOX = (0.15, 0.22)  # (across, down) share of the card's width and height where the index lies
INSET = 0.025  # share of the card's width between its edges and the box: a printed border stays as it is
SCALE = (1.4, 2.3)  # how many times its size the index is printed
MAX_COVER = (0.42, 0.5)  # the most of the card's width and height the enlarged corner covers
FEATHER = 0.03  # share of the card's height over which its right and bottom edges fade in


def enlarge_index(art: Artwork, rng: np.random.Generator) -> Artwork:
    """``art`` with the top-left ``INDEX_BOX`` of its picture enlarged by a factor drawn from ``SCALE``
    over its top-left corner and, turned half a turn, over its bottom-right one; its outline (``alpha``)
    stays as it is."""
    scale = float(rng.uniform(*SCALE))
    image, alpha = art.image.copy(), art.alpha
    paper = paper_colour(image)
    for _ in range(2):  # the second index is the first one on the card turned half a turn
        _enlarge_top_left(image, alpha, paper, scale)
        image, alpha = np.ascontiguousarray(image[::-1, ::-1]), alpha[::-1, ::-1]
    return Artwork(image=image, alpha=art.alpha)


def _enlarge_top_left(image: np.ndarray, alpha: np.ndarray, paper: np.ndarray, scale: float) -> None:
    rows, columns = image.shape[:2]
    inset = round(INSET * columns)
    box_rows, box_columns = max(1, round(INDEX_BOX[1] * rows)), max(1, round(INDEX_BOX[0] * columns))
    box = (slice(inset, inset + box_rows), slice(inset, inset + box_columns))
    corner = image[box].copy()
    corner[alpha[box] < 0.5] = paper
    enlarged = cv2.resize(corner, (round(box_columns * scale), round(box_rows * scale)),
                          interpolation=cv2.INTER_CUBIC)
    cover_rows = min(enlarged.shape[0], round(MAX_COVER[1] * rows) - inset)
    cover_columns = min(enlarged.shape[1], round(MAX_COVER[0] * columns) - inset)
    covered = (slice(inset, inset + cover_rows), slice(inset, inset + cover_columns))
    weights = (_fade_out(cover_rows, rows)[:, None] * _fade_out(cover_columns, rows)[None, :])[:, :, None]
    mixed = image[covered].astype(np.float32) * (1.0 - weights) \
        + enlarged[:cover_rows, :cover_columns].astype(np.float32) * weights
    image[covered] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)


def _fade_out(size: int, card_rows: int) -> np.ndarray:
    """``[size]`` weights: 1, falling linearly to 0 over the last ``FEATHER`` of the card's height."""
    fade = max(1.0, FEATHER * card_rows)
    return np.clip((size - np.arange(size, dtype=np.float32) - 0.5) / fade, 0.0, 1.0)
