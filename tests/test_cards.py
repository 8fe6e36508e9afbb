"""Card codes, names, strength and values (RULES.md, "Cards and notation" and "Card points")."""

import pytest

from engine.cards import CARD_CODES, CLASS_LABELS, DECK, DECK_THIRDS, Card, is_card_code, parse_card
from engine.errors import CardError


def test_deck_has_forty_distinct_cards_worth_ten_and_two_thirds_points() -> None:
    assert len(DECK) == 40
    assert len(set(CARD_CODES)) == 40
    assert DECK_THIRDS == 32


def test_taking_order_is_three_two_asso_re_cavallo_fante_seven_to_four() -> None:
    order = sorted((Card(rank, "c") for rank in range(1, 11)), key=lambda c: -c.strength)
    assert [c.rank for c in order] == [3, 2, 1, 10, 9, 8, 7, 6, 5, 4]


@pytest.mark.parametrize(("code", "thirds"), [("1d", 3), ("2c", 1), ("3s", 1), ("8b", 1), ("9c", 1),
                                              ("10d", 1), ("4c", 0), ("7s", 0)])
def test_card_values_in_thirds(code: str, thirds: int) -> None:
    assert parse_card(code).thirds == thirds


def test_names_as_players_say_them() -> None:
    assert parse_card("3c").name() == "Tre di coppe"
    assert parse_card("1d").name() == "Asso di denari"
    assert parse_card("10b").name("en") == "King of batons"


@pytest.mark.parametrize("bad", ["", "c", "0c", "11c", "3x", "03c", "3C", None, 3, "1 c", " 1c", "1c "])
def test_bad_codes_are_refused_with_the_input_shown(bad: object) -> None:
    with pytest.raises(CardError, match="card code"):
        parse_card(bad)
    assert not is_card_code(bad)


def test_classifier_labels_are_the_forty_cards_then_back_and_none() -> None:
    assert CLASS_LABELS[:40] == CARD_CODES
    assert CLASS_LABELS[40:] == ("back", "none")
