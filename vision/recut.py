"""A card cut again out of its crop: straightened where it lies askew in it, cut closer where much
table lies round it. The view the classifier reads where a rough crop holds the card otherwise than the
model learnt it.

The model is trained on cards that stand upright in their crop, give or take the few degrees a
detector's corners leave, with at most a quarter of the card's size of table round it
(``vision.crops``). A phone photo cut to a rectangle round a card that lay askew, or hardly cut at all,
is not that: turned by 20 degrees, or with a third of the card's size of table more on every side,
most cards of a deck read wrong (``models/NOTEBOOK.md``, "A card turned inside its crop", "A card with
much table round it"); padded to a square, one in twenty. ``recut`` finds the card with the same
guesses as a user's photo at enrolment (``vision.cutout.card_shaped_regions``) and, where it is turned
by ``MIN_TILT_DEGREES`` or more, fills less than ``LOOSE_BELOW`` of the crop, is framed lopsided
(``is_lopsided``) or is seen at an angle (``is_seen_at_an_angle``), warps it upright with ``MARGIN``
of what lies round it on every side. Where none of those guesses has a card's shape, the convex hulls
of the paper's and of the region unlike the table are tried, for a card turned in its crop only
(``turned_card_hulls``); where none is found either, the card is told from its table by the colours of
the crop's middle and of its outer ring, as on a checked or pale cloth (``card_by_middle_colours``);
and failing that in a square crop, the card is taken to touch the crop's four sides with its corners,
as in a crop cut close round a card askew (``turned_card_touching_sides``): a guess from the crop's
shape alone (``RecutView.is_shape_guess``), which the classifier takes only where it reads surer.
The card's paper is looked at first (``is_plainly_upright``): where it already shows
the card upright and close, as in most crops a detector or a careful hand cut, the other guesses are
not made. No torch here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from vision.colour_odds import ANALYSIS_SIDE as COLOUR_ANALYSIS_SIDE
from vision.colour_odds import middle_colours_mask
from vision.cutout import (
    MIN_CARD_IN_PHOTO,
    Region,
    RotatedBox,
    card_shaped_regions,
    clockwise_from_top_left,
    largest_hull_region,
    largest_region,
    paper_mask,
    shrunk,
    unlike_outer_ring_mask,
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
# A card found by its hull alone (``turned_card_hulls``) covers at least this share of the crop: a card
# turned 30 degrees in a crop cut round it covers about half, with half its size of table more on every
# side a quarter. A smaller card-shaped hull is more often two fingers side by side or a card's edge.
MIN_HULL_SHARE = 0.25
# A crop this square (narrower side over longer) is as square as a card turned far inside it stands in:
# most cards turned by 30 degrees inside their crop stand in one this square, an upright card with its
# margins seldom (a card is 0.55-0.72; 1% of the bench's crops). The classifier looks at such a crop
# however sure its reading.
SQUARE_CROP_FROM = 0.82
# A crop this square (narrower side over longer) is taken for a picture resized to a square, as datasets
# and thumbnails show cards, stretched to fill it and upright: no card is guessed from its shape there.
# A card would stand in it turned within a degree of 45 degrees, the one turn whose crop cannot tell a
# card stretched to a square from one turned in it (models/NOTEBOOK.md, "A card stretched to a square").
RESIZED_SQUARE_FROM = 0.995
# A card found upright whose box spans this much more of the crop's width than of its height, or the
# other way, is framed lopsided: a picture padded to a square round it (letterboxed, as datasets pad
# pictures), or a crop cut square round an upright card. The model's input, 2:3, squeezes such a card
# out of its proportions (a card in black bars read 94.2% right, cut again 98.8%); it is cut again with
# even margins. Of the training's crops (margins drawn per side up to a quarter of the card) about one
# in 170 is framed so; a French card padded to a square spans 0.29 more, an Italian one 0.45
# (models/NOTEBOOK.md, "A card framed lopsided").
LOPSIDED_FROM = 0.2
# A card found upright whose outline is a quadrilateral with two opposite sides this much longer one than
# the other is seen at an angle (a phone held tilted over the table: the far end narrower), and is cut
# again by its four corners. Cards of the 47 styles warped one end 35% narrower read 95.7% right, cut
# again 96.7%. At 0.1 the residual perspective of one crop in nine cut as the model knows them passed
# too, and cost a quarter of a millisecond a card (models/NOTEBOOK.md, "A card seen at an angle").
AT_AN_ANGLE_FROM = 0.15
# A card's height over its width, where it must be guessed (``corner_touching_boxes``): French decks
# are about 1.40, Italian regional ones up to 1.8; the guess reads as well from 1.45 to 1.65
# (models/NOTEBOOK.md, "A turned card's hull, and a card touching its crop's four sides").
CARD_PROPORTION = 1.55


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


def box_spans(region: Region, shape: tuple[int, ...]) -> tuple[float, float]:
    """The shares of the width and of the height of a picture of ``shape`` that ``region``'s box spans."""
    corners = cv2.boxPoints(region.box)
    spans = corners.max(axis=0) - corners.min(axis=0)
    return float(spans[0]) / shape[1], float(spans[1]) / shape[0]


def is_lopsided(region: Region, shape: tuple[int, ...]) -> bool:
    """Whether ``region``'s box spans LOPSIDED_FROM more of a picture's (of ``shape``) width than of its
    height, or the other way: a card framed with much more room on two facing sides than on the others."""
    across, along = box_spans(region, shape)
    return abs(across - along) >= LOPSIDED_FROM


def is_seen_at_an_angle(region: Region) -> bool:
    """Whether ``region``'s outline is a quadrilateral (``Region.corners``) two of whose opposite sides
    differ in length by AT_AN_ANGLE_FROM of the shorter or more: a card seen at an angle."""
    top_left, top_right, bottom_right, bottom_left = region.corners()
    for one, other in (((top_left, top_right), (bottom_left, bottom_right)),
                       ((top_left, bottom_left), (top_right, bottom_right))):
        lengths = float(np.linalg.norm(one[1] - one[0])), float(np.linalg.norm(other[1] - other[0]))
        if max(lengths) >= (1.0 + AT_AN_ANGLE_FROM) * min(lengths):
            return True
    return False


def is_out_of_true(region: Region, shape: tuple[int, ...]) -> bool:
    """Whether a card found upright in a picture of ``shape`` would still reach the model out of its
    proportions: framed lopsided (``is_lopsided``) or seen at an angle (``is_seen_at_an_angle``)."""
    return is_lopsided(region, shape) or is_seen_at_an_angle(region)


def turned_card_hulls(paper: np.ndarray, unlike: np.ndarray) -> list[Region]:
    """The convex hulls of the largest region of a picture's paper mask (``paper``) and of its mask of
    pixels unlike its outer ring (``unlike``, ``unlike_outer_ring_mask``), where the hull has a card's
    shape covering MIN_HULL_SHARE of the picture or more (``Region.has_card_shape``) and stands turned
    by MIN_TILT_DEGREES or more, the one filling its box best first. A card turned in a crop cut
    round it, whose region the print at its edge or the crop's edge bites into (it fills its box 85%
    or less, its hull over 90%). An upright region that only its hull makes card-shaped is not taken: in
    crops of no card it is more often a patch of table (``models/NOTEBOOK.md``, "A turned card's
    hull, and a card touching its crop's four sides")."""
    hulls = (largest_hull_region(mask) for mask in (paper, unlike))
    found = [hull for hull in hulls if hull is not None and hull.has_card_shape(MIN_HULL_SHARE)
             and abs(tilt_degrees(hull.box)) >= MIN_TILT_DEGREES]
    return sorted(found, key=lambda hull: -hull.filled)


def squareness(crop: np.ndarray) -> float:
    """A crop's narrower side over its longer one (1: square)."""
    return min(crop.shape[:2]) / max(crop.shape[:2])


def is_square_crop(crop: np.ndarray) -> bool:
    """Whether a crop's narrower side is SQUARE_CROP_FROM of its longer or more: the crop a card turned
    inside it stands in."""
    return squareness(crop) >= SQUARE_CROP_FROM


def is_resized_square(crop: np.ndarray) -> bool:
    """Whether a crop's narrower side is RESIZED_SQUARE_FROM of its longer or more: a picture resized to a
    square, not a crop cut round a card turned in it."""
    return squareness(crop) >= RESIZED_SQUARE_FROM


def corner_touching_boxes(height: float, width: float,
                          proportion: float = CARD_PROPORTION) -> list[RotatedBox]:
    """The two boxes (``cv2.minAreaRect``'s form), turned either way, of a card ``proportion`` times as
    high as wide that lies turned in an upright crop of ``height`` x ``width`` with its four corners on
    the crop's four sides: a crop cut to a rectangle round a card askew. The card lies the crop's way
    (portrait in a portrait crop). No box where that turn is under MIN_TILT_DEGREES (the crop is
    nearly as long as the card, or longer)."""
    longer, shorter = max(height, width), min(height, width)
    ratio = longer / max(shorter, 1e-6)
    # shorter = w (cos t + p sin t) and longer = w (sin t + p cos t), for a card w wide turned by t
    turn = float(np.arctan2(proportion - ratio, ratio * proportion - 1.0))
    if np.degrees(turn) < MIN_TILT_DEGREES:
        return []
    card_width = shorter / (np.cos(turn) + proportion * np.sin(turn))
    size = (card_width, proportion * card_width) if height >= width else (proportion * card_width, card_width)
    centre = (width / 2.0, height / 2.0)
    return [(centre, size, sign * float(np.degrees(turn))) for sign in (1.0, -1.0)]


def _agreement(box: RotatedBox, mask: np.ndarray, scale: float) -> float:
    """The share of ``mask``'s pixels (of the crop shrunk by ``scale``) that are set inside ``box`` (in
    the crop's pixels) and clear outside it."""
    inside = np.zeros(mask.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(cv2.boxPoints(box) * scale).astype(np.int32)], 255)
    return float(np.mean((mask > 0) == (inside > 0)))


def turned_card_touching_sides(crop: np.ndarray, masks: Sequence[np.ndarray],
                               scale: float) -> np.ndarray | None:
    """``[4, 2]`` corners in ``crop``, clockwise from the top left, of a card guessed from the crop's
    shape alone: where the crop is square (``is_square_crop``) but not a picture resized to a square
    (``is_resized_square``), of the two ``corner_touching_boxes`` the one that agrees best with one of
    ``masks`` (the paper's, the table's: of the crop shrunk by ``scale``); else None."""
    if not is_square_crop(crop) or is_resized_square(crop):
        return None
    boxes = corner_touching_boxes(*crop.shape[:2])
    if not boxes:
        return None
    best = max(boxes, key=lambda box: max(_agreement(box, mask, scale) for mask in masks))
    return clockwise_from_top_left(cv2.boxPoints(best).astype(np.float32))


def is_turned_or_loose(card: Region) -> bool:
    """Whether a card found in a crop lies otherwise than the model learnt cards: turned by
    MIN_TILT_DEGREES or more, or filling less than LOOSE_BELOW of the crop."""
    return abs(tilt_degrees(card.box)) >= MIN_TILT_DEGREES or card.share < LOOSE_BELOW


def card_by_middle_colours(crop: np.ndarray) -> np.ndarray | None:
    """``[4, 2]`` corners in ``crop``, clockwise from the top left, of the largest region of colours
    likelier in the crop's middle than in its outer ring (``vision.colour_odds``), where it has a
    card's shape from MIN_CARD_IN_PHOTO of the crop and lies turned or loose (``is_turned_or_loose``);
    else None. A loose card on a checked cloth, or on one about as pale as its paper, that the other
    guesses miss (``models/NOTEBOOK.md``, "A loose card told by its colours")."""
    small, scale = shrunk(crop, COLOUR_ANALYSIS_SIDE)
    card = largest_region(middle_colours_mask(small))
    if card is None or not card.has_card_shape(MIN_CARD_IN_PHOTO) or not is_turned_or_loose(card):
        return None
    return card.corners() / scale


class RecutView(NamedTuple):
    """A card cut again out of its crop (``recut_view``): the view, and whether its card was guessed from
    the square crop's shape alone (``turned_card_touching_sides``) rather than seen in the crop."""

    crop: np.ndarray
    is_shape_guess: bool


def recut_view(crop: np.ndarray) -> RecutView | None:
    """The card of ``crop`` warped upright, with MARGIN round it, where a card-shaped region filling
    from MIN_CARD_IN_PHOTO of the crop is found in it turned by MIN_TILT_DEGREES or more, or filling
    less than LOOSE_BELOW, or out of true (``is_out_of_true``), or failing that where a card turned by
    MIN_TILT_DEGREES or more is found by its hull (``turned_card_hulls``), or failing that where a card
    turned or loose is told by the colours of the crop's middle (``card_by_middle_colours``), or failing
    that too where the crop is square and a card touching its four sides is guessed
    (``turned_card_touching_sides``: the view is then a shape guess); else None (the card stands
    upright, cut as the model knows it, or no card is found). A crop whose paper alone shows the card
    plainly upright and close (``is_plainly_upright``), and not out of true, is left as it is without
    the other guesses."""
    if min(crop.shape[:2]) < MIN_SIDE:
        return None
    small, scale = shrunk(crop, ANALYSIS_SIDE)
    paper = paper_mask(small)
    paper_region = largest_region(paper)
    if (paper_region is not None and is_plainly_upright(paper_region)
            and not is_out_of_true(paper_region, small.shape)):
        return None
    unlike = unlike_outer_ring_mask(small)
    regions = [region for region, _ in card_shaped_regions(small, MIN_CARD_IN_PHOTO, paper, unlike=unlike)]
    regions = regions or turned_card_hulls(paper, unlike)
    is_shape_guess = False
    if regions:
        if not is_turned_or_loose(regions[0]) and not is_out_of_true(regions[0], small.shape):
            return None
        corners = regions[0].corners() / scale
    else:
        corners = card_by_middle_colours(crop)
        if corners is None:
            corners = turned_card_touching_sides(crop, (paper, unlike), scale)
            is_shape_guess = True
        if corners is None:
            return None
    centre = corners.mean(axis=0)
    view = warp_quad(crop, ((corners - centre) * (1.0 + 2.0 * MARGIN) + centre).astype(np.float32))
    return RecutView(view, is_shape_guess)


def recut(crop: np.ndarray) -> np.ndarray | None:
    """The view of ``recut_view``, or None: the card of ``crop`` cut again upright and close, where it
    lies askew or loose in it."""
    found = recut_view(crop)
    return None if found is None else found.crop
