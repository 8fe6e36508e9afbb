"""Cards drawn half by one deck and half by another of the same suits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS
from tests.artwork_helpers import flat_card, flat_style
from vision.half_mix import FEATHER, SPLIT, half_mixed, is_same_suit_system, mix_halves
from vision.training.dataset import Augmentations, DatasetError, draw_sample, render_pool


def test_the_top_stays_and_the_bottom_is_the_donors() -> None:
    card, donor = flat_card(200), flat_card(40, width=70, height=120)  # the donor is resized to the card
    mixed = mix_halves(card, donor, 0.5)
    assert mixed.image.shape == card.image.shape and mixed.alpha is card.alpha
    rows = mixed.image[:, 50, 0].astype(int)
    assert (rows[:int((0.5 - FEATHER) * 150)] == 200).all()
    assert (rows[int((0.5 + FEATHER) * 150) + 1:] == 40).all()
    assert (np.diff(rows) <= 0).all()  # a fade, not a seam
    assert (card.image == 200).all()  # the original is kept


def test_the_split_falls_in_the_middle_of_the_card() -> None:
    card, donor = flat_card(200), flat_card(0)
    for seed in range(20):
        rows = half_mixed(card, [donor], np.random.default_rng(seed)).image[:, 50, 0]
        assert rows[int((SPLIT[0] - FEATHER) * 150) - 1] == 200
        assert rows[int((SPLIT[1] + FEATHER) * 150) + 1] == 0


@pytest.mark.parametrize(("style", "other", "same"), [
    ("napoletane", "sarde", True), ("kde-penguins", "toscane", True), ("napoletane", "toscane", False),
])
def test_decks_mix_only_with_decks_of_their_suits(style: str, other: str, same: bool) -> None:
    assert is_same_suit_system(style, other) is same


def test_a_card_takes_its_lower_part_from_the_same_card_of_another_deck_of_its_suits() -> None:
    styles = [flat_style("napoletane", 200), flat_style("sarde", 60), flat_style("kde-penguins", 120)]
    donors_seen = set()
    for seed in range(80):
        plain = draw_sample(np.random.default_rng(seed), styles)
        mixed = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_half_mix=1.0))
        assert mixed[1:] == plain[1:]  # the same card of the same deck, its label unchanged
        name = styles[plain[2]].name
        if CLASS_LABELS[plain[1]] not in CARD_CODES or name == "kde-penguins":
            assert np.array_equal(plain[0], mixed[0])  # no other French deck to lend a half
        else:
            donors_seen.add(name)
            assert not np.array_equal(plain[0], mixed[0])
    assert donors_seen == {"napoletane", "sarde"}


def test_a_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(DatasetError, match=r"p_half_mix must be a share between 0 and 1, got 2"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_half_mix=2))
