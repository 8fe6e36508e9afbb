"""A user's phone photos of their cards, rendered: what ``tressette enroll`` is given from a phone.

Each card large in its picture (150 px wide or more, about 300 px high), lying on a table with some
table round it and a little perspective, in some light, upright; nothing across it. Deterministic from
the generator. Used to measure enrolment from photos (``evaluate --enrol-from photos``) and in the tests.
"""

from __future__ import annotations

import numpy as np

from vision.crops import CropSettings, prepare_artwork, render_card_crop
from vision.decks import Deck

PHONE_PHOTO = CropSettings(
    min_card_width=150, max_card_height=460, typical_card_height=300, p_large=1.0, p_tight=0.0,
    p_other_card=0.0, p_fingers=0.0, p_corner_cut=0.0, p_upside_down=0.0, effect_strength=(0.1, 0.4),
)
DEFAULT_PHOTO_SEED = 5


def render_phone_photo(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One phone photo (BGR) of the card picture ``face`` (BGR, as ``Deck.faces`` holds it)."""
    return render_card_crop(prepare_artwork(face), rng, settings=PHONE_PHOTO)


def photos_of(deck: Deck, seed: int = DEFAULT_PHOTO_SEED) -> dict[str, list[np.ndarray]]:
    """One phone photo of each of ``deck``'s cards, by card code, in the deck's order, drawn from one
    generator seeded with ``seed`` (so a deck's photos are the same in every run)."""
    rng = np.random.default_rng(seed)
    return {code: [render_phone_photo(face, rng)] for code, face in deck.faces.items()}
