"""A deck drawn in code, for filming the table where no card artwork is at hand (tests, benches).

Forty white cards, each with a border in its suit's colour and its code printed large; the back is plain
dark red.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.cards import CARD_CODES
from vision.decks import Deck

SUIT_COLOURS = {"c": (40, 40, 200), "d": (0, 170, 220), "s": (160, 60, 20), "b": (30, 120, 30)}  # BGR


def drawn_deck(name: str = "synthetic", with_back: bool = True) -> Deck:
    """The drawn deck, 110x180 px a card; without a back when ``with_back`` is false."""
    faces = {}
    for code in CARD_CODES:
        face = np.full((180, 110, 3), 245, np.uint8)
        cv2.rectangle(face, (6, 6), (103, 173), SUIT_COLOURS[code[-1]], 5)
        cv2.putText(face, code, (12, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 3, cv2.LINE_AA)
        faces[code] = face
    back = np.full((180, 110, 3), (40, 40, 150), np.uint8) if with_back else None
    return Deck(name=name, faces=faces, back=back, italian=False)
