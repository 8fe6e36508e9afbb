"""Another print of the same card: artwork redrawn as a deck style the training set does not have.

The classifier must read regional patterns and French designs it never saw. What differs between two
decks of the same card is mostly the palette (which colour each part of the drawing is printed in),
the weight of the lines, the exact shapes of the figures and pips, and how flat or shaded the print
is; what stays is the suit symbols' gestalt, their count and layout, and the index. ``restyle``
changes the first group at random so that the model has to learn the second:

- a hue remap that moves different hues by different amounts (a red-and-blue figure may come out
  green-and-yellow; black ink and white paper stay as they are, so red and black suits stay apart
  by colourfulness);
- saturation from washed-out to vivid, and rarely a grey print (by luminance);
- thicker or thinner lines (a blend towards a grey-level erosion or dilation);
- a smooth elastic warp of the drawing (figures and pips a little differently drawn);
- rarely a posterised, flat-colour print;
- where asked (``p_ink_tint``, the trainer's ``--ink-tint``), the black ink printed in a colour, as a
  four-colour deck prints its clubs green and its spades (or other suits) in colours of their own: then
  a suit's colour tells nothing, and only its shape names it.

Everything is drawn from the ``numpy.random.Generator`` passed in. No torch here.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class RestyleSettings:
    """Chances and ranges of each change (each applied independently)."""

    p_hue_remap: float = 0.7
    max_hue_bend: float = 35.0  # OpenCV hue units (half degrees)
    saturation_sigma: float = 0.4
    p_grey: float = 0.06
    p_stroke: float = 0.5
    p_warp: float = 0.5
    max_warp: float = 0.025  # share of the card's width
    p_posterise: float = 0.12
    p_ink_tint: float = 0.0  # 0 draws no random number: prints made without it stay the same


def _remap_hue(hsv: np.ndarray, rng: np.random.Generator, settings: RestyleSettings) -> None:
    """In place: hue' = hue + shift + bend * sin(k * hue + phase), so hues move by different amounts."""
    hue = hsv[:, :, 0]
    shift = rng.uniform(0.0, 180.0)
    bend = rng.uniform(0.0, settings.max_hue_bend)
    turns = int(rng.integers(1, 4))
    phase = rng.uniform(0.0, 2 * np.pi)
    hsv[:, :, 0] = (hue + shift + bend * np.sin(hue * (2 * np.pi * turns / 180.0) + phase)) % 180.0


def _recolour(image: np.ndarray, rng: np.random.Generator, settings: RestyleSettings) -> np.ndarray:
    """Hues remapped, saturation scaled; or, rarely, a grey print by luminance (red pips stay dark)."""
    if rng.random() < settings.p_grey:
        return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    if rng.random() < settings.p_hue_remap:
        _remap_hue(hsv, rng, settings)
    hsv[:, :, 1] *= float(np.exp(rng.normal(0.0, settings.saturation_sigma)))
    return cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)


def _tint_ink(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The grey and black ink printed in one random colour instead: each unsaturated pixel keeps how far
    it lies from white paper, along the line from white to that colour; coloured inks and paper stay."""
    hue = rng.uniform(0.0, 180.0)
    ink_hsv = np.array([[[hue, rng.uniform(0.55, 1.0) * 255, rng.uniform(0.35, 0.8) * 255]]], np.float32)
    ink = cv2.cvtColor(ink_hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).reshape(3).astype(np.float32)
    pixels = image.astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    greyness = np.clip((0.3 - hsv[:, :, 1:2] / 255.0) / 0.15, 0.0, 1.0)
    darkness = 1.0 - hsv[:, :, 2:3] / 255.0
    tinted = 255.0 - darkness * (255.0 - ink)
    return np.clip(greyness * tinted + (1.0 - greyness) * pixels, 0, 255).astype(np.uint8)


def _restroke(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Dark lines thicker (erosion of the grey levels) or thinner (dilation), blended by a random weight."""
    kernel = np.ones((3, 3), np.uint8)
    moved = cv2.erode(image, kernel) if rng.random() < 0.6 else cv2.dilate(image, kernel)
    weight = rng.uniform(0.3, 1.0)
    return cv2.addWeighted(image, 1.0 - weight, moved, weight, 0.0)


def _warp(image: np.ndarray, rng: np.random.Generator, settings: RestyleSettings) -> np.ndarray:
    """A smooth random displacement field (a coarse grid of offsets, interpolated) of up to
    ``max_warp`` of the width; the card's outline stays where it is."""
    height, width = image.shape[:2]
    amplitude = rng.uniform(0.3, 1.0) * settings.max_warp * width
    rows, columns = int(rng.integers(3, 6)), int(rng.integers(3, 5))
    grid = rng.normal(0.0, amplitude / 2, (2, rows, columns)).astype(np.float32)
    dx = cv2.resize(grid[0], (width, height), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(grid[1], (width, height), interpolation=cv2.INTER_CUBIC)
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    return cv2.remap(image, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _posterise(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each channel rounded to 3..6 evenly spaced levels, 0 and 255 included (white paper stays white)."""
    steps = int(rng.integers(2, 6))
    table = (np.round(np.arange(256) / 255.0 * steps) * (255.0 / steps)).astype(np.uint8)
    return cv2.LUT(image, table)


def restyle(image: np.ndarray, rng: np.random.Generator,
            settings: RestyleSettings | None = None) -> np.ndarray:
    """The BGR uint8 artwork ``image`` as printed by another deck maker (same size and outline)."""
    settings = settings or RestyleSettings()
    out = _recolour(image, rng, settings)
    if settings.p_ink_tint > 0.0 and rng.random() < settings.p_ink_tint:
        out = _tint_ink(out, rng)
    if rng.random() < settings.p_stroke and min(out.shape[:2]) >= 24:
        out = _restroke(out, rng)
    if rng.random() < settings.p_warp and min(out.shape[:2]) >= 24:
        out = _warp(out, rng, settings)
    if rng.random() < settings.p_posterise:
        out = _posterise(out, rng)
    return out
