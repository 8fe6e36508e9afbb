"""The card told from its table by the colours of a crop's middle and of its outer ring.

A rough crop is cut round a card, so its middle is mostly card and its outer ring is table. Where the
table is a checked cloth (two or more colours, so its median colour is neither) or a cloth about as
pale as the card's paper, neither the paper mask nor the mask of colours far from the ring's median
(``vision.cutout``) holds the card alone. ``middle_colours_mask`` counts each colour in the middle and in
the ring (histograms of ``BINS`` levels a channel) and keeps the pixels whose colour is likelier in the
middle, the log odds averaged over a few pixels round each (a cheap stand-in for GrabCut's smoothness:
OpenCV's GrabCut found as many cards on the same crops at 40-60 times the cost, 19 ms a crop against
0.3-0.4; ``models/NOTEBOOK.md``, "A loose card told by its colours"). No torch here.
"""

from __future__ import annotations

import cv2
import numpy as np

ANALYSIS_SIDE = 128  # the crop is shrunk to this longer side first
BINS = 16  # levels per channel of the colour histograms
RING_SHARE = 0.08  # the outer ring's width, of the shorter side: table in a rough crop
MIDDLE_INSET = 0.3  # the middle leaves this share of the height and width out on every side
SMOOTHING = 5  # pixels (at ANALYSIS_SIDE): the side of the box the log odds are averaged over
_CLOSING = cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9))  # fills the print on the card's paper
_OPENING = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def _ring_and_middle(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The 8-bit masks of a picture's outer ring (RING_SHARE wide) and of its middle (MIDDLE_INSET in)."""
    ring = np.full((height, width), 255, np.uint8)
    k = max(2, round(RING_SHARE * min(height, width)))
    ring[k:height - k, k:width - k] = 0
    middle = np.zeros((height, width), np.uint8)
    dy, dx = round(MIDDLE_INSET * height), round(MIDDLE_INSET * width)
    middle[dy:height - dy, dx:width - dx] = 255
    return ring, middle


def _colour_frequencies(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``[BINS**3]`` float32: how often each colour bin occurs under ``mask``, every bin counted half a
    pixel more so that a colour never seen has odds, not a zero."""
    counts = cv2.calcHist([image], [0, 1, 2], mask, [BINS] * 3, [0, 256] * 3).reshape(-1) + 0.5
    return counts / counts.sum()


def middle_colours_mask(small: np.ndarray) -> np.ndarray:
    """The 8-bit mask of the BGR picture ``small``'s pixels whose colour (blurred) is likelier in its
    middle than in its outer ring, averaged over SMOOTHING pixels, with the print on a card's paper
    closed over and specks opened away. Best made on a picture of ANALYSIS_SIDE."""
    blurred = cv2.GaussianBlur(small, (5, 5), 0)
    ring, middle = _ring_and_middle(*blurred.shape[:2])
    log_odds = (np.log(_colour_frequencies(blurred, middle))
                - np.log(_colour_frequencies(blurred, ring))).astype(np.float32)
    levels = (blurred // (256 // BINS)).astype(np.intp)
    bins = (levels[..., 0] * BINS + levels[..., 1]) * BINS + levels[..., 2]
    smoothed = cv2.blur(log_odds[bins], (SMOOTHING, SMOOTHING))
    mask = np.where(smoothed > 0, np.uint8(255), np.uint8(0))
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSING), cv2.MORPH_OPEN, _OPENING)
