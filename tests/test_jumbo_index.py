"""Cards printed with a jumbo index: their own corner index enlarged, so that a large index is read too."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import CARD_CODES
from tests.artwork_helpers import indexed_card_draws
from vision.crops import Artwork, prepare_artwork
from vision.jumbo_index import INSET, MAX_COVER, SCALE, enlarge_index
from vision.training.dataset import Augmentations, DatasetError, StyleArt, has_figure_index

WIDTH, HEIGHT = 200, 300
# A dark index mark inside the index box, 12x20 pixels, and its copy half a turn round.
MARK = (slice(12, 32), slice(10, 22))


def marked_card(paper: int = 230, ink: int = 20) -> Artwork:
    """A card of one grey with a dark index mark in its top-left and bottom-right corners."""
    image = np.full((HEIGHT, WIDTH, 3), paper, np.uint8)
    image[MARK] = ink
    image[::-1, ::-1][MARK] = ink
    return Artwork(image=image, alpha=np.ones((HEIGHT, WIDTH), np.float32))


def dark_pixels(image: np.ndarray) -> int:
    return int((image[:, :, 0] < 125).sum())


def test_the_index_is_enlarged_in_both_corners_by_a_factor_of_its_range() -> None:
    card = marked_card()
    jumbo = enlarge_index(card, np.random.default_rng(0))
    top_left = jumbo.image[:HEIGHT // 2, :WIDTH // 2]
    growth = dark_pixels(top_left) / dark_pixels(card.image[:HEIGHT // 2, :WIDTH // 2])
    assert SCALE[0] ** 2 * 0.85 <= growth <= SCALE[1] ** 2 * 1.15
    assert np.array_equal(jumbo.image, jumbo.image[::-1, ::-1])  # the second index is the first turned round
    rows, columns = np.nonzero(top_left[:, :, 0] < 125)
    inset = round(INSET * WIDTH)
    assert rows.min() > MARK[0].start and columns.min() > MARK[1].start  # enlarged from the box's corner
    assert rows.min() >= inset and columns.min() >= inset


def test_the_middle_the_outline_and_the_original_stay_as_they_were() -> None:
    card = marked_card()
    jumbo = enlarge_index(card, np.random.default_rng(1))
    below = round(MAX_COVER[1] * HEIGHT)
    assert (jumbo.image[below:HEIGHT - below] == 230).all()
    assert jumbo.alpha is card.alpha
    assert dark_pixels(card.image) == 2 * 12 * 20  # not drawn on


def test_the_same_generator_gives_the_same_card() -> None:
    card = marked_card()
    first = enlarge_index(card, np.random.default_rng(7)).image
    assert np.array_equal(first, enlarge_index(card, np.random.default_rng(7)).image)


def test_the_table_around_a_rounded_corner_is_not_enlarged_onto_the_card() -> None:
    """A green sheet margin in the corners, cut away as the table: the enlarged corner shows paper there."""
    image = marked_card().image.copy()
    image[:6, :6] = image[-6:, -6:] = (40, 160, 40)
    card = prepare_artwork(image)
    assert card.alpha[0, 0] < 0.5
    jumbo = enlarge_index(card, np.random.default_rng(2))
    on_card = jumbo.alpha > 0.5
    green = (jumbo.image[:, :, 1] > 120) & (jumbo.image[:, :, 0] < 100)
    assert not (green & on_card).any()


def marked_style(name: str) -> StyleArt:
    """A deck called ``name`` whose 40 faces are each a different grey with a dark index mark."""
    faces = {}
    for i, code in enumerate(CARD_CODES):
        image = marked_card(paper=100 + 3 * i, ink=0).image
        faces[code] = prepare_artwork(np.ascontiguousarray(image))
    return StyleArt(name=name, faces=faces, back=None)


@pytest.mark.parametrize("name", ["toscane", "kde-penguins", "pysol-warwick", "pysol-1567"])
def test_only_cards_of_a_deck_with_an_index_get_a_jumbo_index(name: str) -> None:
    """Every card of a deck with corner indices can be given one (never a back or a non-card), rendered
    where its index can be read; a deck without an index draws exactly what it drew without the share."""
    enlarged, cards = indexed_card_draws(marked_style(name), Augmentations(p_jumbo_index=1.0))
    assert all(crop.shape[0] >= 82 for crop in cards)  # a card 60 px wide, cut tight
    assert (enlarged >= 20) == has_figure_index(name)


def test_a_jumbo_index_names_its_pool_and_a_bad_share_is_refused() -> None:
    assert Augmentations(p_jumbo_index=0.3).cache_key()[-1] == ["jumbo_index", 0.3]
    assert Augmentations(p_number_swap=0.3).cache_key()[-1] == ["number_swap", 0.3]  # unchanged without it
    with pytest.raises(DatasetError, match=r"p_jumbo_index must be a share between 0 and 1, got 2"):
        Augmentations(p_jumbo_index=2)

