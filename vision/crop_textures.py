"""Procedural surfaces for synthetic images: table tops (felt, wood, cloth), card backs and skin.

Everything is drawn from an explicit ``numpy.random.Generator`` as BGR uint8 images, so a seed
fixes the picture. These stand in for the tables and the deck backs that the artwork lacks.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

TABLE_KINDS: tuple[str, ...] = ("felt", "wood", "cloth", "plain", "stone")
BACK_KINDS: tuple[str, ...] = ("checks", "stripes", "dots", "diamonds", "rosette", "tartan", "plain")

# Typical table colours (BGR): green and blue felt, wine red, wood browns, white and grey cloth.
_TABLE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 110, 30), (60, 90, 20), (110, 60, 20), (40, 40, 120), (30, 70, 120), (60, 100, 150),
    (200, 210, 215), (130, 130, 130), (40, 40, 40), (90, 140, 190), (170, 190, 200), (20, 50, 80),
)
_SKIN_COLOURS: tuple[tuple[int, int, int], ...] = (
    (140, 170, 225), (120, 150, 210), (100, 130, 190), (80, 110, 160), (60, 80, 120), (170, 190, 235),
)


def _check_size(height: int, width: int, what: str) -> None:
    if height < 1 or width < 1:
        raise VisionError(f"{what}: size must be at least 1x1, got {width}x{height}")


def _smooth_noise(rng: np.random.Generator, height: int, width: int, cell: float) -> np.ndarray:
    """Value noise in -1..1 whose features are about ``cell`` pixels wide."""
    small_h = max(2, int(height / max(cell, 1.0)) + 2)
    small_w = max(2, int(width / max(cell, 1.0)) + 2)
    coarse = rng.uniform(-1.0, 1.0, size=(small_h, small_w)).astype(np.float32)
    return cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC)


def _jitter_colour(rng: np.random.Generator, colour: tuple[int, int, int], spread: float) -> np.ndarray:
    return np.clip(np.array(colour, np.float32) + rng.normal(0.0, spread, 3), 0, 255).astype(np.float32)


def table_texture(rng: np.random.Generator, height: int, width: int, kind: str | None = None) -> np.ndarray:
    """A table top seen from above: ``kind`` one of TABLE_KINDS, or drawn at random when None."""
    _check_size(height, width, "table_texture")
    if kind is None:
        kind = TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))]
    if kind not in TABLE_KINDS:
        raise VisionError(f"table_texture: unknown kind {kind!r}; choose one of {', '.join(TABLE_KINDS)}")
    base = _jitter_colour(rng, _TABLE_COLOURS[int(rng.integers(len(_TABLE_COLOURS)))], 20.0)
    image = np.empty((height, width, 3), np.float32)
    image[:] = base
    if kind == "felt":
        image += (_smooth_noise(rng, height, width, 30.0) * 10.0)[:, :, None]
        image += rng.standard_normal((height, width, 1), dtype=np.float32) * 6.0
    elif kind == "wood":
        angle = rng.uniform(0, np.pi)
        ys, xs = np.mgrid[:height, :width].astype(np.float32)
        along = xs * np.cos(angle) + ys * np.sin(angle)
        warp = _smooth_noise(rng, height, width, 40.0) * rng.uniform(5, 25)
        grain = np.sin((along + warp) / rng.uniform(2.0, 8.0))
        image += (grain * rng.uniform(8, 30))[:, :, None]
        image += (_smooth_noise(rng, height, width, 80.0) * 15.0)[:, :, None]
    elif kind == "cloth":
        period = rng.uniform(6.0, 40.0)
        ys, xs = np.mgrid[:height, :width].astype(np.float32)
        checks = ((xs // period + ys // period) % 2).astype(np.float32)
        other = _jitter_colour(rng, _TABLE_COLOURS[int(rng.integers(len(_TABLE_COLOURS)))], 30.0)
        mix = checks[:, :, None] * rng.uniform(0.2, 1.0)
        image = image * (1 - mix) + other * mix
        image += rng.standard_normal((height, width, 1), dtype=np.float32) * 5.0
    elif kind == "stone":
        stone = _smooth_noise(rng, height, width, 15.0) * 20 + _smooth_noise(rng, height, width, 60.0) * 25
        image += stone[:, :, None]
    else:
        image += rng.standard_normal((height, width, 1), dtype=np.float32) * 3.0
    return np.clip(image, 0, 255).astype(np.uint8)


def _mirror_four_ways(tile: np.ndarray) -> np.ndarray:
    """Make a pattern symmetric left-right and top-bottom, as card backs are."""
    top = np.concatenate([tile, tile[:, ::-1]], axis=1)
    return np.concatenate([top, top[::-1]], axis=0)


def _back_pattern(rng: np.random.Generator, height: int, width: int, kind: str) -> np.ndarray:
    ink = _jitter_colour(rng, ((30, 30, 170), (140, 60, 20), (40, 100, 30), (20, 20, 20), (90, 30, 110))[
        int(rng.integers(5))], 25.0)
    paper = _jitter_colour(rng, (240, 240, 240), 15.0)
    ys, xs = np.mgrid[:height, :width].astype(np.float32)
    period = rng.uniform(4.0, 16.0)
    if kind == "checks":
        amount = ((xs // period + ys // period) % 2).astype(np.float32)
    elif kind == "stripes":
        angle = rng.choice([np.pi / 4, -np.pi / 4, 0.0, np.pi / 2])
        along = xs * np.cos(angle) + ys * np.sin(angle)
        amount = (np.sin(along * 2 * np.pi / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        if rng.random() < 0.5:
            across = xs * np.cos(angle + np.pi / 2) + ys * np.sin(angle + np.pi / 2)
            amount = np.maximum(amount, (np.sin(across * 2 * np.pi / period) > 0.3).astype(np.float32))
    elif kind == "dots":
        cx = (xs % period) - period / 2
        cy = (ys % period) - period / 2
        amount = (cx**2 + cy**2 < (period * rng.uniform(0.2, 0.45)) ** 2).astype(np.float32)
    elif kind == "diamonds":
        cx = np.abs((xs % period) - period / 2)
        cy = np.abs((ys % (period * 1.5)) - period * 0.75) / 1.5
        amount = (cx + cy < period * rng.uniform(0.25, 0.45)).astype(np.float32)
    elif kind == "rosette":
        half_h, half_w = (height + 1) // 2, (width + 1) // 2
        tile = (_smooth_noise(rng, half_h, half_w, rng.uniform(3.0, 12.0)) > rng.uniform(-0.2, 0.3))
        amount = _mirror_four_ways(tile.astype(np.float32))[:height, :width]
    elif kind == "tartan":
        bands_x = np.sin(xs * 2 * np.pi / (period * 3)) > 0.4
        bands_y = np.sin(ys * 2 * np.pi / (period * 3)) > 0.4
        amount = 0.5 * bands_x.astype(np.float32) + 0.5 * bands_y.astype(np.float32)
    else:
        amount = np.ones((height, width), np.float32)
    amount = amount[:, :, None]
    return paper * (1 - amount) + ink * amount


def procedural_back(rng: np.random.Generator, height: int, width: int, kind: str | None = None) -> np.ndarray:
    """A card back: a repeating, symmetric pattern inside a white border and an optional frame line."""
    _check_size(height, width, "procedural_back")
    if kind is None:
        kind = BACK_KINDS[int(rng.integers(len(BACK_KINDS)))]
    if kind not in BACK_KINDS:
        raise VisionError(f"procedural_back: unknown kind {kind!r}; choose one of {', '.join(BACK_KINDS)}")
    image = np.empty((height, width, 3), np.float32)
    image[:] = _jitter_colour(rng, (245, 245, 245), 8.0)
    border = round(min(height, width) * rng.uniform(0.0, 0.1))
    inner_h, inner_w = height - 2 * border, width - 2 * border
    if inner_h > 2 and inner_w > 2:
        image[border:border + inner_h, border:border + inner_w] = _back_pattern(rng, inner_h, inner_w, kind)
        if rng.random() < 0.5:
            inset = round(min(inner_h, inner_w) * rng.uniform(0.05, 0.15))
            colour = tuple(float(v) for v in _jitter_colour(rng, (245, 245, 245), 10.0))
            thickness = max(1, round(min(height, width) * 0.02))
            cv2.rectangle(image, (border + inset, border + inset),
                          (width - border - inset - 1, height - border - inset - 1), colour, thickness)
    return np.clip(image, 0, 255).astype(np.uint8)


def skin_colour(rng: np.random.Generator) -> np.ndarray:
    """A BGR skin tone (float32) from pale to dark."""
    return _jitter_colour(rng, _SKIN_COLOURS[int(rng.integers(len(_SKIN_COLOURS)))], 12.0)


def draw_fingers(
    image: np.ndarray, rng: np.random.Generator, count: int, width_px: float, reach: float
) -> np.ndarray:
    """Fingers entering from one edge: ``count`` capsules ``width_px`` wide, ``reach`` (0..1) inside."""
    height, width = image.shape[:2]
    out = image.astype(np.float32)
    side = int(rng.integers(4))
    colour = skin_colour(rng)
    start = rng.uniform(0.1, 0.9)
    angle = rng.normal(0.0, 0.35)
    for i in range(count):
        offset = start + (i - (count - 1) / 2) * width_px * 1.1 / max(width, height)
        length = reach * rng.uniform(0.75, 1.0)
        # In the frame of side 0 (entering from the top): x along the edge, y inward.
        base = np.array([offset, -0.1])
        tip = base + length * np.array([np.sin(angle), np.cos(angle)])
        points = []
        for x, y in (base, tip):
            if side == 0:
                points.append((x * width, y * height))
            elif side == 1:
                points.append(((1 - y) * width, x * height))
            elif side == 2:
                points.append(((1 - x) * width, (1 - y) * height))
            else:
                points.append((y * width, (1 - x) * height))
        mask = np.zeros((height, width), np.float32)
        p0 = tuple(round(v * 16) for v in points[0])
        p1 = tuple(round(v * 16) for v in points[1])
        cv2.line(mask, p0, p1, 1.0, max(1, round(width_px)), lineType=cv2.LINE_AA, shift=4)
        shading = cv2.GaussianBlur(mask, (0, 0), max(width_px / 4, 0.5))
        tone = colour * (0.7 + 0.35 * shading[:, :, None])
        out = out * (1 - mask[:, :, None]) + tone * mask[:, :, None]
    return np.clip(out, 0, 255).astype(np.uint8)
