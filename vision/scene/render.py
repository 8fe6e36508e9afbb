"""The frame loop: the table filmed from above, one frame at a time.

Per camera position the background (floor, table rim, the table surface warped into the view, the
lamp's light falloff) is drawn once. Cards at rest are drawn into a *static layer* on top of it, which is
redrawn only when the set of resting cards changes (a card lands, a trick is picked up). Each frame then
copies the static layer and draws only what moves: cards in flight with their shadows, and the hands.
Last come the lens (a remap from the ideal canvas) and the sensor (light track, noise, compression).

Everything random comes from one seed, split into independent streams (camera, table, choreography,
people, sensor), so a frame is a pure function of the seed, the script, the deck and the settings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import cv2
import numpy as np

from vision.decks import Deck
from vision.scene.actors import Cast, arm_pose, draw_torsos, hand_motion
from vision.scene.camera import Camera
from vision.scene.cards import CardTextures, build_textures, draw_card, draw_shadow
from vision.scene.choreography import CardTrack, Pose, Timeline, TruthEvent, build_timeline
from vision.scene.difficulty import Difficulty, get_difficulty
from vision.scene.layout import Layout, make_layout
from vision.scene.people import ArmPose, HeadShadows, draw_arm, render_arm
from vision.scene.script import MatchScript
from vision.scene.sensor import SensorTrack
from vision.scene.surfaces import make_surface

LAMP_HEIGHT_CM = 160.0
HFOV_DEG = 66.0
GLARE_SIGMA_CM = 5.0
OFF_TABLE_MARGIN_CM = 2.0
OPTICAL_BLUR_PX = 0.7
BOW_MAX = 0.05  # how much brighter one side of a slightly bowed card is than the other
# What lies around the table, 75 cm below it: parquet or a rug, out of focus and in the table's shade.
FLOOR_KINDS: tuple[str, ...] = ("wood_dark", "wood_light", "cloth_damask")
FLOOR_SIZE = (640, 360)
FLOOR_BRIGHTNESS = 0.45
FLOOR_BLUR_PX = 2.5
RIM_BGR = (30, 45, 70)
# Lays out what moves: (layout, difficulty, fps, the choreography's generator, card size in cm) -> timeline.
TimelineMaker = Callable[[Layout, Difficulty, float, np.random.Generator, tuple[float, float]], Timeline]


@dataclass(frozen=True, slots=True)
class RenderSettings:
    """What a render is asked for: seed, difficulty preset name, frames per second, frame size."""

    seed: int = 0
    difficulty: str = "normal"
    fps: float = 10.0
    size: tuple[int, int] = (1280, 720)


@dataclass(frozen=True, slots=True)
class Lighting:
    """The lamp over the table (cm) and how glossy the cards are (glare added at the mirror point)."""

    lamp: tuple[float, float, float]
    glare_strength: float


def _streams(seed: int) -> dict[str, np.random.Generator]:
    names = ("camera", "table", "choreography", "people", "sensor", "light")
    children = np.random.SeedSequence(seed).spawn(len(names))
    return {name: np.random.default_rng(child) for name, child in zip(names, children, strict=True)}


def make_camera(size: tuple[int, int], difficulty: Difficulty, layout: Layout,
                rng: np.random.Generator) -> Camera:
    """A camera set up so the table fills the picture's height, within the preset's tilt/roll/distortion."""
    tilt = float(rng.uniform(*difficulty.tilt_deg))
    roll = float(rng.uniform(*difficulty.roll_deg))
    k1 = float(rng.uniform(*difficulty.distortion_k1))
    vertical_half = math.atan(math.tan(math.radians(HFOV_DEG) / 2.0) * size[1] / size[0])
    height_cm = (layout.half + 3.0) / math.tan(vertical_half) * float(rng.uniform(0.98, 1.08))
    aim = rng.normal(0.0, 1.0, 2) if difficulty.name != "easy" else np.zeros(2)
    return Camera(size[0], size[1], round(height_cm, 3), HFOV_DEG, round(tilt, 4), round(roll, 4),
                  round(float(aim[0]), 4), round(float(aim[1]), 4), round(k1, 5), round(k1 * 0.2, 6))


def card_corners(pose: Pose, width_cm: float, height_cm: float) -> np.ndarray:
    """The card's corners in table space (4, 3): artwork top-left, top-right, bottom-right, bottom-left."""
    angle = math.radians(pose.angle_deg)
    right = np.array([math.cos(angle), math.sin(angle), 0.0]) * (width_cm / 2.0)
    up = np.array([-math.sin(angle), math.cos(angle), 0.0]) * (height_cm / 2.0)
    centre = np.array([pose.x, pose.y, pose.z])
    return np.stack([centre - right + up, centre + right + up, centre + right - up, centre - right - up])


@dataclass(frozen=True)
class _View:
    """What is fixed while the camera does not move: its background and light map on the ideal canvas,
    and the lens maps from the canvas to the output frame (None without distortion)."""

    camera: Camera
    background: np.ndarray
    gain: np.ndarray
    maps: tuple[np.ndarray, np.ndarray] | None

    def distorted(self, canvas: np.ndarray) -> np.ndarray:
        if self.maps is None:
            return canvas
        return cv2.remap(canvas, self.maps[0], self.maps[1], cv2.INTER_LINEAR)


class SceneRenderer:
    """Renders one match script with one deck under one setting; frames are deterministic from the seed."""

    def __init__(self, script: MatchScript, deck: Deck, settings: RenderSettings,
                 timeline_maker: TimelineMaker | None = None) -> None:
        """``timeline_maker`` lays out what moves (default: ``build_timeline`` of the match ``script``;
        ``vision.scene.showing`` lays out a deck shown card after card instead)."""
        self.script = script
        self.deck = deck
        self.settings = settings
        self.difficulty = get_difficulty(settings.difficulty)
        streams = _streams(settings.seed)
        self.layout = make_layout(script.seat_count, script.dummy_seat)
        self.camera = make_camera(settings.size, self.difficulty, self.layout, streams["camera"])
        self.pixels_per_cm = self.camera.focal / self.camera.height_cm
        self.textures: CardTextures = build_textures(deck.faces, deck.back, deck.name, self.pixels_per_cm)
        make = timeline_maker or partial(build_timeline, script)
        self.timeline: Timeline = make(self.layout, self.difficulty, settings.fps, streams["choreography"],
                                       (self.textures.width_cm, self.textures.height_cm))
        light_rng = streams["light"]
        self.lighting = Lighting(
            (float(light_rng.uniform(-25, 25)), float(light_rng.uniform(-20, 30)), LAMP_HEIGHT_CM),
            float(light_rng.uniform(*self.difficulty.glare_strength)))
        self.surface_kind = str(streams["table"].choice(self.difficulty.surfaces))
        self.surface = self._make_surface(streams["table"])
        floor_kind = str(streams["table"].choice(FLOOR_KINDS))
        self.floor = make_surface(floor_kind, FLOOR_SIZE[0], FLOOR_SIZE[1], streams["table"])
        self._bumped = self.camera.moved(roll_deg=self.camera.roll_deg + float(light_rng.uniform(1.0, 2.5)),
                                         aim_x=self.camera.aim_x + float(light_rng.uniform(-2.0, 2.0)))
        bow_rng = streams["light"]
        self._bows = [(float(bow_rng.uniform(0.0, 2.0 * math.pi)), float(bow_rng.uniform(0.0, BOW_MAX)))
                      for _ in self.timeline.cards]
        self.cast = Cast.random(self.layout, streams["people"])
        self.heads = self._make_head_shadows(streams["people"])
        self.sensor = self._make_sensor(streams["sensor"])
        self._view: _View | None = None
        self._static_key: tuple | None = None
        self._static: np.ndarray | None = None

    @property
    def frame_count(self) -> int:
        return self.timeline.frame_count

    def camera_at(self, frame: int) -> Camera:
        """The camera in use at ``frame`` (it changes once, at the bump, in the ``hard`` preset)."""
        bump = self.timeline.camera_bump_frame
        return self._bumped if bump is not None and frame >= bump else self.camera

    # ---------------------------------------------------------------- once per clip

    def _make_head_shadows(self, rng: np.random.Generator) -> HeadShadows | None:
        darkness = self.difficulty.head_shadow_darkness
        if darkness <= 0:
            return None
        seats = self.camera.project_ideal(np.array([[s.body.x, s.body.y, 0.0] for s in self.layout.seats
                                                    if not s.is_dummy]))
        points = [(float(x), float(y)) for x, y in seats]
        return HeadShadows.from_rng(rng, points, self.camera.canvas_size, self.settings.fps, darkness)

    def _make_sensor(self, rng: np.random.Generator) -> SensorTrack | None:
        settings = self.difficulty.sensor
        return None if settings is None else SensorTrack(settings, self.settings.size, self.settings.fps, rng)

    @property
    def exposure_fraction(self) -> float:
        """The part of a frame interval the shutter is open (how much a moving hand smears)."""
        return 0.0 if self.sensor is None else min(1.0, self.sensor.draw.exposure_s * self.settings.fps)

    # ---------------------------------------------------------------- once per camera

    def _make_surface(self, rng: np.random.Generator) -> np.ndarray:
        side = int(np.clip(round(self.layout.table_size * self.pixels_per_cm), 64, 2048))
        return make_surface(self.surface_kind, side, side, rng)

    def _table_homography(self, camera: Camera, half: float, image_side: int) -> np.ndarray:
        corners_cm = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        canvas = camera.project_ideal(corners_cm).astype(np.float32)
        source = np.float32([[0, 0], [image_side, 0], [image_side, image_side], [0, image_side]])
        return cv2.getPerspectiveTransform(source, canvas)

    def _light_gain(self, camera: Camera) -> np.ndarray:
        """Brightness factor over the canvas: brightest under the lamp, falling off towards the edges."""
        width, height = camera.canvas_size
        lamp = camera.project_ideal(np.array([[self.lighting.lamp[0], self.lighting.lamp[1], 0.0]]))[0]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        sigma = 75.0 * self.pixels_per_cm
        distance2 = (xs - lamp[0]) ** 2 + (ys - lamp[1]) ** 2
        return (0.72 + 0.32 * np.exp(-distance2 / (2 * sigma * sigma))).astype(np.float32)

    def _view_for(self, camera: Camera) -> _View:
        """The background, light map and lens maps of ``camera``, built once per camera position."""
        if self._view is not None and self._view.camera == camera:
            return self._view
        width, height = camera.canvas_size
        floor = cv2.resize(self.floor, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)
        canvas = cv2.GaussianBlur(floor, (0, 0), FLOOR_BLUR_PX * width / 1280.0) * FLOOR_BRIGHTNESS
        rim = self.layout.half + 3.0
        rim_points = camera.project_ideal(np.array([[-rim, rim], [rim, rim], [rim, -rim], [-rim, -rim]]))
        cv2.fillConvexPoly(canvas, np.round(rim_points * 16).astype(np.int32), RIM_BGR, cv2.LINE_AA, shift=4)
        side = self.surface.shape[0]
        homography = self._table_homography(camera, self.layout.half, side)
        mask = np.full((side, side), 255, np.uint8)
        table = cv2.warpPerspective(self.surface, homography, (width, height), flags=cv2.INTER_LINEAR)
        cover = cv2.warpPerspective(mask, homography, (width, height), flags=cv2.INTER_LINEAR)
        alpha = cover.astype(np.float32)[..., None] / 255.0
        canvas = canvas * (1.0 - alpha) + table.astype(np.float32) * alpha
        if self.difficulty.people:
            draw_torsos(canvas, self.cast, camera.project_ideal, 0.7 * self.pixels_per_cm)
        gain = self._light_gain(camera)
        canvas *= gain[..., None]
        # The lens and the sensor's demosaicing soften what no camera resolves (a cloth's weave).
        canvas = cv2.GaussianBlur(canvas, (0, 0), OPTICAL_BLUR_PX * camera.width / 1280.0)
        background = np.clip(canvas, 0, 255).astype(np.uint8)
        self._view = _View(camera, background, gain, camera.distort_maps())
        self._static_key = None
        return self._view

    # ---------------------------------------------------------------- cards

    def _shadow_points(self, corners: np.ndarray) -> np.ndarray:
        """Where the lamp throws the card's corners onto the cloth (table space, z = 0)."""
        lamp = np.array(self.lighting.lamp)
        scale = lamp[2] / np.maximum(lamp[2] - corners[:, 2:3], 1.0)
        shadow = lamp + (corners - lamp) * scale
        shadow[:, 2] = 0.0
        return shadow

    def _draw_card(self, canvas: np.ndarray, view: _View, card: CardTrack, pose: Pose,
                   before: Pose | None = None) -> None:
        """Draw ``card`` at ``pose`` with its shadow; ``before`` (its pose a frame earlier) smears it."""
        camera = view.camera
        corners = card_corners(pose, self.textures.width_cm, self.textures.height_cm)
        shadow = self._shadow_points(corners)
        if pose.z > 0.5:
            blur_cm = 0.3 + pose.z * 0.12
            draw_shadow(canvas, camera.project_ideal(shadow), blur_cm * self.pixels_per_cm, 0.3)
        else:
            away = shadow[:, :2] - np.array(self.lighting.lamp[:2])
            away /= np.linalg.norm(away, axis=1, keepdims=True) + 1e-9
            contact = shadow.copy()
            contact[:, :2] += away * 0.12
            draw_shadow(canvas, camera.project_ideal(contact), 0.12 * self.pixels_per_cm, 0.35)
        centre = camera.project_ideal(np.array([[pose.x, pose.y, 0.0]]))[0]
        gy = int(np.clip(centre[1], 0, view.gain.shape[0] - 1))
        gx = int(np.clip(centre[0], 0, view.gain.shape[1] - 1))
        gain = float(view.gain[gy, gx]) * (1.0 + min(pose.z, 15.0) * 0.006)
        texture = self.textures.texture(card.code, pose.face_up)
        motion = (0.0, 0.0)
        if before is not None and self.exposure_fraction > 0:
            moved = centre - camera.project_ideal(np.array([[before.x, before.y, 0.0]]))[0]
            motion = (float(moved[0]) * self.exposure_fraction, float(moved[1]) * self.exposure_fraction)
        draw_card(canvas, texture, camera.project_ideal(corners), gain, self._glare_point(camera),
                  GLARE_SIGMA_CM * self.pixels_per_cm, self.lighting.glare_strength, motion,
                  self._bows[card.uid])

    def _is_over_table(self, pose: Pose) -> bool:
        """Cards still in a player's hand, off the table's edge, are out of the picture."""
        limit = self.layout.half + OFF_TABLE_MARGIN_CM
        return abs(pose.x) < limit and abs(pose.y) < limit

    def _glare_point(self, camera: Camera) -> np.ndarray:
        """Where a flat glossy card mirrors the lamp into the lens (canvas pixels)."""
        lamp, lens = np.array(self.lighting.lamp), camera.position
        mirror = (lens * lamp[2] + lamp * lens[2]) / (lens[2] + lamp[2])
        return camera.project_ideal(np.array([[mirror[0], mirror[1], 0.0]]))[0]

    def _static_layer(self, frame: int, view: _View) -> np.ndarray:
        """The background with every card at rest on it, redrawn only when that set changes."""
        resting = [c for c in self.timeline.cards if c.is_visible(frame) and c.is_resting(frame)]
        resting.sort(key=lambda c: (c.rest_since(frame), c.uid))
        key = tuple((c.uid, c.pose_at(frame)) for c in resting)
        if key != self._static_key or self._static is None:
            layer = view.background.copy()
            for card in resting:
                self._draw_card(layer, view, card, card.pose_at(frame))
            self._static, self._static_key = layer, key
        return self._static

    # ---------------------------------------------------------------- frames

    def render_ideal(self, frame: int) -> np.ndarray:
        """The distortion-free canvas at ``frame``: static layer plus the moving cards."""
        view = self._view_for(self.camera_at(frame))
        canvas = self._static_layer(frame, view).copy()
        moving = [c for c in self.timeline.cards
                  if c.is_visible(frame) and not c.is_resting(frame)
                  and self._is_over_table(c.pose_at(frame))]
        moving.sort(key=lambda c: (c.pose_at(frame).z, c.uid))
        for card in moving:
            self._draw_card(canvas, view, card, card.pose_at(frame), card.pose_at(frame - 1))
        if self.heads is not None:
            self.heads.apply(canvas, frame)
        if self.difficulty.people:
            self._draw_arms(canvas, view.camera, frame)
        return canvas

    def _arm_poses(self, camera: Camera, frame: int) -> list[tuple[int, ArmPose]]:
        """(seat, arm) for every hand over the table at ``frame``, in canvas pixels."""
        arms = []
        for track in self.timeline.hands:
            if not track.is_visible(frame):
                continue
            motion = hand_motion(track, frame, camera.project_ideal, self.exposure_fraction)
            pose = arm_pose(self.cast, track.pose_at(frame), camera.project_ideal, motion)
            if pose is not None:
                arms.append((track.seat, pose))
        return arms

    def _occluded_fraction(self, camera: Camera, corners: np.ndarray, frame: int) -> float:
        """The share of a card's area under arms at ``frame`` (people's ``occlusion``: coverage >= 1/2)."""
        arms = self._arm_poses(camera, frame) if self.difficulty.people else []
        if not arms:
            return 0.0
        width, height = camera.canvas_size
        polygon = camera.project_ideal(corners)
        x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
        x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        card = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(card, np.round(polygon - [x0, y0]).astype(np.int32), 1)
        covered = np.zeros_like(card, dtype=bool)
        for seat, pose in arms:
            covered |= render_arm((height, width, 3), pose, self.cast.looks[seat]).occlusion(
                (height, width))[y0:y1, x0:x1]
        area = int(card.sum())
        return float((covered & (card == 1)).sum()) / area if area else 0.0

    def arms_in_view(self, frame: int) -> int:
        """How many arms reach over the table at ``frame``."""
        return len(self._arm_poses(self.camera_at(frame), frame))

    def _draw_arms(self, canvas: np.ndarray, camera: Camera, frame: int) -> None:
        for seat, pose in self._arm_poses(camera, frame):
            draw_arm(canvas, pose, self.cast.looks[seat])

    def render_frame(self, frame: int) -> np.ndarray:
        """The output frame (BGR uint8, the requested size) at ``frame``."""
        canvas = self._view_for(self.camera_at(frame)).distorted(self.render_ideal(frame))
        if self.sensor is not None:
            canvas = self.sensor.apply(canvas, frame)
        return canvas

    def background_frame(self, frame: int) -> np.ndarray:
        """The table with nothing on it, as the camera at ``frame`` sees it (for tests and detectors)."""
        view = self._view_for(self.camera_at(frame))
        return view.distorted(view.background.copy())

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame in order."""
        for frame in range(self.frame_count):
            yield self.render_frame(frame)

    # ---------------------------------------------------------------- truth

    def truth_header(self, record_name: str) -> dict[str, Any]:
        """The truth file's header for this render (see :mod:`vision.scene.truth`)."""
        return {
            "record": record_name, "seed": self.settings.seed, "deck": self.deck.name,
            "difficulty": self.difficulty.name, "fps": self.settings.fps, "size": list(self.settings.size),
            "frames": self.frame_count, "seats": self.script.seat_count, "dummy_seat": self.script.dummy_seat,
            "surface": self.surface_kind, "card_size_cm": [round(self.textures.width_cm, 3),
                                                          round(self.textures.height_cm, 3)],
            "camera": self.camera.to_json(),
        }

    def truth_events(self) -> list[dict[str, Any]]:
        """Every truth event in frame order, card corners in output-frame pixels."""
        events: list[dict[str, Any]] = []
        bump = self.timeline.camera_bump_frame
        for event in self.timeline.events:
            if bump is not None and event.frame >= bump:
                events.append({"frame": bump, "event": "camera", "camera": self._bumped.to_json()})
                bump = None
            events.append(self._truth_event(event))
        if bump is not None:
            events.append({"frame": bump, "event": "camera", "camera": self._bumped.to_json()})
        return events

    def _truth_event(self, event: TruthEvent) -> dict[str, Any]:
        row: dict[str, Any] = {"frame": event.frame, "event": event.kind, "hand": event.hand}
        if event.trick is not None:
            row["trick"] = event.trick
        if event.kind == "rest" and event.card_uid is not None:
            card = self.timeline.cards[event.card_uid]
            corners = card_corners(card.pose_at(event.frame), self.textures.width_cm, self.textures.height_cm)
            camera = self.camera_at(event.frame)
            pixels = camera.project(corners)
            row.update(seat=event.seat, card=event.card,
                       corners=[[round(float(x), 2), round(float(y), 2)] for x, y in pixels],
                       occluded=round(self._occluded_fraction(camera, corners, event.frame), 3))
        elif event.kind == "pickup":
            row.update(winner=event.winner, cards=list(event.cards))
        elif event.kind == "draw":
            row.update(seat=event.seat, card=event.card)
        return row
