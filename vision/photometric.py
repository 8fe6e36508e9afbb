"""Light and sensor effects on BGR uint8 images, for synthetic training crops and rendered scenes.

Every effect is a pure function of the image and explicit parameters; the random ones take an
explicit ``numpy.random.Generator``. ``sample_effects(rng)`` draws one plausible combination (a
room's light, a camera's sensor and its compression) and ``apply_effects(image, effects, rng)``
applies it, so a scene renderer can keep one light for a whole clip and vary only the noise.

Conventions: images are HxWx3 BGR uint8; a *temperature* runs from -1 (candle-warm, red up, blue
down) through 0 (neutral) to +1 (cold daylight, blue up); *exposure* is a linear gain (0.5 is one
stop under, 2.0 one stop over).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import VisionError


class PhotometricError(VisionError):
    """An effect called with an image or a parameter it cannot use."""


def _check_image(image: np.ndarray, effect: str) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        dtype = getattr(image, "dtype", None)
        raise PhotometricError(
            f"{effect}: expected an HxWx3 uint8 BGR image, got shape {shape}, dtype {dtype}"
        )


def _to_uint8(values: np.ndarray) -> np.ndarray:
    return np.clip(values + 0.5, 0, 255).astype(np.uint8)


def white_balance(image: np.ndarray, temperature: float, tint: float = 0.0) -> np.ndarray:
    """Colour cast of the light: ``temperature`` -1 candle .. +1 daylight; ``tint`` -1 magenta .. +1 green.

    Warm light raises red and lowers blue; cold light does the opposite. Gains stay within about
    x0.55 .. x1.45 at the extremes, as a camera with a fixed white balance would record.
    """
    _check_image(image, "white_balance")
    if not -1.0 <= temperature <= 1.0 or not -1.0 <= tint <= 1.0:
        raise PhotometricError(f"white_balance: temperature, tint not in -1..1: {temperature}, {tint}")
    blue = 1.0 + 0.45 * temperature
    red = 1.0 - 0.45 * temperature
    green = 1.0 + 0.15 * tint
    levels = np.arange(256, dtype=np.float32)
    tables = [_to_uint8(levels * gain) for gain in (blue, green, red)]
    channels = [cv2.LUT(image[:, :, i], tables[i]) for i in range(3)]
    return cv2.merge(channels)


def exposure(image: np.ndarray, gain: float) -> np.ndarray:
    """Under- (gain < 1) or over-exposure (gain > 1): a linear gain in linear light, clipped like a sensor."""
    _check_image(image, "exposure")
    if gain <= 0:
        raise PhotometricError(f"exposure: gain must be positive, got {gain}")
    linear = (np.arange(256, dtype=np.float32) / 255.0) ** 2.2
    table = _to_uint8(np.clip(linear * gain, 0.0, 1.0) ** (1 / 2.2) * 255.0)
    return cv2.LUT(image, table)


def gamma(image: np.ndarray, value: float) -> np.ndarray:
    """Tone curve ``out = in ** value``: above 1 darkens the mid-tones, below 1 lifts them."""
    _check_image(image, "gamma")
    if value <= 0:
        raise PhotometricError(f"gamma: value must be positive, got {value}")
    table = _to_uint8((np.arange(256, dtype=np.float32) / 255.0) ** value * 255.0)
    return cv2.LUT(image, table)


def contrast(image: np.ndarray, factor: float, saturation: float = 1.0) -> np.ndarray:
    """Scale contrast around mid-grey by ``factor`` and colour saturation by ``saturation``."""
    _check_image(image, "contrast")
    if factor < 0 or saturation < 0:
        raise PhotometricError(f"contrast: factor and saturation must be >= 0, got {factor}, {saturation}")
    values = image.astype(np.float32)
    grey = values.mean(axis=2, keepdims=True)
    values = grey + (values - grey) * saturation
    return _to_uint8((values - 128.0) * factor + 128.0)


def defocus_blur(image: np.ndarray, radius: float) -> np.ndarray:
    """Out-of-focus blur: a disc kernel of ``radius`` pixels (0 leaves the image unchanged)."""
    _check_image(image, "defocus_blur")
    if radius < 0:
        raise PhotometricError(f"defocus_blur: radius must be >= 0, got {radius}")
    if radius < 0.3:
        return image.copy()
    size = int(np.ceil(radius)) * 2 + 1
    kernel = np.zeros((size, size), np.float32)
    cv2.circle(kernel, (size // 2, size // 2), max(1, round(radius)), 1.0, -1, lineType=cv2.LINE_AA)
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)


def motion_blur(image: np.ndarray, length: float, angle_degrees: float) -> np.ndarray:
    """Blur along a line of ``length`` pixels at ``angle_degrees`` (a hand or the camera moving)."""
    _check_image(image, "motion_blur")
    if length < 0:
        raise PhotometricError(f"motion_blur: length must be >= 0, got {length}")
    if length < 1.0:
        return image.copy()
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size / 2 - 0.5
    dx = np.cos(np.radians(angle_degrees)) * (length - 1) / 2
    dy = np.sin(np.radians(angle_degrees)) * (length - 1) / 2
    start = (round((centre - dx) * 16), round((centre - dy) * 16))
    end = (round((centre + dx) * 16), round((centre + dy) * 16))
    cv2.line(kernel, start, end, 1.0, 1, lineType=cv2.LINE_AA, shift=4)
    kernel /= max(kernel.sum(), 1e-6)
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)


def sensor_noise(image: np.ndarray, rng: np.random.Generator, sigma: float, shot: float = 0.0) -> np.ndarray:
    """Additive read noise of ``sigma`` levels plus signal-dependent shot noise (``shot`` * sqrt(level))."""
    _check_image(image, "sensor_noise")
    if sigma < 0 or shot < 0:
        raise PhotometricError(f"sensor_noise: sigma and shot must be >= 0, got {sigma}, {shot}")
    values = image.astype(np.float32)
    spread = sigma + shot * np.sqrt(values)
    height, width = image.shape[:2]
    # Mostly luminance noise, with coarser colour noise as a demosaicing camera makes.
    noise = rng.standard_normal((height, width, 1), dtype=np.float32)
    chroma = rng.standard_normal(((height + 1) // 2, (width + 1) // 2, 3), dtype=np.float32) * 0.5
    noise = noise + cv2.resize(chroma, (width, height), interpolation=cv2.INTER_NEAREST)
    return _to_uint8(values + noise * spread)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """Round-trip through JPEG at ``quality`` 1..100 (blocking and ringing of a cheap camera stream)."""
    _check_image(image, "jpeg")
    if not 1 <= quality <= 100:
        raise PhotometricError(f"jpeg: quality must lie in 1..100, got {quality}")
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise PhotometricError(f"jpeg: OpenCV could not encode an image of shape {image.shape}")
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def glare(
    image: np.ndarray, centre: tuple[float, float], radius: float, strength: float
) -> np.ndarray:
    """A specular hot spot from a lamp on glossy card: brightens towards white around ``centre``.

    ``centre`` is (x, y) in pixels, ``radius`` the Gaussian spread in pixels, ``strength`` 0..1
    the blend towards white at the centre.
    """
    _check_image(image, "glare")
    if radius <= 0 or not 0.0 <= strength <= 1.0:
        raise PhotometricError(f"glare: radius must be > 0 and strength in 0..1, got {radius}, {strength}")
    height, width = image.shape[:2]
    ys, xs = np.ogrid[:height, :width]
    distance2 = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2
    weight = (strength * np.exp(-distance2 / (2.0 * radius**2))).astype(np.float32)[:, :, None]
    values = image.astype(np.float32)
    return _to_uint8(values + (255.0 - values) * weight)


def shadow(image: np.ndarray, polygon: np.ndarray, darkness: float, softness: float = 0.0) -> np.ndarray:
    """Darken inside ``polygon`` (Kx2 pixels) by ``darkness`` 0..1, edges soft over ``softness`` px."""
    _check_image(image, "shadow")
    if not 0.0 <= darkness <= 1.0 or softness < 0:
        raise PhotometricError(f"shadow: darkness must be in 0..1, softness >= 0, got {darkness}, {softness}")
    points = np.asarray(polygon, np.float32).reshape(-1, 2)
    if len(points) < 3:
        raise PhotometricError(f"shadow: the polygon needs 3 or more points, got {len(points)}")
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(points * 16).astype(np.int32)], 1.0, lineType=cv2.LINE_AA, shift=4)
    if softness >= 0.5:
        mask = cv2.GaussianBlur(mask, (0, 0), softness)
    factor = 1.0 - darkness * mask[:, :, None]
    return _to_uint8(image.astype(np.float32) * factor)


def vignette(image: np.ndarray, strength: float) -> np.ndarray:
    """Uneven light: the image darkens towards its corners by up to ``strength`` 0..1."""
    _check_image(image, "vignette")
    if not 0.0 <= strength <= 1.0:
        raise PhotometricError(f"vignette: strength must lie in 0..1, got {strength}")
    height, width = image.shape[:2]
    ys = np.linspace(-1.0, 1.0, height, dtype=np.float32)[:, None]
    xs = np.linspace(-1.0, 1.0, width, dtype=np.float32)[None, :]
    factor = 1.0 - strength * np.clip((xs**2 + ys**2) / 2.0, 0.0, 1.0)
    return _to_uint8(image.astype(np.float32) * factor[:, :, None])


@dataclass(frozen=True)
class Effects:
    """One draw of the light, optics and sensor; apply it with ``apply_effects``.

    Coordinates (glare centre, shadow polygon) are fractions 0..1 of the image's width and height
    so one draw fits images of any size.
    """

    temperature: float = 0.0
    tint: float = 0.0
    exposure_gain: float = 1.0
    gamma_value: float = 1.0
    contrast_factor: float = 1.0
    saturation: float = 1.0
    defocus_radius: float = 0.0
    motion_length: float = 0.0
    motion_angle: float = 0.0
    noise_sigma: float = 0.0
    noise_shot: float = 0.0
    jpeg_quality: int = 100
    glare_centre: tuple[float, float] | None = None
    glare_radius: float = 0.3
    glare_strength: float = 0.0
    shadow_polygon: tuple[tuple[float, float], ...] | None = None
    shadow_darkness: float = 0.0
    shadow_softness: float = 0.05
    vignette_strength: float = 0.0


def _chance(rng: np.random.Generator, probability: float) -> bool:
    return bool(rng.random() < probability)


def _sample_shadow(rng: np.random.Generator) -> tuple[tuple[float, float], ...]:
    """A shadow cast from outside the image (a hand, a head, a glass): a quadrilateral from one side."""
    side = int(rng.integers(4))
    depth = float(rng.uniform(0.15, 0.8))
    a, b = sorted(rng.uniform(-0.3, 1.3, size=2).tolist())
    tilt = float(rng.uniform(-0.3, 0.3))
    quad = [(a, -0.5), (b, -0.5), (b + tilt, depth), (a + tilt, depth)]
    rotations = {
        0: lambda x, y: (x, y),
        1: lambda x, y: (1.0 - y, x),
        2: lambda x, y: (1.0 - x, 1.0 - y),
        3: lambda x, y: (y, 1.0 - x),
    }
    return tuple(rotations[side](x, y) for x, y in quad)


def _sample_point(rng: np.random.Generator) -> tuple[float, float]:
    return float(rng.uniform(-0.2, 1.2)), float(rng.uniform(-0.2, 1.2))


def sample_effects(rng: np.random.Generator, strength: float = 1.0) -> Effects:
    """Draw one room light + camera: candle-warm..daylight, exposure, blur, noise, JPEG, glare, shadow.

    ``strength`` 0..1 scales how far the draw strays from a clean, neutral image (0 is no effect).
    """
    if not 0.0 <= strength <= 1.0:
        raise PhotometricError(f"sample_effects: strength must lie in 0..1, got {strength}")
    s = strength
    return Effects(
        temperature=float(np.clip(rng.normal(-0.15, 0.4) * s, -1.0, 1.0)),
        tint=float(np.clip(rng.normal(0.0, 0.2) * s, -1.0, 1.0)),
        exposure_gain=float(np.exp(rng.uniform(-1.2, 0.8) * s)),
        gamma_value=float(np.exp(rng.normal(0.0, 0.15) * s)),
        contrast_factor=float(np.exp(rng.uniform(-0.5, 0.25) * s)),
        saturation=float(np.exp(rng.uniform(-0.7, 0.3) * s)),
        defocus_radius=float(rng.uniform(0.0, 2.5) * s) if _chance(rng, 0.5) else 0.0,
        motion_length=float(rng.uniform(1.0, 7.0) * s) if _chance(rng, 0.2) else 0.0,
        motion_angle=float(rng.uniform(0.0, 180.0)),
        noise_sigma=float(rng.uniform(0.0, 6.0) * s),
        noise_shot=float(rng.uniform(0.0, 0.5) * s),
        jpeg_quality=round(100 - rng.uniform(0.0, 75.0) * s) if _chance(rng, 0.6) else 100,
        glare_centre=_sample_point(rng) if _chance(rng, 0.3 * s) else None,
        glare_radius=float(rng.uniform(0.1, 0.6)),
        glare_strength=float(rng.uniform(0.2, 0.85) * s),
        shadow_polygon=_sample_shadow(rng) if _chance(rng, 0.3 * s) else None,
        shadow_darkness=float(rng.uniform(0.2, 0.65) * s),
        shadow_softness=float(rng.uniform(0.0, 0.15)),
        vignette_strength=float(rng.uniform(0.0, 0.5) * s) if _chance(rng, 0.4) else 0.0,
    )


def apply_lighting(image: np.ndarray, effects: Effects) -> np.ndarray:
    """The scene's light only (glare, shadow, vignette, white balance, exposure): no optics or sensor yet."""
    _check_image(image, "apply_lighting")
    height, width = image.shape[:2]
    scale = float(max(height, width))
    out = image
    if effects.glare_centre is not None and effects.glare_strength > 0:
        centre = (effects.glare_centre[0] * width, effects.glare_centre[1] * height)
        out = glare(out, centre, effects.glare_radius * scale, effects.glare_strength)
    if effects.shadow_polygon is not None and effects.shadow_darkness > 0:
        polygon = np.array(effects.shadow_polygon, np.float32) * np.array([width, height], np.float32)
        out = shadow(out, polygon, effects.shadow_darkness, effects.shadow_softness * scale)
    if effects.vignette_strength > 0:
        out = vignette(out, effects.vignette_strength)
    out = white_balance(out, effects.temperature, effects.tint)
    return exposure(out, effects.exposure_gain)


def apply_camera(image: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    """The camera's optics and sensor: tone curve, blur, noise, then JPEG compression (in that order)."""
    _check_image(image, "apply_camera")
    out = contrast(image, effects.contrast_factor, effects.saturation)
    out = gamma(out, effects.gamma_value)
    out = defocus_blur(out, effects.defocus_radius)
    out = motion_blur(out, effects.motion_length, effects.motion_angle)
    if effects.noise_sigma > 0 or effects.noise_shot > 0:
        out = sensor_noise(out, rng, effects.noise_sigma, effects.noise_shot)
    if effects.jpeg_quality < 100:
        out = jpeg(out, effects.jpeg_quality)
    return out


def apply_effects(image: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    """Light then camera: ``apply_camera(apply_lighting(image))``; ``rng`` draws only the sensor noise."""
    return apply_camera(apply_lighting(image, effects), effects, rng)
