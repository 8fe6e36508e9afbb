"""Contact sheet of the renderer's realism layers: every table surface, hands and arms, light and sensor.

    .venv/bin/python docs/renderer/make_layers_sheet.py [--out docs/renderer/layers_sheet.png] [--seed 7]

Cards on the tables are drawn from the ``napoletane`` artwork in ``../shared/cards`` when it is there
(only this derived picture is committed, never the artwork), otherwise from plain procedural cards.
Row by row: the nine surfaces; table scenes with hands; 1:1 close-ups of hands; the light and the
sensor (candle-warm, daylight, rolling-shutter flicker, a hard camera, vignette and head shadows,
an auto-exposure swing when a white sleeve enters).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from engine.cards import CARD_CODES
from vision.decks import Deck, find_cards_root
from vision.scene.cards import draw_card, draw_shadow, make_texture, procedural_back
from vision.scene.people import ArmPose, HeadShadows, Look, draw_arm
from vision.scene.sensor import SensorSettings, SensorTrack
from vision.scene.surfaces import SURFACE_KINDS, make_surface

TILE = (480, 270)
SCENE = (960, 540)
COLUMNS = 3
CARD_PX = (36, 60)    # card size at SCENE scale: a 9.3 cm card with an 84 cm table filling the height
KNUCKLES_PX = 54.0    # an 8.5 cm hand at the same scale


def load_faces() -> dict[str, np.ndarray]:
    root = find_cards_root()
    if root is not None and (root / "napoletane").is_dir():
        return Deck.load(root / "napoletane").faces
    faces = {}
    for index, code in enumerate(CARD_CODES):
        face = np.full((192, 112, 3), 240, np.uint8)
        ink = (30, 30, 160 + index)
        cv2.putText(face, code, (18, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.4, ink, 3, cv2.LINE_AA)
        faces[code] = face
    return faces


def card_corners(centre: tuple[float, float], angle_deg: float, size: tuple[float, float]) -> np.ndarray:
    """Corners (top-left, top-right, bottom-right, bottom-left) of a card rotated by ``angle_deg``."""
    angle = math.radians(angle_deg)
    up = np.array([math.sin(angle), -math.cos(angle)]) * size[1] / 2
    right = np.array([math.cos(angle), math.sin(angle)]) * size[0] / 2
    c = np.asarray(centre, np.float64)
    return np.array([c + up - right, c + up + right, c - up + right, c - up - right])


class Scene:
    """A table with a trick in the middle, ready for arms and a sensor; all sizes at ``SCENE`` scale."""

    def __init__(self, kind: str, faces: dict[str, np.ndarray], seed: int,
                 size: tuple[int, int] = SCENE) -> None:
        self.rng = np.random.default_rng(seed)
        self.size = size
        self.scale = size[1] / SCENE[1]
        self.card_px = (CARD_PX[0] * self.scale, CARD_PX[1] * self.scale)
        self.frame = make_surface(kind, size[0], size[1], self.rng)
        self.textures = {code: make_texture(faces[code], 112, 192) for code in self.rng.choice(CARD_CODES, 6)}
        self.back = make_texture(procedural_back("sheet", 112, 192), 112, 192)
        width, height = size
        players = [(width / 2, height + 60 * self.scale), (width + 80, height / 2), (width / 2, -60.0),
                   (-80.0, height / 2)]
        self.heads = HeadShadows.from_rng(self.rng, players, size, 10, 0.22)

    def trick(self, count: int = 3) -> None:
        width, height = self.size
        spots = [(0, 60), (75, 0), (0, -60), (-75, 0)]
        codes = list(self.textures)
        for index in range(count):
            dx, dy = spots[index]
            centre = (width / 2 + dx * self.scale, height / 2 + dy * self.scale)
            corners = card_corners(centre, 90 * index + float(self.rng.uniform(-20, 20)), self.card_px)
            draw_shadow(self.frame, corners + 2 * self.scale, 3 * self.scale, 0.35)
            draw_card(self.frame, self.textures[codes[index]], corners)
        # A face-down pile of won tricks near the bottom-right player.
        for layer in range(4):
            corners = card_corners((width * 0.82, height * 0.78 - layer), 80 + 4 * layer, self.card_px)
            draw_shadow(self.frame, corners + 2 * self.scale, 3 * self.scale, 0.3)
            draw_card(self.frame, self.back, corners)

    def held_card_painter(self) -> Callable[[np.ndarray, np.ndarray], None]:
        texture = self.textures[list(self.textures)[-1]]

        def paint(frame: np.ndarray, corners: np.ndarray) -> None:
            draw_shadow(frame, corners + np.array([10, 14]) * self.scale, 8 * self.scale, 0.25)
            draw_card(frame, texture, corners)

        return paint

    def arm(self, entry: tuple[float, float], hand: tuple[float, float], look: Look, **pose: object) -> None:
        s = self.scale
        arm_pose = ArmPose((entry[0] * s, entry[1] * s), (hand[0] * s, hand[1] * s), KNUCKLES_PX * s,
                           card_size=self.card_px, **pose)  # type: ignore[arg-type]
        draw_arm(self.frame, arm_pose, look, self.held_card_painter())


def label(tile: np.ndarray, text: str) -> np.ndarray:
    out = tile.copy()
    cv2.rectangle(out, (0, out.shape[0] - 24), (out.shape[1], out.shape[0]), (20, 20, 20), -1)
    cv2.putText(out, text, (8, out.shape[0] - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (235, 235, 235), 1,
                cv2.LINE_AA)
    return out


def fit(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, TILE, interpolation=cv2.INTER_AREA)


def looks(seed: int) -> list[Look]:
    rng = np.random.default_rng(seed)
    return [Look.random(rng) for _ in range(8)]


def surface_tiles(seed: int) -> list[np.ndarray]:
    return [label(fit(make_surface(kind, *SCENE, np.random.default_rng(seed + i))), kind)
            for i, kind in enumerate(SURFACE_KINDS)]


def people_scene(kind: str, faces: dict[str, np.ndarray], seed: int, cast: list[Look],
                 size: tuple[int, int] = SCENE, moving: bool = False) -> np.ndarray:
    scene = Scene(kind, faces, seed, size)
    scene.trick()
    scene.heads.apply(scene.frame, 0)
    scene.arm((440, 540), (470, 355), cast[0], grip="holding", lift=0.7,
              blur=(8.0, -10.0) if moving else (0.0, 0.0))
    scene.arm((960, 200), (800, 250), cast[1], grip="flat", lift=0.1)
    scene.arm((0, 330), (190, 300), cast[2], grip="open", lift=0.4, angle_deg=-15)
    scene.arm((620, 0), (560, 130), cast[3], grip="flat", lift=0.15, angle_deg=110)
    return scene.frame


def people_tiles(faces: dict[str, np.ndarray], seed: int) -> list[np.ndarray]:
    tiles = []
    for index, kind in enumerate(("felt_green", "wood_dark", "cloth_checks")):
        cast = looks(seed + 10 * index)
        tiles.append(label(fit(people_scene(kind, faces, seed + index, cast)), f"hands on {kind}"))
    big = (1280, 720)
    crops = (("felt_blue", (387, 295, 867, 565), False, "holding a card, 1:1"),
             ("wood_light", (800, 195, 1280, 465), False, "flat hand and sleeve, 1:1"),
             ("cloth_damask", (387, 295, 867, 565), True, "moving hand, motion blur, 1:1"))
    for index, (kind, (x0, y0, x1, y1), moving, text) in enumerate(crops):
        frame = people_scene(kind, faces, seed + 20 + index, looks(seed + 40 + index), big, moving)
        crop = frame[y0:y1, x0:x1]
        tiles.append(label(cv2.resize(crop, TILE, interpolation=cv2.INTER_AREA), text))
    return tiles


def sensor_tiles(faces: dict[str, np.ndarray], seed: int) -> list[np.ndarray]:
    base = people_scene("felt_green", faces, seed, looks(seed))
    clean = SensorSettings.clean()
    variants = [
        ("candle-warm 1900 K, AWB half-way", clean.with_changes(light_kelvin=(1900.0, 1900.0),
                                                                 awb_correction=(0.45, 0.45))),
        ("daylight 6500 K, AWB half-way", clean.with_changes(light_kelvin=(6500.0, 6500.0),
                                                              awb_correction=(0.45, 0.45))),
        ("100 Hz flicker, rolling shutter", clean.with_changes(flicker_depth=(0.45, 0.45),
                                                                exposure_s=(1 / 500, 1 / 500),
                                                                readout_s=(0.03, 0.03))),
        ("hard: noise, tone, JPEG q35 (1:1)", SensorSettings.hard().with_changes(jpeg_quality=(35, 35))),
        ("vignette 0.5, normal sensor", SensorSettings().with_changes(vignette=(0.5, 0.5))),
    ]
    tiles = []
    for text, settings in variants:
        track = SensorTrack(settings, SCENE, 10, np.random.default_rng(seed))
        out = track.apply(base, 0)
        if "1:1" in text:
            out = cv2.resize(out[150:420, 300:780], TILE, interpolation=cv2.INTER_AREA)
        tiles.append(label(fit(out), text))
    swing = auto_exposure_swing(faces, seed)
    half = swing.shape[1] // 2
    change = swing[:, half:].mean() / swing[:, :half].mean() - 1.0
    tiles.append(label(fit(swing), f"auto exposure: table before | 0.8 s after a sleeve ({change:+.0%})"))
    return tiles


def auto_exposure_swing(faces: dict[str, np.ndarray], seed: int) -> np.ndarray:
    """The left half of the table just before a white sleeve enters (left) and 0.8 s later (right)."""
    scene = Scene("felt_red", faces, seed)
    scene.trick(2)
    empty = scene.frame.copy()
    scene.arm((960, 300), (600, 280), Look((150, 180, 226), (236, 236, 236), 0.85), grip="flat", lift=0.2)
    track = SensorTrack(SensorSettings.clean().with_changes(auto_exposure=1.0), SCENE, 10,
                        np.random.default_rng(seed))
    outputs = [track.apply(empty if index < 10 else scene.frame, index) for index in range(20)]
    before, after = outputs[9], outputs[18]
    half = SCENE[0] // 2
    return np.hstack([before[:, :half], after[:, :half]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("layers_sheet.png"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    faces = load_faces()
    tiles = surface_tiles(args.seed) + people_tiles(faces, args.seed) + sensor_tiles(faces, args.seed)
    rows = [np.hstack(tiles[i:i + COLUMNS]) for i in range(0, len(tiles), COLUMNS)]
    sheet = np.vstack(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]}, {args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
