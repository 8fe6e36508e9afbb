"""The overhead camera: a pinhole looking down at the table, optionally tilted, with radial lens distortion.

Table-plane coordinates are centimetres: the origin is the table's centre, ``x`` points to the right of
the image, ``y`` away from the bottom edge (towards the top of the image when the camera is not rolled),
``z`` up from the cloth. Seat 0 sits at the bottom of the picture.

Rendering happens on an *ideal* canvas (a distortion-free pinhole image, with a margin so that the
distorted frame never samples outside it); :meth:`Camera.distort_maps` turns that canvas into the
output frame with ``cv2.remap``. :meth:`Camera.project` gives the output-frame pixel of a table point
(the one the truth file records); :meth:`Camera.project_ideal` the canvas pixel used for drawing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (1920, 1080))
MAX_TILT_DEG = 20.0
UNDISTORT_ITERATIONS = 25
_SIZE_PATTERN = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


class CameraError(VisionError):
    """A camera setting out of range or an unsupported frame size."""


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``1280x720`` or ``1920x1080``; raise CameraError showing the input and the sizes allowed."""
    match = _SIZE_PATTERN.match(text) if isinstance(text, str) else None
    allowed = ", ".join(f"{w}x{h}" for w, h in SIZES)
    if match is None:
        raise CameraError(f"bad frame size {text!r}: expected WIDTHxHEIGHT, one of {allowed}",
                          f"dimensione del fotogramma non valida {text!r}: serve LARGHEZZAxALTEZZA, "
                          f"una di {allowed}")
    size = (int(match.group(1)), int(match.group(2)))
    if size not in SIZES:
        raise CameraError(f"unsupported frame size {text!r}: the camera films {allowed}",
                          f"dimensione del fotogramma non supportata {text!r}: la camera riprende {allowed}")
    return size


@dataclass(frozen=True)
class Camera:
    """A camera at ``height_cm`` above the cloth, tilted ``tilt_deg`` towards the table centre from
    seat 0's side, rolled ``roll_deg`` about its optical axis, aimed at ``(aim_x, aim_y)``, with a
    horizontal field of view ``hfov_deg`` and radial distortion ``k1``, ``k2`` (negative = barrel)."""

    width: int
    height: int
    height_cm: float
    hfov_deg: float
    tilt_deg: float = 0.0
    roll_deg: float = 0.0
    aim_x: float = 0.0
    aim_y: float = 0.0
    k1: float = 0.0
    k2: float = 0.0

    def __post_init__(self) -> None:
        if (self.width, self.height) not in SIZES:
            raise CameraError(f"unsupported frame size {self.width}x{self.height}")
        if not 0.0 <= self.tilt_deg <= MAX_TILT_DEG:
            raise CameraError(f"camera tilt {self.tilt_deg} degrees out of range 0..{MAX_TILT_DEG}")
        if not 20.0 <= self.hfov_deg <= 120.0 or self.height_cm <= 0:
            raise CameraError(f"bad camera: field of view {self.hfov_deg}, height {self.height_cm} cm")

    @property
    def focal(self) -> float:
        """Focal length in pixels (square pixels)."""
        return (self.width / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)

    @property
    def has_distortion(self) -> bool:
        return self.k1 != 0.0 or self.k2 != 0.0

    @cached_property
    def rotation(self) -> np.ndarray:
        """World-to-camera rotation: rows are the camera's right, down and forward axes in table space."""
        position = self.position
        forward = np.array([self.aim_x, self.aim_y, 0.0]) - position
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        roll = math.radians(self.roll_deg)
        right_rolled = math.cos(roll) * right + math.sin(roll) * down
        down_rolled = -math.sin(roll) * right + math.cos(roll) * down
        return np.stack([right_rolled, down_rolled, forward])

    @cached_property
    def position(self) -> np.ndarray:
        """Where the lens is, in table space: above the aim point, pulled back towards seat 0 by the tilt."""
        pull_back = self.height_cm * math.tan(math.radians(self.tilt_deg))
        return np.array([self.aim_x, self.aim_y - pull_back, self.height_cm])

    def _normalised(self, points: np.ndarray) -> np.ndarray:
        """Table points (N, 3) -> ideal normalised image coordinates (N, 2)."""
        camera_points = (np.asarray(points, dtype=np.float64) - self.position) @ self.rotation.T
        depth = np.maximum(camera_points[:, 2:3], 1e-6)
        return camera_points[:, :2] / depth

    def _distort(self, normalised: np.ndarray) -> np.ndarray:
        r2 = np.sum(normalised * normalised, axis=1, keepdims=True)
        return normalised * (1.0 + self.k1 * r2 + self.k2 * r2 * r2)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Output-frame pixels (N, 2) of table points (N, 3) or (N, 2) on the cloth, distortion included."""
        distorted = self._distort(self._normalised(_as_3d(points)))
        return distorted * self.focal + np.array([self.width / 2.0, self.height / 2.0])

    @cached_property
    def canvas_margin(self) -> int:
        """Extra pixels around the ideal canvas so the distorted frame samples only inside it."""
        if not self.has_distortion:
            return 0
        grid = self._frame_border_points()
        ideal = self._undistort_pixels(grid)
        overshoot = max(0.0, float(-ideal.min()), float((ideal - [self.width, self.height]).max()))
        return math.ceil(overshoot) + 4

    @property
    def canvas_size(self) -> tuple[int, int]:
        """(width, height) of the ideal canvas the renderer draws on."""
        return self.width + 2 * self.canvas_margin, self.height + 2 * self.canvas_margin

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        """Canvas pixels (N, 2) of table points: the pinhole image, no distortion, margin included."""
        offset = np.array([self.width / 2.0, self.height / 2.0]) + self.canvas_margin
        return self._normalised(_as_3d(points)) * self.focal + offset

    def distort_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``cv2.remap`` maps from the ideal canvas to the output frame, or None without distortion."""
        if not self.has_distortion:
            return None
        xs, ys = np.meshgrid(np.arange(self.width, dtype=np.float64),
                             np.arange(self.height, dtype=np.float64))
        pixels = np.stack([xs.ravel(), ys.ravel()], axis=1)
        ideal = self._undistort_pixels(pixels) + self.canvas_margin
        map_x = ideal[:, 0].reshape(self.height, self.width).astype(np.float32)
        map_y = ideal[:, 1].reshape(self.height, self.width).astype(np.float32)
        return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)

    def _undistort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Output-frame pixels -> ideal pinhole pixels (no margin), inverting the radial model by
        fixed-point iteration (converges for the mild distortion a webcam lens has)."""
        centre = np.array([self.width / 2.0, self.height / 2.0])
        distorted = (np.asarray(pixels, dtype=np.float64) - centre) / self.focal
        ideal = distorted.copy()
        for _ in range(UNDISTORT_ITERATIONS):
            r2 = np.sum(ideal * ideal, axis=1, keepdims=True)
            ideal = distorted / (1.0 + self.k1 * r2 + self.k2 * r2 * r2)
        return ideal * self.focal + centre

    def _frame_border_points(self) -> np.ndarray:
        xs = np.linspace(0, self.width - 1, 64)
        ys = np.linspace(0, self.height - 1, 36)
        top = np.stack([xs, np.zeros_like(xs)], axis=1)
        bottom = np.stack([xs, np.full_like(xs, self.height - 1)], axis=1)
        left = np.stack([np.zeros_like(ys), ys], axis=1)
        right = np.stack([np.full_like(ys, self.width - 1), ys], axis=1)
        return np.concatenate([top, bottom, left, right])

    def moved(self, **changes: float) -> Camera:
        """A copy with some settings changed (someone bumps the camera)."""
        settings = {**self.to_json_settings(), **changes}
        return Camera(**settings)

    def to_json_settings(self) -> dict[str, Any]:
        return {
            "width": self.width, "height": self.height, "height_cm": self.height_cm,
            "hfov_deg": self.hfov_deg, "tilt_deg": self.tilt_deg, "roll_deg": self.roll_deg,
            "aim_x": self.aim_x, "aim_y": self.aim_y, "k1": self.k1, "k2": self.k2,
        }

    def to_json(self) -> dict[str, Any]:
        """The settings plus the derived intrinsics (OpenCV convention) and pose, rounded for the header."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        tvec = -self.rotation @ self.position
        return {
            **{key: round(value, 6) if isinstance(value, float) else value
               for key, value in self.to_json_settings().items()},
            "matrix": [[round(self.focal, 4), 0.0, self.width / 2.0],
                       [0.0, round(self.focal, 4), self.height / 2.0], [0.0, 0.0, 1.0]],
            "distortion": [self.k1, self.k2, 0.0, 0.0, 0.0],
            "rvec": [round(float(v), 6) for v in rvec.ravel()],
            "tvec": [round(float(v), 4) for v in tvec.ravel()],
            "units": "cm, table centre at origin, x right, y towards the top of the image, z up",
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Camera:
        """Rebuild from :meth:`to_json` output (extra derived keys are ignored)."""
        keys = ("width", "height", "height_cm", "hfov_deg", "tilt_deg", "roll_deg", "aim_x", "aim_y",
                "k1", "k2")
        try:
            return cls(**{key: data[key] for key in keys})
        except (KeyError, TypeError) as error:
            raise CameraError(f"bad camera object {data!r}: {error}") from error


def _as_3d(points: np.ndarray) -> np.ndarray:
    array = np.asarray(points, dtype=np.float64).reshape(-1, np.asarray(points).shape[-1])
    if array.shape[1] == 2:
        return np.concatenate([array, np.zeros((len(array), 1))], axis=1)
    return array
