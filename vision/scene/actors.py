"""The players' arms in a frame: from the choreography's hand poses (table centimetres) to
:mod:`vision.scene.people`'s ``ArmPose`` (image pixels), one look per seat for the whole clip.

An arm enters across the table edge in front of its player, a little to the right of centre for a
right-handed player (left for a left-handed one), pointing at where the fingers are. A hand holding a
card pinches its near edge; the card itself is drawn by the renderer before the arm, so the fingers lie
over it. A hand outside the table (back at the player's side) is not drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.scene.choreography import HandPose, HandTrack
from vision.scene.layout import Layout
from vision.scene.people import ArmPose, Look

KNUCKLE_WIDTH_CM = 8.5
SHOULDER_OFFSET_CM = 9.0
VISIBLE_MARGIN_CM = 3.0

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
    entry = edge + players_right * (lateral + shoulder)
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
