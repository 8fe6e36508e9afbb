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

from engine.cards import RANKS, SUITS
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
NUMBER_CARD_RANKS: tuple[str, ...] = tuple(str(rank) for rank in RANKS if str(rank) not in FIGURE_RANKS)
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


def same_suit_donors(code: str, ranks: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of ``ranks`` in the card's suit other than itself (``("5c", ("1", "5", "7"))`` ->
    ``("1c", "7c")``); ``()`` when its rank is not among ``ranks`` or its suit is not a suit."""
    rank, suit = code[:-1], code[-1]
    if rank not in ranks or suit not in SUITS:
        return ()
    return tuple(other + suit for other in ranks if other != rank)


def number_donors(code: str) -> tuple[str, ...]:
    """The deck's other number cards (Ace to Seven) of the same suit (``"5c"`` -> ``("1c", "2c", "3c",
    "4c", "6c", "7c")``); ``()`` for a figure. A number card drawn with one of their pips keeps its own
    index, which alone then tells its rank; the pips still tell its suit."""
    return same_suit_donors(code, NUMBER_CARD_RANKS)


def band_weights(size: int, low: float, high: float, feather: float = FEATHER) -> np.ndarray:
    """``[size]`` weights along one side of a card: 1 between the shares ``low`` and ``high`` of it,
    0 outside, a linear fade of ``feather`` at each edge."""
    x = (np.arange(size, dtype=np.float32) + 0.5) / size
    fade = max(feather, 1e-6)
    rising = np.clip((x - low) / fade + 0.5, 0.0, 1.0)
    falling = np.clip((high - x) / fade + 0.5, 0.0, 1.0)
    return np.minimum(rising, falling)


def lay_donor(art: Artwork, donor: Artwork, weights: np.ndarray) -> Artwork:
    """``art`` with ``donor`` (resized to it) laid over it by ``weights`` (``[H, 1]`` or ``[1, W]``, 1
    where the donor shows); ``art``'s outline (``alpha``) stays as it is."""
    height, width = art.image.shape[:2]
    picture = cv2.resize(donor.image, (width, height), interpolation=cv2.INTER_AREA)
    weights = weights[:, :, None]
    mixed = art.image.astype(np.float32) * (1.0 - weights) + picture.astype(np.float32) * weights
    return Artwork(image=np.clip(mixed + 0.5, 0, 255).astype(np.uint8), alpha=art.alpha)


def swap_figure(art: Artwork, donor: Artwork) -> Artwork:
    """``art`` with the middle band of ``donor`` (resized to it) over its picture; its margins, and so
    its corner indices, and its outline (``alpha``) stay as they are."""
    return lay_donor(art, donor, band_weights(art.image.shape[1], *BAND)[None, :])


def legible_settings(settings: CropSettings, min_card_width: int = LEGIBLE_MIN_CARD_WIDTH) -> CropSettings:
    """``settings`` for a swapped card: the card at least ``min_card_width`` pixels wide and no corner
    cut off, so that the index its label follows can be read (a second card or fingers still cover
    one side at most, which leaves the other index)."""
    return replace(settings, min_card_width=max(settings.min_card_width, min_card_width), p_corner_cut=0.0)
