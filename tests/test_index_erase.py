"""A figure whose corner indices are painted out: the card told by its picture alone."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS
from vision.crops import Artwork, prepare_artwork
from vision.figure_swap import FIGURE_RANKS
from vision.index_erase import erase_index
from vision.training.dataset import Augmentations, DatasetError, StyleArt, draw_sample

WIDTH, HEIGHT = 200, 300
PAPER = (235, 235, 235)
INK = (40, 30, 200)  # a red index, in BGR
RANK = (slice(14, 34), slice(12, 24))  # inside the top-left corner box (35 x 73 pixels here)
SUIT = (slice(40, 50), slice(12, 24))  # the suit sign below the rank, inside the box too
FRAME = (slice(20, 280), slice(30, 170))  # the picture's frame: it crosses the corner box's right side
PIP = (slice(130, 170), slice(80, 120))  # the picture, in the middle


def corners(image: np.ndarray) -> tuple[np.ndarray, ...]:
    """The four views of ``image`` that put each of its corners top-left."""
    return image, image[:, ::-1], image[::-1, :], image[::-1, ::-1]


def indexed_figure(four_corners: bool = True) -> Artwork:
    """A card of one paper with an outline, a framed picture and, in two or all four corners, a rank and a
    suit sign."""
    image = np.full((HEIGHT, WIDTH, 3), PAPER, np.uint8)
    cv2.rectangle(image, (0, 0), (WIDTH - 1, HEIGHT - 1), (20, 20, 20), 2)
    cv2.rectangle(image, (FRAME[1].start, FRAME[0].start), (FRAME[1].stop, FRAME[0].stop), (20, 20, 20), 2)
    image[PIP] = (200, 60, 20)
    for view in corners(image) if four_corners else (image, image[::-1, ::-1]):
        view[RANK] = INK
        view[SUIT] = INK
    return Artwork(image=image, alpha=np.ones((HEIGHT, WIDTH), np.float32))


def test_every_corner_index_is_painted_with_the_paper_and_nothing_else_changes() -> None:
    card = indexed_figure()
    erased = erase_index(card)
    index = np.zeros((HEIGHT, WIDTH), bool)
    for view in corners(index):
        view[RANK] = True
        view[SUIT] = True
    assert (erased.image[index] == PAPER).all()
    grown = cv2.dilate(index.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    assert np.array_equal(erased.image[~grown], card.image[~grown])  # outline, frame and picture stay
    assert erased.alpha is card.alpha
    assert not np.array_equal(card.image[index], erased.image[index])  # the card given is not changed


def test_a_deck_with_two_indices_loses_both_and_a_card_without_one_is_left_as_it_is() -> None:
    card = indexed_figure(four_corners=False)
    erased = erase_index(card)
    assert (erased.image[RANK] == PAPER).all() and (erased.image[::-1, ::-1][SUIT] == PAPER).all()
    plain = indexed_figure()
    for view in corners(plain.image):
        view[RANK] = PAPER
        view[SUIT] = PAPER
    assert np.array_equal(erase_index(plain).image, plain.image)


def test_ink_that_runs_out_of_the_corner_box_is_a_picture_and_stays() -> None:
    """A long stroke from the corner into the card (a sword, a sleeve) is not an index."""
    card = indexed_figure()
    image = card.image.copy()
    image[60:64, 10:120] = INK  # leaves the box on its right side
    erased = erase_index(Artwork(image=image, alpha=card.alpha))
    assert np.array_equal(erased.image[60:64, 10:120], image[60:64, 10:120])


def test_ink_off_the_card_is_not_an_index() -> None:
    """A dark table round a rounded corner is cut away by the outline (``alpha``), never painted."""
    card = indexed_figure()
    alpha = card.alpha.copy()
    alpha[:12, :12] = 0.0
    image = card.image.copy()
    image[3:9, 3:9] = (10, 10, 10)
    erased = erase_index(Artwork(image=image, alpha=alpha))
    assert np.array_equal(erased.image[:12, :12], image[:12, :12])


def indexed_style(name: str) -> StyleArt:
    """A deck called ``name`` whose 40 faces are each a different paper with four corner indices."""
    faces = {}
    for i, code in enumerate(CARD_CODES):
        image = indexed_figure().image.copy()
        image[(image == PAPER).all(axis=2)] = 150 + 2 * i
        faces[code] = prepare_artwork(np.ascontiguousarray(image))
    return StyleArt(name=name, faces=faces, back=None)


def draws(style: StyleArt, shares: Augmentations, seeds: int = 60) -> dict[str, list[bool]]:
    """Each seed drawn from ``style`` with the figure swap of ``shares`` alone and with ``shares``: whether
    the crop changed, by kind of class drawn (``figure``, ``number``, ``other``); the classes drawn must be
    the same."""
    changed: dict[str, list[bool]] = {"figure": [], "number": [], "other": []}
    without = Augmentations(p_figure_swap=shares.p_figure_swap)
    for seed in range(seeds):
        plain = draw_sample(np.random.default_rng(seed), [style], without)
        asked = draw_sample(np.random.default_rng(seed), [style], shares)
        assert plain[1:] == asked[1:]
        name = CLASS_LABELS[plain[1]]
        kind = "other" if name not in CARD_CODES else "figure" if name[:-1] in FIGURE_RANKS else "number"
        changed[kind].append(not np.array_equal(plain[0], asked[0]))
    return changed


def test_only_the_figures_of_a_deck_with_an_index_lose_it() -> None:
    changed = draws(indexed_style("kde-standard"), Augmentations(p_index_erase=1.0), seeds=120)
    assert changed["figure"] and all(changed["figure"])
    assert not any(changed["number"]) and not any(changed["other"])
    unindexed = draws(indexed_style("toscane"), Augmentations(p_index_erase=1.0))
    assert not any(unindexed["figure"] + unindexed["number"] + unindexed["other"])


def test_a_swapped_figure_keeps_the_index_its_label_follows() -> None:
    changed = draws(indexed_style("gnome-paris"), Augmentations(p_figure_swap=1.0, p_index_erase=1.0))
    assert changed["figure"] and not any(changed["figure"])


def test_the_erased_share_names_its_pool_and_a_bad_share_is_refused() -> None:
    assert Augmentations(p_index_erase=0.4).cache_key()[-1] == ["index_erase", 0.4]
    assert Augmentations(p_foreign_none=0.3).cache_key()[-1] == ["foreign_none", 0.3]  # unchanged without it
    with pytest.raises(DatasetError, match=r"p_index_erase must be a share between 0 and 1, got -0.5"):
        Augmentations(p_index_erase=-0.5)
