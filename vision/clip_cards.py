"""The cards of a clip in which a player shows a deck to the camera, one card after the other.

The player lays each card face up on the table under the camera, takes the hand off it for a moment,
then takes the card away and lays the next (``vision.scene.showing`` films exactly that). This module
finds each card while it lies alone and cuts it out of the frame, upright, for enrolment
(``vision.deck_pictures.enroll_clip``).

How (one pass over the clip, searching ``SCAN_FPS`` frames a second; a few small frames and the crops
of the cards' sightings are kept in memory):

1. The empty table: the per-pixel median of the frames of the clip's first ``EMPTY_SECONDS``. The
   player starts filming on the empty table and lays the first card after a moment. (Not a median over
   the whole clip: the cards lie in the same spot most of the time, and their white paper would win.)
2. In each frame, what is unlike that table (pixels brighter or of another colour, since a shadow is
   only darker, and edges the table does not have) forms regions (``card_regions``); a region whose
   hull has a card's proportions and fills its box is a card lying alone. A card under a hand joins
   the hand's region and is not taken. Where the card's paper is unlike the table all over (felt,
   wood), the region is cut down to that solid part, so that a board's grain joined to it does not
   tilt its box (``_snapped_to_paper``).
3. Frames in which a card lies at the same place (its centre within ``SAME_PLACE`` of its height, its
   size within ``SAME_SIZE``: on a grained table a region is ragged) make one showing of a card; a gap
   of up to ``MAX_GAP_SECONDS`` in it (a frame where the card was not found) is bridged, since no
   hand can take a card away and lay the next one in that time. A showing shorter than
   ``MIN_SHOWN_SECONDS`` is dropped (a card sliding or flicking past). Of the rest, the cards are
   those of the size and in the spot of most of them (``_cards_among``): the player lays every card in
   about the same spot, and a hand, a sleeve or a passing shadow that looked like a card for a moment
   is elsewhere, or of another size.
4. Of each showing of a card, the crop kept is cut from the full frame where its region's box is
   nearest the deck's card size (a stray mark joined to the card makes it larger), the sharpest
   (variance of its Laplacian) of those as near.

The camera must stay still: the table is learnt once, at the start. On 23 rendered clips of 40 cards
(normal preset: felt, wood, plain and printed cloths) all 920 cards were found and nothing else, the
corners within 3-10% of the card's width (median per clip; ``models/NOTEBOOK.md``, "Clip search on dark
wood and faint damask"). On an earlier set of 19, 4 of 760 were missed on light grounds, where a white
card's paper hardly differs from the cloth (the same advice as for photos, ``vision.cutout``). On 20
more (14 on checked cloths; `H` and Italian-suited decks) all 800 were found and nothing else, where
before the exposure was matched by the median of ratios, a group at the frame's edge refused and a card
filling 0.85 of its box and 0.8 of its hull taken, 771 were, with 34 showings of a sleeve at the
frame's edge taken for the cards on dark wood; on 16 more at 1080p, all 640, as before
(``models/NOTEBOOK.md``, "Clip search on checked cloths and a sleeve at the frame's edge";
``python -m vision.training.clip_search``). Shown briskly, a card every 1.3 s (40 in 55 s), the same
38 clips' 1,520 cards all found and nothing else, where before a hollow card was filled again
(``BITE_CLOSED``) one on checks was missed; on 14 floral cloths all 560 (``models/NOTEBOOK.md``, "A
deck shown in under a minute").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.cutout import Region, region_of, warp_quad
from vision.errors import VisionError

VIDEO_SUFFIXES = (".mp4", ".mkv", ".mov", ".avi", ".webm", ".h264", ".m4v")
WORK_WIDTH = 960  # frames are searched at this width; crops come from the full frame
SCAN_FPS = 10.0  # frames searched per second of clip (of a phone's 30, every third)
EMPTY_SECONDS = 0.5
BRIGHTER = 6.0  # CIELAB lightness (8-bit scale) above the table's: paper
OTHER_COLOUR = 12.0  # a*b* distance from the table's colour: ink, a coloured back
MUCH_DARKER = 45.0  # darker than this below the table's: ink on a light cloth, not a card's shadow
MIN_CARD_SHARE = 0.0008  # of the frame: a card 40 px wide in a 1280x720 frame is about 0.0026
MAX_CARD_SHARE = 0.12
MIN_FILLED = 0.85  # of its box, by the region's hull: a rectangle seen from above, a corner perhaps unseen
MIN_SOLIDITY = 0.8  # of its hull, by the region: a card with bites of cloth-like paper, not a spread hand
GAP_CLOSED = 0.25  # of the card's shorter side: gaps in its marks bridged when it is filled
BITE_CLOSED = 0.5  # the same, tried again where a bite of cloth-like paper fails MIN_SOLIDITY
CARD_PROPORTIONS = (0.45, 0.9)  # short side over long side, with the mask's fringe: Piacentine to wide French
SAME_PLACE = 0.25  # of the card's height: a card lying still, its region a little ragged from frame to frame
SAME_SIZE = 0.3
SIDES_TOLERANCE = 0.03  # of the card's sides: sightings this near the deck's card size are as good
MAX_GAP_SECONDS = 0.35
MIN_SHOWN_SECONDS = 0.3
CARD_SIZE_SPREAD = 0.16  # every card of a deck lies at one size: a region of another is not one of them
SAME_SPOT = 1.5  # card heights (14 cm for an Italian card): every card is laid in about the same spot
UNKNOWN_FPS = 30.0
ScanProgress = Callable[[float, float | None], None]  # (seconds of clip scanned, seconds in all or None)
EDGE_THRESHOLDS = (10, 30)  # Canny on the blurred lightness: a white card's edge on a cream cloth
TABLE_EDGE_THRESHOLDS = (5, 15)  # the table's own edges, fainter too: a noisy frame lifts them over the above
GROUPING = 15  # px at the working width: marks this close belong to one thing
SOLID_OPENING = 0.1  # of the card's shorter side: marks thinner (grain, a shadow's edge) are no paper
SOLID_FILLED = 0.9  # of its box, by the solid part: the card's paper found whole
SOLID_AREA = (0.7, 0.98)  # of the region's box, by the solid part's box: the same card, less what clung to it
EXPOSURE_SAMPLING = 4  # px: the exposure is compared on one pixel in 4 each way
MIN_TABLE_LIGHTNESS = 20.0  # CIELAB, 8-bit scale: darker table pixels give no ratio worth taking


class ClipError(VisionError):
    """A clip that cannot be read, or in which the cards cannot be told apart."""


@dataclass(frozen=True, eq=False)  # holds arrays
class ShownCard:
    """One card shown: the frames it lay alone in (first and last, inclusive), the frame its crop is
    cut from, that crop (upright, BGR), and where it lay in that frame (``[4, 2]`` pixels, clockwise
    from the top left)."""

    first_frame: int
    last_frame: int
    frame: int
    crop: np.ndarray
    corners: np.ndarray


@dataclass(frozen=True)
class ClipCards:
    """What ``find_shown_cards`` found: the cards in the order shown, the clip's frame rate, and how many
    of its frames it went through (up to the last one searched)."""

    path: Path
    cards: tuple[ShownCard, ...]
    fps: float
    frame_count: int

    def time_of(self, frame: int) -> str:
        """``m:ss.s`` of ``frame``: where a player finds it in the clip."""
        seconds = frame / self.fps
        return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def is_clip_path(path: Path) -> bool:
    """Whether ``path`` names a video file by its suffix (it need not exist)."""
    return path.suffix.lower() in VIDEO_SUFFIXES


def _open(path: Path) -> cv2.VideoCapture:
    if not path.is_file():
        raise ClipError(f"{path}: no such clip", f"{path}: questo video non esiste")
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise ClipError(f"{path}: not a video OpenCV can read",
                        f"{path}: non è un video che OpenCV sappia leggere")
    return capture


def read_frames(path: Path, every: int = 1) -> Iterator[tuple[int, np.ndarray]]:
    """Every ``every``-th frame of the clip at ``path`` with its index, BGR (the frames between are
    only grabbed, not decoded into pictures); raise ClipError naming the clip when it cannot be opened
    or holds no frame."""
    capture = _open(path)
    try:
        index = 0
        while capture.grab():
            if index % every == 0:
                ok, frame = capture.retrieve()
                if not ok:
                    break
                yield index, frame
            index += 1
        if index == 0:
            raise ClipError(f"{path}: the clip holds no frame that can be decoded",
                            f"{path}: il video non ha fotogrammi che si possano decodificare")
    finally:
        capture.release()


def clip_seconds(path: Path, fps: float) -> float | None:
    """The clip's length in seconds from the frame count its file states, or None where it states none."""
    capture = _open(path)
    try:
        frames = float(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    finally:
        capture.release()
    return frames / fps if frames > 0 else None


def clip_fps(path: Path) -> float:
    """The clip's frame rate as its file states it, or ``UNKNOWN_FPS`` where it states none."""
    capture = _open(path)
    try:
        fps = float(capture.get(cv2.CAP_PROP_FPS))
    finally:
        capture.release()
    return fps if 1.0 <= fps <= 240.0 else UNKNOWN_FPS


def _work_scale(frame: np.ndarray) -> float:
    return min(1.0, WORK_WIDTH / frame.shape[1])


def _small(frame: np.ndarray, scale: float) -> np.ndarray:
    if scale >= 1.0:
        return frame
    size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)


def _edges(lightness: np.ndarray, thresholds: tuple[int, int] = EDGE_THRESHOLDS) -> np.ndarray:
    return cv2.Canny(np.clip(lightness, 0, 255).astype(np.uint8), thresholds[0], thresholds[1])


@dataclass(frozen=True, eq=False)  # holds arrays
class EmptyTable:
    """The empty table at the working width: its colours (CIELAB, float32) and where it has edges of its
    own (a cloth's pattern, a board's grain), widened a little so a camera's shake does not count. Those
    are found at half the thresholds a frame's edges are (``TABLE_EDGE_THRESHOLDS``): a damask's or a
    dark board's faint lines, just under them in the still table, pass them here and there in a noisy
    frame, and joined to a card they made its region too large to be one."""

    lab: np.ndarray
    edges: np.ndarray

    @classmethod
    def from_image(cls, image: np.ndarray) -> EmptyTable:
        lab = _lab(image)
        return cls(lab, cv2.dilate(_edges(lab[:, :, 0], TABLE_EDGE_THRESHOLDS), np.ones((5, 5), np.uint8)))


def empty_table(frames: list[np.ndarray]) -> EmptyTable:
    """The table without cards or hands: the per-pixel median of ``frames`` (at the working width)."""
    return EmptyTable.from_image(np.median(np.stack(frames), axis=0).astype(np.uint8))


def unlike_table_mask(small: np.ndarray, table: EmptyTable) -> np.ndarray:
    """``uint8`` mask of what in ``small`` (BGR) is not the empty table: pixels brighter by
    ``BRIGHTER``, of another colour by ``OTHER_COLOUR`` or darker by ``MUCH_DARKER`` (a shadow is only a
    little darker); and, away from the table's own edges (a cloth's print shifts a little from frame to
    frame), the edges of the frame and of its difference from the table (both trace a white card's
    outline on a cream cloth, where its paper hardly differs). The frame's lightness is first matched to
    the table's (``exposure_change``), for a camera that changes its exposure."""
    lab = _lab(small)
    lab[:, :, 0] /= exposure_change(lab[:, :, 0], table.lab[:, :, 0])
    lighter = lab[:, :, 0] - table.lab[:, :, 0]
    colour = np.linalg.norm(lab[:, :, 1:] - table.lab[:, :, 1:], axis=2)
    mask = ((lighter > BRIGHTER) | (colour > OTHER_COLOUR) | (lighter < -MUCH_DARKER)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    return mask | ((_edges(lighter + 128.0) | _edges(lab[:, :, 0])) & ~table.edges)


def exposure_change(lightness: np.ndarray, table_lightness: np.ndarray) -> float:
    """By how much a frame's CIELAB lightness is the table's (1.0: the same exposure): the median of
    their ratio over a grid of pixels, one in ``EXPOSURE_SAMPLING`` each way, where the table is not
    black. Most of the table is uncovered in any frame, so a hand or a card moves the median of ratios
    little; the ratio of the two medians moved with them wherever the cloth has two tones (a checked
    cloth's median lies between its squares' lightness, and a sleeve over its light squares pulled
    the frame's median to the dark ones: brightened by that, the light squares all stood out)."""
    step = EXPOSURE_SAMPLING
    table_sample = table_lightness[::step, ::step]
    seen = table_sample >= MIN_TABLE_LIGHTNESS
    if not seen.any():
        return 1.0
    return max(float(np.median(lightness[::step, ::step][seen] / table_sample[seen])), 0.05)


def _closed(mask: np.ndarray, size: int) -> np.ndarray:
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))


def turned_square(side: int, angle_deg: float) -> np.ndarray:
    """A structuring element: a square of ``side`` pixels turned by ``angle_deg`` degrees."""
    turn = np.radians(angle_deg)
    size = int(np.ceil(side * (abs(np.cos(turn)) + abs(np.sin(turn))))) | 1
    kernel = np.zeros((size, size), np.uint8)
    corners = cv2.boxPoints(((size / 2 - 0.5, size / 2 - 0.5), (side, side), angle_deg))
    cv2.fillPoly(kernel, [np.round(corners).astype(np.int32)], 1)
    return kernel


def _filled_shape(component: np.ndarray, short_side: float, gaps: float = GAP_CLOSED) -> np.ndarray:
    """The component with gaps up to ``gaps`` of its shorter side closed, its holes filled, and what
    sticks out of it thinner than a third of that side cut off: a card whose outline and print were only
    partly found becomes the whole card; fingers stay apart, and a stray line along it goes. The cut is
    made with a square turned as the filled component's smallest box: one square to the frame cut a
    turned card's corners off square to the frame too, and its smallest box came out upright, the card
    askew in its crop."""
    closed = _closed(component, max(3, round(short_side * gaps) | 1))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(closed)
    if not contours:
        return filled
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))[2]
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, turned_square(max(3, round(short_side / 3) | 1), angle))


def _is_card_shaped(region: Region) -> bool:
    proportion = min(region.box[1]) / max(*region.box[1], 1.0)
    return (MIN_CARD_SHARE <= region.share <= MAX_CARD_SHARE and region.filled > MIN_FILLED
            and CARD_PROPORTIONS[0] <= proportion <= CARD_PROPORTIONS[1])


def card_regions(mask: np.ndarray) -> list[Region]:
    """The parts of ``mask`` shaped like a card lying alone: groups of marks (gaps up to ``GROUPING`` px
    bridged) which, filled (``_filled_shape``), fill ``MIN_SOLIDITY`` of their convex hull (paper as
    light as the cloth leaves bites in a card's edge), and whose hull has a card's proportions, lies
    between ``MIN_CARD_SHARE`` and ``MAX_CARD_SHARE`` of the frame and fills its box over
    ``MIN_FILLED``. A group whose marks reach the frame's edge is cut off by it, a sleeve coming into the
    picture rather than a card lying whole in view. Which of them is a card the clip tells: cards come back to
    one spot at one size."""
    grouped = _closed(mask, GROUPING)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(grouped)
    frame_area = mask.shape[0] * mask.shape[1]
    cut_off = _groups_at_the_edge(mask, labels)
    found: list[Region] = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if not MIN_CARD_SHARE * frame_area / 2 <= area <= MAX_CARD_SHARE * frame_area:
            continue
        if label in cut_off:
            continue
        pad = max(w, h) // 2 + 2
        top, left = max(0, y - pad), max(0, x - pad)
        window = np.where(labels[top:y + h + pad, left:x + w + pad] == label,
                          grouped[top:y + h + pad, left:x + w + pad], 0).astype(np.uint8)
        region = _card_shaped_region(window, (left, top), mask.shape)
        if region is not None:
            found.append(_snapped_to_paper(mask, region))
    return found


def _groups_at_the_edge(mask: np.ndarray, labels: np.ndarray) -> set[int]:
    """The labels of the groups (``labels``, the grouped mask's components) whose marks in ``mask`` reach
    the frame's edge."""
    rims = (np.s_[0, :], np.s_[-1, :], np.s_[:, 0], np.s_[:, -1])
    return {int(label) for rim in rims for label in np.unique(labels[rim][mask[rim] > 0])} - {0}


def _snapped_to_paper(mask: np.ndarray, region: Region) -> Region:
    """``region`` cut down to the solid part of ``mask`` inside it, where there is one: on a felt or a
    wooden table the card's paper differs from the table all over, and the marks the grouping joined
    to it (a board's grain, the edge of a shadow) only bend its hull and tilt its box. The solid part
    is what stays of the mask in the region's hull after an opening of ``SOLID_OPENING`` of the card's
    shorter side; it is taken when it fills ``SOLID_FILLED`` of its own box, has a card's shape, and
    its box is ``SOLID_AREA`` of the region's. A card found only by its outline and print (a white card
    on a cream cloth) has no solid part and keeps its region."""
    outline = region.outline.astype(np.int32)  # already the hull (``_card_shaped_region``)
    left, top, width, height = cv2.boundingRect(outline)
    window = mask[top:top + height, left:left + width]
    hull = np.zeros_like(window)
    cv2.fillPoly(hull, [outline - np.array([left, top], dtype=np.int32)], 255)
    size = max(3, round(min(region.box[1]) * SOLID_OPENING) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    solid = cv2.morphologyEx(window & hull, cv2.MORPH_OPEN, disc,  # nothing outside the hull
                             borderType=cv2.BORDER_CONSTANT, borderValue=0)
    contours = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(left, top))[0]
    if not contours:
        return region
    paper = region_of(max(contours, key=cv2.contourArea), mask.shape)
    if paper.filled < SOLID_FILLED or not SOLID_AREA[0] <= paper.share / region.share <= SOLID_AREA[1]:
        return region
    # The box's own corners: the opening rounds the paper's, and a camera overhead sees a rectangle.
    snapped = region_of(cv2.boxPoints(paper.box).reshape(-1, 1, 2).astype(np.float32), mask.shape)
    return snapped if _is_card_shaped(snapped) else region


def _card_shaped_region(window: np.ndarray, origin: tuple[int, int], shape: tuple[int, ...]) -> Region | None:
    """The hull of the one group in ``window`` (at ``origin`` in a mask of ``shape``) where it passes
    ``card_regions``' tests, else None. A card-shaped group too hollow for ``MIN_SOLIDITY`` is filled
    again with gaps up to ``BITE_CLOSED`` of its shorter side bridged: where a white card lies half on a
    white square, its outline there is found in dashes some way off its paper, and a frame or two of
    the card alone may all show such a bite (a deck shown briskly has few)."""
    outline = cv2.findContours(window, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    short_side = min(cv2.minAreaRect(max(outline, key=cv2.contourArea))[1])
    for gaps in (GAP_CLOSED, BITE_CLOSED):
        contours = cv2.findContours(_filled_shape(window, short_side, gaps), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_SIMPLE)[0]
        if not contours:
            return None
        filled = max(contours, key=cv2.contourArea) + np.array(origin, dtype=np.int32)
        hull = cv2.convexHull(filled)
        region = region_of(hull, shape)
        if not _is_card_shaped(region):
            return None
        if cv2.contourArea(filled) >= MIN_SOLIDITY * max(cv2.contourArea(hull), 1.0):
            return region
    return None


def sharpness(crop: np.ndarray) -> float:
    """Variance of the Laplacian of the crop's grey image at a fixed size: higher is sharper."""
    grey = cv2.cvtColor(cv2.resize(crop, (96, 144), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


@dataclass(frozen=True, eq=False)  # holds arrays
class _Sighting:
    """A card-shaped region in one frame: its crop and corners (full frame), box sides (long, short),
    centre, and how sharp the crop is."""

    frame: int
    crop: np.ndarray
    corners: np.ndarray
    sides: np.ndarray
    centre: np.ndarray
    sharpness: float


@dataclass
class _Showing:
    """A card seen lying alone in consecutive frames (gaps bridged): every sighting of it. Its place and
    size are those of its first sighting."""

    sightings: list[_Sighting]

    @property
    def first_frame(self) -> int:
        return self.sightings[0].frame

    @property
    def last_frame(self) -> int:
        return self.sightings[-1].frame

    @property
    def centre(self) -> np.ndarray:
        return self.sightings[0].centre

    @property
    def height(self) -> float:
        return float(np.median([sighting.sides[0] for sighting in self.sightings]))

    def is_same_place(self, sighting: _Sighting) -> bool:
        return (float(np.linalg.norm(sighting.centre - self.centre)) <= SAME_PLACE * self.height
                and abs(sighting.sides[0] - self.height) <= SAME_SIZE * self.height)

    def best(self, card_sides: np.ndarray) -> ShownCard:
        """The sighting whose box is nearest the deck's card (``card_sides``: a stray mark joined to the
        card for a frame makes it larger) and, of those as near within ``SIDES_TOLERANCE``, the sharpest."""
        errors = [float(np.abs(s.sides - card_sides).sum() / card_sides.sum()) for s in self.sightings]
        near = [s for s, error in zip(self.sightings, errors, strict=True)
                if error <= min(errors) + SIDES_TOLERANCE]
        chosen = max(near, key=lambda s: s.sharpness)
        return ShownCard(self.first_frame, self.last_frame, chosen.frame, chosen.crop, chosen.corners)


def _is_like(showing: _Showing, other: _Showing, spread: float = CARD_SIZE_SPREAD) -> bool:
    """Whether ``showing`` is of ``other``'s size (within ``spread`` of it) and lies within
    ``SAME_SPOT`` of its heights from it."""
    return (abs(showing.height - other.height) <= spread * other.height
            and float(np.linalg.norm(showing.centre - other.centre)) <= SAME_SPOT * other.height)


def _cards_among(showings: list[_Showing]) -> list[_Showing]:
    """The showings of cards: those like (``_is_like``) the showing that most others are close to
    (within half that spread, so that a size between a card's and a resting hand's does not gather
    both). A deck's cards are many, of one size, in one spot; a hand resting now and then is larger."""
    if not showings:
        return []
    closeness = [sum(_is_like(other, showing, CARD_SIZE_SPREAD / 2) for other in showings)
                 for showing in showings]
    typical = showings[int(np.argmax(closeness))]
    return [showing for showing in showings if _is_like(showing, typical)]


def _sighting(region: Region, frame: np.ndarray, index: int, scale: float) -> _Sighting:
    """``region`` (found at ``scale``) cut out of the full ``frame``."""
    corners = region.corners() / scale
    crop = warp_quad(frame, corners.astype(np.float32))
    sides = np.array(sorted(region.box[1], reverse=True), dtype=np.float64) / scale
    return _Sighting(index, crop, corners, sides, np.array(region.box[0]) / scale, sharpness(crop))


def _follow(showings: list[_Showing], sighting: _Sighting, max_gap: int) -> None:
    """Add ``sighting`` to the showing at its place, if one was seen in the last ``max_gap`` frames;
    else start a showing with it. (A region in one odd frame, a fingertip touching the card, must not
    end the showing it interrupts: every showing still open is looked at.)"""
    same = [s for s in showings if sighting.frame - s.last_frame <= max_gap and s.is_same_place(sighting)]
    if same:
        same[-1].sightings.append(sighting)
    else:
        showings.append(_Showing([sighting]))


def _deck_card_sides(showings: list[_Showing]) -> np.ndarray:
    """The sides of the deck's cards: the median box over every sighting of them."""
    return np.median(np.stack([s.sides for showing in showings for s in showing.sightings]), axis=0)


def find_shown_cards(path: Path | str, on_progress: ScanProgress | None = None) -> ClipCards:
    """The cards shown one after another in the clip at ``path`` (see the module's docstring), in order;
    raise ClipError naming the clip when it cannot be read. ``on_progress(seconds scanned, seconds in
    all)`` is told once a second of clip, the length None where the file does not state it (or states
    less than there is), and a last time with both the length scanned when the scan is over."""
    source = Path(path)
    fps = clip_fps(source)
    length = clip_seconds(source, fps) if on_progress is not None else None
    every = max(1, round(fps / SCAN_FPS))
    empty_frames = max(1, round(EMPTY_SECONDS * fps / every))
    max_gap = max(every, round(MAX_GAP_SECONDS * fps))
    min_frames = max(2 * every, round(MIN_SHOWN_SECONDS * fps))
    showings: list[_Showing] = []
    first: list[np.ndarray] = []
    table: EmptyTable | None = None
    frame_count = 0
    for index, frame in read_frames(source, every):
        if on_progress is not None and int(index / fps) > int((frame_count - 1) / fps):
            # The first frame of another second of clip; a length the file understates is not told.
            seconds = index / fps
            on_progress(seconds, length if length is not None and seconds < length else None)
        frame_count = index + 1
        scale = _work_scale(frame)
        if table is None:
            first.append(_small(frame, scale))
            if len(first) == empty_frames:
                table, first = empty_table(first), []
            continue
        for region in card_regions(unlike_table_mask(_small(frame, scale), table)):
            _follow(showings, _sighting(region, frame, index, scale), max_gap)
    lasting = [s for s in showings if s.last_frame - s.first_frame + every >= min_frames]
    cards = _cards_among(lasting)
    card_sides = _deck_card_sides(cards) if cards else np.ones(2)
    found = tuple(showing.best(card_sides) for showing in cards)
    if on_progress is not None:
        on_progress(frame_count / fps, frame_count / fps)
    return ClipCards(source, found, fps, frame_count)
