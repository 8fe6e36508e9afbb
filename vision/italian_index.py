"""An Italian-suited card with its rank printed in two opposite corners, as a Triestine deck prints it.

Triestine, a pattern of the field the artwork lacks (a child of Trevisane), prints 1 to 7 on its number
cards and 11, 12, 13 on the Fante, Cavallo and Re, in two opposite corners (which two varies from card
to card). A model that learnt corner indices from French decks only reads such an index as a French
one: black digits as a black suit, now and then a Re's 13 as an Asso (the shipped recipe's
held-out twin read its three unseen patterns 58.5% as drawn and 51.7% with such an index, the
figures' suit going to bastoni: notebook, "The shipped recipe's held-out twin, and a Triestine index
on the patterns it never saw").
``print_index`` prints the card's own rank so, with ``vision.numeral_swap.stamp_numerals`` (one face,
ink, height and inset from ``rng``; the ink is any suit's, so that its colour tells nothing), in the
top-left and bottom-right corners or, with chance ``P_RIGHT``, the top-right and bottom-left ones. Its
heights (``INDEX_HEIGHT``) and strokes (``INDEX_STROKE``) reach further than numeral swap's: the twin
trained with numeral swap's range lost at most 1.4 points to an index of that range, about 3 to 4 to
a taller or bolder one (notebook, "The held-out twin trained with ``--italian-index 0.3``"). The index
agrees with the card, so the card needs no legible rendering. No torch here.
"""

from __future__ import annotations

import numpy as np

from engine.cards import is_card_code
from vision.crops import Artwork
from vision.errors import VisionError
from vision.numeral_swap import stamp_numerals

# What a Triestine deck prints for each rank of the Tressette codes (8, 9, 10: Fante, Cavallo, Re).
INDEX_TEXTS: dict[str, str] = {"1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
                               "8": "11", "9": "12", "10": "13"}
P_RIGHT = 0.5
INDEX_HEIGHT = (0.045, 0.09)  # the index's text box height (its ink ~3/4 of it), as a share of the card's
INDEX_STROKE = (0.7, 2.2)  # its stroke, as a multiple of a ninth of its height


class ItalianIndexError(VisionError):
    """A card code that names no Tressette card."""


def index_text(code: str) -> str:
    """What a Triestine deck prints in the corners of card ``code`` (``"9c"`` -> ``"12"``); a code that is
    not one of the 40 (``engine.cards.is_card_code``) is refused."""
    if not is_card_code(code):
        raise ItalianIndexError(
            f"{code!r} is not a card code of the 40 (rank {code[:-1]!r}): no index to print")
    return INDEX_TEXTS[code[:-1]]


def print_index(art: Artwork, code: str, rng: np.random.Generator) -> Artwork:
    """``art`` (card ``code`` of an Italian-suited deck) with its rank printed in two opposite corners as
    Triestine prints it (``index_text``); its outline (``alpha``) unchanged."""
    text = index_text(code)
    return stamp_numerals(art, text, rng, right=bool(rng.random() < P_RIGHT), heights=INDEX_HEIGHT,
                          strokes=INDEX_STROKE)
