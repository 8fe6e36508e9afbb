"""The 40 cards, their codes, names, taking strength and point values.

Card code: the number then the suit's initial, lower case: ``1d`` is the Asso di
denari, ``10b`` the Re di bastoni (RULES.md, "Cards and notation").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import CardError, Message

Suit = Literal["c", "d", "s", "b"]
Lang = Literal["it", "en"]

SUITS: tuple[Suit, ...] = ("c", "d", "s", "b")
RANKS: tuple[int, ...] = tuple(range(1, 11))

SUIT_NAMES: dict[Lang, dict[str, str]] = {
    "it": {"c": "coppe", "d": "denari", "s": "spade", "b": "bastoni"},
    "en": {"c": "cups", "d": "coins", "s": "swords", "b": "batons"},
}
RANK_NAMES: dict[Lang, dict[int, str]] = {
    "it": {1: "Asso", 2: "Due", 3: "Tre", 4: "Quattro", 5: "Cinque", 6: "Sei", 7: "Sette",
           8: "Fante", 9: "Cavallo", 10: "Re"},
    "en": {1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
           8: "Knave", 9: "Knight", 10: "King"},
}

# Taking order, strongest first: 3, 2, Asso, Re, Cavallo, Fante, 7, 6, 5, 4.
_TAKING_ORDER: tuple[int, ...] = (3, 2, 1, 10, 9, 8, 7, 6, 5, 4)
_STRENGTH: dict[int, int] = {rank: len(_TAKING_ORDER) - i for i, rank in enumerate(_TAKING_ORDER)}

# Card values in thirds of a point: Asso 3, figures/2/3 1 each, scartine 0.
_THIRDS: dict[int, int] = {1: 3, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0, 8: 1, 9: 1, 10: 1}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One of the 40 cards: ``rank`` 1..10 (1 = Asso, 8 = Fante, 9 = Cavallo, 10 = Re), ``suit`` c/d/s/b."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise CardError(Message(f"no such card: rank {self.rank!r}, suit {self.suit!r}",
                                    f"questa carta non esiste: valore {self.rank!r}, seme {self.suit!r}"))

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse a canonical card code such as ``3c`` or ``10b``; raise CardError naming the code."""
        return parse_card(code)

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit}"

    @property
    def strength(self) -> int:
        """Taking strength within the suit: higher takes; 3 is 10, 4 is 1."""
        return _STRENGTH[self.rank]

    @property
    def thirds(self) -> int:
        """Card value in thirds of a point."""
        return _THIRDS[self.rank]

    def name(self, lang: Lang = "it") -> str:
        """The name players say: ``Tre di coppe`` / ``Three of cups``."""
        joiner = " di " if lang == "it" else " of "
        return RANK_NAMES[lang][self.rank] + joiner + SUIT_NAMES[lang][self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def parse_card(code: object) -> Card:
    """Parse a canonical card code (``1c`` .. ``10b``); raise CardError showing the bad input."""
    if not isinstance(code, str):
        raise CardError(Message(f"a card code must be a string like '3c', got {code!r}",
                                f"il codice di una carta è un testo come '3c', non {code!r}"))
    text = code
    if len(text) < 2 or not text[:-1].isdigit():
        raise _not_a_code(code)
    rank, suit = int(text[:-1]), text[-1]
    if rank not in RANKS or suit not in SUITS or text[:-1] != str(rank):
        raise _not_a_code(code)
    return _BY_CODE[text]


def _not_a_code(code: str) -> CardError:
    return CardError(Message(
        f"not a card code: {code!r} (expected rank 1-10 then suit c/d/s/b, e.g. '3c')",
        f"non è il codice di una carta: {code!r} (si scrive il valore 1-10 e il seme c/d/s/b, come '3c')"))


def is_card_code(code: object) -> bool:
    """True when ``code`` is one of the 40 canonical card codes."""
    return isinstance(code, str) and code in _BY_CODE


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
_BY_CODE: dict[str, Card] = {card.code: card for card in DECK}
CARD_CODES: tuple[str, ...] = tuple(card.code for card in DECK)

# The classifier's classes: the 40 cards, a face-down card, and "not a card".
BACK = "back"
NONE = "none"
CLASS_LABELS: tuple[str, ...] = (*CARD_CODES, BACK, NONE)

DECK_THIRDS = sum(card.thirds for card in DECK)  # 32 thirds = 10 2/3 points
