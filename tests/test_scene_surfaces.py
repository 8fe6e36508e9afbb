"""Procedural table surfaces: size, determinism, plausible colours and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import VisionError
from vision.scene.surfaces import SURFACE_KINDS, SurfaceError, make_surface

WIDTH, HEIGHT = 200, 120


def mean_bgr(image: np.ndarray) -> np.ndarray:
    return image.reshape(-1, 3).mean(axis=0)


@pytest.mark.parametrize("kind", SURFACE_KINDS)
def test_every_kind_has_the_requested_size_and_type(kind: str) -> None:
    image = make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(1))
    assert image.shape == (HEIGHT, WIDTH, 3)
    assert image.dtype == np.uint8


@pytest.mark.parametrize("kind", SURFACE_KINDS)
def test_the_same_seed_gives_the_same_table_and_another_seed_another(kind: str) -> None:
    first = make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(7))
    again = make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(7))
    other = make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(8))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize("kind", SURFACE_KINDS)
def test_every_surface_has_texture_and_is_neither_black_nor_blown_out(kind: str) -> None:
    image = make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(2)).astype(np.float32)
    assert 25 < image.mean() < 235
    assert image.std() > 2.0


@pytest.mark.parametrize(("kind", "dominant"), [("felt_green", 1), ("felt_blue", 0), ("felt_red", 2)])
def test_felt_is_the_colour_it_is_named_after(kind: str, dominant: int) -> None:
    for seed in range(4):
        colour = mean_bgr(make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(seed)))
        others = [colour[channel] for channel in range(3) if channel != dominant]
        assert colour[dominant] > 1.3 * max(others), (seed, colour)


@pytest.mark.parametrize("kind", ["wood_light", "wood_dark"])
def test_wood_is_brown_red_over_green_over_blue(kind: str) -> None:
    for seed in range(4):
        blue, green, red = mean_bgr(make_surface(kind, WIDTH, HEIGHT, np.random.default_rng(seed)))
        assert red > green > blue, (seed, blue, green, red)


def test_light_wood_is_lighter_than_dark_wood() -> None:
    light = make_surface("wood_light", WIDTH, HEIGHT, np.random.default_rng(3)).mean()
    dark = make_surface("wood_dark", WIDTH, HEIGHT, np.random.default_rng(3)).mean()
    assert light > dark + 40


def test_checks_alternate_between_light_and_coloured_squares() -> None:
    image = make_surface("cloth_checks", 640, 360, np.random.default_rng(4)).astype(np.float32)
    luminance = image.mean(axis=2)
    assert np.percentile(luminance, 95) - np.percentile(luminance, 5) > 60


def test_unknown_kind_is_refused_with_the_list_of_known_kinds() -> None:
    with pytest.raises(SurfaceError) as caught:
        make_surface("marble", WIDTH, HEIGHT, np.random.default_rng(0))
    message = str(caught.value)
    assert "'marble'" in message
    for kind in SURFACE_KINDS:
        assert kind in message
    assert isinstance(caught.value, VisionError)


@pytest.mark.parametrize(("width", "height"), [(0, 100), (100, -5), (100.5, 100), (100, 100000), (True, 100)])
def test_bad_sizes_are_refused_naming_the_value(width: object, height: object) -> None:
    with pytest.raises(SurfaceError, match=r"width|height"):
        make_surface("felt_green", width, height, np.random.default_rng(0))  # type: ignore[arg-type]


def test_a_seed_instead_of_a_generator_is_refused() -> None:
    with pytest.raises(SurfaceError, match="Generator"):
        make_surface("felt_green", WIDTH, HEIGHT, 42)  # type: ignore[arg-type]
