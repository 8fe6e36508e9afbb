"""One realistic training crop from card artwork, as the runtime would cut it from a camera frame.

The story of a crop: a card lies on a table under an overhead camera; the runtime finds its four
corners and warps it back to an upright crop. What reaches the classifier is therefore a card of
40x60 up to 300x450 pixels, cut tight or with some table around it, with a little perspective left
over from imperfect corners, rounded corners showing the table, either way up, sometimes partly
covered by another card or by fingers, sometimes with an index corner cut off, under the room's
light and through a cheap camera (``vision.photometric``).

Everything is drawn from the ``numpy.random.Generator`` passed in: the same seed gives the same
crop. No torch here: the scene renderer and tests use this module too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.crop_textures import draw_fingers, procedural_back, table_texture
from vision.errors import VisionError
from vision.photometric import apply_camera, apply_lighting, sample_effects
from vision.restyle import RestyleSettings, restyle


class CropError(VisionError):
    """Artwork or settings that cannot make a crop."""


Levels = tuple[tuple[np.ndarray, np.ndarray], ...]


@dataclass(frozen=True)
class Artwork:
    """A card image ready to lay on a table: BGR ``image`` and float ``alpha`` (0 where the table shows)."""

    image: np.ndarray
    alpha: np.ndarray
    smaller: Levels = ()  # halved copies, largest first

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.image.shape[1] / self.image.shape[0]

    def levels(self) -> Levels:
        """(image, alpha) at full size, then the halved copies in ``smaller``."""
        return ((self.image, self.alpha), *self.smaller)


def _halvings(image: np.ndarray, alpha: np.ndarray, min_height: int = 64) -> Levels:
    """Copies of the artwork halved again and again (area averaging) down to about ``min_height``."""
    levels = []
    while image.shape[0] >= 2 * min_height:
        size = (image.shape[1] // 2, image.shape[0] // 2)
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
        levels.append((image, alpha))
    return tuple(levels)


@dataclass(frozen=True)
class CropSettings:
    """The ranges crops are drawn from (pixels are the card's size in the camera frame)."""

    min_card_width: int = 40
    max_card_height: int = 450
    typical_card_height: int = 160
    p_large: float = 0.2
    p_tight: float = 0.45
    p_upside_down: float = 0.5
    p_other_card: float = 0.2
    p_fingers: float = 0.12
    p_corner_cut: float = 0.12
    p_upsampled: float = 0.25
    max_residual: float = 0.035
    effect_strength: tuple[float, float] = (0.2, 1.0)
    # Training only: the share of crops whose artwork is redrawn as another deck's print
    # (``vision.restyle``); 0 shows the deck as it is, as evaluation and enrolment need.
    p_restyle: float = 0.0
    # Training only: of the restyled crops, the share whose black ink is printed in a colour
    # (``vision.restyle``, ``p_ink_tint``).
    p_ink_tint: float = 0.0
    # Evaluation only: the card turned by this many degrees, either way, inside an upright crop cut round
    # it (a phone photo cut to a rectangle round a card that lay askew); 0 draws nothing more.
    tilt_degrees: float = 0.0
    # Evaluation only: this share of the card's width and height of table added on every side of the crop
    # (a photo hardly cut round the card); 0 draws nothing more.
    extra_margin: float = 0.0


def _rounded_mask(height: int, width: int, radius: float) -> np.ndarray:
    mask = np.zeros((height, width), np.uint8)
    r = round(max(radius, 0.0))
    if r < 1:
        mask[:] = 255
        return mask
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return mask


# A flood from the corners that takes more than this share of the picture has run into the card itself.
MAX_MARGIN_SHARE = 0.3
MIN_ARTWORK_SIDE = 8  # pixels on each side of a card picture, the least its corners can be told in


def prepare_artwork(image: np.ndarray) -> Artwork:
    """Cut a card image out of its file's background: rounded corners, and the coloured sheet margin
    (green or black corners of scanned card sheets) flooded away from the four corners.

    The flood takes the pixels within 40 levels of the corner's own colour (a sheet margin is one flat
    colour); if it takes more than ``MAX_MARGIN_SHARE`` of the picture, the corner was a stray pixel of
    the card and the whole picture is kept.
    """
    side = MIN_ARTWORK_SIDE
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < side:
        raise CropError(f"prepare_artwork: expected an HxWx3 uint8 image of {side}x{side} or more, "
                        f"got {image.shape}")
    height, width = image.shape[:2]
    outside = np.zeros((height + 2, width + 2), np.uint8)
    for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        if int(image[y, x].min()) < 200 and outside[y + 1, x + 1] == 0:
            cv2.floodFill(image.copy(), outside, (x, y), 0, (40, 40, 40), (40, 40, 40),
                          4 | cv2.FLOODFILL_MASK_ONLY | cv2.FLOODFILL_FIXED_RANGE | (1 << 8))
    inside = (outside[1:-1, 1:-1] == 0).astype(np.float32)
    if inside.mean() < 1.0 - MAX_MARGIN_SHARE:
        inside[:] = 1.0
    rounded = _rounded_mask(height, width, 0.055 * width).astype(np.float32) / 255.0
    alpha = inside * rounded
    return Artwork(image=image, alpha=alpha, smaller=_halvings(image, alpha))


def _vary_artwork(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Print and paper differences between physical decks: hue, saturation, paper tint, ink weight."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[:, :, 0] = (hsv[:, :, 0] + rng.normal(0.0, 3.0)) % 180
    hsv[:, :, 1] *= float(np.exp(rng.normal(0.0, 0.2)))
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    paper = np.array([1.0 - abs(rng.normal(0.0, 0.06)), 1.0 - abs(rng.normal(0.0, 0.03)), 1.0], np.float32)
    out *= paper
    ink = rng.uniform(0.85, 1.15)
    out = 255.0 - (255.0 - out) * ink
    return np.clip(out, 0, 255).astype(np.uint8)


def _card_size(rng: np.random.Generator, aspect: float, settings: CropSettings) -> tuple[int, int]:
    """Card width and height in camera pixels: log-uniform, mostly below ``typical_card_height``
    (an overhead camera sees cards small), up to ``max_card_height`` for a share of ``p_large``.
    """
    min_height = settings.min_card_width / aspect
    low, high = (settings.typical_card_height, settings.max_card_height)
    if rng.random() >= settings.p_large:
        low, high = min_height, settings.typical_card_height
    height = float(np.exp(rng.uniform(np.log(low), np.log(high))))
    return max(settings.min_card_width, round(height * aspect)), round(height)


def _draw_margins(rng: np.random.Generator, tight: bool) -> np.ndarray:
    """Left, top, right, bottom margins as fractions of the card's size; negative cuts into the card."""
    if tight:
        return rng.uniform(-0.04, 0.03, 4)
    return rng.uniform(0.0, 0.25, 4) * rng.uniform(0.2, 1.0)


def _fit_artwork(art: Artwork, width: float, height: float) -> Artwork:
    """Shrink the artwork (area averaging) to a little above ``width`` x ``height``; never enlarge it."""
    image, alpha = art.image, art.alpha
    for level_image, level_alpha in art.levels():
        if level_image.shape[0] >= height * 1.1 and level_image.shape[1] >= width * 1.1:
            image, alpha = level_image, level_alpha
    src_h, src_w = image.shape[:2]
    scale = max(width / src_w, height / src_h) * 1.1
    if scale >= 0.9:
        return Artwork(image=image, alpha=alpha)
    size = (max(2, round(src_w * scale)), max(2, round(src_h * scale)))
    return Artwork(image=cv2.resize(image, size, interpolation=cv2.INTER_AREA),
                   alpha=cv2.resize(alpha, size, interpolation=cv2.INTER_AREA))


def _composite(canvas: np.ndarray, art: Artwork, quad: np.ndarray, rng: np.random.Generator,
               shade: bool = True) -> np.ndarray:
    """Lay ``art`` on ``canvas`` with its corners (TL, TR, BR, BL) at ``quad``, with a soft contact shadow."""
    height, width = canvas.shape[:2]
    quad_w = float(np.linalg.norm(quad[1] - quad[0]))
    quad_h = float(np.linalg.norm(quad[3] - quad[0]))
    fitted = _fit_artwork(art, quad_w, quad_h)
    image, alpha = fitted.image, fitted.alpha
    src_h, src_w = image.shape[:2]
    source = np.array([[0, 0], [src_w, 0], [src_w, src_h], [0, src_h]], np.float32)
    homography = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    warped = cv2.warpPerspective(image, homography, (width, height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpPerspective(alpha, homography, (width, height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)[:, :, None]
    base = canvas.astype(np.float32)
    if shade:
        spread = max(0.8, 0.02 * max(quad_w, quad_h))
        offset = rng.normal(0.0, spread, 2)
        shift = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
        drop = cv2.warpAffine(mask[:, :, 0], shift, (width, height))
        drop = cv2.GaussianBlur(drop, (0, 0), spread)[:, :, None]
        base *= 1.0 - rng.uniform(0.1, 0.45) * drop
    out = base * (1.0 - mask) + warped.astype(np.float32) * mask
    return np.clip(out, 0, 255).astype(np.uint8)


def _card_quad(rng: np.random.Generator, card_w: int, card_h: int, margins: np.ndarray,
               residual: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The card's corners in the crop and the crop's size; ``residual`` jitters each corner."""
    left, right = margins[0] * card_w, margins[2] * card_w
    top, bottom = margins[1] * card_h, margins[3] * card_h
    crop_w = max(8, round(card_w + left + right))
    crop_h = max(8, round(card_h + top + bottom))
    quad = np.array([[left, top], [left + card_w, top], [left + card_w, top + card_h], [left, top + card_h]],
                    np.float32)
    quad += rng.normal(0.0, residual, (4, 2)).astype(np.float32) * np.array([card_w, card_h], np.float32)
    return quad, (crop_w, crop_h)


def _rotation(angle: float) -> np.ndarray:
    """``[2, 2]`` float32: the rotation by ``angle`` radians (of points as rows: ``points @ R.T``)."""
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)


def _turned_in_crop(rng: np.random.Generator, quad: np.ndarray, card_w: int, card_h: int,
                    degrees: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The card's corners turned by ``degrees`` either way about their centre, in a crop cut upright
    round them with 0..6% of the card's width and height of table on every side, and the crop's size."""
    angle = np.deg2rad(degrees if rng.random() < 0.5 else -degrees)
    turned = (quad - quad.mean(axis=0)) @ _rotation(angle).T
    low, high = turned.min(axis=0), turned.max(axis=0)
    pad = np.array([card_w, card_h], np.float32) * rng.uniform(0.0, 0.06, 2).astype(np.float32)
    width, height = (float(side) for side in high - low + 2 * pad)
    return (turned - low + pad).astype(np.float32), (max(8, round(width)), max(8, round(height)))


def _with_more_table(quad: np.ndarray, crop_w: int, crop_h: int, card_w: int, card_h: int,
                     share: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The card's corners and the crop's size with ``share`` of the card's width and height of table
    added on every side."""
    pad_x, pad_y = round(card_w * share), round(card_h * share)
    return (quad + np.float32([pad_x, pad_y])).astype(np.float32), (crop_w + 2 * pad_x, crop_h + 2 * pad_y)


def _other_card_quad(rng: np.random.Generator, crop_w: int, crop_h: int, card_w: int, card_h: int,
                     cover: float) -> np.ndarray:
    """A second card lying across one side of the crop, covering about ``cover`` of the card's depth."""
    angle = rng.uniform(-0.6, 0.6) + (np.pi / 2 if rng.random() < 0.3 else 0.0)
    half = np.array([card_w, card_h], np.float32) / 2
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * half
    corners = corners @ _rotation(angle).T
    side = int(rng.integers(4))
    along = rng.uniform(0.0, 1.0)
    reach_x = card_w * (0.5 + 0.5 * cover) + half[0] * 0.2
    reach_y = card_h * (0.5 + 0.5 * cover) + half[1] * 0.2
    centres = {
        0: (along * crop_w, -reach_y + card_h * cover * 2),
        1: (crop_w + reach_x - card_w * cover * 2, along * crop_h),
        2: (along * crop_w, crop_h + reach_y - card_h * cover * 2),
        3: (-reach_x + card_w * cover * 2, along * crop_h),
    }
    return corners + np.array(centres[side], np.float32)


def _cut_corner(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Drop a strip of 8..22% from one or two adjacent sides, as when the detector misses a corner."""
    height, width = crop.shape[:2]
    cut_x = round(width * rng.uniform(0.08, 0.22))
    cut_y = round(height * rng.uniform(0.08, 0.22)) if rng.random() < 0.6 else 0
    x0, x1 = (cut_x, width) if rng.random() < 0.5 else (0, width - cut_x)
    y0, y1 = (cut_y, height) if rng.random() < 0.5 else (0, height - cut_y)
    return crop[y0:y1, x0:x1]


def _finish(canvas: np.ndarray, rng: np.random.Generator, settings: CropSettings) -> np.ndarray:
    """Light, optionally a lower camera resolution upsampled by the runtime's warp, then the sensor."""
    effects = sample_effects(rng, float(rng.uniform(*settings.effect_strength)))
    lit = apply_lighting(canvas, effects)
    if rng.random() < settings.p_upsampled and min(lit.shape[:2]) > 24:
        factor = rng.uniform(0.5, 0.85)
        small = (max(8, round(lit.shape[1] * factor)), max(8, round(lit.shape[0] * factor)))
        lit = cv2.resize(lit, small, interpolation=cv2.INTER_AREA)
        out = apply_camera(lit, effects, rng)
        size = (canvas.shape[1], canvas.shape[0])
        interpolation = cv2.INTER_LINEAR if rng.random() < 0.7 else cv2.INTER_CUBIC
        return cv2.resize(out, size, interpolation=interpolation)
    return apply_camera(lit, effects, rng)


def render_card_crop(
    art: Artwork,
    rng: np.random.Generator,
    occluders: Sequence[Artwork] = (),
    settings: CropSettings | None = None,
) -> np.ndarray:
    """One crop of the card ``art`` as the runtime would see it (BGR uint8, portrait-ish, any size).

    ``occluders`` are other cards that may lie across part of it (another card on the table).
    """
    settings = settings or CropSettings()
    card_w, card_h = _card_size(rng, art.aspect, settings)
    margins = _draw_margins(rng, bool(rng.random() < settings.p_tight))
    quad, (crop_w, crop_h) = _card_quad(rng, card_w, card_h, margins,
                                        float(rng.uniform(0.0, settings.max_residual)))
    if settings.tilt_degrees:
        quad, (crop_w, crop_h) = _turned_in_crop(rng, quad, card_w, card_h, settings.tilt_degrees)
    if settings.extra_margin:
        quad, (crop_w, crop_h) = _with_more_table(quad, crop_w, crop_h, card_w, card_h, settings.extra_margin)
    canvas = table_texture(rng, crop_h, crop_w)
    fitted = _fit_artwork(art, card_w, card_h)
    image = _vary_artwork(fitted.image, rng)
    if settings.p_restyle > 0.0 and rng.random() < settings.p_restyle:
        image = restyle(image, rng, RestyleSettings(p_ink_tint=settings.p_ink_tint))
    varied = Artwork(image=image, alpha=fitted.alpha)
    canvas = _composite(canvas, varied, quad, rng)
    if occluders and rng.random() < settings.p_other_card:
        other = occluders[int(rng.integers(len(occluders)))]
        other_quad = _other_card_quad(rng, crop_w, crop_h, card_w, card_h, float(rng.uniform(0.05, 0.3)))
        canvas = _composite(canvas, other, other_quad, rng)
    if rng.random() < settings.p_fingers:
        canvas = draw_fingers(canvas, rng, int(rng.integers(1, 4)), card_w * rng.uniform(0.12, 0.22),
                              float(rng.uniform(0.1, 0.35)))
    if rng.random() < settings.p_upside_down:
        canvas = cv2.rotate(canvas, cv2.ROTATE_180)
    if rng.random() < settings.p_corner_cut:
        canvas = _cut_corner(canvas, rng)
    return _finish(np.ascontiguousarray(canvas), rng, settings)


def random_back_artwork(rng: np.random.Generator, aspect: float | None = None) -> Artwork:
    """A procedurally drawn card back (many decks come without a back image)."""
    aspect = aspect if aspect is not None else float(rng.uniform(0.55, 0.72))
    height = int(rng.integers(140, 300))
    width = max(8, round(height * aspect))
    return prepare_artwork(procedural_back(rng, height, width))


NONE_KINDS: tuple[str, ...] = ("table", "fingers", "edge", "covered", "empty", "two_cards")


def render_none_crop(
    rng: np.random.Generator,
    cards: Sequence[Artwork],
    settings: CropSettings | None = None,
    kind: str | None = None,
) -> np.ndarray:
    """A crop that holds no readable card: bare table, a hand, a card's edge, a card buried under
    another, an almost empty patch, or the facing halves of two cards. ``kind`` one of NONE_KINDS.
    """
    settings = settings or CropSettings()
    if kind is None:
        kind = NONE_KINDS[int(rng.integers(len(NONE_KINDS)))]
    if kind not in NONE_KINDS:
        raise CropError(f"render_none_crop: unknown kind {kind!r}; choose one of {', '.join(NONE_KINDS)}")
    if not cards and kind in ("edge", "covered", "two_cards"):
        raise CropError(f"render_none_crop: kind {kind!r} needs card artwork, got none")
    aspect = cards[0].aspect if cards else 0.62
    card_w, card_h = _card_size(rng, aspect, settings)
    crop_w, crop_h = round(card_w * rng.uniform(1.0, 1.3)), round(card_h * rng.uniform(1.0, 1.3))
    canvas = table_texture(rng, crop_h, crop_w)
    pick = (lambda: cards[int(rng.integers(len(cards)))]) if cards else None
    base = np.array([[0, 0], [card_w, 0], [card_w, card_h], [0, card_h]], np.float32)
    if kind == "fingers":
        canvas = draw_fingers(canvas, rng, int(rng.integers(2, 5)), crop_w * rng.uniform(0.15, 0.3),
                              float(rng.uniform(0.5, 1.1)))
    elif kind == "edge":
        visible = rng.uniform(0.05, 0.25)
        shift = np.array([crop_w * (1 - visible), rng.uniform(-0.2, 0.2) * crop_h], np.float32)
        if rng.random() < 0.5:
            shift = np.array([rng.uniform(-0.2, 0.2) * crop_w, crop_h * (1 - visible)], np.float32)
        canvas = _composite(canvas, pick(), base + shift, rng)
    elif kind == "covered":
        canvas = _composite(canvas, pick(), base + rng.normal(0, 3, (4, 2)).astype(np.float32), rng)
        canvas = draw_fingers(canvas, rng, int(rng.integers(3, 5)), crop_w * rng.uniform(0.3, 0.4),
                              float(rng.uniform(0.8, 1.2)))
    elif kind == "empty":
        canvas[:] = np.clip(canvas.mean(axis=(0, 1)) + rng.normal(0, 30, 3), 0, 255).astype(np.uint8)
    elif kind == "two_cards":
        gap = rng.uniform(-0.05, 0.15) * crop_w
        left = base + np.array([crop_w / 2 - gap / 2 - card_w, 0], np.float32)
        right = base + np.array([crop_w / 2 + gap / 2, 0], np.float32)
        canvas = _composite(canvas, pick(), left + rng.normal(0, 2, (4, 2)).astype(np.float32), rng)
        canvas = _composite(canvas, pick(), right + rng.normal(0, 2, (4, 2)).astype(np.float32), rng)
    if rng.random() < 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), float(rng.uniform(1.0, 4.0)))
    return _finish(np.ascontiguousarray(canvas), rng, settings)
