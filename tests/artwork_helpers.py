"""Small artworks for the tests of the trainer's ways of drawing cards."""

from __future__ import annotations

import numpy as np

from engine.cards import CARD_CODES, CLASS_LABELS
from vision.crops import Artwork, prepare_artwork
from vision.training.dataset import Augmentations, StyleArt, draw_sample, has_figure_index


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


def indexed_card_draws(style: StyleArt, shares: Augmentations,
                       seeds: int = 40) -> tuple[int, list[np.ndarray]]:
    """Each seed drawn from ``style`` without and with ``shares``: the classes drawn must be the same, and
    so must the crops of a deck without a corner index and of a back or a non-card. Returns how many of
    the other crops (cards of a deck with an index) changed, and those crops as drawn with ``shares``."""
    changed, cards = 0, []
    for seed in range(seeds):
        plain = draw_sample(np.random.default_rng(seed), [style], Augmentations())
        asked = draw_sample(np.random.default_rng(seed), [style], shares)
        assert plain[1:] == asked[1:]
        if not has_figure_index(style.name) or CLASS_LABELS[plain[1]] not in CARD_CODES:
            assert np.array_equal(plain[0], asked[0])
        else:
            cards.append(asked[0])
            changed += not np.array_equal(plain[0], asked[0])
    return changed, cards
