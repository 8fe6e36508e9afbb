"""Figures drawn as another figure of their suit, so that only the corner index tells them apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.cards import CLASS_LABELS
from tests.artwork_helpers import flat_card, graded_style
from vision.crops import CropSettings
from vision.decks import find_cards_root, list_styles
from vision.figure_swap import (
    BAND,
    FEATHER,
    INDEXED_STYLES,
    LEGIBLE_MIN_CARD_WIDTH,
    figure_donors,
    legible_settings,
    number_donors,
    swap_figure,
)
from vision.training.dataset import Augmentations, DatasetError, draw_sample, has_figure_index, render_pool
from vision.training.pysol_decks import DECKS, INDEXED_DECKS

CARDS_ROOT = find_cards_root()
# Decks whose figures carry no corner index: the picture is all there is to read.
WITHOUT_INDEX = ("toscane", "genovesi", "milanesi", "piemontesi", "napoletane", "piacentine", "siciliane",
                 "sarde", "trentine", "trevisane", "bergamasche", "bolognesi", "romagnole")


@pytest.mark.parametrize(("code", "donors"), [
    ("8c", ("9c", "10c", "8d", "9d", "10d", "8s", "9s", "10s", "8b", "9b", "10b")),
    ("10b", ("8c", "9c", "10c", "8d", "9d", "10d", "8s", "9s", "10s", "8b", "9b")),
    ("1d", ()), ("7c", ()),
])
def test_a_figure_gets_every_other_figure_of_its_deck(code: str, donors: tuple[str, ...]) -> None:
    assert figure_donors(code) == donors


def test_the_margins_keep_the_card_and_the_middle_takes_the_donor() -> None:
    card, donor = flat_card(200), flat_card(40, width=70, height=110)  # the donor is resized to the card
    swapped = swap_figure(card, donor)
    assert swapped.image.shape == card.image.shape and swapped.alpha is card.alpha
    columns = swapped.image[75, :, 0].astype(int)
    margin = int((BAND[0] - FEATHER) * 100)
    assert (columns[:margin] == 200).all() and (columns[-margin:] == 200).all()  # indices stay
    middle = slice(int((BAND[0] + FEATHER) * 100) + 1, int((BAND[1] - FEATHER) * 100) - 1)
    assert (columns[middle] == 40).all()
    assert (np.diff(columns[:50]) <= 0).all()  # a fade, not a seam


def test_the_original_artwork_is_not_changed() -> None:
    card = flat_card(200)
    swap_figure(card, flat_card(40))
    assert (card.image == 200).all()


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_the_indexed_styles_are_french_decks_of_the_artwork() -> None:
    assert CARDS_ROOT is not None
    styles = set(list_styles(CARDS_ROOT))
    assert styles >= INDEXED_STYLES, sorted(INDEXED_STYLES - styles)
    assert not INDEXED_STYLES & set(WITHOUT_INDEX)


@pytest.mark.parametrize(("name", "indexed"), [
    ("kde-penguins", True), ("pysol-warwick", True), ("pysol-india-pantheon", True), ("toscane", False),
    ("pysol-1567", False), ("pysol-z-minimal", False), ("warwick", False), ("pysol-kde-penguins", False),
])
def test_a_style_has_a_figure_index_when_its_figures_carry_one(name: str, indexed: bool) -> None:
    assert has_figure_index(name) is indexed


def test_the_indexed_pysol_sets_are_converted_sets() -> None:
    assert set(INDEXED_DECKS) <= set(DECKS), sorted(set(INDEXED_DECKS) - set(DECKS))
    assert list(INDEXED_DECKS) == sorted(set(INDEXED_DECKS))


SWAPS = {"p_figure_swap": figure_donors, "p_number_swap": number_donors}


@pytest.mark.parametrize("share", sorted(SWAPS))
@pytest.mark.parametrize("name", ["toscane", "kde-penguins", "pysol-warwick", "pysol-1567"])
def test_only_cards_of_a_deck_with_an_index_are_swapped(name: str, share: str) -> None:
    """Figure swap touches only figures, number swap only number cards, and only of decks with an index;
    a swapped card is rendered where its index can be read."""
    styles = [graded_style(name)]
    kept = swapped = 0
    for seed in range(60):
        plain = draw_sample(np.random.default_rng(seed), styles, Augmentations(**{share: 0.0}))
        asked = draw_sample(np.random.default_rng(seed), styles, Augmentations(**{share: 1.0}))
        if not has_figure_index(name) or not SWAPS[share](CLASS_LABELS[plain[1]]):
            assert np.array_equal(plain[0], asked[0]) and plain[1:] == asked[1:]
            kept += 1
        else:
            assert asked[0].shape[0] >= 82  # a card 60 px wide, cut tight
            swapped += not np.array_equal(plain[0], asked[0])
    assert kept >= 10 and (swapped > 0) == has_figure_index(name)


def test_a_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(DatasetError, match=r"p_figure_swap must be a share between 0 and 1, got 1\.5"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_figure_swap=1.5))


def test_a_swapped_figure_is_rendered_where_its_index_can_be_read() -> None:
    settings = legible_settings(CropSettings(min_card_width=40, p_corner_cut=0.12, p_fingers=0.3))
    assert settings.min_card_width == LEGIBLE_MIN_CARD_WIDTH and settings.p_corner_cut == 0.0
    assert settings.p_fingers == 0.3  # everything else as it was
    assert legible_settings(CropSettings(min_card_width=80)).min_card_width == 80


def test_swapped_figures_are_never_rendered_small() -> None:
    styles = [graded_style("kde-penguins")]
    plain_heights, swapped_heights = [], []
    for seed in range(150):
        plain = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_figure_swap=0.0))
        if not figure_donors(CLASS_LABELS[plain[1]]):
            continue
        swapped = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_figure_swap=1.0))
        plain_heights.append(plain[0].shape[0])
        swapped_heights.append(swapped[0].shape[0])
    # A card 60 px wide is 90 px tall; a tight cut takes at most 4% off each side.
    assert len(swapped_heights) >= 15 and min(swapped_heights) >= 82
    assert min(plain_heights) < 82  # unswapped figures still come as small as the camera sees them


@pytest.mark.parametrize(("code", "donors"), [
    ("5c", ("1c", "2c", "3c", "4c", "6c", "7c")),
    ("1b", ("2b", "3b", "4b", "5b", "6b", "7b")),
    ("8d", ()), ("10s", ()),
])
def test_a_number_card_gets_the_other_number_cards_of_its_suit(code: str, donors: tuple[str, ...]) -> None:
    assert number_donors(code) == donors


def test_a_number_swap_names_its_pool_and_a_bad_share_is_refused() -> None:
    assert ["number_swap", 0.3] in Augmentations(p_number_swap=0.3).cache_key()
    assert Augmentations().cache_key() == [0.0, 0.0]  # the pools made before it keep their names
    with pytest.raises(DatasetError, match=r"p_number_swap must be a share between 0 and 1, got -0\.1"):
        Augmentations(p_number_swap=-0.1)
