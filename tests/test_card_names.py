"""Card names as players write them (``engine.card_names``)."""

from __future__ import annotations

import pytest

from engine.card_names import parse_card_name
from engine.cards import DECK
from engine.errors import CardError


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_card_is_read_back_from_the_name_it_is_given(lang: str) -> None:
    for card in DECK:
        assert parse_card_name(card.name(lang)) == card  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "code"), [
    ("tre di coppe", "3c"), ("TRE_DI_COPPE", "3c"), ("re-di-bastoni", "10b"), ("asso spade", "1s"),
    ("Asso_di_Denari", "1d"), ("7 denari", "7d"), ("10 di bastoni", "10b"), ("1 coppa", "1c"),
    ("cavaliere di spade", "9s"), ("Quattro dì spade", "4s"), ("sei.bastone", "6b"),
    ("Three of cups", "3c"), ("jack of swords", "8s"), ("knight coins", "9d"),
    # French decks, by RULES.md: A=1, J=8, Q=9, K=10; cuori/hearts coppe, quadri/diamonds denari,
    # picche/spades spade, fiori/clubs bastoni.
    ("K di cuori", "10c"), ("A picche", "1s"), ("Q quadri", "9d"), ("j fiori", "8b"), ("7 hearts", "7c"),
    ("queen of spades", "9s"), ("king of clubs", "10b"), ("2 of diamonds", "2d"),
    # Donna: the Fante in some Italian decks, the Queen in a French one.
    ("Donna di coppe", "8c"), ("donna di cuori", "9c"), ("Donna di picche", "9s"), ("donna di spade", "8s"),
])
def test_names_as_they_are_written(text: str, code: str) -> None:
    assert parse_card_name(text).code == code


@pytest.mark.parametrize("text", [
    "", "coppe", "tre", "tre di", "undici di coppe", "11 coppe", "0 coppe", "tre di jolly", "tre di di coppe",
    "tre coppe spade", "di tre coppe", "IMG_0042",
])
def test_what_is_not_a_card_name_is_refused_showing_the_text(text: str) -> None:
    with pytest.raises(CardError, match=rf"not a card name: {text!r} \(write the rank then the suit"):
        parse_card_name(text)
