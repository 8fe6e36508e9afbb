"""The players' arms in a frame: from the choreography's hand poses (table centimetres) to
:mod:`vision.scene.people`'s ``ArmPose`` (image pixels), one look per seat for the whole clip.

An arm comes from the player's elbow, beyond the table edge in front of them, a little to the right
of centre for a right-handed player (left for a left-handed one), pointing at where the fingers are.
A hand holding a card pinches its near edge; the card itself is drawn by the renderer before the
arm, so the fingers lie over it. A hand outside the table (back at the player's side) is not drawn.
The players' bodies are drawn once per camera into the background, as slabs in their clothes'
colour beyond the table edge.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.scene.choreography import HandPose, HandTrack
from vision.scene.layout import Layout
from vision.scene.people import ArmPose, Look

KNUCKLE_WIDTH_CM = 8.5
SHOULDER_OFFSET_CM = 9.0
VISIBLE_MARGIN_CM = 3.0
ELBOW_BEYOND_EDGE_CM = 14.0

Projector = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Cast:
    """Who sits where and how each player looks (one ``Look`` per seat)."""

    layout: Layout
    looks: tuple[Look, ...]

    @classmethod
    def random(cls, layout: Layout, rng: np.random.Generator) -> Cast:
        return cls(layout, tuple(Look.random(rng) for _ in layout.seats))


def _grip_style(pose: HandPose) -> str:
    if pose.holding:
        return "holding"
    return "flat" if pose.grip[2] <= 0.5 else "open"


def _is_on_table(layout: Layout, point: tuple[float, float, float]) -> bool:
    limit = layout.half + VISIBLE_MARGIN_CM
    return abs(point[0]) < limit and abs(point[1]) < limit


def arm_pose(cast: Cast, pose: HandPose, project: Projector,
             motion_px: tuple[float, float] = (0.0, 0.0), shadow: float = 0.35) -> ArmPose | None:
    """The arm reaching for ``pose`` as image pixels through ``project`` (table points -> pixels); None
    when the hand is off the table."""
    layout = cast.layout
    if not _is_on_table(layout, pose.grip):
        return None
    seat = layout.seats[pose.seat]
    look = cast.looks[pose.seat]
    radians = math.radians(seat.facing_deg)
    players_right = np.array([math.sin(radians), -math.cos(radians)])
    grip = np.array(pose.grip[:2])
    edge = np.array([seat.edge.x, seat.edge.y])
    lateral = float(np.clip(np.dot(grip - edge, players_right), -22.0, 22.0)) * 0.6
    shoulder = SHOULDER_OFFSET_CM if look.is_right_handed else -SHOULDER_OFFSET_CM
    outward = np.array([math.cos(radians), math.sin(radians)])
    entry = edge + players_right * (lateral + shoulder) + outward * ELBOW_BEYOND_EDGE_CM
    reach = grip - entry
    length = float(np.hypot(*reach)) or 1.0
    along = reach / length
    style = _grip_style(pose)
    back_off = 0.7 * KNUCKLE_WIDTH_CM if style == "holding" else 0.25 * KNUCKLE_WIDTH_CM
    hand = grip - along * min(back_off, length * 0.8)
    height = pose.grip[2]
    across = np.array([-along[1], along[0]]) * (KNUCKLE_WIDTH_CM / 2.0)
    points = np.array([[*entry, 0.0], [*hand, height],
                       [*(hand + across), height], [*(hand - across), height]])
    pixels = project(points)
    scale = float(np.hypot(*(pixels[2] - pixels[3])))
    return ArmPose(entry=(float(pixels[0, 0]), float(pixels[0, 1])),
                   hand=(float(pixels[1, 0]), float(pixels[1, 1])),
                   scale=min(max(scale, 4.0), 2000.0), grip=style,  # type: ignore[arg-type]
                   lift=max(0.0, height / KNUCKLE_WIDTH_CM), blur=motion_px, shadow=shadow)


def hand_motion(track: HandTrack, frame: int, project: Projector,
                exposure_fraction: float) -> tuple[float, float]:
    """How far (pixels) the hand moves during the exposure at ``frame``: its per-frame motion scaled."""
    now = track.pose_at(frame).grip
    before = track.pose_at(frame - 1).grip
    pixels = project(np.array([now, before]))
    delta = (pixels[0] - pixels[1]) * exposure_fraction
    return float(delta[0]), float(delta[1])


TORSO_HALF_WIDTH_CM = 22.0
TORSO_DEPTH_CM = 36.0
TORSO_HEIGHT_CM = 8.0


def torso_outline(cast: Cast, seat_index: int, points: int = 48) -> np.ndarray:
    """A seated player's body beyond the table edge, seen from above: a rounded slab from just past the
    edge outwards, at chest height (table-space (N, 3) points)."""
    seat = cast.layout.seats[seat_index]
    radians = math.radians(seat.facing_deg)
    outward = np.array([math.cos(radians), math.sin(radians)])
    along = np.array([math.sin(radians), -math.cos(radians)])
    centre = np.array([seat.edge.x, seat.edge.y]) + outward * (TORSO_DEPTH_CM / 2.0 - 1.0)
    angles = np.linspace(0.0, 2.0 * math.pi, points, endpoint=False)
    # A superellipse: flat-ish sides like shoulders and a back, rounded corners.
    cos, sin = np.cos(angles), np.sin(angles)
    u = np.sign(cos) * np.abs(cos) ** 0.45 * TORSO_HALF_WIDTH_CM
    v = np.sign(sin) * np.abs(sin) ** 0.45 * (TORSO_DEPTH_CM / 2.0)
    flat = centre + u[:, None] * along + v[:, None] * outward
    return np.concatenate([flat, np.full((points, 1), TORSO_HEIGHT_CM)], axis=1)


def _outward_depth(seat_edge: np.ndarray, outward: np.ndarray, project: Projector,
                   box: tuple[int, int, int, int]) -> np.ndarray:
    """For each canvas pixel in ``box``, how far (cm) beyond the table edge its point at chest height lies."""
    x0, y0, x1, y1 = box
    plane = np.array([[-50.0, -50.0], [50.0, -50.0], [50.0, 50.0], [-50.0, 50.0]])
    pixels = project(np.concatenate([plane, np.full((4, 1), TORSO_HEIGHT_CM)], axis=1)).astype(np.float32)
    to_plane = cv2.getPerspectiveTransform(pixels, plane.astype(np.float32))
    xs, ys = np.meshgrid(np.arange(x0, x1, dtype=np.float32), np.arange(y0, y1, dtype=np.float32))
    grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    points = cv2.perspectiveTransform(grid, to_plane).reshape(y1 - y0, x1 - x0, 2)
    return (points - seat_edge.astype(np.float32)) @ outward.astype(np.float32)


def draw_torsos(canvas: np.ndarray, cast: Cast, project: Projector, blur_px: float) -> None:
    """Paint every player's body (not the dummy's) beyond the table edge in their clothes' colour,
    lit where it leans over the table and darker further back, with soft (out of focus) edges.
    Drawn once per camera, into the background (float32 canvas)."""
    height, width = canvas.shape[:2]
    pad = int(3 * blur_px) + 2
    for seat in cast.layout.seats:
        if seat.is_dummy:
            continue
        outline = project(torso_outline(cast, seat.index))
        low, high = outline.min(axis=0).astype(int) - pad, outline.max(axis=0).astype(int) + pad + 1
        x0, y0 = max(0, int(low[0])), max(0, int(low[1]))
        x1, y1 = min(width, int(high[0])), min(height, int(high[1]))
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillPoly(mask, [np.round((outline - [x0, y0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
        mask = cv2.GaussianBlur(mask, (0, 0), blur_px)
        radians = math.radians(seat.facing_deg)
        outward = np.array([math.cos(radians), math.sin(radians)])
        depth = _outward_depth(np.array([seat.edge.x, seat.edge.y]), outward, project, (x0, y0, x1, y1))
        light = np.clip(0.78 - 0.42 * depth / TORSO_DEPTH_CM, 0.3, 0.8)
        colour = np.asarray(cast.looks[seat.index].sleeve_bgr, np.float32)[None, None, :] * light[..., None]
        region = canvas[y0:y1, x0:x1]
        canvas[y0:y1, x0:x1] = region + mask[..., None] * (colour - region)
