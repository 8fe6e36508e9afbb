"""The model's input: portrait, resized, RGB, ``(x / 255 - mean) / std`` per channel, NCHW float32."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import VisionError
from vision.preprocess import resize_crop, to_model_input


def test_each_channel_is_scaled_and_shifted_by_its_own_mean_and_std_in_rgb_order() -> None:
    crop = np.empty((96, 64, 3), np.uint8)
    crop[:] = (51, 102, 255)  # BGR
    batch = to_model_input([crop], 64, 96, mean=(0.5, 0.4, 0.3), std=(0.25, 0.2, 0.1))
    assert batch.shape == (1, 3, 96, 64) and batch.dtype == np.float32 and batch.flags["C_CONTIGUOUS"]
    expected = [(255 / 255 - 0.5) / 0.25, (102 / 255 - 0.4) / 0.2, (51 / 255 - 0.3) / 0.1]  # R, G, B
    np.testing.assert_allclose(batch[0, :, 10, 10], expected, rtol=1e-5)


def test_a_landscape_crop_is_turned_to_portrait_and_resized() -> None:
    crop = np.zeros((60, 200, 3), np.uint8)
    crop[:, :100] = 255  # left half light: after a quarter turn clockwise it is the top half
    resized = resize_crop(crop, 32, 48)
    assert resized.shape == (48, 32, 3)
    assert resized[:20].mean() > 200 and resized[28:].mean() < 50


def test_a_batch_keeps_the_order_of_its_crops_and_takes_grey_pictures() -> None:
    values = (0, 128, 255, 90)
    crops = [np.full((150, 100, 3), v, np.uint8) for v in values[:3]] + [np.full((40, 30), 90, np.uint8)]
    batch = to_model_input(crops, 64, 96)
    np.testing.assert_allclose(batch[:, 0, 0, 0], [(v / 255 - 0.5) / 0.25 for v in values], atol=1e-5)


@pytest.mark.parametrize("bad", [np.zeros((1, 5, 3), np.uint8), np.zeros((10, 10, 2), np.uint8), np.zeros(7)])
def test_what_is_not_an_image_is_refused_with_its_shape(bad: np.ndarray) -> None:
    with pytest.raises(VisionError, match=r"got \("):
        to_model_input([bad], 64, 96)
