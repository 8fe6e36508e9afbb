"""Number cards with a picture between the pips, whose label stays the card's."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS
from vision.crops import Artwork, prepare_artwork
from vision.decorate import MIN_RADIUS, blank_space, decorate, decoration_donors
from vision.training.dataset import Augmentations, DatasetError, StyleArt, draw_sample, render_pool


def _two_pip_card(width: int = 120, height: int = 180) -> Artwork:
    """White paper with a black pip near the top and one near the bottom."""
    image = np.full((height, width, 3), 245, np.uint8)
    for y in (40, 140):
        cv2.circle(image, (width // 2, y), 15, (0, 0, 0), -1)
    return Artwork(image=image, alpha=np.ones((height, width), np.float32))


def _red_donor() -> Artwork:
    image = np.zeros((150, 100, 3), np.uint8)
    image[:, :] = (30, 30, 200)
    return Artwork(image=image, alpha=np.ones((150, 100), np.float32))


@pytest.mark.parametrize(("code", "donors"), [
    ("4c", ("8d", "9d", "10d", "8s", "9s", "10s", "8b", "9b", "10b")),
    ("7b", ("8c", "9c", "10c", "8d", "9d", "10d", "8s", "9s", "10s")),
    ("1c", ()), ("9d", ()), ("back", ()), ("none", ()),
])
def test_a_number_card_takes_its_pictures_from_the_figures_of_the_other_suits(
    code: str, donors: tuple[str, ...],
) -> None:
    assert decoration_donors(code) == donors


def test_the_blank_space_is_the_widest_disc_of_paper_between_the_pips() -> None:
    x, y, radius = blank_space(_two_pip_card().image)
    assert (x, y) == (pytest.approx(60, abs=12), pytest.approx(90, abs=2))
    # At least 35 px of paper from the middle to each pip's edge, less the guard kept from the ink.
    assert 30 <= radius <= 37
    assert blank_space(np.zeros((180, 120, 3), np.uint8))[2] == 0.0


def test_a_picture_is_laid_between_the_pips_and_leaves_the_pips_and_margins_alone() -> None:
    card = _two_pip_card()
    decorated = decorate(card, _red_donor(), np.random.default_rng(0))
    changed = np.any(decorated.image != card.image, axis=2)
    assert tuple(decorated.image[90, 60]) == (30, 30, 200)
    pips = np.all(card.image == 0, axis=2)
    assert changed.any() and not (changed & pips).any()
    assert not changed[:, :14].any() and not changed[:, -14:].any()
    assert not changed[:21].any() and not changed[-21:].any()
    assert decorated.alpha is card.alpha


def test_a_card_without_room_between_its_pips_is_left_as_it_is() -> None:
    crowded = _two_pip_card()
    for x in (35, 85):
        for y in range(40, 150, 20):
            cv2.circle(crowded.image, (x, y), 15, (0, 0, 0), -1)
    assert blank_space(crowded.image)[2] < MIN_RADIUS * 120
    assert decorate(crowded, _red_donor(), np.random.default_rng(0)) is crowded


def _style() -> StyleArt:
    """Blank paper number cards, dark figures: every number card has room for a picture."""
    faces = {code: prepare_artwork(np.full((90, 60, 3), 60 if code[:-1] in ("8", "9", "10") else 245,
                                           np.uint8))
             for code in CARD_CODES}
    return StyleArt(name="plain", faces=faces, back=None)


def test_only_number_cards_get_a_picture_and_a_share_of_zero_draws_nothing() -> None:
    styles = [_style()]
    kept = decorated = 0
    for seed in range(60):
        plain = draw_sample(np.random.default_rng(seed), styles)
        asked = draw_sample(np.random.default_rng(seed), styles, Augmentations(p_decorate=1.0))
        assert plain[1:] == asked[1:]
        if decoration_donors(CLASS_LABELS[plain[1]]):
            decorated += not np.array_equal(plain[0], asked[0])
        else:
            assert np.array_equal(plain[0], asked[0])
            kept += 1
    assert kept >= 10 and decorated >= 10


def test_a_decorate_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(DatasetError, match=r"p_decorate must be a share between 0 and 1, got -0\.5"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_decorate=-0.5))
