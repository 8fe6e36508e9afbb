"""The mask of colours likelier in a picture's middle than in its outer ring (vision.colour_odds)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_classifier import checked_tablecloth
from vision.colour_odds import ANALYSIS_SIDE, middle_colours_mask

GREY, RED, WHITE = (128, 128, 128), (40, 40, 200), (250, 250, 250)


def two_colour_cloth(height: int, width: int) -> np.ndarray:
    """A cloth of white and grey squares (BGR), 10 pixels a side."""
    return checked_tablecloth(height, width, WHITE, GREY, square=10)


def test_a_colour_only_the_middle_shows_is_masked_where_it_lies() -> None:
    picture = two_colour_cloth(ANALYSIS_SIDE, 96)
    picture[34:94, 28:68] = RED
    mask = middle_colours_mask(picture) > 0
    expected = np.zeros(mask.shape, bool)
    expected[34:94, 28:68] = True
    # the smoothing and the closing move the outline by a few pixels at most
    assert np.mean(mask == expected) > 0.97
    assert mask[40:88, 34:62].all()
    assert not mask[:12].any() and not mask[-12:].any()


def test_the_cloths_own_colours_are_not_masked_though_the_middle_shows_them_too() -> None:
    picture = two_colour_cloth(ANALYSIS_SIDE, 96)
    picture[44:84, 38:58] = RED
    mask = middle_colours_mask(picture) > 0
    # the cloth's squares inside the middle, round the red block, stay out of the mask
    assert not mask[34:40, 28:68].any()
    assert mask[50:78, 42:54].all()


@pytest.mark.parametrize("colour", [GREY, WHITE])
def test_a_picture_of_one_colour_has_nothing_in_its_middle_to_tell(colour: tuple[int, int, int]) -> None:
    assert not middle_colours_mask(np.full((ANALYSIS_SIDE, 90, 3), colour, np.uint8)).any()
