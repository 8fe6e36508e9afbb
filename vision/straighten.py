"""A card lying turned inside its crop, straightened: the view the classifier reads where a rough crop
(a phone photo cut to a rectangle round a card that lay askew) holds the card at an angle.

The model is trained on cards that stand upright in their crop, give or take the few degrees a
detector's corners leave (``vision.crops``); turned by 10 degrees it reads a few cards in a hundred
fewer, by 25 degrees most of them wrong (``models/NOTEBOOK.md``, "A card turned inside its crop").
``straightened`` finds the card's outline with the same guesses as a user's photo at enrolment
(``vision.cutout.card_shaped_regions``) and, where the card is turned by ``MIN_TILT_DEGREES`` or more,
warps it upright with ``MARGIN`` of what lies round it on every side. No torch here.
"""

from __future__ import annotations

import numpy as np

from vision.cutout import RotatedBox, card_shaped_regions, shrunk, warp_quad

MIN_TILT_DEGREES = 3.0  # a detector's warp leaves cards within a degree or two of upright
MIN_CARD_SHARE = 0.3  # of the crop, for the card found in it: a rough crop is mostly card
MARGIN = 0.03  # of the card's width and height, kept round it on every side, as in a rough crop
MIN_SIDE = 24  # pixels; in a smaller crop the card's outline is not found reliably
ANALYSIS_SIDE = 256  # the crop is shrunk to this longer side to find the card


def tilt_degrees(box: RotatedBox) -> float:
    """How far a rotated box (``cv2.minAreaRect``) is turned from the nearest upright position, in
    degrees from -45 to 45 (the sign is the way it is turned; either side may be the long one)."""
    angle = float(box[2]) % 90.0
    return angle if angle <= 45.0 else angle - 90.0


def straightened(crop: np.ndarray) -> np.ndarray | None:
    """The card of ``crop`` warped upright, with MARGIN round it, where a card-shaped region filling
    MIN_CARD_SHARE of the crop or more is found in it turned by MIN_TILT_DEGREES or more; else None
    (the card stands upright already, or no card is found)."""
    if min(crop.shape[:2]) < MIN_SIDE:
        return None
    small, scale = shrunk(crop, ANALYSIS_SIDE)
    regions = card_shaped_regions(small, MIN_CARD_SHARE)
    if not regions:
        return None
    card = regions[0][0]
    if abs(tilt_degrees(card.box)) < MIN_TILT_DEGREES:
        return None
    corners = card.corners() / scale
    centre = corners.mean(axis=0)
    return warp_quad(crop, ((corners - centre) * (1.0 + 2.0 * MARGIN) + centre).astype(np.float32))
