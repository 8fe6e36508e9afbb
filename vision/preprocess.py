"""The one preprocessing step shared by training and inference, so the two can never drift apart.

A card crop (BGR uint8, any size, roughly cut to the card's edges) becomes the model's input:
turned to portrait if it is landscape, resized to the model's input size with area averaging,
converted to RGB, scaled to 0..1 and normalised per channel: ``(x - mean) / std``; NCHW float32.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.errors import VisionError

DEFAULT_MEAN: tuple[float, float, float] = (0.5, 0.5, 0.5)
DEFAULT_STD: tuple[float, float, float] = (0.25, 0.25, 0.25)
MIN_CROP_SIDE = 2  # pixels; a narrower image cannot be resized as a picture


def is_large_enough_crop(image: np.ndarray) -> bool:
    """Whether an image has at least ``MIN_CROP_SIDE`` pixels on each side, as the model reads it."""
    return min(image.shape[:2]) >= MIN_CROP_SIDE


def to_portrait(crop: np.ndarray) -> np.ndarray:
    """Rotate a landscape crop a quarter turn so that it stands upright (either way up is fine)."""
    if crop.shape[1] > crop.shape[0]:
        return cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return crop


def resize_crop(crop: np.ndarray, width: int, height: int) -> np.ndarray:
    """A BGR uint8 crop in portrait, resized to ``width`` x ``height``; raise VisionError on a bad array."""
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    if crop.ndim != 3 or crop.shape[2] not in (3, 4) or not is_large_enough_crop(crop):
        raise VisionError(f"a card crop must be an HxWx3 image of {MIN_CROP_SIDE}x{MIN_CROP_SIDE} pixels "
                          f"or more, got {crop.shape}")
    crop = to_portrait(crop[:, :, :3])
    shrinking = crop.shape[0] > height
    interpolation = cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    return cv2.resize(crop, (width, height), interpolation=interpolation)


def to_model_input(
    crops: Sequence[np.ndarray],
    width: int,
    height: int,
    mean: Sequence[float] = DEFAULT_MEAN,
    std: Sequence[float] = DEFAULT_STD,
) -> np.ndarray:
    """Stack BGR uint8 crops into the model's NCHW float32 RGB input, normalised per channel."""
    batch = np.empty((len(crops), height, width, 3), dtype=np.uint8)
    for i, crop in enumerate(crops):
        batch[i] = resize_crop(crop, width, height)
    # BGR -> RGB and NHWC -> NCHW on the uint8 pixels, then one scale and one shift per channel in place:
    # ((x / 255) - mean) / std == x * (1 / (255 * std)) - mean / std.
    planar = batch[:, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32, order="C")
    std_array = np.asarray(std, np.float32).reshape(1, 3, 1, 1)
    planar *= 1.0 / (255.0 * std_array)
    planar -= np.asarray(mean, np.float32).reshape(1, 3, 1, 1) / std_array
    return planar
