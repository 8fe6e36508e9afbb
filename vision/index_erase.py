"""A figure whose corner indices are painted out: a Jack, Queen or King told by its picture alone.

Figure swap (``vision.figure_swap``) teaches the model that on a French card with an index the index
tells the figure and the picture may lie. Some decks print no index on their figures, or one no
other deck prints (the historic ``1567`` pattern: none; ``liege``: one to three rings), and there the
picture is all there is; a model that only ever learnt the French figures through their index then
takes a King for a Jack. ``erase_index`` paints the ink of a card's corner indices over with its paper,
in all four corners (many decks print four): every blot of ink in the corner box (``CORNER_BOX``, the
box ``vision.index_typeface`` reads the rank in) that lies wholly inside it. A blot that runs out of
the box (the picture's frame, the picture itself) and the card's outline along its edges stay as they
are. What is left of a figure is its picture, and the label is the card's own: the picture is then
right. No torch here.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import Artwork
from vision.index_typeface import EDGE, corner_ink
from vision.numeral_swap import paper_colour

GROW = 1  # pixels: each erased blot is painted this much wider, so its anti-aliased rim goes too
GROW_KERNEL = np.ones((2 * GROW + 1, 2 * GROW + 1), np.uint8)


def erase_index(art: Artwork) -> Artwork:
    """``art`` with every blot of ink lying wholly inside the corner box of each of its four corners
    painted with the card's paper (``paper_colour``); its outline (``alpha``) stays as it is."""
    image, alpha = art.image.copy(), art.alpha
    paper = paper_colour(image)
    for flip in (None, 1, 0, -1):  # top-left as it is, then top-right, bottom-left, bottom-right
        view = image if flip is None else cv2.flip(image, flip)
        view_alpha = alpha if flip is None else cv2.flip(alpha, flip)
        mask = corner_index_mask(view, view_alpha, paper)
        if flip is not None:
            mask = cv2.flip(mask, flip)
        image[mask > 0] = paper.astype(np.uint8)
    return Artwork(image=image, alpha=art.alpha)


def corner_index_mask(image: np.ndarray, alpha: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """uint8 ``[H, W]``, 1 on the pixels of the blots of ink (on the card: ``alpha``) in the top-left
    ``CORNER_BOX`` that touch none of its sides (the card's own first row and column, ``EDGE``, left
    out), grown by ``GROW``; 0 elsewhere."""
    mask = np.zeros(image.shape[:2], np.uint8)
    ink, on_card = corner_ink(image, alpha, paper)
    box_rows, box_columns = ink.shape
    if box_rows < 2 or box_columns < 2:
        return mask
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    inside = [index for index in range(1, count)
              if _is_inside(*(int(value) for value in stats[index, :4]), box_rows, box_columns)]
    if not inside:
        return mask
    blots = cv2.dilate(np.isin(labels, inside).astype(np.uint8), GROW_KERNEL)
    mask[EDGE:EDGE + box_rows, EDGE:EDGE + box_columns] = blots & on_card.astype(np.uint8)
    return mask


def _is_inside(x: int, y: int, width: int, height: int, box_rows: int, box_columns: int) -> bool:
    """Whether a blot of the corner box touches none of its four sides."""
    return x > 0 and y > 0 and x + width < box_columns and y + height < box_rows
