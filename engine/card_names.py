"""Card names as players write them, read back into cards: ``Tre di coppe``, ``asso_spade``,
``re-di-bastoni``, ``Three of cups``, ``K di cuori``, ``7 hearts``.

The grammar, case and accents aside: a rank, then ``di`` or ``of`` if wished, then a suit, the words
parted by spaces, ``_``, ``-`` or ``.``. A rank is a number 1-10, an Italian or English rank name
(``engine.cards.RANK_NAMES``, and ``Cavaliere``, ``Jack``), or a French deck's letter (``A``, ``J``,
``Q``, ``K``). A suit is an Italian suit in the singular or the plural (``coppa``, ``coppe``) or in
English, or a French suit in Italian or English, read as RULES.md pairs them: cuori / hearts = coppe,
quadri / diamonds = denari, picche / spades = spade, fiori / clubs = bastoni. ``Donna`` is the 8 beside
an Italian suit (RULES.md: the Fante, "called Donna in some decks") and the Queen, the 9, beside a
French one, as in ``Donna di cuori``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import cast

from engine.cards import RANK_NAMES, SUIT_NAMES, Card, Suit
from engine.errors import CardError, Message

_ITALIAN_SUITS: dict[str, str] = {
    **{name: suit for names in SUIT_NAMES.values() for suit, name in names.items()},
    "coppa": "c", "denaro": "d", "spada": "s", "bastone": "b",
    "cup": "c", "coin": "d", "sword": "s", "baton": "b",
}
_FRENCH_SUITS: dict[str, str] = {
    "cuori": "c", "cuore": "c", "quadri": "d", "quadro": "d", "picche": "s", "picca": "s",
    "fiori": "b", "fiore": "b",
    "hearts": "c", "heart": "c", "diamonds": "d", "diamond": "d", "spades": "s", "clubs": "b", "club": "b",
}
_RANKS: dict[str, int] = {
    **{name.lower(): rank for names in RANK_NAMES.values() for rank, name in names.items()},
    **{str(rank): rank for rank in range(1, 11)},
    "cavaliere": 9, "jack": 8, "queen": 9, "a": 1, "j": 8, "q": 9, "k": 10,
}
_DONNA = {"italian": 8, "french": 9}
_JOINERS = ("di", "of")
_SEPARATORS = re.compile(r"[\s_\-.]+")


def name_words(text: str) -> list[str]:
    """The words of a written name, lower case, accents dropped: ``"Re_di Spade"`` -> ``re, di, spade``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return [word for word in _SEPARATORS.split(plain.lower()) if word]


def card_from_words(words: list[str]) -> Card | None:
    """The card the words name (the module's grammar, all the words used), or None."""
    if len(words) == 3 and words[1] in _JOINERS:
        words = [words[0], words[2]]
    if len(words) != 2:
        return None
    rank_word, suit_word = words
    # "spade", the English spade too, is read as the Italian suit: the same suit either way.
    if suit_word in _ITALIAN_SUITS:
        family, suit = "italian", _ITALIAN_SUITS[suit_word]
    elif suit_word in _FRENCH_SUITS:
        family, suit = "french", _FRENCH_SUITS[suit_word]
    else:
        return None
    rank = _DONNA[family] if rank_word == "donna" else _RANKS.get(rank_word)
    return None if rank is None else Card(rank, cast(Suit, suit))


def parse_card_name(text: str) -> Card:
    """The card a written name gives (module docstring); raise CardError showing the text."""
    card = card_from_words(name_words(text))
    if card is None:
        raise CardError(Message(
            f"not a card name: {text!r} (write the rank then the suit, such as "
            "'Tre di coppe', 'asso spade' or 'K di cuori')",
            f"non è il nome di una carta: {text!r} (si scrive il valore e poi il seme, come "
            "'Tre di coppe', 'asso spade' o 'K di cuori')"))
    return card
