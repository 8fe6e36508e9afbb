"""Each light and sensor effect moves the image the way its name says, and bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

from vision import photometric as ph
from vision.errors import VisionError


def grey(value: int = 128, size: int = 32) -> np.ndarray:
    return np.full((size, size, 3), value, np.uint8)


def textured(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((48, 48, 3), 200, np.uint8)
    image[::6] = 20
    image[:, ::5] = 60
    return np.clip(image.astype(int) + rng.integers(-5, 6, image.shape), 0, 255).astype(np.uint8)


def red_minus_blue(image: np.ndarray) -> float:
    return float(image[:, :, 2].mean() - image[:, :, 0].mean())


def test_warm_white_balance_raises_red_over_blue_and_daylight_the_opposite() -> None:
    assert red_minus_blue(ph.white_balance(grey(), -1.0)) > 40
    assert red_minus_blue(ph.white_balance(grey(), 1.0)) < -40
    assert red_minus_blue(ph.white_balance(grey(), 0.0)) == 0


def test_exposure_darkens_below_one_and_brightens_above() -> None:
    image = grey(120)
    assert ph.exposure(image, 0.5).mean() < 100
    assert ph.exposure(image, 2.0).mean() > 140
    assert ph.exposure(grey(250), 4.0).max() == 255


def test_gamma_above_one_darkens_mid_tones() -> None:
    assert ph.gamma(grey(128), 1.5).mean() < 100
    assert ph.gamma(grey(128), 0.6).mean() > 150
    assert ph.gamma(grey(0), 2.0).max() == 0


def test_contrast_and_saturation_move_away_from_or_towards_grey() -> None:
    image = textured()
    assert ph.contrast(image, 1.5).std() > image.std()
    colourful = np.zeros((8, 8, 3), np.uint8)
    colourful[:, :, 2] = 200
    washed = ph.contrast(colourful, 1.0, saturation=0.2)
    assert np.ptp(washed[0, 0].astype(int)) < np.ptp(colourful[0, 0].astype(int))


def test_blurs_lower_the_local_contrast() -> None:
    image = textured()
    detail = np.abs(np.diff(image.astype(int), axis=1)).mean()
    assert np.abs(np.diff(ph.defocus_blur(image, 2.0).astype(int), axis=1)).mean() < detail * 0.7
    assert np.abs(np.diff(ph.motion_blur(image, 7, 0.0).astype(int), axis=1)).mean() < detail * 0.7
    assert np.array_equal(ph.defocus_blur(image, 0.0), image)


def test_sensor_noise_is_seeded_and_adds_spread() -> None:
    image = grey(100)
    first = ph.sensor_noise(image, np.random.default_rng(3), 8.0)
    again = ph.sensor_noise(image, np.random.default_rng(3), 8.0)
    assert np.array_equal(first, again)
    assert 5.0 < first.astype(float).std() < 11.0


def test_jpeg_at_low_quality_loses_detail() -> None:
    image = textured()
    low = np.abs(ph.jpeg(image, 10).astype(int) - image).mean()
    high = np.abs(ph.jpeg(image, 95).astype(int) - image).mean()
    assert low > high


def test_glare_brightens_around_its_centre_only() -> None:
    out = ph.glare(grey(100, 64), (10.0, 10.0), 6.0, 0.8)
    assert out[10, 10].mean() > 200
    assert out[60, 60].mean() == 100


def test_shadow_darkens_inside_the_polygon_only() -> None:
    out = ph.shadow(grey(200, 40), np.array([[0, 0], [20, 0], [20, 40], [0, 40]]), 0.5)
    assert out[20, 5].mean() == pytest.approx(100, abs=2)
    assert out[20, 35].mean() == 200


def test_vignette_darkens_corners_not_centre() -> None:
    out = ph.vignette(grey(200, 41), 0.5)
    assert out[0, 0].mean() < 120
    assert out[20, 20].mean() == 200


def test_sampled_effects_are_seeded_and_keep_the_image_shape() -> None:
    image = textured()
    a = ph.apply_effects(image, ph.sample_effects(np.random.default_rng(5)), np.random.default_rng(6))
    b = ph.apply_effects(image, ph.sample_effects(np.random.default_rng(5)), np.random.default_rng(6))
    assert np.array_equal(a, b)
    assert a.shape == image.shape and a.dtype == np.uint8


def test_zero_strength_leaves_the_image_as_it_was() -> None:
    image = textured()
    effects = ph.sample_effects(np.random.default_rng(1), strength=0.0)
    assert np.array_equal(ph.apply_effects(image, effects, np.random.default_rng(2)), image)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ph.white_balance(grey(), 1.5), "white_balance"),
        (lambda: ph.exposure(grey(), 0.0), "gain must be positive"),
        (lambda: ph.gamma(grey(), -1.0), "gamma"),
        (lambda: ph.defocus_blur(grey(), -1.0), "radius"),
        (lambda: ph.motion_blur(grey(), -2.0, 0.0), "length"),
        (lambda: ph.jpeg(grey(), 0), "quality"),
        (lambda: ph.glare(grey(), (1, 1), 0.0, 0.5), "glare"),
        (lambda: ph.shadow(grey(), np.zeros((2, 2)), 0.5), "3 or more points"),
        (lambda: ph.vignette(grey(), 2.0), "vignette"),
        (lambda: ph.sample_effects(np.random.default_rng(0), 1.5), "strength"),
        (lambda: ph.exposure(np.zeros((4, 4), np.uint8), 1.0), "HxWx3 uint8"),
        (lambda: ph.gamma(np.zeros((4, 4, 3), np.float32), 1.0), "dtype float32"),
    ],
)
def test_bad_input_raises_a_vision_error_naming_the_effect(call, message: str) -> None:
    with pytest.raises(VisionError, match=message):
        call()
