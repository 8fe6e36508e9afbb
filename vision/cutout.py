"""Cutting a card out of a user's photo of it: the card found on the table and straightened.

A user enrols a deck from one picture per card (``vision.enrollment``): a scan, a picture already
cut to the card, or a phone photo of the card lying on a table. ``cut_out_card`` finds the card in a
photo and returns it upright and straightened; a picture that already is the card comes back as it
is. No torch here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

# A picture whose outer ring looks like card paper may still be a photo on a light table: a card found
# in it is taken only when it fills this much of the picture (a scan's inner frame, around a French
# figure, fills less; a light table around a card in a phone photo, more).
MIN_CARD_IN_LIGHT_PICTURE = 0.6
MIN_CARD_IN_PHOTO = 0.15  # of a photo on a table darker or more colourful than card paper
MIN_TABLE_TO_PAPER_DISTANCE = 10.0  # CIELAB (8-bit scale) between a light table and the card's edge
# Card images made from drawings (a card game's set, a rendered deck) often have a thin dark line or dark
# rounded corners round the paper: paper this far in (of the shorter side) makes a picture such an image.
FRAME_INSET = 0.02
# In such a picture a card is only cut out when it fills this much: a photo cut close round the card,
# a thin strip of a dark table at its edges; a scan's frame printed round a figure fills less.
MIN_CARD_IN_FRAMED_PICTURE = 0.85
ANALYSIS_SIDE = 400  # the card is looked for in the picture shrunk to this longer side
# A light picture's edge with this many changes of colour round it is a patterned cloth (checks: 60-90
# on photos of a card on white and grey checks), not a scan or a card image cut to the card (at most 32
# of the 125 styles' 5,000 card images); counted on the picture shrunk to PATTERN_SIDE, between samples
# blurred and CHANGE_OF_COLOUR apart (CIELAB, 8-bit scale) over three steps.
PATTERNED_EDGE_FROM = 40
PATTERN_SIDE = 200
CHANGE_OF_COLOUR = 25.0
RotatedBox = tuple[tuple[float, float], tuple[float, float], float]  # cv2.minAreaRect: centre, size, angle
_CLOSING = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))  # fills the print on the card's paper
_OPENING = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
_EDGE_DILATION = np.ones((3, 3), np.uint8)
_CHANNEL_SUM = np.ones((1, 3), np.float32)  # cv2.transform's matrix summing three channels into one


def _outer_ring(image: np.ndarray) -> np.ndarray:
    """``[N, 3]``: the pixels of the image's outer ring, 3% of its shorter side wide."""
    k = max(2, round(0.03 * min(image.shape[:2])))
    return np.concatenate([image[:k].reshape(-1, 3), image[-k:].reshape(-1, 3),
                           image[:, :k].reshape(-1, 3), image[:, -k:].reshape(-1, 3)])


def _looks_cut_to_the_card(picture: np.ndarray) -> bool:
    """True when the picture's outer ring is card paper (light, unsaturated): a scan or a tight crop."""
    hsv = cv2.cvtColor(_outer_ring(picture).reshape(1, -1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return float(np.median(hsv[:, 2])) > 170 and float(np.median(hsv[:, 1])) < 70


def _has_paper_inside_a_frame(picture: np.ndarray) -> bool:
    """True when the ring FRAME_INSET inside the picture's edge is card paper. Of a picture whose own
    edge is not paper, that makes a framed card image (a thin dark line or dark corners round its
    paper), not a photo of a table."""
    inset = max(1, round(FRAME_INSET * min(picture.shape[:2])))
    inner = picture[inset:-inset, inset:-inset]
    return min(inner.shape[:2]) >= 8 and _looks_cut_to_the_card(inner)


def _edge_changes_of_colour(picture: np.ndarray) -> int:
    """How many times the colour changes (by CHANGE_OF_COLOUR over three samples) along a line round
    the picture 1.5% inside its edge, on the picture shrunk to PATTERN_SIDE and blurred; none in a
    picture under 8 pixels a side, too small to show a pattern."""
    if min(picture.shape[:2]) < 8:
        return 0
    small, _ = shrunk(picture, PATTERN_SIDE)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    height, width = lab.shape[:2]
    k = max(1, round(0.015 * min(height, width)))
    round_the_edge = np.concatenate([lab[k, k:width - k], lab[k:height - k, width - 1 - k],
                                     lab[height - 1 - k, k:width - k][::-1], lab[k:height - k, k][::-1]])
    steps = np.linalg.norm(np.diff(round_the_edge, axis=0, append=round_the_edge[:1]), axis=1)
    changing = np.convolve(steps, np.ones(3, np.float32), mode="same") > CHANGE_OF_COLOUR
    return int(np.sum(changing & ~np.roll(changing, 1)))


def _has_patterned_edge(picture: np.ndarray) -> bool:
    """Whether the picture's edge changes colour PATTERNED_EDGE_FROM times or more round it: a photo on
    a checked or patterned cloth, however light, not a scan."""
    return _edge_changes_of_colour(picture) >= PATTERNED_EDGE_FROM


def _ring_colour(image: np.ndarray) -> np.ndarray:
    """The median CIELAB colour of the image's outer ring."""
    ring = _outer_ring(image).reshape(1, -1, 3)
    return np.median(cv2.cvtColor(ring, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32), axis=0)


def _is_card_on_a_light_table(picture: np.ndarray, card: np.ndarray, brighter: bool = False) -> bool:
    """Whether ``card``, cut out of a picture whose outer ring is paper-like, is a card lying on a
    light table rather than a part of a scanned card: its own edge is card paper too, of another
    colour than the picture's edge (the table); with ``brighter``, lighter than the table by that much
    (a card found by its outline, which on a scan is the drawing's, whose edge is never whiter than the
    scan's paper)."""
    if not _looks_cut_to_the_card(card):
        return False
    table, edge = _ring_colour(picture), _ring_colour(card)
    difference = edge[0] - table[0] if brighter else np.linalg.norm(edge - table)
    return float(difference) >= MIN_TABLE_TO_PAPER_DISTANCE


def _closed(mask: np.ndarray) -> np.ndarray:
    """The mask with gaps under 15 px (the print on the card's paper) filled."""
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSING)


def paper_mask(small: np.ndarray) -> np.ndarray:
    """Paper-like pixels: value minus saturation above Otsu's threshold."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2HSV)
    paper = cv2.subtract(hsv[:, :, 2], hsv[:, :, 1])  # saturates at 0
    _, mask = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _closed(mask)


def unlike_outer_ring_mask(small: np.ndarray) -> np.ndarray:
    """Pixels far in colour (CIELAB) from the picture's outer ring, the table, above Otsu's threshold:
    a card on a table as light as its paper."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (7, 7), 0), cv2.COLOR_BGR2LAB)
    table = np.median(_outer_ring(lab), axis=0)
    # OpenCV's calls on whole images, not numpy's: on a crop of a few thousand pixels each numpy step
    # costs more in its overhead than in its arithmetic.
    difference = cv2.subtract(lab.astype(np.float32), (*table.tolist(), 0.0))
    distance = cv2.sqrt(cv2.transform(cv2.multiply(difference, difference), _CHANNEL_SUM))
    scaled = (distance * np.float32(255.0 / max(cv2.minMaxLoc(distance)[1], 1.0))).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return cv2.morphologyEx(_closed(mask), cv2.MORPH_OPEN, _OPENING)


def _outline_mask(small: np.ndarray) -> np.ndarray:
    """The convex hull of the longest run of edges: a card whose outline is drawn but whose paper and
    table are alike in colour (a grey card on a grey cloth)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90), _EDGE_DILATION)
    # A hole's hull lies inside its outer contour's, so the outer contours hold the largest hull.
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(gray)
    hull = _largest_hull(contours)
    if hull is not None:
        cv2.fillPoly(mask, [hull], 255)
    return mask


def _largest_hull(contours: Sequence[np.ndarray]) -> np.ndarray | None:
    """The convex hull of largest area of the contours' hulls. A hull lies inside its contour's bounding
    rectangle, so the contours are taken by the rectangle's area, largest first, until it is smaller
    than the largest hull found."""
    bounds = [width * height for _, _, width, height in map(cv2.boundingRect, contours)]
    best, best_area = None, -1.0
    for bound, contour in sorted(zip(bounds, contours, strict=True), key=lambda pair: -pair[0]):
        if bound < best_area:
            break
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area > best_area:
            best, best_area = hull, area
    return best


@dataclass(frozen=True, eq=False)  # holds arrays
class Region:
    """The largest region of a mask: its outline, its rotated box, the share of the picture the box
    covers and how fully the region fills the box."""

    outline: np.ndarray
    box: RotatedBox
    share: float
    filled: float

    def has_card_shape(self, min_share: float) -> bool:
        """A box over ``min_share``..97% of the picture, a card's proportions, filled over 85%."""
        proportion = min(self.box[1]) / max(*self.box[1], 1.0)
        return min_share <= self.share <= 0.97 and 0.45 <= proportion <= 0.85 and self.filled > 0.85

    def corners(self) -> np.ndarray:
        """``[4, 2]`` float32, clockwise from the top left: the outline's four corners where it is a
        quadrilateral (a card seen at an angle), else its box's. Worked out once per region (asking
        whether a card is seen at an angle, then cutting it, both need them), and read-only."""
        return self._corners

    @functools.cached_property
    def _corners(self) -> np.ndarray:
        hull = cv2.convexHull(self.outline)
        perimeter = cv2.arcLength(hull, True)
        for tolerance in (0.02, 0.03, 0.04, 0.05):
            polygon = cv2.approxPolyDP(hull, tolerance * perimeter, True)
            if len(polygon) == 4 and cv2.contourArea(polygon) >= 0.9 * cv2.contourArea(hull):
                corners = clockwise_from_top_left(polygon.reshape(4, 2).astype(np.float32))
                break
        else:
            corners = clockwise_from_top_left(cv2.boxPoints(self.box).astype(np.float32))
        corners.setflags(write=False)
        return corners


def region_of(outline: np.ndarray, shape: tuple[int, ...]) -> Region:
    """The region inside ``outline`` (a contour) of a mask of ``shape``."""
    box = cv2.minAreaRect(outline)
    box_area = box[1][0] * box[1][1]
    filled = cv2.contourArea(outline) / max(box_area, 1.0)
    return Region(outline, box, box_area / (shape[0] * shape[1]), filled)


def largest_region(mask: np.ndarray) -> Region | None:
    """The region of the mask's largest outer contour by area; None for an empty mask."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    return region_of(max(contours, key=cv2.contourArea), mask.shape)


def largest_hull_region(mask: np.ndarray) -> Region | None:
    """The region inside the convex hull of the mask's largest outer contour (by area); None for an
    empty mask. A card is convex: where print reaching its edge, or the picture's edge, bites into its
    region, the hull still fills the card's box."""
    region = largest_region(mask)
    return None if region is None else region_of(cv2.convexHull(region.outline), mask.shape)


def clockwise_from_top_left(points: np.ndarray) -> np.ndarray:
    """Four points in clockwise order (on the image, y down), the one nearest the top left first."""
    centre = points.mean(axis=0)
    clockwise = points[np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))]
    return np.roll(clockwise, -int(clockwise.sum(axis=1).argmin()), axis=0)


def _is_all_paper(paper: np.ndarray) -> bool:
    """Whether one region of paper fills the picture: a card cut from a sheet with a little of the
    sheet at its corners, whose drawing must not be taken for the card."""
    region = largest_region(paper)
    return region is not None and region.share > 0.97 and region.filled > 0.85


def cut_out_card(picture: np.ndarray) -> np.ndarray:
    """The card cut out of a photo that shows it on a table, upright; the picture itself when it is
    already cut to the card or no card-shaped region (15..97% of it, a card's proportions) is found.

    Three guesses at the card: the largest region of paper-like pixels, of pixels unlike the table
    (the picture's outer ring) and, unless the picture is a framed card image, the hull of its
    longest edges; of those whose box has a card's proportions, the one that fills its box best wins.
    A picture whose outer ring is paper-like (a scan, or a light table) only gives up a card that
    fills MIN_CARD_IN_LIGHT_PICTURE of it and whose own edge is paper of another colour than the
    picture's (``_is_card_on_a_light_table``), and whiter than it where the card is the edges' hull:
    a scan is not cut to the frame printed on it, nor to the outline of its drawing. A picture whose
    paper lies inside a thin dark line (``_has_paper_inside_a_frame``: a card image drawn for a game)
    only gives up a card that fills MIN_CARD_IN_FRAMED_PICTURE of it.
    """
    return cut_out_card_telling(picture)[0]


def cut_out_card_telling(picture: np.ndarray) -> tuple[np.ndarray, bool]:
    """``cut_out_card``'s result, and whether the picture is an uncut photo: no card found in it, and
    its edge is not card paper either (so it is not a scan), or is light but patterned (a photo on a
    light checked cloth: ``_has_patterned_edge``), so it would be enrolled whole, table and all; a
    photo to take again, closer or on a darker, plain table."""
    looks_cut = _looks_cut_to_the_card(picture)
    framed = not looks_cut and _has_paper_inside_a_frame(picture)
    small, scale = shrunk(picture, ANALYSIS_SIDE)
    paper = paper_mask(small)
    if not (looks_cut or framed) and _is_all_paper(paper):
        return picture, True
    found = card_shaped_regions(small, _min_card_share(looks_cut, framed), paper, with_outline=not framed)
    for region, is_hull in found:
        card = warp_quad(picture, region.corners() / scale)
        if not looks_cut or _is_card_on_a_light_table(picture, card, brighter=is_hull):
            return card, False
    return picture, not (looks_cut or framed) or (looks_cut and _has_patterned_edge(picture))


def shrunk(picture: np.ndarray, longest: int) -> tuple[np.ndarray, float]:
    """The picture shrunk (area averaging) so that its longer side is at most ``longest`` pixels, and
    the scale from the picture to it (1.0: the picture itself)."""
    height, width = picture.shape[:2]
    scale = min(1.0, longest / max(height, width))
    if scale == 1.0:
        return picture, scale
    size = (max(8, round(width * scale)), max(8, round(height * scale)))
    return cv2.resize(picture, size, interpolation=cv2.INTER_AREA), scale


def card_shaped_regions(small: np.ndarray, min_share: float, paper: np.ndarray | None = None,
                        with_outline: bool = True,
                        unlike: np.ndarray | None = None) -> list[tuple[Region, bool]]:
    """The guesses at the card in a picture (best shrunk to a few hundred pixels) that have a card's shape
    (``Region.has_card_shape(min_share)``), the one filling its box best first, each with whether it
    is the edges' hull: the largest region of paper-like pixels (``paper``, the picture's paper mask,
    when already made), of pixels unlike the table (the picture's outer ring; ``unlike``, that mask,
    when already made) and, ``with_outline``, the hull of the longest run of edges (on a light table
    that may be a drawing's outline too)."""
    paper = paper_mask(small) if paper is None else paper
    unlike = unlike_outer_ring_mask(small) if unlike is None else unlike
    masks = [(paper, False), (unlike, False)]
    masks += [(_outline_mask(small), True)] if with_outline else []
    regions = [(largest_region(mask), is_hull) for mask, is_hull in masks]
    found = [(region, is_hull) for region, is_hull in regions
             if region is not None and region.has_card_shape(min_share)]
    return sorted(found, key=lambda found: -found[0].filled)


def _min_card_share(looks_cut: bool, framed: bool) -> float:
    """The least share of the picture a card found in it must fill: a framed card image gives up only a
    card that nearly fills it, a light picture (a scan, or a light table) one that fills most of it."""
    if framed:
        return MIN_CARD_IN_FRAMED_PICTURE
    return MIN_CARD_IN_LIGHT_PICTURE if looks_cut else MIN_CARD_IN_PHOTO


def warp_quad(picture: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The part of the picture inside ``quad`` (clockwise from the top left), straightened, upright."""
    out_w = max(8, round(float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2))
    out_h = max(8, round(float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2))
    target = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    card = cv2.warpPerspective(picture, cv2.getPerspectiveTransform(quad, target), (out_w, out_h),
                               flags=cv2.INTER_AREA)
    return cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE) if out_w > out_h else card


def is_uncut_photo(picture: np.ndarray) -> bool:
    """Whether ``cut_out_card`` finds no card in a picture that is not cut to one either
    (``cut_out_card_telling``)."""
    return cut_out_card_telling(picture)[1]
