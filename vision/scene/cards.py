"""Card textures and how a card is painted onto the frame.

A texture is the deck's artwork resized to about the size the camera will see it, with rounded corners
(an anti-aliased alpha channel) and a faint grey edge, as BGRA uint8. A card is drawn by warping its
texture through the homography from texture corners to the card's four projected corners, inside the
card's bounding box only, then blending by alpha. Light falls off towards the table's edges
(``gain``) and a glossy card shows the lamp's reflection where the mirror point of the lamp lies
(``glare``). Cards cast soft shadows away from the lamp; a card held above the table casts a wider,
fainter and more displaced one.

Texture corner order, used everywhere (truth file included): the artwork's top-left, top-right,
bottom-right, bottom-left, as printed with the card upright.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import CARD_CODES
from vision.scene.sensor import blur_layer

CARD_HEIGHT_CM = 9.3
CORNER_RADIUS_FRACTION = 0.07


@dataclass(frozen=True)
class CardTextures:
    """BGRA textures of one deck at one working size: ``faces[code]`` and ``back``; card size in cm."""

    faces: dict[str, np.ndarray]
    back: np.ndarray
    width_cm: float
    height_cm: float

    def texture(self, code: str, face_up: bool) -> np.ndarray:
        return self.faces[code] if face_up else self.back

    @property
    def pixel_size(self) -> tuple[int, int]:
        height, width = self.back.shape[:2]
        return width, height


def rounded_alpha(width: int, height: int, radius: float) -> np.ndarray:
    """An anti-aliased uint8 mask of a ``width`` x ``height`` rectangle with rounded corners."""
    scale = 4
    big = np.zeros((height * scale, width * scale), np.uint8)
    r = max(1, round(radius * scale))
    w, h = width * scale - 1, height * scale - 1
    cv2.rectangle(big, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(big, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (w - r, h - r), (r, h - r)):
        cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)


def make_texture(artwork: np.ndarray, width: int, height: int) -> np.ndarray:
    """Artwork (BGR) -> BGRA texture of ``width`` x ``height`` with rounded corners and a soft grey edge."""
    resized = cv2.resize(artwork, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = rounded_alpha(width, height, CORNER_RADIUS_FRACTION * width)
    inner = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, width // 90))
    edge = (alpha.astype(np.float32) - inner.astype(np.float32)) / 255.0
    resized *= (1.0 - 0.22 * edge)[..., None]
    texture = np.dstack([np.clip(resized, 0, 255).astype(np.uint8), alpha])
    return texture


def procedural_back(deck_name: str, width: int, height: int) -> np.ndarray:
    """A plain two-colour lattice back for decks whose folder has no ``back`` image (stable per deck name)."""
    digest = hashlib.sha256(deck_name.encode()).digest()
    palettes = ((40, 40, 150), (130, 60, 30), (40, 100, 40), (30, 30, 30))
    colour = np.array(palettes[digest[0] % len(palettes)], np.uint8)
    image = np.full((height, width, 3), 245, np.uint8)
    margin = max(2, width // 14)
    image[margin:height - margin, margin:width - margin] = colour
    step = max(4, width // 10)
    light = tuple(int(c) for c in np.minimum(255, colour.astype(int) + 70))
    for offset in range(-height, width + height, step):
        cv2.line(image, (offset, margin), (offset + height, height + margin), light, 1, cv2.LINE_AA)
        cv2.line(image, (offset, height + margin), (offset + height, margin), light, 1, cv2.LINE_AA)
    image[:margin] = 245
    image[height - margin:] = 245
    image[:, :margin] = 245
    image[:, width - margin:] = 245
    return image


def build_textures(faces: dict[str, np.ndarray], back: np.ndarray | None, deck_name: str,
                   pixels_per_cm: float) -> CardTextures:
    """Textures for every card at about 1.5x the on-screen size for ``pixels_per_cm`` at the cloth."""
    sample = faces[CARD_CODES[0]]
    aspect = sample.shape[1] / sample.shape[0]
    height_px = int(np.clip(round(CARD_HEIGHT_CM * pixels_per_cm * 1.5), 48, 400))
    width_px = max(24, round(height_px * aspect))
    textures = {code: make_texture(faces[code], width_px, height_px) for code in CARD_CODES}
    back_art = back if back is not None else procedural_back(deck_name, width_px, height_px)
    return CardTextures(textures, make_texture(back_art, width_px, height_px),
                        width_cm=CARD_HEIGHT_CM * aspect, height_cm=CARD_HEIGHT_CM)


def _roi(corners: np.ndarray, shape: tuple[int, ...], pad: int) -> tuple[int, int, int, int] | None:
    """Integer bounding box (x0, y0, x1, y1) of ``corners`` grown by ``pad``, clipped; None if outside."""
    x0 = max(0, int(np.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - pad)
    x1 = min(shape[1], int(np.ceil(corners[:, 0].max())) + pad + 1)
    y1 = min(shape[0], int(np.ceil(corners[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def draw_card(canvas: np.ndarray, texture: np.ndarray, corners: np.ndarray, gain: float = 1.0,
              glare_at: np.ndarray | None = None, glare_sigma: float = 1.0,
              glare_strength: float = 0.0, motion_px: tuple[float, float] = (0.0, 0.0),
              bow: tuple[float, float] = (0.0, 0.0)) -> None:
    """Paint ``texture`` (BGRA) into ``canvas`` (BGR uint8, in place) with its corners at ``corners`` (4, 2).

    ``gain`` scales the card's brightness; a glare of ``glare_strength`` (0..255 added at the centre)
    is centred on the canvas point ``glare_at`` with spread ``glare_sigma`` pixels. ``motion_px``: how
    far the card moved while the shutter was open; the card is smeared along it (centred on ``corners``).
    ``bow``: a card is never quite flat; (angle in radians, strength) of the brightness ramp across it,
    from ``1 - strength`` on one side to ``1 + strength`` on the other.
    """
    smear = max(abs(motion_px[0]), abs(motion_px[1]))
    box = _roi(corners, canvas.shape, 1 + int(np.ceil(smear / 2)))
    if box is None:
        return
    x0, y0, x1, y1 = box
    height, width = texture.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(source, (corners - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(texture, homography, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3].astype(np.float32) / 255.0
    colour = warped[:, :, :3].astype(np.float32) * gain
    if bow[1] > 0.0:
        colour *= _ramp(corners, (x0, y0, x1, y1), bow)[..., None]
    if smear >= 1.0:
        colour, alpha = blur_layer(colour, alpha, motion_px)
    alpha = alpha[..., None]
    if glare_at is not None and glare_strength > 0.0:
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        distance2 = (xs - glare_at[0]) ** 2 + (ys - glare_at[1]) ** 2
        colour += (glare_strength * np.exp(-distance2 / (2.0 * glare_sigma ** 2)))[..., None]
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    blended = region + alpha * (colour - region)
    canvas[y0:y1, x0:x1] = np.clip(blended, 0, 255).astype(np.uint8)


def _ramp(corners: np.ndarray, box: tuple[int, int, int, int], bow: tuple[float, float]) -> np.ndarray:
    """Brightness factor over ``box``: a linear ramp across the card in direction ``bow[0]``."""
    x0, y0, x1, y1 = box
    centre = corners.mean(axis=0)
    direction = np.array([np.cos(bow[0]), np.sin(bow[0])])
    reach = max(float(np.abs((corners - centre) @ direction).max()), 1.0)
    xs = np.arange(x0, x1, dtype=np.float32) - np.float32(centre[0])
    ys = np.arange(y0, y1, dtype=np.float32) - np.float32(centre[1])
    along = ys[:, None] * np.float32(direction[1]) + xs[None, :] * np.float32(direction[0])
    along /= np.float32(reach)
    return 1.0 + np.float32(bow[1]) * np.clip(along, -1.0, 1.0)


def draw_shadow(canvas: np.ndarray, corners: np.ndarray, blur_px: float, darkness: float) -> None:
    """Darken ``canvas`` under the polygon ``corners`` (4, 2) (blur ``blur_px``) up to ``darkness``."""
    pad = int(np.ceil(3 * blur_px)) + 2
    box = _roi(corners, canvas.shape, pad)
    if box is None or darkness <= 0:
        return
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    points = np.round((corners - [x0, y0]) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, points, 1.0, cv2.LINE_AA, shift=4)
    if blur_px > 0.3:
        mask = cv2.GaussianBlur(mask, (0, 0), blur_px)
    factor = 1.0 - darkness * mask
    region = canvas[y0:y1, x0:x1].astype(np.float32) * factor[..., None]
    canvas[y0:y1, x0:x1] = region.astype(np.uint8)
