"""Restyled artwork: another print of the same card, deterministic from the seed, paper and outline kept."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import CropSettings, prepare_artwork, render_card_crop
from vision.restyle import RestyleSettings, restyle
from vision.training.dataset import Augmentations, DatasetError, render_pool

NOTHING = RestyleSettings(p_hue_remap=0.0, saturation_sigma=0.0, p_grey=0.0, p_stroke=0.0, p_warp=0.0,
                          p_posterise=0.0)


def red_pip_card() -> np.ndarray:
    """A 150x100 white card with a black frame and a red square pip in the middle."""
    image = np.full((150, 100, 3), 255, np.uint8)
    cv2.rectangle(image, (4, 4), (95, 145), (0, 0, 0), 2)
    image[55:95, 30:70] = (0, 0, 220)
    return image


def test_the_same_seed_gives_the_same_print_and_another_seed_another() -> None:
    card = red_pip_card()
    first = restyle(card, np.random.default_rng(5))
    assert np.array_equal(first, restyle(card, np.random.default_rng(5)))
    assert first.shape == card.shape and first.dtype == np.uint8
    assert any(not np.array_equal(first, restyle(card, np.random.default_rng(s))) for s in range(6, 12))


def test_no_change_drawn_leaves_the_artwork_as_it_is() -> None:
    card = red_pip_card()
    assert np.abs(restyle(card, np.random.default_rng(0), NOTHING).astype(int) - card).max() <= 2


def test_a_hue_remap_recolours_the_pip_but_not_the_paper_or_the_ink() -> None:
    card = red_pip_card()
    settings = replace(NOTHING, p_hue_remap=1.0)
    moved = [restyle(card, np.random.default_rng(seed), settings) for seed in range(8)]
    pips = [m[75, 50].astype(int) for m in moved]
    assert any(np.abs(pip - card[75, 50]).max() > 60 for pip in pips)
    for m in moved:
        assert m[20, 50].min() >= 250  # paper
        assert m[4, 50].max() <= 5  # black frame


def test_a_grey_print_keeps_a_red_pip_dark() -> None:
    grey = restyle(red_pip_card(), np.random.default_rng(1), replace(NOTHING, p_grey=1.0))
    pip = grey[75, 50].astype(int)
    assert pip.max() - pip.min() <= 1 and pip.max() < 120
    assert grey[20, 50].min() >= 250


def test_posterising_keeps_paper_white_and_few_levels() -> None:
    ramp = np.repeat(np.arange(256, dtype=np.uint8)[None, :, None], 3, axis=2).repeat(40, axis=0)
    out = restyle(ramp, np.random.default_rng(2), replace(NOTHING, p_posterise=1.0))
    levels = np.unique(out)
    assert 3 <= len(levels) <= 6 and levels[0] == 0 and levels[-1] == 255


def test_thicker_or_thinner_lines_move_the_frame_by_at_most_a_pixel() -> None:
    card = red_pip_card()
    frame_rows = np.flatnonzero(card[:, 50].max(axis=1) < 128)
    changed = 0
    for seed in range(6):
        out = restyle(card, np.random.default_rng(seed), replace(NOTHING, p_stroke=1.0))
        dark_rows = np.flatnonzero(out[:, 50].max(axis=1) < 128)
        assert dark_rows.min() >= frame_rows.min() - 1 and dark_rows.max() <= frame_rows.max() + 1
        changed += not np.array_equal(out, card)
    assert changed >= 5


def test_a_warp_bends_the_drawing_within_its_bound() -> None:
    card = red_pip_card()
    settings = replace(NOTHING, p_warp=1.0, max_warp=0.05)
    outs = [restyle(card, np.random.default_rng(seed), settings) for seed in range(6)]
    assert any(not np.array_equal(out, card) for out in outs)
    for out in outs:
        red = np.argwhere((out[:, :, 2] > 150) & (out[:, :, 0] < 100))
        # The pip (rows 55..94, columns 30..69) moves by at most about the bound: 5% of 100 px, plus slack.
        assert red[:, 0].min() >= 55 - 12 and red[:, 0].max() <= 94 + 12
        assert red[:, 1].min() >= 30 - 12 and red[:, 1].max() <= 69 + 12


def test_crops_are_restyled_only_when_asked() -> None:
    art = prepare_artwork(red_pip_card())
    plain = render_card_crop(art, np.random.default_rng(3), settings=CropSettings())
    also_plain = render_card_crop(art, np.random.default_rng(3), settings=CropSettings(p_restyle=0.0))
    restyled = render_card_crop(art, np.random.default_rng(3), settings=CropSettings(p_restyle=1.0))
    assert np.array_equal(plain, also_plain)
    assert restyled.shape != plain.shape or not np.array_equal(restyled, plain)


def test_a_pool_refuses_a_restyle_share_outside_zero_to_one() -> None:
    with pytest.raises(DatasetError, match=r"p_restyle.*1\.5"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_restyle=1.5))


def test_a_tinted_ink_prints_the_black_frame_in_a_colour_and_keeps_paper_and_the_red_pip() -> None:
    card = red_pip_card()
    settings = replace(NOTHING, p_ink_tint=1.0)
    tinted = [restyle(card, np.random.default_rng(seed), settings) for seed in range(8)]
    for print_ in tinted:
        frame = print_[4, 50].astype(int)
        assert frame.max() - frame.min() >= 40  # black no more: a colour
        assert print_[20, 50].min() >= 250  # paper
        assert np.abs(print_[75, 50].astype(int) - card[75, 50]).max() <= 2  # the red pip as printed
    assert len({tuple(print_[4, 50]) for print_ in tinted}) >= 6  # a colour of its own each time


def test_no_ink_tint_draws_no_number_so_earlier_prints_stay_the_same() -> None:
    card = red_pip_card()
    rng, also = np.random.default_rng(9), np.random.default_rng(9)
    assert np.array_equal(restyle(card, rng), restyle(card, also, RestyleSettings(p_ink_tint=0.0)))
    assert rng.random() == also.random()


def test_a_pool_refuses_an_ink_tint_share_outside_zero_to_one() -> None:
    with pytest.raises(DatasetError, match=r"p_ink_tint.*-0\.2"):
        render_pool(Path("/nowhere"), ["some-style"], 10, 64, 96, seed=0,
                    augmentations=Augmentations(p_ink_tint=-0.2))


def test_an_ink_tint_share_names_its_pool_only_when_used() -> None:
    assert Augmentations(p_restyle=0.5, p_ink_tint=0.4).cache_key()[-1] == ["ink_tint", 0.4]
    assert Augmentations(p_restyle=0.5).cache_key() == [0.5, 0.0]  # the pools made before it keep their names


def test_crops_are_tinted_only_when_asked() -> None:
    art = prepare_artwork(red_pip_card())
    restyled = render_card_crop(art, np.random.default_rng(3), settings=CropSettings(p_restyle=1.0))
    also = render_card_crop(art, np.random.default_rng(3),
                            settings=CropSettings(p_restyle=1.0, p_ink_tint=0.0))
    tinted = render_card_crop(art, np.random.default_rng(3),
                              settings=CropSettings(p_restyle=1.0, p_ink_tint=1.0))
    assert np.array_equal(restyled, also)
    assert tinted.shape != restyled.shape or not np.array_equal(tinted, restyled)
