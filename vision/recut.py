"""A card cut again out of its crop: straightened where it lies askew in it, cut closer where much
table lies round it. The view the classifier reads where a rough crop holds the card otherwise than the
model learnt it.

The model is trained on cards that stand upright in their crop, give or take the few degrees a
detector's corners leave, with at most a quarter of the card's size of table round it
(``vision.crops``). A phone photo cut to a rectangle round a card that lay askew, or hardly cut at all,
is not that: turned by 20 degrees, or with a third of the card's size of table more on every side,
most cards of a deck read wrong (``models/NOTEBOOK.md``, "A card turned inside its crop", "A card with
much table round it"). ``recut`` finds the card with the same guesses as a user's photo at enrolment
(``vision.cutout.card_shaped_regions``) and, where it is turned by ``MIN_TILT_DEGREES`` or more or
fills less than ``LOOSE_BELOW`` of the crop, warps it upright with ``MARGIN`` of what lies round it on
every side. The card's paper is looked at first (``is_plainly_upright``): where it already shows
the card upright and close, as in most crops a detector or a careful hand cut, the other guesses are
not made. No torch here.
"""

from __future__ import annotations

import numpy as np

from vision.cutout import (
    MIN_CARD_IN_PHOTO,
    Region,
    RotatedBox,
    card_shaped_regions,
    largest_region,
    paper_mask,
    shrunk,
    warp_quad,
)

MIN_TILT_DEGREES = 3.0  # a detector's warp leaves cards within a degree or two of upright
# A card found filling less of its crop than this (its rotated box's share) has more table round it
# than the training crops (up to a quarter of its size on a side) mostly show.
LOOSE_BELOW = 0.5
MARGIN = 0.03  # of the card's width and height, kept round it on every side, as in a rough crop
MIN_SIDE = 24  # pixels; in a smaller crop the card's outline is not found reliably
ANALYSIS_SIDE = 256  # the crop is shrunk to this longer side to find the card
# The paper alone settles a crop whose paper region stands within this many degrees of upright, fills
# LOOSE_BELOW of the crop or more and fills its own box this well. Of 672 crops of 16 styles, as cut
# 315 are settled so, and of the crops turned 10/20/30 degrees or with 30/50% more table, one crop in
# 4,032 that the three guesses would have cut again (models/NOTEBOOK.md, "The paper first").
UPRIGHT_WITHIN_DEGREES = 1.0
PLAINLY_FILLED = 0.9


def tilt_degrees(box: RotatedBox) -> float:
    """How far a rotated box (``cv2.minAreaRect``) is turned from the nearest upright position, in
    degrees from -45 to 45 (the sign is the way it is turned; either side may be the long one)."""
    angle = float(box[2]) % 90.0
    return angle if angle <= 45.0 else angle - 90.0


def is_plainly_upright(paper: Region | None) -> bool:
    """Whether the paper region of a crop shows its card upright and close beyond doubt: card-shaped,
    within UPRIGHT_WITHIN_DEGREES of upright, filling LOOSE_BELOW of the crop or more and its own box
    PLAINLY_FILLED."""
    return (paper is not None and paper.has_card_shape(MIN_CARD_IN_PHOTO) and paper.filled >= PLAINLY_FILLED
            and abs(tilt_degrees(paper.box)) < UPRIGHT_WITHIN_DEGREES and paper.share >= LOOSE_BELOW)


def recut(crop: np.ndarray) -> np.ndarray | None:
    """The card of ``crop`` warped upright, with MARGIN round it, where a card-shaped region filling
    from MIN_CARD_IN_PHOTO of the crop is found in it turned by MIN_TILT_DEGREES or more, or filling
    less than LOOSE_BELOW; else None (the card stands upright, cut as the model knows it, or no card is
    found). A crop whose paper alone shows the card plainly upright and close (``is_plainly_upright``)
    is left as it is without the other guesses."""
    if min(crop.shape[:2]) < MIN_SIDE:
        return None
    small, scale = shrunk(crop, ANALYSIS_SIDE)
    paper = paper_mask(small)
    if is_plainly_upright(largest_region(paper)):
        return None
    regions = card_shaped_regions(small, MIN_CARD_IN_PHOTO, paper)
    if not regions:
        return None
    card = regions[0][0]
    if abs(tilt_degrees(card.box)) < MIN_TILT_DEGREES and card.share >= LOOSE_BELOW:
        return None
    corners = card.corners() / scale
    centre = corners.mean(axis=0)
    return warp_quad(crop, ((corners - centre) * (1.0 + 2.0 * MARGIN) + centre).astype(np.float32))
