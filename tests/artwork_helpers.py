"""Small artworks for the tests of the trainer's ways of drawing cards."""

from __future__ import annotations

import numpy as np

from engine.cards import CARD_CODES
from vision.crops import Artwork, prepare_artwork
from vision.training.dataset import StyleArt


def flat_card(value: int, width: int = 100, height: int = 150) -> Artwork:
    """A card of one grey ``value``, opaque everywhere."""
    alpha = np.ones((height, width), np.float32)
    return Artwork(image=np.full((height, width, 3), value, np.uint8), alpha=alpha)


def graded_style(name: str) -> StyleArt:
    """A deck called ``name`` whose 40 faces are each a different grey, so that a swap shows."""
    faces = {code: prepare_artwork(np.full((90, 60, 3), 6 * i, np.uint8))
             for i, code in enumerate(CARD_CODES)}
    return StyleArt(name=name, faces=faces, back=None)


def flat_style(name: str, value: int) -> StyleArt:
    """A deck called ``name`` whose 40 faces are all the grey ``value``, so that another deck's part shows."""
    faces = {code: prepare_artwork(np.full((90, 60, 3), value, np.uint8)) for code in CARD_CODES}
    return StyleArt(name=name, faces=faces, back=None)
