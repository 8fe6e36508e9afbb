"""The players as the overhead camera sees them: forearms and hands reaching in, and their heads' shadows.

Contract for the renderer's frame loop, in this draw order (``DRAW_ORDER``):

1. the table surface, the cards lying on it and their shadows;
2. ``HeadShadows.apply(frame, frame_index)``: soft dark blobs drifting slowly over the table;
3. for each arm in the picture: ``drawing = draw_arm(frame, pose, look, draw_held_card)``, which paints
   the arm's shadow, the parts of the hand *under* a held card (the thumb tip), then calls
   ``draw_held_card(frame, corners)`` with the held card's four corners (texture order: top-left,
   top-right, bottom-right, bottom-left, the card upright for its player), then paints the rest of the
   hand and forearm *over* the card. The caller paints the card (``vision.scene.cards.draw_card``);
4. the sensor (``vision.scene.sensor.SensorTrack.apply``).

``draw_arm`` returns an ``ArmDrawing``: ``occlusion(shape)`` is the boolean mask of pixels where the arm
hides what lies below (coverage of at least one half), ``mask(shape)`` every pixel the arm's paint
touched, ``touched(shape)`` that plus its shadow. Truth uses ``occlusion``: a card under it is covered.
Only pixels inside ``touched`` change; with ``shadow=0`` only pixels inside ``mask`` change.

Points are image pixels (x, y). ``scale`` is the width of the hand across the knuckles in pixels
(about 8.5 cm on the table). Everything is drawn inside the arm's bounding box only, so an arm costs
a few milliseconds whatever the frame size.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

from vision.errors import VisionError
from vision.scene.sensor import blur_layer

DRAW_ORDER: tuple[str, ...] = (
    "table surface", "cards on the table", "card shadows", "head shadows",
    "arm shadow", "hand under the held card", "held card", "hand and forearm over the card", "sensor",
)

Grip = Literal["flat", "open", "holding"]
GRIPS: tuple[str, ...] = ("flat", "open", "holding")

# Skin tones under warm-neutral room light, BGR, from very fair to very dark.
SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = (
    (170, 196, 236), (150, 180, 226), (120, 156, 208), (96, 132, 186),
    (74, 104, 156), (56, 80, 124), (42, 58, 92),
)
SLEEVE_COLOURS_BGR: tuple[tuple[int, int, int], ...] = (
    (232, 232, 228), (222, 196, 160), (84, 50, 30), (120, 122, 126), (38, 38, 40),
    (44, 34, 118), (52, 92, 46), (150, 178, 196), (46, 46, 180), (138, 100, 64),
)

FingerSpec = tuple[float, float, float]   # offset across the knuckles, length, width (x scale)
FINGERS: tuple[FingerSpec, ...] = (       # index .. little, for a right hand (thumb on the -v side)
    (-0.36, 0.74, 0.205), (-0.12, 0.84, 0.21), (0.12, 0.78, 0.2), (0.35, 0.6, 0.175),
)
SHOULDER_DISTANCE = 5.5   # wrist to shoulder as the camera sees it, in knuckle widths
LIGHT_DIRECTION = np.array([-0.35, -0.45, 0.82], np.float32)   # lamp up-left of the table, above


class PeopleError(VisionError):
    """An arm pose or look that cannot be drawn (bad scale, unknown grip, a frame of the wrong type)."""


@dataclass(frozen=True, slots=True)
class Look:
    """How one player looks, fixed for a clip: skin, sleeve colour, how far the sleeve reaches, handedness.

    ``sleeve_reach`` is the fraction of the forearm, from the table edge towards the wrist, that the
    sleeve covers (0: bare forearm, a T-shirt).
    """

    skin_bgr: tuple[int, int, int]
    sleeve_bgr: tuple[int, int, int]
    sleeve_reach: float
    is_right_handed: bool = True

    @classmethod
    def random(cls, rng: np.random.Generator) -> Look:
        """A plausible player: any skin tone, a shirt or jumper of a common colour, mostly right-handed."""
        skin = np.asarray(SKIN_TONES_BGR[int(rng.integers(len(SKIN_TONES_BGR)))], np.float64)
        skin = np.clip(skin * rng.uniform(0.94, 1.06, 3), 0, 255)
        sleeve = np.asarray(SLEEVE_COLOURS_BGR[int(rng.integers(len(SLEEVE_COLOURS_BGR)))], np.float64)
        sleeve = np.clip(sleeve * rng.uniform(0.9, 1.1, 3), 0, 255)
        reach = 0.0 if rng.random() < 0.25 else float(rng.uniform(0.35, 0.92))
        return cls(_as_bgr(skin), _as_bgr(sleeve), reach, bool(rng.random() < 0.88))


@dataclass(frozen=True, slots=True)
class ArmPose:
    """Where one arm is in this frame, in image pixels.

    ``entry``: where the forearm crosses the table's edge (or the picture's border); ``hand``: the
    centre of the back of the hand; ``scale``: knuckle width in pixels; ``angle_deg``: the direction
    the fingers point (image angle, 0 = +x, 90 = +y down); None points them along the forearm.
    ``grip``: "flat" (resting on the table), "open" (fingers spread, reaching for a trick) or
    "holding" (a card pinched between thumb and fingers; ``card_size`` (width, height) pixels).
    ``lift``: height of the hand above the table in knuckle widths, which moves and softens its
    shadow. ``blur``: how far (dx, dy) pixels the arm moved during the exposure (motion blur).
    """

    entry: tuple[float, float]
    hand: tuple[float, float]
    scale: float
    angle_deg: float | None = None
    grip: Grip = "flat"
    card_size: tuple[float, float] | None = None
    lift: float = 0.3
    blur: tuple[float, float] = (0.0, 0.0)
    shadow: float = 0.35

    def __post_init__(self) -> None:
        if not (isinstance(self.scale, int | float) and 4.0 <= self.scale <= 2000.0):
            raise PeopleError(f"ArmPose: scale (knuckle width, px) must lie in 4..2000, got {self.scale!r}")
        if self.grip not in GRIPS:
            raise PeopleError(f"ArmPose: unknown grip {self.grip!r}; known grips: {', '.join(GRIPS)}")
        for name in ("entry", "hand", "blur"):
            value = getattr(self, name)
            if len(value) != 2 or not all(math.isfinite(float(v)) for v in value):
                raise PeopleError(f"ArmPose: {name} must be two finite pixel coordinates, got {value!r}")
        if self.card_size is not None and (len(self.card_size) != 2 or min(self.card_size) <= 0):
            raise PeopleError(f"ArmPose: card_size must be a positive (width, height), got {self.card_size}")
        if not 0.0 <= self.shadow <= 1.0 or self.lift < 0:
            raise PeopleError(f"ArmPose: need 0 <= shadow <= 1 and lift >= 0, got {self.shadow}, {self.lift}")


@dataclass(frozen=True)
class Layer:
    """Paint over a box of the frame: colour (h, w, 3) uint8 and coverage ``alpha`` (h, w) float32 0..1."""

    x0: int
    y0: int
    colour: np.ndarray
    alpha: np.ndarray

    @property
    def is_empty(self) -> bool:
        return self.alpha.size == 0 or not bool(self.alpha.any())

    def paste(self, frame: np.ndarray) -> None:
        """Blend into ``frame`` (BGR uint8) in place: ``frame = alpha * colour + (1 - alpha) * frame``."""
        if self.is_empty:
            return
        height, width = self.alpha.shape
        region = frame[self.y0:self.y0 + height, self.x0:self.x0 + width]
        # blendLinear divides by the weights' sum, so where both are 0 nothing changes.
        region[:] = cv2.blendLinear(self.colour, region, self.alpha, 1.0 - self.alpha)

    def mask(self, shape: tuple[int, ...], threshold: float = 0.0) -> np.ndarray:
        """Boolean frame-sized mask of pixels whose coverage exceeds ``threshold``."""
        full = np.zeros(shape[:2], bool)
        if not self.is_empty:
            height, width = self.alpha.shape
            full[self.y0:self.y0 + height, self.x0:self.x0 + width] = self.alpha > threshold
        return full


@dataclass(frozen=True)
class Shade:
    """Darkening over a box of the frame: ``frame *= keep / 255``; ``keep`` (h, w, 3) uint8, 255 = none."""

    x0: int
    y0: int
    keep: np.ndarray

    @classmethod
    def from_darkness(cls, x0: int, y0: int, darkness: np.ndarray) -> Shade:
        """From a float darkness map 0..1 (0 = untouched)."""
        if darkness.size == 0:
            return cls(x0, y0, np.zeros((0, 0, 3), np.uint8))
        keep = cv2.convertScaleAbs(darkness, alpha=-255.0, beta=255.0)
        return cls(x0, y0, cv2.merge([keep, keep, keep]))

    def apply(self, frame: np.ndarray) -> None:
        if self.keep.size == 0:
            return
        height, width = self.keep.shape[:2]
        region = frame[self.y0:self.y0 + height, self.x0:self.x0 + width]
        region[:] = cv2.multiply(region, self.keep, scale=1.0 / 255.0)

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        full = np.zeros(shape[:2], bool)
        if self.keep.size:
            height, width = self.keep.shape[:2]
            full[self.y0:self.y0 + height, self.x0:self.x0 + width] = self.keep[..., 0] < 255
        return full


@dataclass(frozen=True)
class ArmDrawing:
    """What ``draw_arm`` painted: the shadow, the layers under and over the held card, the card's corners."""

    shadow: Shade
    under: Layer
    over: Layer
    card_corners: np.ndarray | None = field(default=None)

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """Every pixel the arm's paint touched (any coverage at all)."""
        return self.under.mask(shape) | self.over.mask(shape)

    def occlusion(self, shape: tuple[int, ...]) -> np.ndarray:
        """Pixels the arm hides: coverage of at least one half (what truth calls covered)."""
        return self.under.mask(shape, 0.5) | self.over.mask(shape, 0.5)

    def touched(self, shape: tuple[int, ...]) -> np.ndarray:
        """Every pixel changed by the arm or its shadow."""
        return self.mask(shape) | self.shadow.mask(shape)

    def covered_fraction(self, corners: np.ndarray) -> float:
        """The part (0..1) of the quadrilateral ``corners`` (4, 2 pixels; a card) the arm hides.

        Counted inside the arm's own box only, so it costs little whatever the frame size.
        """
        quad = np.asarray(corners, np.float64).reshape(-1, 2)
        area = abs(float(cv2.contourArea(quad.astype(np.float32))))
        if area <= 0.0:
            return 0.0
        layer = self.over
        if layer.is_empty:
            return 0.0
        alpha = layer.alpha if self.under.is_empty else np.maximum(layer.alpha, self.under.alpha)
        height, width = alpha.shape
        inside = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(inside, np.round((quad - [layer.x0, layer.y0]) * SUB).astype(np.int32), 1,
                           cv2.LINE_8, SHIFT)
        covered = float(np.count_nonzero((alpha >= 0.5) & inside.astype(bool)))
        return min(1.0, covered / area)


HeldCardPainter = Callable[[np.ndarray, np.ndarray], None]


def draw_arm(frame: np.ndarray, pose: ArmPose, look: Look,
             draw_held_card: HeldCardPainter | None = None) -> ArmDrawing:
    """Paint one arm into ``frame`` (BGR uint8, in place) in ``DRAW_ORDER``; see the module doc."""
    _check_frame(frame)
    drawing = render_arm(frame.shape, pose, look)
    drawing.shadow.apply(frame)
    drawing.under.paste(frame)
    if drawing.card_corners is not None and draw_held_card is not None:
        draw_held_card(frame, drawing.card_corners)
    drawing.over.paste(frame)
    return drawing


def render_arm(shape: tuple[int, ...], pose: ArmPose, look: Look) -> ArmDrawing:
    """The arm's layers for a frame of ``shape`` without painting them (``draw_arm`` paints)."""
    geometry = _arm_geometry(pose, look)
    margin = round(pose.scale * 0.15 + abs(pose.blur[0]) + abs(pose.blur[1])) + 2
    box = _box(geometry.points, shape, pad=margin)
    if box is None:
        empty = Layer(0, 0, np.zeros((0, 0, 3), np.uint8), np.zeros((0, 0), np.float32))
        return ArmDrawing(Shade.from_darkness(0, 0, np.zeros((0, 0), np.float32)), empty, empty,
                          geometry.card_corners)
    over, under = _paint(geometry, box, pose, look)
    over, under = _motion_blurred(over, pose.blur), _motion_blurred(under, pose.blur)
    shadow = _shadow(over, under, pose, shape)
    return ArmDrawing(shadow, under, over, geometry.card_corners)


# ---------------------------------------------------------------- geometry

@dataclass(frozen=True)
class _Capsule:
    start: np.ndarray
    end: np.ndarray
    start_radius: float
    end_radius: float


@dataclass(frozen=True)
class _Geometry:
    forearm: tuple[_Capsule, ...]     # wrist to mid-forearm, mid-forearm to the table edge
    sleeve: _Capsule | None           # from the table edge to the cuff (its ``end``)
    palm: np.ndarray              # convex polygon (k, 2)
    fingers: tuple[_Capsule, ...]
    thumb: _Capsule
    thumb_under_card: bool
    card_corners: np.ndarray | None
    points: np.ndarray            # every point that bounds the arm


def _unit(angle_rad: float) -> np.ndarray:
    return np.array([math.cos(angle_rad), math.sin(angle_rad)], np.float64)


def _arm_geometry(pose: ArmPose, look: Look) -> _Geometry:
    s = float(pose.scale)
    entry = np.asarray(pose.entry, np.float64)
    hand = np.asarray(pose.hand, np.float64)
    reach = hand - entry
    arm_angle = math.atan2(reach[1], reach[0]) if np.hypot(*reach) > 1e-6 else -math.pi / 2
    hand_angle = math.radians(pose.angle_deg) if pose.angle_deg is not None else arm_angle
    u = _unit(hand_angle)                  # towards the fingertips
    v = np.array([-u[1], u[0]])            # across the knuckles
    side = 1.0 if look.is_right_handed else -1.0   # a right hand's thumb is on the -v side
    wrist = hand - u * 0.55 * s
    # The arm runs from the wrist back past the table edge towards the player's shoulder (about
    # 5.5 hand-widths, 47 cm, away), so it never ends in mid-air over the floor. It is slim at the
    # wrist (about 5.5 cm) and widens to about 8.5 cm two hand-widths up, then stays so.
    edge_side = entry - _unit(arm_angle) * 0.6 * s
    towards_elbow = edge_side - wrist
    towards_elbow /= float(np.hypot(*towards_elbow)) or 1.0
    arm_length = max(float(np.hypot(*(edge_side - wrist))), SHOULDER_DISTANCE * s)
    back = wrist + towards_elbow * arm_length
    mid = wrist + towards_elbow * min(2.0 * s, arm_length)
    mid_radius = 0.33 * s + 0.17 * s * min(1.0, arm_length / (2.0 * s))
    forearm = (_Capsule(wrist, mid, 0.33 * s, mid_radius), _Capsule(mid, back, mid_radius, 0.5 * s))
    sleeve = None
    # A sleeve ends where it ends on the arm (rolled up or down to the wrist), wherever the table edge
    # is; bare forearms still have a T-shirt's short sleeve on the upper arm.
    reach = look.sleeve_reach if look.sleeve_reach > 0 else -0.45
    cuff_distance = (1.0 - reach) * 3.0 * s
    if cuff_distance < arm_length:
        cuff = wrist + towards_elbow * cuff_distance
        cuff_radius = 0.46 * s + 0.1 * s * min(1.0, cuff_distance / (2.0 * s))
        sleeve = _Capsule(back, cuff, 0.62 * s, cuff_radius)
    knuckles = hand + u * 0.42 * s
    # The back of the hand: slim at the wrist, widest just behind the knuckles, gently rounded.
    outline = ((-0.55, 0.33), (-0.35, 0.42), (-0.12, 0.49), (0.12, 0.52), (0.32, 0.5), (0.44, 0.44))
    right_side = [hand + u * along * s + v * half * s for along, half in outline]
    left_side = [hand + u * along * s - v * half * s for along, half in reversed(outline)]
    palm = np.array([*right_side, knuckles + u * 0.06 * s, *left_side])
    spread = {"flat": 1.2, "open": 14.0, "holding": 2.0}[pose.grip]
    curl = 0.55 if pose.grip == "holding" else 1.0
    plump = 1.12 if pose.grip == "flat" else 1.0     # fingers lying together touch each other
    fingers = []
    for index, (offset, length, width) in enumerate(FINGERS):
        across = side * offset
        base = knuckles + v * across * s
        angle = hand_angle + math.radians(spread * (index - 1.2) * side)
        tip = base + _unit(angle) * length * curl * s
        fingers.append(_Capsule(base, tip, width * 0.5 * plump * s, width * 0.42 * plump * s))
    thumb_base = hand - u * 0.12 * s - v * side * 0.42 * s
    card_corners = None
    if pose.grip == "holding":
        index_tip = fingers[0].end
        thumb = _Capsule(thumb_base, index_tip - v * side * 0.05 * s + u * 0.05 * s, 0.15 * s, 0.12 * s)
        if pose.card_size is not None:
            card_corners = _held_card(fingers, u, v, pose.card_size, s)
    else:
        thumb_angle = hand_angle - side * math.radians(45.0 if pose.grip == "open" else 28.0)
        thumb = _Capsule(thumb_base, thumb_base + _unit(thumb_angle) * 0.62 * s, 0.15 * s, 0.12 * s)
    normal = np.array([-towards_elbow[1], towards_elbow[0]])
    points = [back - normal * 0.7 * s, back + normal * 0.7 * s, wrist, *palm]
    points += [c.end + d * c.end_radius for c in (*fingers, thumb) for d in (u, -u, v, -v)]
    return _Geometry(forearm, sleeve, palm, tuple(fingers), thumb, pose.grip == "holding",
                     card_corners, np.asarray(points))


def _held_card(fingers: list[_Capsule], u: np.ndarray, v: np.ndarray, card_size: tuple[float, float],
               s: float) -> np.ndarray:
    """Corners of a card pinched by its near edge, upright for its player (top away from them)."""
    width, height = float(card_size[0]), float(card_size[1])
    grip_point = (fingers[0].end + fingers[1].end) / 2
    centre = grip_point + u * (height / 2 - 0.16 * s)
    top, right = u * height / 2, v * width / 2
    # The player's right is +v when u points away from them.
    return np.array([centre + top - right, centre + top + right, centre - top + right, centre - top - right])


def _box(points: np.ndarray, shape: tuple[int, ...], pad: int) -> tuple[int, int, int, int] | None:
    x0 = max(0, int(np.floor(points[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(points[:, 1].min())) - pad)
    x1 = min(shape[1], int(np.ceil(points[:, 0].max())) + pad + 1)
    y1 = min(shape[0], int(np.ceil(points[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


# ---------------------------------------------------------------- painting

SHIFT = 4
SUB = 1 << SHIFT


def _fixed(point: np.ndarray, origin: np.ndarray) -> tuple[int, int]:
    local = (point - origin) * SUB
    return round(local[0]), round(local[1])


def _fill_capsule(mask: np.ndarray, capsule: _Capsule, origin: np.ndarray, value: float = 1.0) -> None:
    """A tapered stadium: two circles joined by their outer tangents, anti-aliased."""
    start, end = capsule.start, capsule.end
    direction = end - start
    length = float(np.hypot(*direction))
    r0, r1 = capsule.start_radius, capsule.end_radius
    if length > 1e-6:
        normal = np.array([-direction[1], direction[0]]) / length
        quad = np.array([start + normal * r0, end + normal * r1, end - normal * r1, start - normal * r0])
        cv2.fillConvexPoly(mask, np.round((quad - origin) * SUB).astype(np.int32), value, cv2.LINE_AA, SHIFT)
    for centre, radius in ((start, r0), (end, r1)):
        cv2.circle(mask, _fixed(centre, origin), max(1, round(radius * SUB)), value, -1, cv2.LINE_AA, SHIFT)


def _outline_capsule(mask: np.ndarray, capsule: _Capsule, origin: np.ndarray) -> None:
    """The two sides and the rounded tip of a finger as thin anti-aliased lines (its base stays open)."""
    start, end = capsule.start, capsule.end
    direction = end - start
    length = float(np.hypot(*direction))
    if length < 1e-6:
        return
    normal = np.array([-direction[1], direction[0]]) / length
    for sign in (1.0, -1.0):
        cv2.line(mask, _fixed(start + sign * normal * capsule.start_radius, origin),
                 _fixed(end + sign * normal * capsule.end_radius, origin), 1.0, 1, cv2.LINE_AA, SHIFT)
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    radius = max(1, round(capsule.end_radius * SUB))
    cv2.ellipse(mask, _fixed(end, origin), (radius, radius), angle, -90, 90, 1.0, 1, cv2.LINE_AA, SHIFT)
    # Faint wrinkles across the two finger joints.
    for fraction in (0.42, 0.72):
        centre = start + direction * fraction
        half = (capsule.start_radius + (capsule.end_radius - capsule.start_radius) * fraction) * 0.55
        cv2.line(mask, _fixed(centre + normal * half, origin), _fixed(centre - normal * half, origin),
                 0.45, 1, cv2.LINE_AA, SHIFT)


def _coverage(shape: tuple[int, int], capsules: tuple[_Capsule, ...], origin: np.ndarray,
              polygons: tuple[np.ndarray, ...] = ()) -> np.ndarray:
    mask = np.zeros(shape, np.float32)
    for capsule in capsules:
        _fill_capsule(mask, capsule, origin)
    for polygon in polygons:
        cv2.fillConvexPoly(mask, np.round((polygon - origin) * SUB).astype(np.int32), 1.0, cv2.LINE_AA, SHIFT)
    return mask


def _paint(geometry: _Geometry, box: tuple[int, int, int, int], pose: ArmPose,
           look: Look) -> tuple[Layer, Layer]:
    x0, y0, x1, y1 = box
    size = (y1 - y0, x1 - x0)
    origin = np.array([x0, y0], np.float64)
    s = float(pose.scale)
    fingers = geometry.fingers
    hand_parts = (*fingers,) if geometry.thumb_under_card else (*fingers, geometry.thumb)
    skin = _coverage(size, (*geometry.forearm, *hand_parts), origin, (geometry.palm,))
    thumb = _coverage(size, (geometry.thumb,), origin) if geometry.thumb_under_card else None
    sleeve = _coverage(size, (geometry.sleeve,), origin) if geometry.sleeve is not None else None
    # Creases: the outlines of fingers and thumb, so a closed hand still reads as fingers.
    creases = np.zeros(size, np.float32)
    for capsule in hand_parts:
        _outline_capsule(creases, capsule, origin)
    nails = np.zeros(size, np.float32)
    for capsule in (*fingers, geometry.thumb):
        direction = capsule.end - capsule.start
        nail_centre = capsule.end - direction / max(np.hypot(*direction), 1e-6) * capsule.end_radius * 0.7
        angle = math.degrees(math.atan2(direction[1], direction[0]))
        radius = capsule.end_radius * SUB
        axes = (max(1, round(radius * 0.85)), max(1, round(radius * 0.62)))
        cv2.ellipse(nails, _fixed(nail_centre, origin), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA, SHIFT)
    nails_over = nails * (skin > 0.5) if thumb is not None else nails
    total = skin if sleeve is None else np.maximum(skin, sleeve)
    # One relief for the whole arm, thumb included, so the thumb under a card is shaded for free.
    shading = _shading(total if thumb is None else np.maximum(total, thumb), s)
    cloth = _cloth(geometry.sleeve, origin, size, s) if geometry.sleeve is not None else None
    texture = _skin_texture(size, origin, np.asarray(pose.hand))
    colour = _colour(look, skin, sleeve, cloth, creases, nails_over, shading * texture, s)
    over = Layer(x0, y0, cv2.convertScaleAbs(colour), total)
    if thumb is None:
        empty = Layer(x0, y0, np.zeros((0, 0, 3), np.uint8), np.zeros((0, 0), np.float32))
        return over, empty
    thumb_nails = nails * (thumb > 0.5)
    thumb_colour = _colour(look, thumb, None, None, np.zeros(size, np.float32), thumb_nails,
                           shading * texture, s)
    return over, Layer(x0, y0, cv2.convertScaleAbs(thumb_colour), thumb)


def _shading(coverage: np.ndarray, s: float) -> np.ndarray:
    """Lambert shading of the arm's rounded relief: the height is the blurred silhouette."""
    # Two scales of rounding: fingers and edges (narrow), the forearm's and palm's bulk (wide).
    height = (soft_blur(coverage, max(0.8, 0.12 * s)) * np.float32(0.16 * s)
              + soft_blur(coverage, max(1.0, 0.4 * s)) * np.float32(0.3 * s))
    grad_x = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    grad_y = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    light = LIGHT_DIRECTION / np.linalg.norm(LIGHT_DIRECTION)
    norm = cv2.sqrt(grad_x * grad_x + grad_y * grad_y + 1.0)
    lambert = (light[2] - grad_x * light[0] - grad_y * light[1]) / norm
    return 0.45 + 0.62 * np.clip(lambert, 0.0, 1.0)


def soft_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a float32 image; wide blurs run on a smaller copy, for a fraction of the cost."""
    if sigma < 4.0:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    factor = 4 if sigma >= 10.0 else 2
    height, width = image.shape[:2]
    small_size = (max(1, width // factor), max(1, height // factor))
    small = cv2.resize(image, small_size, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / factor)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def _colour(look: Look, skin: np.ndarray, sleeve: np.ndarray | None, cloth: np.ndarray | None,
            creases: np.ndarray, nails: np.ndarray, light: np.ndarray, s: float) -> np.ndarray:
    """Per-pixel BGR: skin with paler nails, the sleeve's cloth over it, all times the light.

    Written as three weight planes mixed by one 3x3 colour matrix (``cv2.transform``), which is
    several times faster than blending (h, w, 3) arrays. ``cloth`` is the sleeve's own brightness
    (wrinkles, hem), 1 where plain.
    """
    skin_bgr = np.asarray(look.skin_bgr, np.float32)
    nail_bgr = np.clip(skin_bgr * np.float32([1.08, 1.05, 1.02]) + np.float32([18, 20, 22]), 0, 255)
    light = light * (1.0 - 0.35 * creases)
    if sleeve is None or cloth is None:
        skin_weight, cloth_weight = light, np.zeros_like(light)
    else:
        skin_weight = (1.0 - sleeve) * light
        cloth_weight = sleeve * light * cloth
    planes = cv2.merge([skin_weight, nails * skin_weight, cloth_weight])
    sleeve_bgr = np.asarray(look.sleeve_bgr, np.float32)
    mixing = np.stack([skin_bgr, nail_bgr - skin_bgr, sleeve_bgr], axis=1)
    return cv2.transform(planes, mixing)


def _cloth(sleeve: _Capsule, origin: np.ndarray, size: tuple[int, int], s: float) -> np.ndarray:
    """Brightness of a sleeve: wrinkles across the arm, bunched near the cuff, and a darker hem."""
    axis = sleeve.start - sleeve.end                      # from the cuff up the arm
    axis /= max(float(np.hypot(*axis)), 1e-6)
    xs = np.arange(size[1], dtype=np.float32)[None, :] + np.float32(origin[0] - sleeve.end[0])
    ys = np.arange(size[0], dtype=np.float32)[:, None] + np.float32(origin[1] - sleeve.end[1])
    along = xs * np.float32(axis[0]) + ys * np.float32(axis[1])      # distance up from the cuff
    across = ys * np.float32(axis[0]) - xs * np.float32(axis[1])
    bend = np.sin(across * np.float32(2 * np.pi / (1.3 * s))) * np.float32(1.4)
    wrinkles = np.sin(along * np.float32(2 * np.pi / (0.42 * s)) + bend)
    bunching = np.exp(-np.maximum(along, 0) * np.float32(1.0 / (1.2 * s)))
    cloth = 1.0 + np.float32(0.05) * wrinkles * (np.float32(0.35) + bunching)
    hem = (along < np.float32(0.1 * s)).astype(np.float32)
    return cloth * (1.0 - np.float32(0.14) * hem)


@functools.cache
def _skin_tile() -> np.ndarray:
    """A seamless 256x256 tile of soft noise around 1 (a fixed pattern, the same in every run)."""
    noise = np.random.default_rng(20240229).standard_normal((256, 256)).astype(np.float32)
    padded = np.pad(noise, 8, mode="wrap")
    blurred = cv2.GaussianBlur(padded, (0, 0), 2.2)[8:-8, 8:-8]
    return 1.0 + 0.012 * blurred / float(blurred.std())


def _skin_texture(size: tuple[int, int], origin: np.ndarray, anchor: np.ndarray) -> np.ndarray:
    """Faint mottling of skin (about 1 %), fixed to the hand so it moves with it."""
    tile = _skin_tile()
    shift_x = int(origin[0] - anchor[0]) % tile.shape[1]
    shift_y = int(origin[1] - anchor[1]) % tile.shape[0]
    big = _skin_mosaic()
    if shift_y + size[0] > big.shape[0] or shift_x + size[1] > big.shape[1]:
        big = np.tile(tile, (size[0] // tile.shape[0] + 2, size[1] // tile.shape[1] + 2))
    return big[shift_y:shift_y + size[0], shift_x:shift_x + size[1]]


@functools.cache
def _skin_mosaic() -> np.ndarray:
    """The skin tile repeated 4 x 4 once, so most arms just take a slice of it."""
    return np.tile(_skin_tile(), (4, 4))


def _motion_blurred(layer: Layer, blur: tuple[float, float]) -> Layer:
    if layer.is_empty or math.hypot(*blur) < 1.0:
        return layer
    colour, alpha = blur_layer(layer.colour.astype(np.float32), layer.alpha, blur)
    return Layer(layer.x0, layer.y0, cv2.convertScaleAbs(colour), alpha)


def _shadow(over: Layer, under: Layer, pose: ArmPose, shape: tuple[int, ...]) -> Shade:
    """The arm's shadow on the table: its silhouette moved away from the lamp and softened with height."""
    if pose.shadow <= 0 or over.is_empty:
        return Shade.from_darkness(0, 0, np.zeros((0, 0), np.float32))
    s = float(pose.scale)
    offset = -LIGHT_DIRECTION[:2] / LIGHT_DIRECTION[2] * pose.lift * s
    sigma = max(1.0, (0.08 + 0.25 * pose.lift) * s)
    pad = int(3 * sigma + abs(offset).max()) + 1
    silhouette = over.alpha if under.is_empty else np.maximum(over.alpha, under.alpha)
    height, width = silhouette.shape
    x0 = max(0, over.x0 - pad)
    y0 = max(0, over.y0 - pad)
    x1 = min(shape[1], over.x0 + width + pad)
    y1 = min(shape[0], over.y0 + height + pad)
    canvas = np.zeros((y1 - y0, x1 - x0), np.float32)
    shift = np.float32([[1, 0, over.x0 - x0 + offset[0]], [0, 1, over.y0 - y0 + offset[1]]])
    canvas = cv2.warpAffine(silhouette, shift, (x1 - x0, y1 - y0), dst=canvas, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT)
    canvas = soft_blur(canvas, sigma)
    darkness = pose.shadow / (1.0 + pose.lift) * canvas
    darkness[darkness < 1.0 / 512] = 0.0
    return Shade.from_darkness(x0, y0, darkness)


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise PeopleError(f"draw_arm needs a BGR uint8 frame (h, w, 3), got {getattr(frame, 'shape', frame)} "
                          f"of {getattr(frame, 'dtype', type(frame).__name__)}")


def _as_bgr(values: np.ndarray) -> tuple[int, int, int]:
    return round(float(values[0])), round(float(values[1])), round(float(values[2]))


# ---------------------------------------------------------------- head shadows

@dataclass(frozen=True)
class _Head:
    keep: np.ndarray          # (h, w, 3) uint8, 255 = no shadow (see Shade)
    centre: np.ndarray        # resting position (x, y) of the sprite's centre
    sway: np.ndarray          # (k, 2) amplitudes in pixels
    frequency: np.ndarray     # (k,) Hz
    phase: np.ndarray         # (k,) radians


class HeadShadows:
    """Soft shadows of the players' heads on the table, each drifting slowly around its resting place.

    Built once per clip (``from_rng``), applied per frame (``apply``) at a cost proportional to the
    shadows' size. Deterministic: frame ``i`` always gets the same shadows, in any order.
    """

    def __init__(self, heads: tuple[_Head, ...], fps: float) -> None:
        self._heads = heads
        self._fps = fps

    @classmethod
    def from_rng(cls, rng: np.random.Generator, seat_points: list[tuple[float, float]],
                 frame_size: tuple[int, int], fps: float, darkness: float = 0.25) -> HeadShadows:
        """One shadow per seat, cast from a player sitting at ``seat_points`` (image pixels, may lie outside
        the picture) towards the table's centre. ``frame_size`` is (width, height); ``darkness`` 0..1."""
        width, height = frame_size
        if fps <= 0 or not 0.0 <= darkness <= 1.0:
            raise PeopleError(f"HeadShadows: fps must be > 0 and darkness in 0..1, got {fps}, {darkness}")
        centre = np.array([width / 2, height / 2], np.float64)
        size = min(width, height)
        heads = []
        for seat in seat_points:
            seat_xy = np.asarray(seat, np.float64)
            towards = centre - seat_xy
            distance = float(np.hypot(*towards)) or 1.0
            resting = seat_xy + towards / distance * rng.uniform(0.1, 0.22) * size
            axes = (rng.uniform(0.09, 0.13) * size, rng.uniform(0.11, 0.16) * size)
            angle = math.degrees(math.atan2(towards[1], towards[0]))
            sprite = _blob(axes, angle, sigma=rng.uniform(0.05, 0.08) * size)
            sprite *= darkness * rng.uniform(0.7, 1.0)
            sway = rng.uniform(0.01, 0.05, (3, 2)) * size
            heads.append(_Head(Shade.from_darkness(0, 0, sprite).keep, resting, sway,
                               rng.uniform(0.03, 0.25, 3), rng.uniform(0, 2 * math.pi, 3)))
        return cls(tuple(heads), fps)

    def apply(self, frame: np.ndarray, frame_index: int) -> None:
        """Darken ``frame`` (BGR uint8, in place) under every head's shadow at ``frame_index``."""
        _check_frame(frame)
        t = frame_index / self._fps
        for head in self._heads:
            wave = np.sin(2 * math.pi * head.frequency * t + head.phase)
            position = head.centre + (head.sway * wave[:, None]).sum(axis=0)
            Shade(*_placed(head.keep, position, frame.shape)).apply(frame)


def _blob(axes: tuple[float, float], angle: float, sigma: float) -> np.ndarray:
    """A filled ellipse blurred by ``sigma``: darkness 1 in the middle fading to 0."""
    pad = int(3 * sigma)
    half = int(max(axes)) + pad
    sprite = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    cv2.ellipse(sprite, (half, half), (int(axes[0]), int(axes[1])), angle, 0, 360, 1.0, -1, cv2.LINE_AA)
    small = cv2.resize(sprite, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (sprite.shape[1], sprite.shape[0]), interpolation=cv2.INTER_LINEAR)


def _placed(sprite: np.ndarray, centre: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, np.ndarray]:
    """The part of ``sprite`` centred at ``centre`` that falls inside a frame of ``shape``, and its corner."""
    height, width = sprite.shape[:2]
    left = round(centre[0]) - width // 2
    top = round(centre[1]) - height // 2
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(shape[1], left + width), min(shape[0], top + height)
    if x1 <= x0 or y1 <= y0:
        return 0, 0, sprite[:0, :0]
    return x0, y0, sprite[y0 - top:y1 - top, x0 - left:x1 - left]
