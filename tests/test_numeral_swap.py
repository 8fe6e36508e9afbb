"""Italian number cards whose numerals, not their pips, tell the rank."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.cards import CLASS_LABELS
from tests.artwork_helpers import flat_card, graded_style
from vision.decks import ITALIAN_STYLES, find_cards_root, list_styles
from vision.figure_swap import FEATHER
from vision.numeral_swap import (
    LEGIBLE_MIN_CARD_WIDTH,
    NUMERAL_STYLES,
    STRIP,
    numbered_card,
    numeral_donors,
    paper_colour,
    stamp_numerals,
    swap_pips,
)
from vision.training.dataset import Augmentations, DatasetError, draw_sample, render_pool

CARDS_ROOT = find_cards_root()


@pytest.mark.parametrize(("code", "donors"), [
    ("4s", ("2s", "3s", "5s", "6s", "7s")),
    ("2c", ("3c", "4c", "5c", "6c", "7c")),
    ("7b", ("2b", "3b", "4b", "5b", "6b")),
    ("1d", ()), ("8d", ()), ("10s", ()),
])
def test_a_number_card_gets_the_other_number_cards_of_its_suit(code: str, donors: tuple[str, ...]) -> None:
    assert numeral_donors(code) == donors


def test_the_strips_keep_the_card_and_the_middle_takes_the_donor() -> None:
    card, donor = flat_card(200), flat_card(40, width=60, height=90)  # the donor is resized to the card
    swapped = swap_pips(card, donor)
    assert swapped.image.shape == card.image.shape and swapped.alpha is card.alpha
    rows = swapped.image[:, 50, 0].astype(int)
    strip = int((STRIP - FEATHER) * 150)
    assert (rows[:strip] == 200).all() and (rows[-strip:] == 200).all()  # the numerals stay
    middle = slice(int((STRIP + FEATHER) * 150) + 1, int((1 - STRIP - FEATHER) * 150) - 1)
    assert (rows[middle] == 40).all()
    assert (np.diff(rows[:75]) <= 0).all()  # a fade, not a seam


def test_a_stamped_numeral_is_dark_ink_on_paper_in_two_opposite_corners() -> None:
    card = flat_card(230)
    card.image[40:110, 30:70] = (0, 0, 200)  # a red pip in the middle
    stamped = stamp_numerals(card, "5", np.random.default_rng(1))
    changed = np.any(stamped.image != card.image, axis=2)
    rows, columns = np.nonzero(changed)
    top_left = (rows < 30) & (columns < 40)
    bottom_right = (rows >= 120) & (columns >= 60)
    assert top_left.any() and bottom_right.any() and (top_left | bottom_right).all()
    assert stamped.image.min() < 150  # ink, not paper
    assert np.array_equal(stamped.image[40:110, 30:70], card.image[40:110, 30:70])  # the pips stay
    assert stamped.alpha is card.alpha and (card.image[:30, :40] == 230).all()  # the original is kept


def test_the_same_draws_stamp_the_same_numerals() -> None:
    card = flat_card(220)
    first = stamp_numerals(card, "3", np.random.default_rng(9)).image
    assert np.array_equal(first, stamp_numerals(card, "3", np.random.default_rng(9)).image)
    assert not np.array_equal(first, stamp_numerals(card, "6", np.random.default_rng(9)).image)


def test_the_paper_is_the_brightest_of_the_card() -> None:
    card = flat_card(60)
    card.image[:, :20] = (200, 210, 220)
    assert paper_colour(card.image).tolist() == [200, 210, 220]


def test_a_deck_with_numerals_keeps_its_own_and_takes_a_donors_pips() -> None:
    card, donor = flat_card(200), flat_card(40)
    numbered = numbered_card(card, [donor], "4s", "trevisane", np.random.default_rng(0))
    assert np.array_equal(numbered.image, swap_pips(card, donor).image)


def test_a_deck_without_numerals_gets_them_stamped_over_either_card() -> None:
    card, donor = flat_card(200), flat_card(180)
    draws = [np.random.default_rng(seed) for seed in range(30)]
    middles = {int(numbered_card(card, [donor], "4s", "napoletane", rng).image[75, 50, 0]) for rng in draws}
    assert middles == {200, 180}


@pytest.mark.parametrize("name", ["trevisane", "napoletane", "kde-penguins"])
def test_only_number_cards_of_italian_decks_are_numbered_and_never_small(name: str) -> None:
    styles = [graded_style(name)]
    kept = numbered = 0
    heights, plain_heights = [], []
    for seed in range(120):
        plain = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_numeral_swap=0.0))
        asked = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_numeral_swap=1.0))
        if name not in ITALIAN_STYLES or not numeral_donors(CLASS_LABELS[plain[1]]):
            assert np.array_equal(plain[0], asked[0]) and plain[1:] == asked[1:]
            kept += 1
        else:
            assert asked[1] == plain[1]  # the label stays the card's own
            numbered += 1
            heights.append(asked[0].shape[0])
            plain_heights.append(plain[0].shape[0])
    assert kept >= 40 and (numbered > 0) == (name in ITALIAN_STYLES)
    # A card 80 px wide is 120 px tall at this aspect; a tight cut takes at most 4% off each side.
    assert not heights or min(heights) >= round(LEGIBLE_MIN_CARD_WIDTH * 1.5 * 0.92) > min(plain_heights)


def test_a_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(DatasetError, match=r"p_numeral_swap must be a share between 0 and 1, got -0\.1"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_numeral_swap=-0.1))


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_the_decks_with_numerals_are_italian_decks_of_the_artwork() -> None:
    assert CARDS_ROOT is not None
    assert set(list_styles(CARDS_ROOT)) & ITALIAN_STYLES >= NUMERAL_STYLES
