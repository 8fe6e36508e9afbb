"""A card drawn half by one deck and half by another: training cards that no one deck's drawing tells.

An unseen regional pattern draws its Cavallo, its swords and its cups its own way, and a model that
learnt each training deck's drawing whole reads the new one by guesswork (``models/NOTEBOOK.md``, "Where
the unseen Italian patterns fail"). ``mix_halves`` lays the lower part of the same card of another
deck of the same suits (Italian-suited with Italian-suited, French with French) over a card, from a
split between 40% and 60% of its height: the top says "Cavallo di coppe" in one deck's drawing and the
bottom in another's, and so does the label. A model trained on some of these has to know the card from
either half in any of the decks' drawings. No torch here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.crops import Artwork
from vision.decks import is_italian_style
from vision.figure_swap import band_weights, lay_donor

SPLIT = (0.4, 0.6)  # where the donor's part starts, as a share of the card's height
FEATHER = 0.04  # share of the height over which it fades in


def is_same_suit_system(style: str, other: str) -> bool:
    """True when both decks are Italian-suited or both French-suited."""
    return is_italian_style(style) == is_italian_style(other)


def mix_halves(art: Artwork, donor: Artwork, split: float) -> Artwork:
    """``art`` with ``donor`` (resized to it) from ``split`` of its height down; ``art``'s outline stays."""
    return lay_donor(art, donor, band_weights(art.image.shape[0], split, 2.0, FEATHER)[:, None])


def half_mixed(art: Artwork, donors: Sequence[Artwork], rng: np.random.Generator) -> Artwork:
    """``art`` with the lower part of one of ``donors`` (the same card of other decks), split at random."""
    donor = donors[int(rng.integers(len(donors)))]
    return mix_halves(art, donor, float(rng.uniform(*SPLIT)))
