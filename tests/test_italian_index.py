"""An Italian-suited card with its rank in two opposite corners, as Triestine prints it."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS
from tests.artwork_helpers import flat_card, graded_style
from vision.decks import ITALIAN_STYLES
from vision.italian_index import (
    INDEX_HEIGHT,
    INDEX_STROKE,
    P_RIGHT,
    ItalianIndexError,
    index_text,
    print_index,
)
from vision.numeral_swap import STAMP_HEIGHT, stamp_numerals
from vision.training.dataset import Augmentations, DatasetError, draw_sample


@pytest.mark.parametrize(("code", "text"), [("1d", "1"), ("4s", "4"), ("7b", "7"), ("8c", "11"), ("9c", "12"),
                                            ("10s", "13")])
def test_the_rank_is_printed_as_triestine_numbers_it(code: str, text: str) -> None:
    assert index_text(code) == text


def test_a_code_of_no_card_is_refused_by_name() -> None:
    with pytest.raises(ItalianIndexError, match=r"'11c' is not a card code of the 40 \(rank '11'\)"):
        index_text("11c")
    with pytest.raises(ItalianIndexError, match=r"'9x' is not a card code of the 40"):
        index_text("9x")  # a rank with no suit of the 40


def ink_corners(card_image: np.ndarray, printed: np.ndarray) -> set[str]:
    """Which corners of the card the printing changed: "tl", "tr", "bl", "br"."""
    rows, columns = np.nonzero(np.any(printed != card_image, axis=2))
    height, width = card_image.shape[:2]
    return {("t" if row < height / 2 else "b") + ("l" if column < width / 2 else "r")
            for row, column in zip(rows, columns, strict=True)}


def test_the_index_lies_in_one_pair_of_opposite_corners_and_both_pairs_are_drawn() -> None:
    card = flat_card(230)
    pairs = set()
    for seed in range(12):
        printed = print_index(card, "9c", np.random.default_rng(seed))
        corners = frozenset(ink_corners(card.image, printed.image))
        assert corners in ({"tl", "br"}, {"tr", "bl"})
        assert printed.image.min() < 150 and printed.alpha is card.alpha
        pairs.add(corners)
    assert len(pairs) == 2
    assert (card.image == 230).all()  # the card given is not changed


def test_the_index_is_the_stamp_of_its_text_on_the_side_drawn() -> None:
    card = flat_card(220)
    printed = print_index(card, "10b", np.random.default_rng(3)).image
    draws = np.random.default_rng(3)
    right = bool(draws.random() < P_RIGHT)
    assert np.array_equal(printed, stamp_numerals(card, "13", draws, right=right, heights=INDEX_HEIGHT,
                                                  strokes=INDEX_STROKE).image)
    assert not np.array_equal(printed, stamp_numerals(card, "13", np.random.default_rng(3), right=not right,
                                                      heights=INDEX_HEIGHT, strokes=INDEX_STROKE).image)


def ink_height(card_image: np.ndarray, printed: np.ndarray) -> int:
    """Rows the printing inked in the top half of the card (the upright index)."""
    top = np.any(printed[: card_image.shape[0] // 2] != card_image[: card_image.shape[0] // 2], axis=(1, 2))
    rows = np.nonzero(top)[0]
    return int(rows[-1] - rows[0] + 1)


def test_the_index_reaches_taller_than_numeral_swap_stamps() -> None:
    card = flat_card(230, width=400, height=600)
    index = [ink_height(card.image, print_index(card, "4c", np.random.default_rng(seed)).image)
             for seed in range(40)]
    stamped = [ink_height(card.image, stamp_numerals(card, "4", np.random.default_rng(seed)).image)
               for seed in range(40)]
    ratio = (INDEX_HEIGHT[1] / STAMP_HEIGHT[1] + 1) / 2  # half of the further reach, for the draws' spread
    assert max(index) > ratio * max(stamped)
    assert min(index) < 1.1 * min(stamped)  # and as short as a stamp still


@pytest.mark.parametrize("name", ["napoletane", "kde-penguins"])
def test_only_the_cards_of_italian_decks_are_printed_and_their_label_stays(name: str) -> None:
    styles = [graded_style(name)]
    changed = {"card": [], "other": []}
    for seed in range(80):
        plain = draw_sample(np.random.default_rng(seed), styles, Augmentations())
        asked = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_italian_index=1.0))
        assert asked[1:] == plain[1:]
        kind = "card" if CLASS_LABELS[plain[1]] in CARD_CODES else "other"
        changed[kind].append(not np.array_equal(plain[0], asked[0]))
    assert not any(changed["other"])
    assert changed["card"] and all(changed["card"]) == (name in ITALIAN_STYLES)
    assert any(changed["card"]) == (name in ITALIAN_STYLES)


def test_a_numbered_card_gets_no_second_index() -> None:
    styles = [graded_style("napoletane")]
    seen = 0
    for seed in range(60):
        numbered = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_numeral_swap=1.0))
        both = draw_sample(np.random.default_rng(seed), styles,
                           Augmentations(p_numeral_swap=1.0, p_italian_index=1.0))
        name = CLASS_LABELS[numbered[1]]
        if name in CARD_CODES and name[:-1] in {"2", "3", "4", "5", "6", "7"}:
            assert np.array_equal(numbered[0], both[0])
            seen += 1
    assert seen >= 5


def test_the_printed_share_names_its_pool_and_a_bad_share_is_refused() -> None:
    assert Augmentations(p_italian_index=0.3).cache_key()[-1] == ["italian_index", 0.3]
    assert "italian_index" not in str(Augmentations(p_index_erase=0.4).cache_key())
    with pytest.raises(DatasetError, match=r"p_italian_index must be a share between 0 and 1, got 1.5"):
        Augmentations(p_italian_index=1.5)
