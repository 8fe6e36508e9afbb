"""A figure drawn as another figure of its deck: training cards that only their corner index can tell.

On a French-suited card the rank and the suit of a Jack, Queen or King are printed in the corner index;
the picture between the indices is the deck designer's own (a penguin with or without a crown, a
German ``D`` for the Queen, a Cyrillic one). A model that learnt the figures from the pictures of the
decks it trained on reads an unseen design's figures by guesswork: its rank, and its suit too, which
on a figure is nowhere else than in the index. ``swap_figure`` lays the middle band of another figure
of the same deck, of any suit, over a figure card, keeping the card's own indices in the left and
right margins: the picture now says one figure and the index another, and the label follows the
index. A model trained on some of these learns to read the index where there is one. (With donors of
the same suit only, the picture still told the suit, and a held-out deck's figures were read with
the right rank and the wrong suit of its colour: Jack of spades as Jack of clubs.)

Only styles whose figures carry a corner index (``INDEXED_STYLES``) get this; Italian-suited decks and
the French-suited Italian regional ones (Toscane, Genovesi, Milanesi, Piemontesi) have no index, and
there the picture is the only cue. A swapped figure is only ever rendered where its index can be
read (``legible_settings``): large enough, and with no corner cut off; otherwise its label would be
noise that teaches the model to distrust the pictures of the decks it knows. No torch here.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from engine.cards import SUITS
from vision.crops import Artwork, CropSettings

# French-suited styles of ../shared/cards whose Jack, Queen and King carry a corner index.
INDEXED_STYLES: frozenset[str] = frozenset({
    "francesi", "gnome-ancient-french", "gnome-anglo", "gnome-anglo-modern", "gnome-anglo-poker",
    "gnome-atlasnye", "gnome-bellot", "gnome-berlin", "gnome-dondorf", "gnome-guyenne-classic",
    "gnome-lattmann", "gnome-neoclassical", "gnome-orell", "gnome-ornamental", "gnome-paris",
    "gnome-plastic", "gnome-rheinland", "gnome-simplistic", "gnome-slavic-costumes", "gnome-tango",
    "gnome-tarocco", "gnome-tigullio", "kde-ancient-egyptians", "kde-jolly-royal", "kde-oxygen",
    "kde-oxygen-air", "kde-oxygen-white", "kde-penguins", "kde-standard", "kde-tigullio-international",
    "kde-xskat-french",
})
FIGURE_RANKS: tuple[str, ...] = ("8", "9", "10")  # Jack, Queen, King (Fante, Cavallo, Re)
FIGURE_CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in FIGURE_RANKS)
BAND = (0.2, 0.8)  # the share of the card's width taken from the donor; the indices lie outside it
FEATHER = 0.03  # share of the width over which the band's edges fade in
# A swapped figure's card is at least this wide in camera pixels (about 90 tall): its corner index is
# then some 7 pixels high, the least a 64x96 crop still shows as a letter.
LEGIBLE_MIN_CARD_WIDTH = 60


def figure_donors(code: str) -> tuple[str, ...]:
    """The deck's other eleven figures, every suit (``"9c"`` -> ``("8c", "10c", "8d", ...)``); ``()`` for
    a number card."""
    if code[:-1] not in FIGURE_RANKS:
        return ()
    return tuple(other for other in FIGURE_CODES if other != code)


def _band_weights(width: int) -> np.ndarray:
    """``[width]`` weights of the donor: 1 inside BAND, 0 outside, a linear fade of FEATHER at each edge."""
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    fade = max(FEATHER, 1e-6)
    rising = np.clip((x - BAND[0]) / fade + 0.5, 0.0, 1.0)
    falling = np.clip((BAND[1] - x) / fade + 0.5, 0.0, 1.0)
    return np.minimum(rising, falling)


def swap_figure(art: Artwork, donor: Artwork) -> Artwork:
    """``art`` with the middle band of ``donor`` (resized to it) over its picture; its margins, and so
    its corner indices, and its outline (``alpha``) stay as they are."""
    height, width = art.image.shape[:2]
    picture = cv2.resize(donor.image, (width, height), interpolation=cv2.INTER_AREA)
    weights = _band_weights(width)[None, :, None]
    mixed = art.image.astype(np.float32) * (1.0 - weights) + picture.astype(np.float32) * weights
    return Artwork(image=np.clip(mixed + 0.5, 0, 255).astype(np.uint8), alpha=art.alpha)


def legible_settings(settings: CropSettings) -> CropSettings:
    """``settings`` for a swapped figure: the card at least ``LEGIBLE_MIN_CARD_WIDTH`` pixels wide and
    no corner cut off, so that the index its label follows can be read (a second card or fingers
    still cover one side at most, which leaves the other index)."""
    return replace(settings, min_card_width=max(settings.min_card_width, LEGIBLE_MIN_CARD_WIDTH),
                   p_corner_cut=0.0)
