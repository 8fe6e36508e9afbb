"""Pip cards with a picture between the pips: training cards whose count a picture must not change.

Several regional decks print a scene or an ornament between the pips: Siciliane a ship or a putto on
the Four and the Six of cups, Sarde landscapes and flowers. A model that learnt to count pips on decks
with a blank middle counts such a picture as one more pip (Quattro di coppe read as Cinque, Sei as
Sette). ``decorate`` lays a round piece of a figure of the same deck into the widest blank space
between the pips of a number card, and the label stays the card's. The donor figures are of the other
suits (``decoration_donors``): a piece of a Fante di coppe holding his cup, laid on a Quattro di coppe,
would show five cups. Aces are left alone (their one pip fills the card). No torch here.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.cards import SUITS
from vision.crops import Artwork
from vision.figure_swap import FIGURE_RANKS

NUMBER_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7")
MARGIN = 0.12  # share of each side kept clear: the frame and the corner indices lie there
MIN_RADIUS = 0.09  # the blank space's radius, as a share of the card's width, below which there is no room
PAPER_VALUE = 170  # a pixel is blank paper when its HSV value is above this ...
PAPER_SATURATION = 60  # ... and its saturation below this
INK_GUARD = 0.02  # the picture keeps this share of the width away from the nearest ink


def decoration_donors(code: str) -> tuple[str, ...]:
    """The figures of the other three suits for a number card 2..7 (``"4c"`` -> ``("8d", "9d", ...)``);
    ``()`` for an ace, a figure, ``back`` or ``none``."""
    if code[:-1] not in NUMBER_RANKS:
        return ()
    return tuple(rank + suit for suit in SUITS if suit != code[-1] for rank in FIGURE_RANKS)


def blank_space(image: np.ndarray) -> tuple[int, int, float]:
    """(x, y, radius) of the widest disc of blank paper inside the card's ``MARGIN``, kept
    ``INK_GUARD`` of the width away from any ink; radius 0 when there is none."""
    height, width = image.shape[:2]
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    paper = ((hsv[:, :, 2] > PAPER_VALUE) & (hsv[:, :, 1] < PAPER_SATURATION)).astype(np.uint8)
    inner = np.zeros_like(paper)
    left, top = round(MARGIN * width), round(MARGIN * height)
    inner[top:height - top, left:width - left] = 1
    distance = cv2.distanceTransform(paper * inner, cv2.DIST_L2, 5)
    _, largest, _, (x, y) = cv2.minMaxLoc(distance)
    return x, y, max(0.0, float(largest) - INK_GUARD * width)


def decorate(art: Artwork, donor: Artwork, rng: np.random.Generator) -> Artwork:
    """``art`` with a round, soft-edged piece of ``donor``'s picture in its widest blank space between
    the pips; ``art`` itself when that space is narrower than ``MIN_RADIUS`` of the card's width.
    The outline (``alpha``) stays."""
    height, width = art.image.shape[:2]
    x, y, radius = blank_space(art.image)
    if radius < MIN_RADIUS * width:
        return art
    radius *= rng.uniform(0.75, 1.0)
    side = max(4, int(2 * radius))
    donor_height, donor_width = donor.image.shape[:2]
    piece = int(donor_width * rng.uniform(0.35, 0.7))
    left = int(rng.integers(0, donor_width - piece + 1))
    top = int(rng.integers(donor_height // 5, max(donor_height // 5 + 1, 4 * donor_height // 5 - piece)))
    picture = cv2.resize(donor.image[top:top + piece, left:left + piece], (side, side),
                         interpolation=cv2.INTER_AREA).astype(np.float32)
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32) - (side - 1) / 2
    weight = np.clip((radius - np.hypot(xs, ys)) / max(1.0, 0.15 * radius), 0.0, 1.0)[:, :, None]
    x0, y0 = round(x - side / 2), round(y - side / 2)
    x0, y0 = min(max(0, x0), width - side), min(max(0, y0), height - side)
    image = art.image.copy()
    region = image[y0:y0 + side, x0:x0 + side].astype(np.float32)
    image[y0:y0 + side, x0:x0 + side] = np.clip(region * (1 - weight) + picture * weight + 0.5, 0, 255)
    return Artwork(image=image, alpha=art.alpha)
