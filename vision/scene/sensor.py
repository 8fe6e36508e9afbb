"""The room's light and the camera's sensor, as one track per clip: ``SensorTrack(...).apply(frame, i)``.

What a cheap camera above a card table adds to a clean rendered frame, in the order it happens:

* the colour of the light, from candle-warm (about 1900 K) to daylight (6500 K), only partly corrected
  by the camera's auto white balance, drifting slowly during the clip;
* mains flicker: lamps on 50 Hz mains pulse at 100 Hz. Each sensor row integrates the light over the
  exposure time, so rows read at different moments (rolling shutter) get different amounts: dark and
  light bands that crawl through the picture; with a global shutter (``readout_s=0``) the whole frame
  pulses. Sampled at the frame rate, 100 Hz aliases to ``flicker_beat_hz(2 * mains_hz, fps)``: 10 Hz at
  30 fps, 0 Hz at exactly 25 fps, and a slow 0.2 Hz pulse when the mains runs at 50.1 Hz;
* auto exposure: the camera holds the picture's mean brightness; when a hand or sleeve enters, the
  mean changes, the exposure chases it with a lag and an overshoot, and the whole table brightens or
  darkens for a second;
* vignetting (corners darker), sensor noise (read noise plus shot noise growing with the signal,
  mostly in brightness, with weaker colour blotches like a demosaiced Bayer sensor), a tone curve,
  and JPEG compression.

Deterministic: the same seed and the same frames give the same output. ``apply`` keeps the auto
exposure's state between calls; frames are expected in order (0, 1, 2, ...): any other index restarts
the exposure loop already settled on that frame.

Speed: everything frame-independent (the vignette, the noise bank) is computed when the track is
made, the light map once a second; ``apply`` is a handful of vectorised passes over the frame
(``bench/render_layers.py`` measures: about 14 ms at 1280x720 on one core for the normal preset,
about 20-25 ms for the hard one, most of it JPEG).

The motion-blur helpers (``motion_blur``, ``blur_layer``) are for moving things the renderer draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.errors import VisionError
from vision.photometric import jpeg as jpeg_round_trip
from vision.photometric import motion_blur as photometric_motion_blur

NOISE_BANK_PAD = 48
LUMA_BGR = np.array([0.114, 0.587, 0.299])


class SensorError(VisionError):
    """Settings or a frame the sensor track cannot use."""


@dataclass(frozen=True, slots=True)
class SensorSettings:
    """Ranges a clip's light and camera are drawn from, and the switches of each effect.

    Kelvin: ``light_kelvin`` is the lamp's colour temperature range; the camera's white balance
    corrects a fraction ``awb_correction`` of the difference to 5000 K. ``flicker_depth`` 0..1 is how
    far the light dips at each mains half cycle (0: incandescent or a good LED driver; 0.3+: a cheap
    LED or a fluorescent tube). ``exposure_s`` and ``readout_s`` are ranges in seconds (readout 0 is
    a global shutter). ``auto_exposure`` 0..1 scales how strongly exposure chases the scene's mean.
    ``noise_sigma`` (grey levels) and ``noise_shot`` (times sqrt(level)) are ranges; ``jpeg_quality``
    is a range, 100 meaning no compression. ``mains_drift_hz`` bounds the mains frequency's offset.
    ``defocus_px`` is the range of the lens's blur (Gaussian sigma in pixels; a fixed-focus camera is
    rarely sharp on the whole table).
    """

    light_kelvin: tuple[float, float] = (2700.0, 5500.0)
    awb_correction: tuple[float, float] = (0.55, 0.9)
    kelvin_drift: float = 150.0
    mains_hz: float = 50.0
    mains_drift_hz: float = 0.05
    flicker_depth: tuple[float, float] = (0.0, 0.12)
    exposure_s: tuple[float, float] = (1 / 120, 1 / 30)
    readout_s: tuple[float, float] = (0.015, 0.03)
    auto_exposure: float = 0.6
    vignette: tuple[float, float] = (0.1, 0.35)
    noise_sigma: tuple[float, float] = (1.0, 3.0)
    noise_shot: tuple[float, float] = (0.1, 0.35)
    contrast: tuple[float, float] = (0.95, 1.12)
    jpeg_quality: tuple[int, int] = (100, 100)
    defocus_px: tuple[float, float] = (0.0, 0.5)

    def __post_init__(self) -> None:
        ranges = {
            "light_kelvin": (1000.0, 12000.0), "awb_correction": (0.0, 1.0), "flicker_depth": (0.0, 1.0),
            "exposure_s": (1e-5, 1.0), "readout_s": (0.0, 0.2), "vignette": (0.0, 0.9),
            "noise_sigma": (0.0, 50.0), "noise_shot": (0.0, 5.0), "contrast": (0.5, 2.0),
            "jpeg_quality": (5, 100), "defocus_px": (0.0, 10.0),
        }
        for name, (low, high) in ranges.items():
            pair = getattr(self, name)
            if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
                raise SensorError(f"SensorSettings.{name} must be a (low, high) range inside {low}..{high}, "
                                  f"got {pair!r}")
        if not 0.0 <= self.auto_exposure <= 1.0:
            raise SensorError(f"SensorSettings.auto_exposure must lie in 0..1, got {self.auto_exposure}")
        if not 10.0 <= self.mains_hz <= 100.0 or not 0.0 <= self.mains_drift_hz <= 1.0:
            raise SensorError(f"SensorSettings.mains_hz must lie in 10..100 and mains_drift_hz in 0..1, "
                              f"got {self.mains_hz}, {self.mains_drift_hz}")

    @classmethod
    def clean(cls) -> SensorSettings:
        """Neutral light, no flicker, no noise, no compression: the renderer's frame almost unchanged."""
        return cls(light_kelvin=(5000.0, 5000.0), awb_correction=(1.0, 1.0), kelvin_drift=0.0,
                   mains_drift_hz=0.0, flicker_depth=(0.0, 0.0), readout_s=(0.0, 0.0), auto_exposure=0.0,
                   vignette=(0.0, 0.0), noise_sigma=(0.0, 0.0), noise_shot=(0.0, 0.0),
                   contrast=(1.0, 1.0), jpeg_quality=(100, 100), defocus_px=(0.0, 0.0))

    @classmethod
    def hard(cls) -> SensorSettings:
        """A dim kitchen: candle-warm to daylight, strong LED flicker, a noisy sensor, a compressed stream."""
        return cls(light_kelvin=(1900.0, 6500.0), awb_correction=(0.45, 0.85), kelvin_drift=300.0,
                   mains_drift_hz=0.1, flicker_depth=(0.15, 0.45), exposure_s=(1 / 250, 1 / 60),
                   auto_exposure=1.0, vignette=(0.25, 0.55), noise_sigma=(2.0, 6.0), noise_shot=(0.3, 0.9),
                   contrast=(0.85, 1.25), jpeg_quality=(35, 75), defocus_px=(0.3, 1.3))

    def with_changes(self, **changes: object) -> SensorSettings:
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class LightDraw:
    """The values one clip drew from ``SensorSettings`` (kept in the truth file to explain a clip)."""

    kelvin: float
    awb_correction: float
    mains_hz: float
    flicker_depth: float
    flicker_phase: float
    exposure_s: float
    readout_s: float
    vignette: float
    noise_sigma: float
    noise_shot: float
    contrast: float
    jpeg_quality: int
    ae_response_s: float
    defocus_px: float

    def to_json(self) -> dict[str, float | int]:
        return {name: getattr(self, name) for name in self.__slots__}


def kelvin_to_bgr(kelvin: float) -> np.ndarray:
    """Relative BGR of a black body at ``kelvin`` (Tanner Helland's fit), normalised to green = 1."""
    t = kelvin / 100.0
    red = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    if t <= 66:
        green = 99.4708025861 * math.log(t) - 161.1195681661
    else:
        green = 288.1221695283 * (t - 60) ** -0.0755148492
    # The fit reaches 0 at 1900 K; candle light still has a little blue, so it stops at 2000 K.
    blue_fit = max(138.5177312231 * math.log(max(t, 20.0) - 10) - 305.0447927307, 0.0)
    blue = 255.0 if t >= 66 else blue_fit
    rgb = np.clip(np.array([blue, green, red], np.float64), 1.0, 255.0)
    return rgb / rgb[1]


def white_balance_gains(kelvin: float, awb_correction: float, reference_kelvin: float = 5000.0) -> np.ndarray:
    """BGR gains of light at ``kelvin`` seen by a camera whose white balance undoes ``awb_correction`` of it.

    Below the reference the result is warm (red gain above blue), above it cold.
    """
    cast = kelvin_to_bgr(kelvin) / kelvin_to_bgr(reference_kelvin)
    residual = cast ** (1.0 - awb_correction)
    # Keep the brightness (Rec. 601 luma) as it was: exposure, not white balance, sets it.
    luma = float(np.dot(residual, LUMA_BGR))
    return (residual / luma).astype(np.float32)


def flicker_beat_hz(light_hz: float, fps: float) -> float:
    """The apparent frequency of light pulsing at ``light_hz`` when sampled ``fps`` times a second."""
    folded = light_hz % fps
    return min(folded, fps - folded)


def flicker_gain(
    times: np.ndarray, light_hz: float, depth: float, exposure_s: float, phase: float
) -> np.ndarray:
    """Mean light over exposures starting at ``times`` (seconds) of ``1 + depth * cos(2 pi f t + phase)``."""
    omega = 2 * math.pi * light_hz
    smear = np.sinc(light_hz * exposure_s)   # numpy's sinc is sin(pi x) / (pi x)
    return 1.0 + depth * smear * np.cos(omega * (times + exposure_s / 2) + phase)


def vignette_map(width: int, height: int, strength: float) -> np.ndarray:
    """cos^4-like fall-off: 1 at the centre, ``1 - strength`` at the corners, float32 (height, width)."""
    ys = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None]
    xs = np.linspace(-1.0, 1.0, width, dtype=np.float32)[None, :]
    radius2 = (xs ** 2 * (width / max(width, height)) ** 2 + ys ** 2 * (height / max(width, height)) ** 2)
    radius2 /= float(radius2.max()) or 1.0
    return 1.0 - strength * (1.0 - (1.0 - radius2) ** 2)


def noise_line(sigma: float, shot: float) -> tuple[float, float]:
    """Least-squares ``(a, b)`` with ``a + b * level`` closest to ``sigma + shot * sqrt(level)`` on 0..255."""
    levels = np.arange(256, dtype=np.float64)
    design = np.stack([np.ones_like(levels), levels], axis=1)
    (offset, slope), *_ = np.linalg.lstsq(design, sigma + shot * np.sqrt(levels), rcond=None)
    return float(max(offset, 0.0)), float(slope)


def tone_curve(contrast: float) -> np.ndarray:
    """A 256-entry uint8 S-curve around mid-grey; 1.0 is the identity."""
    levels = np.arange(256, dtype=np.float64) / 255.0
    if contrast == 1.0:
        return np.arange(256, dtype=np.uint8)
    curved = 0.5 + (levels - 0.5) * contrast
    # Soft shoulder and toe instead of hard clipping.
    curved = np.where(curved > 0.85, 0.85 + 0.15 * np.tanh((curved - 0.85) / 0.15), curved)
    curved = np.where(curved < 0.1, 0.1 * np.exp(curved / 0.1 - 1.0), curved)
    return np.clip(np.round(curved * 255.0), 0, 255).astype(np.uint8)


class SensorTrack:
    """One clip's light and camera. Build once, then ``apply(frame, frame_index)`` to every frame in order.

    ``frame_size`` is (width, height) of the frames it will get; ``fps`` 1..120; ``rng`` draws the clip's
    values (see ``draw``) and the noise bank. ``clock_error`` is the camera clock's relative error
    (its true frame rate is ``fps * (1 + clock_error)``).
    """

    def __init__(self, settings: SensorSettings, frame_size: tuple[int, int], fps: float,
                 rng: np.random.Generator, clock_error: float = 0.0) -> None:
        width, height = _check_size(frame_size)
        if not 1.0 <= fps <= 120.0:
            raise SensorError(f"SensorTrack: fps must lie in 1..120, got {fps}")
        if not isinstance(rng, np.random.Generator):
            raise SensorError(f"SensorTrack needs a numpy.random.Generator, got {type(rng).__name__}")
        self.settings = settings
        self.size = (width, height)
        self.fps = float(fps)
        self.true_fps = self.fps * (1.0 + clock_error)
        self.draw = _draw(settings, rng)
        self._kelvin_wander = rng.uniform(0, 2 * math.pi, 2)
        self._has_vignette = self.draw.vignette > 0
        self._vignette = vignette_map(width, height, self.draw.vignette)
        self._light_map_key: int | None = None
        self._light_map = np.empty((0, 0, 3), np.float32)
        self._line_s = self.draw.readout_s / height
        self._rows = np.arange(height, dtype=np.float64) * self._line_s
        self._curve = tone_curve(self.draw.contrast)
        self._has_noise = self.draw.noise_sigma > 0 or self.draw.noise_shot > 0
        bank = _noise_bank(rng, width, height) if self._has_noise else ()
        offset, slope = noise_line(self.draw.noise_sigma, self.draw.noise_shot)
        self._shot_bank = tuple(unit * np.float32(slope) for unit in bank)
        self._read_bank = tuple(unit * np.float32(offset) for unit in bank)
        self._noise_seed = int(rng.integers(2 ** 31))
        self._ae = _AutoExposure(self.draw.ae_response_s, settings.auto_exposure)
        self._last_index: int | None = None

    def _wb_gains(self, t: float) -> np.ndarray:
        drift = self.settings.kelvin_drift * math.sin(2 * math.pi * t / 37.0 + self._kelvin_wander[0])
        return white_balance_gains(self.draw.kelvin + drift, self.draw.awb_correction)

    def frame_time(self, frame_index: int) -> float:
        """When frame ``frame_index`` started, by the camera's own (imperfect) clock, in seconds."""
        return frame_index / self.true_fps

    def row_gains(self, frame_index: int) -> np.ndarray:
        """Flicker gain of every sensor row of frame ``frame_index`` (float32, height)."""
        times = self.frame_time(frame_index) + self._rows
        gains = flicker_gain(times, 2 * self.draw.mains_hz, self.draw.flicker_depth, self.draw.exposure_s,
                             self.draw.flicker_phase)
        return gains.astype(np.float32)

    def apply(self, frame: np.ndarray, frame_index: int) -> np.ndarray:
        """The camera's picture of ``frame`` (BGR uint8, the track's size) at ``frame_index``: a new array.

        In the order a camera works: the lens's blur, white balance and exposure (with a global
        shutter's flicker), vignette, rolling-shutter bands and noise in float where switched on
        (otherwise one cheap per-channel scaling in uint8), clipping, the tone curve, then JPEG.
        """
        self._check_frame(frame, frame_index)
        if self.draw.defocus_px >= 0.3:
            frame = cv2.GaussianBlur(frame, (0, 0), self.draw.defocus_px)
        is_next = self._last_index is not None and frame_index == self._last_index + 1
        exposure = self._ae.step(float(frame[::8, ::8].mean()), 1.0 / self.fps, restart=not is_next)
        self._last_index = frame_index
        rows = self.row_gains(frame_index)
        if self.draw.readout_s <= 0:
            exposure *= float(rows[0])
        gains = (self._wb_gains(self.frame_time(frame_index)) * np.float32(exposure)).astype(np.float32)
        has_bands = self.draw.readout_s > 0 and self.draw.flicker_depth > 0
        if self._has_vignette or has_bands or self._has_noise:
            values = cv2.multiply(frame, self.light_map(frame_index), scale=exposure, dtype=cv2.CV_32F)
            if has_bands:
                values *= rows[:, None, None]
            if self._has_noise:
                self._add_noise(values, frame_index)
            # Noise can push a black pixel below 0; its absolute value stands in for clipping (cheaper).
            out = cv2.convertScaleAbs(values)
        else:
            out = cv2.transform(frame, np.diag(gains).astype(np.float32))
        if self.draw.contrast != 1.0:
            out = cv2.LUT(out, self._curve)
        if self.draw.jpeg_quality < 100:
            out = jpeg_round_trip(out, self.draw.jpeg_quality)
        return out

    def light_map(self, frame_index: int) -> np.ndarray:
        """Vignette times white balance, (h, w, 3) float32: made again once a second as the light drifts.

        (One map multiplied in one pass is several times faster than scaling the channels per frame.)
        """
        key = frame_index // max(1, round(self.fps))
        if key != self._light_map_key:
            gains = self._wb_gains(self.frame_time(key * max(1, round(self.fps))))
            self._light_map = cv2.merge([self._vignette * np.float32(gain) for gain in gains])
            self._light_map_key = key
        return self._light_map

    def _add_noise(self, values: np.ndarray, frame_index: int) -> None:
        """Add read noise plus shot noise from the bank, at an offset drawn from the frame index.

        The spread ``sigma + shot * sqrt(level)`` is replaced by its straight-line fit over 0..255,
        ``a + b * level``, which costs two passes instead of four: ``values += b_bank * values + a_bank``.
        """
        height, width = values.shape[:2]
        pick = np.random.default_rng((self._noise_seed, frame_index))
        which = int(pick.integers(len(self._shot_bank)))
        dy, dx = (int(v) for v in pick.integers(0, NOISE_BANK_PAD, 2))
        cv2.accumulateProduct(values, self._shot_bank[which][dy:dy + height, dx:dx + width], values)
        cv2.accumulate(self._read_bank[which][dy:dy + height, dx:dx + width], values)

    def _check_frame(self, frame: np.ndarray, frame_index: int) -> None:
        width, height = self.size
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.shape != (height, width, 3):
            raise SensorError(f"SensorTrack.apply: expected a BGR uint8 frame of {width}x{height}, got "
                              f"{getattr(frame, 'shape', type(frame).__name__)} "
                              f"{getattr(frame, 'dtype', '')}")
        if isinstance(frame_index, bool) or not isinstance(frame_index, int | np.integer) or frame_index < 0:
            raise SensorError(f"SensorTrack.apply: frame_index must be an integer >= 0, not {frame_index}")


class _AutoExposure:
    """A second-order loop (damping 0.45: it overshoots) steering gain so the scene's mean stays put."""

    def __init__(self, response_s: float, strength: float) -> None:
        self.response_s = response_s
        self.strength = strength
        self.reference = 0.0
        self.gain = 1.0
        self.velocity = 0.0

    def step(self, scene_mean: float, dt: float, restart: bool) -> float:
        if self.strength <= 0:
            return 1.0
        scene_mean = max(scene_mean, 1.0)
        if restart:
            if self.reference <= 0:
                self.reference = scene_mean
            self.gain = float(np.clip(self.reference / scene_mean, 0.5, 2.0))
            self.velocity = 0.0
        else:
            target = float(np.clip(self.reference / scene_mean, 0.5, 2.0))
            omega = 2 * math.pi / self.response_s
            damping = 0.45
            substeps = 4
            h = dt / substeps
            for _ in range(substeps):
                accel = omega ** 2 * (target - self.gain) - 2 * damping * omega * self.velocity
                self.velocity += accel * h
                self.gain += self.velocity * h
        return 1.0 + self.strength * (self.gain - 1.0)


def _draw(settings: SensorSettings, rng: np.random.Generator) -> LightDraw:
    def pick(pair: tuple[float, float]) -> float:
        return float(rng.uniform(pair[0], pair[1])) if pair[1] > pair[0] else float(pair[0])

    # Exposure and readout are drawn on a log scale: 1/250 s and 1/30 s are equally likely.
    exposure = math.exp(pick((math.log(settings.exposure_s[0]), math.log(settings.exposure_s[1]))))
    return LightDraw(
        kelvin=pick(settings.light_kelvin),
        awb_correction=pick(settings.awb_correction),
        mains_hz=settings.mains_hz + pick((-settings.mains_drift_hz, settings.mains_drift_hz)),
        flicker_depth=pick(settings.flicker_depth),
        flicker_phase=float(rng.uniform(0, 2 * math.pi)),
        exposure_s=exposure,
        readout_s=pick(settings.readout_s),
        vignette=pick(settings.vignette),
        noise_sigma=pick(settings.noise_sigma),
        noise_shot=pick(settings.noise_shot),
        contrast=pick(settings.contrast),
        jpeg_quality=round(pick((float(settings.jpeg_quality[0]), float(settings.jpeg_quality[1])))),
        ae_response_s=pick((0.6, 1.4)),
        defocus_px=pick(settings.defocus_px),
    )


def _noise_bank(rng: np.random.Generator, width: int, height: int) -> tuple[np.ndarray, ...]:
    """Two noise fields a little larger than the frame, about unit variance per channel.

    Mostly luminance noise (the same in the three channels), plus weaker colour noise in 2x2 blotches
    as a demosaicing camera makes (the convention of ``vision.photometric.sensor_noise``).
    """
    bank = []
    rows, columns = height + NOISE_BANK_PAD, width + NOISE_BANK_PAD
    for _ in range(2):
        luma = rng.standard_normal((rows, columns, 1), dtype=np.float32)
        chroma = rng.standard_normal(((rows + 1) // 2, (columns + 1) // 2, 3), dtype=np.float32) * 0.5
        blotches = cv2.resize(chroma, (columns, rows), interpolation=cv2.INTER_LINEAR)
        mixed = luma + blotches / max(float(blotches.std()), 1e-6) * 0.5
        bank.append((mixed / float(mixed.std())).astype(np.float32))
    return tuple(bank)


def _check_size(frame_size: tuple[int, int]) -> tuple[int, int]:
    is_whole = all(isinstance(v, int | np.integer) and 8 <= v <= 8192 for v in frame_size)
    if len(frame_size) != 2 or not is_whole:
        raise SensorError(f"SensorTrack: frame_size must be (width, height), 8..8192 px, got {frame_size}")
    return int(frame_size[0]), int(frame_size[1])


# ---------------------------------------------------------------- motion blur helpers

def motion_blur(image: np.ndarray, displacement: tuple[float, float]) -> np.ndarray:
    """``image`` (BGR uint8) smeared along the ``(dx, dy)`` pixels it moved during the exposure."""
    length = math.hypot(*displacement)
    angle = math.degrees(math.atan2(displacement[1], displacement[0]))
    return photometric_motion_blur(image, length, angle)


def line_kernel(displacement: tuple[float, float]) -> np.ndarray:
    """Normalised anti-aliased line kernel of the motion ``(dx, dy)`` in pixels, odd-sized and centred."""
    dx, dy = displacement
    half = math.ceil(max(abs(dx), abs(dy)) / 2)
    size = 2 * half + 1
    kernel = np.zeros((size, size), np.float32)
    start = (round((half - dx / 2) * 16), round((half - dy / 2) * 16))
    end = (round((half + dx / 2) * 16), round((half + dy / 2) * 16))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA, 4)
    total = float(kernel.sum())
    if total <= 0:
        kernel[half, half] = 1.0
        return kernel
    return kernel / total


def blur_layer(
    colour: np.ndarray, alpha: np.ndarray, displacement: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """Motion-blur a layer with coverage: colour (h, w, 3) float32 and alpha (h, w) 0..1 -> blurred pair.

    The colour is blurred premultiplied by alpha so a moving hand's edge fades into what lies behind it
    instead of into black. The layer should have a margin of ``|displacement|`` pixels around its content.
    """
    length = math.hypot(*displacement)
    if length >= 8.0:
        # A long smear hides fine detail anyway: blur a half-size copy with a half-length kernel.
        height, width = alpha.shape
        small_size = (max(1, width // 2), max(1, height // 2))
        packed = cv2.merge([*cv2.split(colour * alpha[..., None]), alpha])
        small = cv2.resize(packed, small_size, interpolation=cv2.INTER_AREA)
        small = cv2.filter2D(small, -1, line_kernel((displacement[0] / 2, displacement[1] / 2)),
                             borderType=cv2.BORDER_CONSTANT)
        blurred = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
        premultiplied, blurred_alpha = blurred[..., :3], blurred[..., 3]
    else:
        kernel = line_kernel(displacement)
        blurred_alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        premultiplied = cv2.filter2D(colour * alpha[..., None], -1, kernel, borderType=cv2.BORDER_CONSTANT)
    safe = np.maximum(blurred_alpha, 1e-4)[..., None]
    return premultiplied / safe, np.clip(blurred_alpha, 0.0, 1.0)
