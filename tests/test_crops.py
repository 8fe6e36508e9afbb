"""Training crops: deterministic from the seed, sizes within range, each kind drawn as described."""

from __future__ import annotations

import numpy as np
import pytest

from vision import crop_textures
from vision.crops import (
    NONE_KINDS,
    CropSettings,
    prepare_artwork,
    random_back_artwork,
    render_card_crop,
    render_none_crop,
)
from vision.errors import VisionError

Colour = tuple[int, int, int]


def artwork(colour: Colour = (30, 30, 200), corner: Colour = (0, 128, 0)) -> np.ndarray:
    """A 120x80 card: white face, a coloured block in the middle, a sheet-coloured margin at the corners."""
    image = np.full((120, 80, 3), 255, np.uint8)
    image[40:80, 20:60] = colour
    image[:3, :3] = image[:3, -3:] = image[-3:, :3] = image[-3:, -3:] = corner
    return image


CLEAN = CropSettings(p_other_card=0.0, p_fingers=0.0, p_corner_cut=0.0, p_upsampled=0.0,
                     effect_strength=(0.0, 0.0), max_residual=0.0, p_tight=1.0)


def test_same_seed_gives_the_same_crop_and_another_seed_another() -> None:
    art = prepare_artwork(artwork())
    first = render_card_crop(art, np.random.default_rng(7), [art])
    again = render_card_crop(art, np.random.default_rng(7), [art])
    other = render_card_crop(art, np.random.default_rng(8), [art])
    assert np.array_equal(first, again)
    assert first.shape != other.shape or not np.array_equal(first, other)


def test_card_sizes_stay_within_the_requested_range() -> None:
    art = prepare_artwork(artwork())
    settings = CropSettings(p_corner_cut=0.0)
    heights, widths = [], []
    for seed in range(60):
        crop = render_card_crop(art, np.random.default_rng(seed), settings=settings)
        assert crop.dtype == np.uint8 and crop.ndim == 3 and crop.shape[2] == 3
        heights.append(crop.shape[0])
        widths.append(crop.shape[1])
    # The card is 40..(450 * aspect) wide and up to 450 tall; margins add at most a quarter per side.
    assert min(widths) >= 40 * 0.9 and max(heights) <= 450 * 1.5
    assert min(heights) < 120 and max(heights) > 150


def test_a_clean_crop_shows_the_artwork_where_the_card_lies() -> None:
    crop = render_card_crop(prepare_artwork(artwork()), np.random.default_rng(1), settings=CLEAN)
    height, width = crop.shape[:2]
    centre = crop[height * 2 // 5:height * 3 // 5, width * 2 // 5:width * 3 // 5].reshape(-1, 3).mean(axis=0)
    assert centre[2] > 120 and centre[0] < 110  # the red block (BGR) in the middle survives


def test_prepare_artwork_cuts_the_sheet_margin_and_rounds_the_corners() -> None:
    art = prepare_artwork(artwork())
    assert art.alpha[0, 0] == 0.0 and art.alpha[-1, -1] == 0.0
    assert art.alpha[60, 40] == 1.0 and art.alpha[0, 40] == 1.0
    assert art.aspect == pytest.approx(80 / 120)


def test_a_stray_dark_corner_pixel_does_not_flood_the_card_away() -> None:
    # The bergamasche scans: white paper, and a scanner's shading at one corner that darkens in steps
    # smaller than the flood's tolerance down to a greyish corner pixel.
    image = artwork(corner=(255, 255, 255))
    for step in range(6):
        image[-6 + step:, -6 + step:] = 250 - 19 * step
    art = prepare_artwork(image)
    assert art.alpha.mean() > 0.95 and art.alpha[60, 40] == 1.0


def test_every_style_keeps_its_cards_when_the_margin_is_cut() -> None:
    from vision.decks import Deck, find_cards_root, list_styles

    root = find_cards_root()
    if root is None:
        pytest.skip("no card artwork here (../shared/cards or TRESSETTE_CARDS)")
    lost = [f"{style}/{code}" for style in list_styles(root)
            for code, image in Deck.load(root / style).faces.items()
            if prepare_artwork(image).alpha.mean() < 0.9]
    assert not lost, f"cards cut away as sheet margin: {lost}"


def test_upside_down_crops_are_half_turns_of_upright_ones() -> None:
    art = prepare_artwork(artwork())
    turned = render_card_crop(art, np.random.default_rng(4), settings=CropSettings(
        **{**CLEAN.__dict__, "p_upside_down": 1.0}))
    upright_again = render_card_crop(art, np.random.default_rng(4), settings=CropSettings(
        **{**CLEAN.__dict__, "p_upside_down": 0.0}))
    assert np.array_equal(turned[::-1, ::-1], upright_again)
    assert not np.array_equal(turned, upright_again)


def test_fingers_and_other_cards_change_the_crop() -> None:
    art = prepare_artwork(artwork())
    other = prepare_artwork(artwork(colour=(200, 30, 30)))
    base = render_card_crop(art, np.random.default_rng(2), [other], settings=CLEAN)
    covered = render_card_crop(art, np.random.default_rng(2), [other], settings=CropSettings(
        **{**CLEAN.__dict__, "p_other_card": 1.0, "p_fingers": 1.0}))
    assert covered.shape == base.shape
    assert np.abs(covered.astype(int) - base).mean() > 2.0


def test_corner_cut_makes_the_crop_smaller() -> None:
    art = prepare_artwork(artwork())
    base = render_card_crop(art, np.random.default_rng(3), settings=CLEAN)
    cut = render_card_crop(art, np.random.default_rng(3), settings=CropSettings(
        **{**CLEAN.__dict__, "p_corner_cut": 1.0}))
    assert cut.shape[0] * cut.shape[1] < base.shape[0] * base.shape[1]


@pytest.mark.parametrize("kind", NONE_KINDS)
def test_every_kind_of_none_crop_renders(kind: str) -> None:
    art = prepare_artwork(artwork())
    crop = render_none_crop(np.random.default_rng(0), [art], kind=kind)
    again = render_none_crop(np.random.default_rng(0), [art], kind=kind)
    assert crop.ndim == 3 and min(crop.shape[:2]) >= 8
    assert np.array_equal(crop, again)


def test_procedural_backs_are_seeded_and_of_every_kind() -> None:
    first = random_back_artwork(np.random.default_rng(11))
    again = random_back_artwork(np.random.default_rng(11))
    assert np.array_equal(first.image, again.image)
    for kind in crop_textures.BACK_KINDS:
        back = crop_textures.procedural_back(np.random.default_rng(1), 120, 80, kind)
        assert back.shape == (120, 80, 3)


@pytest.mark.parametrize("kind", crop_textures.TABLE_KINDS)
def test_table_textures_fill_the_requested_size(kind: str) -> None:
    table = crop_textures.table_texture(np.random.default_rng(0), 30, 50, kind)
    assert table.shape == (30, 50, 3) and table.dtype == np.uint8


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: prepare_artwork(np.zeros((4, 4, 3), np.uint8)), "8x8 or more"),
        (lambda: prepare_artwork(np.zeros((40, 40), np.uint8)), "HxWx3"),
        (lambda: render_none_crop(np.random.default_rng(0), [], kind="edge"), "needs card artwork"),
        (lambda: render_none_crop(np.random.default_rng(0), [], kind="smoke"), "unknown kind 'smoke'"),
        (lambda: crop_textures.table_texture(np.random.default_rng(0), 9, 9, "glass"), "kind 'glass'"),
        (lambda: crop_textures.procedural_back(np.random.default_rng(0), 0, 10), "at least 1x1"),
    ],
)
def test_bad_input_raises_a_vision_error_that_says_what_is_wrong(call, message: str) -> None:
    with pytest.raises(VisionError, match=message):
        call()
