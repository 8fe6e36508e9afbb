"""Difficulty presets: how much of the real table's mess the renderer switches on.

``easy``: camera straight down, no lens distortion, a plain felt, cards land neatly (small jitter), no
overlaps, steady light, no people drawn over the cards beyond the playing hand.
``normal``: a little tilt and roll, mild barrel distortion, any felt/wood/cloth, cards land with up to
30 degrees of rotation and the odd overlap in the middle, hands and arms, a light track with white
balance drift and mild noise, soft glare on glossy cards.
``hard``: tilt up to 20 degrees, stronger distortion, wide jitter and frequent overlaps, resting hands
on the table, flicker, auto-exposure swings, strong glare, motion blur, heavy compression, and one
bump of the camera during the clip.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.errors import VisionError
from vision.scene.sensor import SensorSettings

# A Pi camera in a lit room: its image processor denoises over time, so little noise is left from frame
# to frame; mild flicker, white balance and exposure still drift.
NORMAL_SENSOR = SensorSettings().with_changes(noise_sigma=(0.3, 0.9), noise_shot=(0.02, 0.08),
                                              flicker_depth=(0.0, 0.06))
SENSORS: dict[str, SensorSettings | None] = {
    "none": None, "normal": NORMAL_SENSOR, "hard": SensorSettings.hard(),
}


class DifficultyError(VisionError):
    """An unknown difficulty name."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """The knobs of one preset (ranges are (low, high), drawn per clip or per card from the seed)."""

    name: str
    tilt_deg: tuple[float, float]
    roll_deg: tuple[float, float]
    distortion_k1: tuple[float, float]
    surfaces: tuple[str, ...]
    offset_cm: float
    rotation_deg: float
    overlap_chance: float
    resting_hand_chance: float
    people: bool
    sensor_level: str
    glare_strength: tuple[float, float]
    camera_bump: bool
    head_shadow_darkness: float

    @property
    def sensor(self) -> SensorSettings | None:
        """The light and sensor settings of this preset (None: the rendered frame as is)."""
        return SENSORS[self.sensor_level]


PRESETS: dict[str, Difficulty] = {
    "easy": Difficulty(
        name="easy", tilt_deg=(0.0, 0.0), roll_deg=(0.0, 0.0), distortion_k1=(0.0, 0.0),
        surfaces=("felt_green", "felt_blue"), offset_cm=0.8, rotation_deg=8.0, overlap_chance=0.0,
        resting_hand_chance=0.0, people=True, sensor_level="none", glare_strength=(0.0, 0.0),
        camera_bump=False, head_shadow_darkness=0.0),
    "normal": Difficulty(
        name="normal", tilt_deg=(0.0, 10.0), roll_deg=(-4.0, 4.0), distortion_k1=(-0.08, -0.02),
        surfaces=("felt_green", "felt_blue", "felt_red", "wood_light", "wood_dark", "cloth_checks",
                  "cloth_stripes", "cloth_damask", "cloth_floral"),
        offset_cm=2.0, rotation_deg=30.0, overlap_chance=0.12, resting_hand_chance=0.08, people=True,
        sensor_level="normal", glare_strength=(20.0, 60.0), camera_bump=False, head_shadow_darkness=0.18),
    "hard": Difficulty(
        name="hard", tilt_deg=(8.0, 20.0), roll_deg=(-10.0, 10.0), distortion_k1=(-0.18, -0.06),
        surfaces=("wood_light", "wood_dark", "cloth_checks", "cloth_stripes", "cloth_damask", "cloth_floral",
                  "felt_green", "felt_red"),
        offset_cm=3.0, rotation_deg=30.0, overlap_chance=0.3, resting_hand_chance=0.25, people=True,
        sensor_level="hard", glare_strength=(60.0, 130.0), camera_bump=True, head_shadow_darkness=0.3),
}
DIFFICULTIES: tuple[str, ...] = tuple(PRESETS)


def get_difficulty(name: str) -> Difficulty:
    """The preset called ``name``; raise DifficultyError listing the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        choices = ", ".join(DIFFICULTIES)
        raise DifficultyError(f"unknown difficulty {name!r}: choose one of {choices}") from None
