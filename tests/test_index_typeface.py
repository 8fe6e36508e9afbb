"""A French card's corner index printed in another typeface: the rank read by its shape in any face."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES
from tests.artwork_helpers import indexed_card_draws
from vision.crops import Artwork, prepare_artwork
from vision.index_typeface import MAX_RANK_HEIGHT, RANK_TEXTS, rank_box, rank_texts, retype_index
from vision.numeral_swap import paper_colour
from vision.training.dataset import Augmentations, DatasetError, StyleArt, has_figure_index

WIDTH, HEIGHT = 200, 300
PAPER = (235, 235, 235)
INK = (40, 30, 200)  # a red index, in BGR
RANK = (slice(14, 34), slice(12, 24))  # the rank's mark, 12x20 pixels, inside the index box
SUIT = (slice(40, 50), slice(12, 24))  # the suit sign below it
PIP = (slice(130, 170), slice(80, 120))  # a pip in the middle, outside the index box


def indexed_card(rank: tuple[slice, slice] = RANK) -> Artwork:
    """A card of one paper with a rank mark and a suit sign in its top-left corner and, half a turn round,
    in its bottom-right one, and a pip in the middle."""
    image = np.full((HEIGHT, WIDTH, 3), PAPER, np.uint8)
    for part in (rank, SUIT):
        image[part] = INK
        image[::-1, ::-1][part] = INK
    image[PIP] = INK
    return Artwork(image=image, alpha=np.ones((HEIGHT, WIDTH), np.float32))


def ink_mask(image: np.ndarray) -> np.ndarray:
    return np.abs(image.astype(np.int16) - np.array(PAPER, np.int16)).max(axis=2) >= 70


def test_the_rank_is_the_first_blot_of_ink_in_the_corner_not_the_suit_below_it() -> None:
    card = indexed_card()
    assert rank_box(card.image, card.alpha, paper_colour(card.image)) == (14, 34, 12, 24)


def test_the_card_outline_a_blank_corner_and_a_picture_are_not_a_rank() -> None:
    card = indexed_card()
    outlined = card.image.copy()
    cv2.rectangle(outlined, (0, 0), (WIDTH - 1, HEIGHT - 1), INK, 3)  # touches the box's top and left
    assert rank_box(outlined, card.alpha, paper_colour(outlined)) == (14, 34, 12, 24)
    blank = np.full((HEIGHT, WIDTH, 3), PAPER, np.uint8)
    assert rank_box(blank, card.alpha, paper_colour(blank)) is None
    tall = (slice(14, 14 + round(MAX_RANK_HEIGHT * HEIGHT) + 6), slice(12, 24))  # a picture's height
    tall_card = indexed_card(tall)
    assert rank_box(tall_card.image, tall_card.alpha, paper_colour(tall_card.image)) is None
    wide = indexed_card((slice(14, 34), slice(12, 60)))  # runs out of the box: a frame or a picture
    assert rank_box(wide.image, wide.alpha, paper_colour(wide.image)) is None


def test_the_ink_off_the_card_is_not_a_rank() -> None:
    """Dark table round a rounded corner is cut away by the outline (``alpha``), not taken for ink."""
    image = indexed_card().image.copy()
    image[:16, :16] = (20, 20, 20)
    card = prepare_artwork(image)
    card.alpha[:16, :16] = 0.0
    assert rank_box(card.image, card.alpha, paper_colour(card.image)) == (14, 34, 12, 24)


def test_the_rank_is_printed_again_in_its_own_ink_and_place_and_nothing_else_changes() -> None:
    card = indexed_card()
    retyped = retype_index(card, "5c", np.random.default_rng(3))
    changed = np.abs(retyped.image.astype(np.int16) - card.image.astype(np.int16)).max(axis=2) > 0
    assert changed.any()
    rows, columns = np.nonzero(changed[:HEIGHT // 2])
    assert rows.min() >= RANK[0].start and rows.max() < RANK[0].stop  # only the rank's rows
    assert columns.max() < WIDTH // 3
    assert np.array_equal(changed, changed[::-1, ::-1])  # the second index is the first turned round
    assert not changed[SUIT].any() and not changed[PIP].any()
    new_ink = retyped.image[RANK][ink_mask(retyped.image[RANK])]
    assert len(new_ink) > 20 and np.abs(np.median(new_ink, axis=0) - INK).max() <= 3
    assert retyped.alpha is card.alpha
    assert np.array_equal(card.image, indexed_card().image)  # not drawn on


def test_the_same_generator_gives_the_same_card_and_another_may_give_another_face() -> None:
    card = indexed_card()
    first = retype_index(card, "9d", np.random.default_rng(7)).image
    assert np.array_equal(first, retype_index(card, "9d", np.random.default_rng(7)).image)
    faces = {retype_index(card, "9d", np.random.default_rng(seed)).image.tobytes() for seed in range(8)}
    assert len(faces) > 4


def test_a_card_without_an_index_in_its_corner_is_left_as_it_is() -> None:
    blank = np.full((HEIGHT, WIDTH, 3), PAPER, np.uint8)
    card = Artwork(image=blank, alpha=np.ones((HEIGHT, WIDTH), np.float32))
    assert np.array_equal(retype_index(card, "3s", np.random.default_rng(0)).image, blank)


def test_every_rank_has_what_decks_print_for_it() -> None:
    assert set(RANK_TEXTS) == {code[:-1] for code in CARD_CODES}
    assert rank_texts("10b") == ("K", "R") and rank_texts("8c") == ("J", "V", "B", "F")
    assert rank_texts("1s") == ("A", "1") and rank_texts("7d") == ("7",)


def indexed_style(name: str) -> StyleArt:
    """A deck called ``name`` whose 40 faces are each a different paper with an index and a pip."""
    faces = {}
    for i, code in enumerate(CARD_CODES):
        image = indexed_card().image.copy()
        image[image.sum(axis=2) > 600] = 150 + 2 * i
        faces[code] = prepare_artwork(np.ascontiguousarray(image))
    return StyleArt(name=name, faces=faces, back=None)


@pytest.mark.parametrize("name", ["toscane", "kde-penguins", "pysol-warwick", "pysol-1567"])
def test_only_cards_of_a_deck_with_an_index_are_retyped(name: str) -> None:
    """Every card of a deck with corner indices can be retyped (never a back or a non-card); a deck
    without an index draws exactly what it drew without the share."""
    retyped, _ = indexed_card_draws(indexed_style(name), Augmentations(p_index_typeface=1.0))
    assert (retyped >= 20) == has_figure_index(name)


def test_the_typeface_names_its_pool_and_a_bad_share_is_refused() -> None:
    assert Augmentations(p_index_typeface=0.4).cache_key()[-1] == ["index_typeface", 0.4]
    assert Augmentations(p_foreign_none=0.3).cache_key()[-1] == ["foreign_none", 0.3]  # unchanged without it
    with pytest.raises(DatasetError, match=r"p_index_typeface must be a share between 0 and 1, got 2"):
        Augmentations(p_index_typeface=2)
