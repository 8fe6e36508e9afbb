"""Procedural table surfaces: felt, wood and tablecloths, drawn once per clip.

Contract: ``make_surface(kind, width, height, rng)`` returns a BGR uint8 image of exactly
``height x width`` pixels, a pure function of ``kind``, the size and the state of ``rng``
(the same seed gives the same table). ``kind`` is one of ``SURFACE_KINDS``. Sizes are read
as the table top seen from straight above; feature sizes (fibres, planks, checks) scale with
the image so a 640x360 and a 1280x720 table look alike. The camera warp is the caller's job.

Cost: a few hundred milliseconds at 1280x720 on one core, so it belongs in the per-clip setup,
never in the frame loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import VisionError

SURFACE_KINDS: tuple[str, ...] = (
    "felt_green", "felt_blue", "felt_red",
    "wood_light", "wood_dark",
    "cloth_checks", "cloth_stripes", "cloth_damask", "cloth_floral",
)

MAX_SIDE = 8192

FELT_BASES_BGR: dict[str, tuple[int, int, int]] = {
    "felt_green": (52, 112, 30),
    "felt_blue": (112, 62, 22),
    "felt_red": (38, 34, 128),
}
WOOD_BASES_BGR: dict[str, tuple[tuple[int, int, int], ...]] = {
    "wood_light": ((96, 150, 198), (80, 134, 186), (110, 160, 206)),   # oak, beech, pine
    "wood_dark": ((44, 66, 104), (36, 52, 88), (42, 62, 118)),          # walnut, dark oak, cherry
}
CLOTH_COLOURS_BGR: tuple[tuple[int, int, int], ...] = (
    (40, 40, 170),    # red
    (120, 60, 30),    # navy
    (50, 110, 40),    # green
    (40, 140, 200),   # ochre
    (110, 50, 110),   # plum
)
CLOTH_LIGHTS_BGR: tuple[tuple[int, int, int], ...] = ((236, 240, 242), (208, 228, 236), (224, 232, 230))


class SurfaceError(VisionError):
    """A surface request that cannot be drawn: unknown kind, bad size or no random generator."""


def make_surface(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """The table top of ``kind`` as a ``height x width`` BGR uint8 image, deterministic from ``rng``."""
    if kind not in _PAINTERS:
        raise SurfaceError(f"unknown surface kind {kind!r}; known kinds: {', '.join(SURFACE_KINDS)}")
    _check_size(width, height)
    if not isinstance(rng, np.random.Generator):
        raise SurfaceError(f"make_surface needs a numpy.random.Generator, got {type(rng).__name__}")
    image = _PAINTERS[kind](kind, width, height, rng)
    return np.clip(image, 0, 255).astype(np.uint8)


def _check_size(width: object, height: object) -> None:
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise SurfaceError(f"surface {name} must be an integer number of pixels, got {value!r}")
        if not 8 <= value <= MAX_SIDE:
            raise SurfaceError(f"surface {name} must be between 8 and {MAX_SIDE} pixels, got {value}")


# ---------------------------------------------------------------- noise helpers

def smooth_noise(rng: np.random.Generator, width: int, height: int, cell: float) -> np.ndarray:
    """Zero-mean, unit-ish noise varying over about ``cell`` pixels, as float32 ``height x width``."""
    cell = max(cell, 1.0)
    grid_w = max(2, math.ceil(width / cell) + 2)
    grid_h = max(2, math.ceil(height / cell) + 2)
    grid = rng.standard_normal((grid_h, grid_w)).astype(np.float32)
    big = cv2.resize(grid, (round(grid_w * cell), round(grid_h * cell)), interpolation=cv2.INTER_CUBIC)
    offset_y = int(rng.integers(0, max(1, big.shape[0] - height + 1)))
    offset_x = int(rng.integers(0, max(1, big.shape[1] - width + 1)))
    return big[offset_y:offset_y + height, offset_x:offset_x + width]


def fractal_noise(rng: np.random.Generator, width: int, height: int, cells: tuple[float, ...]) -> np.ndarray:
    """Sum of ``smooth_noise`` octaves, halving the amplitude at each finer cell size."""
    total = np.zeros((height, width), np.float32)
    amplitude = 1.0
    for cell in cells:
        total += amplitude * smooth_noise(rng, width, height, cell)
        amplitude *= 0.5
    return total


def _streaks(rng: np.random.Generator, width: int, height: int, length: int, angle_deg: float,
             density: float) -> np.ndarray:
    """Sparse random dots smeared into short straight fibres at ``angle_deg``."""
    dots = (rng.random((height, width), dtype=np.float32) < density).astype(np.float32)
    dots *= rng.standard_normal((height, width), dtype=np.float32)
    kernel = np.zeros((length, length), np.float32)
    centre = (length - 1) / 2
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    cv2.line(kernel, (round(centre - dx * centre), round(centre - dy * centre)),
             (round(centre + dx * centre), round(centre + dy * centre)), 1.0, 1, cv2.LINE_AA)
    return cv2.filter2D(dots, -1, kernel / max(kernel.sum(), 1e-6) * 3.0)


def _jitter_colour(rng: np.random.Generator, bgr: tuple[int, int, int], spread: float) -> np.ndarray:
    factors = 1.0 + rng.uniform(-spread, spread, 3)
    brightness = 1.0 + rng.uniform(-spread, spread)
    return np.asarray(bgr, np.float32) * factors.astype(np.float32) * np.float32(brightness)


def _shade(base: np.ndarray, luminance: np.ndarray) -> np.ndarray:
    """``base`` (3,) or (h, w, 3) colour times a per-pixel brightness factor (h, w)."""
    return base * luminance[..., None]


# ---------------------------------------------------------------- felt

def _paint_felt(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Baize: one dyed colour, cloudy dye variation, short crossing fibres, fine fuzz, worn centre."""
    scale = min(width, height) / 720
    base = _jitter_colour(rng, FELT_BASES_BGR[kind], 0.08)
    mottling = fractal_noise(rng, width, height, (260 * scale, 90 * scale, 30 * scale))
    fibres = sum(
        _streaks(rng, width, height, max(3, round(9 * scale)) | 1, rng.uniform(0, 180), 0.05)
        for _ in range(3)
    )
    fuzz = rng.standard_normal((height, width), dtype=np.float32)
    fuzz = cv2.GaussianBlur(fuzz, (0, 0), 0.7)
    luminance = 1.0 + 0.035 * mottling + 0.05 * fibres + 0.05 * fuzz
    # Play wears the middle of the cloth slightly lighter and flatter.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    centre_x = width * rng.uniform(0.4, 0.6)
    centre_y = height * rng.uniform(0.4, 0.6)
    radius = 0.35 * min(width, height)
    wear = np.exp(-(((xx - centre_x) ** 2 + (yy - centre_y) ** 2) / (2 * radius ** 2)))
    luminance += 0.04 * wear
    image = _shade(base, luminance)
    # A little chroma noise: dye is not perfectly even.
    hue_drift = smooth_noise(rng, width, height, 150 * scale)
    image[..., 0] *= 1.0 + 0.03 * hue_drift
    image[..., 2] *= 1.0 - 0.03 * hue_drift
    return _sprinkle_lint(rng, image, scale)


def _sprinkle_lint(rng: np.random.Generator, image: np.ndarray, scale: float) -> np.ndarray:
    """Pale lint and the odd dark crumb caught in the nap, a few per 100 x 100 pixels."""
    height, width = image.shape[:2]
    specks = np.zeros((height, width), np.float32)
    crumbs = np.zeros((height, width), np.float32)
    for _ in range(int(height * width / 3500)):
        target = specks if rng.random() < 0.8 else crumbs
        centre = (int(rng.integers(width)), int(rng.integers(height)))
        if rng.random() < 0.5:
            cv2.circle(target, centre, max(1, round(rng.uniform(0.4, 1.2) * scale)), 1.0, -1, cv2.LINE_AA)
        else:   # a short curled fibre
            angle = rng.uniform(0, 2 * math.pi)
            length = rng.uniform(3, 9) * scale
            end = (round(centre[0] + math.cos(angle) * length), round(centre[1] + math.sin(angle) * length))
            cv2.line(target, centre, end, 1.0, 1, cv2.LINE_AA)
    strength = rng.uniform(0.25, 0.55)
    specks = (specks * strength)[..., None]
    crumbs = (crumbs * strength)[..., None]
    lint = np.float32([205, 208, 210])
    return image * (1 - specks - crumbs) + lint * specks + image * 0.35 * crumbs


# ---------------------------------------------------------------- wood

def _paint_wood(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Planks along x, some joined end to end: each board its own rings, tone and knots; varnish on top."""
    scale = min(width, height) / 720
    palette = WOOD_BASES_BGR[kind]
    base = _jitter_colour(rng, palette[int(rng.integers(len(palette)))], 0.06)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    boards = _Boards.lay(rng, width, height, yy, xx)
    rings = _growth_rings(rng, boards, yy, xx, scale)
    # Long fibres: noise stretched 40:1 along the grain.
    fibres = cv2.resize(rng.standard_normal((height, max(2, width // 40))).astype(np.float32),
                        (width, height), interpolation=cv2.INTER_LINEAR)
    fine = cv2.GaussianBlur(rng.standard_normal((height, width), dtype=np.float32), (0, 0), 0.6)
    tone = (1.0 + rng.uniform(-0.12, 0.12, boards.count)).astype(np.float32)
    luminance = tone[boards.index] * (1.0 + 0.22 * rings + 0.06 * fibres + 0.025 * fine)
    luminance[boards.gaps(yy, xx, max(1.0, 1.6 * scale))] *= 0.45
    luminance = cv2.GaussianBlur(luminance, (0, 0), 0.6 * max(scale, 0.5))
    image = _shade(base, luminance)
    # Varnish: a broad soft sheen from the room light.
    light_x, light_y = width * rng.uniform(0.2, 0.8), height * rng.uniform(0.2, 0.8)
    sheen = np.exp(-(((xx - light_x) ** 2) / (2 * (0.35 * width) ** 2)
                     + ((yy - light_y) ** 2) / (2 * (0.3 * height) ** 2)))
    image += (rng.uniform(18, 38) * sheen)[..., None]
    return _scratch(rng, image, scale)


def _scratch(rng: np.random.Generator, image: np.ndarray, scale: float) -> np.ndarray:
    """Fine pale scratches in the varnish, mostly along the grain, from years of dealt cards."""
    height, width = image.shape[:2]
    marks = np.zeros((height, width), np.float32)
    for _ in range(int(rng.integers(8, 30) * width * height / (1280 * 720))):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        angle = rng.normal(0.0, 0.35) if rng.random() < 0.7 else rng.uniform(0, math.pi)
        length = rng.uniform(15, 90) * scale
        dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
        cv2.line(marks, (round(x - dx), round(y - dy)), (round(x + dx), round(y + dy)),
                 float(rng.uniform(0.3, 1.0)), 1, cv2.LINE_AA)
    return image + (marks * 22.0)[..., None]


@dataclass(frozen=True)
class _Boards:
    """Planks of ``plank_width`` running along x; a plank with a butt joint at ``joint_x`` is two boards.

    ``index`` (h, w) numbers the board under each pixel: plank * 2, or plank * 2 + 1 past the joint.
    """

    plank_width: float
    plank_offset: float
    plank: np.ndarray
    joint_x: np.ndarray
    index: np.ndarray

    @classmethod
    def lay(cls, rng: np.random.Generator, width: int, height: int, yy: np.ndarray,
            xx: np.ndarray) -> _Boards:
        plank_width = height / rng.uniform(3.5, 6.5)
        plank_offset = rng.uniform(0, plank_width)
        plank = np.floor((yy + plank_offset) / plank_width).astype(np.int32)
        plank -= plank.min()
        planks = int(plank.max()) + 1
        has_joint = rng.random(planks) < 0.5
        joint_x = np.where(has_joint, rng.uniform(0.15, 0.85, planks) * width, 2.0 * width).astype(np.float32)
        index = plank * 2 + (xx >= joint_x[plank])
        return cls(plank_width, plank_offset, plank, joint_x, index)

    @property
    def count(self) -> int:
        return int(self.index.max()) + 1

    def gaps(self, yy: np.ndarray, xx: np.ndarray, gap: float) -> np.ndarray:
        """Pixels on the joints: along every plank's edge and across the butt joints."""
        from_middle = np.abs(((yy + self.plank_offset) % self.plank_width) - self.plank_width / 2)
        along_edge = from_middle > self.plank_width / 2 - gap
        return along_edge | (np.abs(xx - self.joint_x[self.plank]) < gap / 2 + 0.5)


def _growth_rings(rng: np.random.Generator, boards: _Boards, yy: np.ndarray, xx: np.ndarray,
                  scale: float) -> np.ndarray:
    """Ring brightness -1..1 per pixel: flat-sawn boards show rings as the contours of a log cut off its
    axis, long arches ("cathedrals") round a pith line that may lie outside the board, bent by knots."""
    height, width = yy.shape
    count = boards.count
    board = boards.index
    ring_spacing = (rng.uniform(7, 16, count) * scale).astype(np.float32)
    pith_in_planks = boards.plank + 0.5 + rng.uniform(-1.2, 1.2, count)[board]
    pith_y = pith_in_planks * boards.plank_width - boards.plank_offset
    arch_x = rng.uniform(0, width, count).astype(np.float32)
    arch = rng.uniform(0.04, 0.14, count).astype(np.float32)
    shift = rng.uniform(0, width, count).astype(np.float32)
    warp_field = fractal_noise(rng, width * 2, height, (350 * scale, 110 * scale)) * 8 * scale
    warp_x = np.clip(xx + shift[board], 0, warp_field.shape[1] - 1).astype(np.int32)
    warp = warp_field[yy.astype(np.int32), warp_x]
    radius = np.sqrt((yy - pith_y) ** 2 + (arch[board] * (xx - arch_x[board])) ** 2) + warp
    knot_cores = _add_knots(rng, radius, int(rng.integers(0, count // 2 + 2)), scale)
    phase = (radius / ring_spacing[board]) % 1.0
    # Each ring: pale earlywood fading into a narrow dark latewood band.
    rings = 0.6 * phase ** 3 - 0.25 + 0.5 * np.exp(-(((phase - 0.93) / 0.05) ** 2))
    return -rings - 2.5 * knot_cores


def _add_knots(rng: np.random.Generator, radius: np.ndarray, count: int, scale: float) -> np.ndarray:
    """Bend the rings in ``radius`` (in place) round ``count`` knots; return each knot's dark core 0..1."""
    height, width = radius.shape
    cores = np.zeros_like(radius)
    for _ in range(count):
        size = rng.uniform(6, 14) * scale
        centre_x, centre_y = rng.uniform(0, width), rng.uniform(0, height)
        reach = int(6 * size) + 1
        x0, x1 = max(0, int(centre_x) - reach), min(width, int(centre_x) + reach)
        y0, y1 = max(0, int(centre_y) - reach), min(height, int(centre_y) + reach)
        if x1 <= x0 or y1 <= y0:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        # Knots are stretched along the grain (x) by the board's sawing.
        distance2 = ((xs - centre_x) / 1.8) ** 2 + (ys - centre_y) ** 2
        radius[y0:y1, x0:x1] += 3.0 * size * np.exp(-distance2 / (2 * (1.6 * size) ** 2))
        cores[y0:y1, x0:x1] += np.exp(-distance2 / (2 * (0.45 * size) ** 2))
    return np.clip(cores, 0.0, 1.0)


# ---------------------------------------------------------------- tablecloths

def _cloth_texture(rng: np.random.Generator, width: int, height: int, scale: float) -> np.ndarray:
    """Brightness factor of woven cloth: a fine weave, soft folds and slight uneven dye."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    period = max(2.2, 3.0 * scale)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    folds = fractal_noise(rng, width, height, (300 * scale, 140 * scale))
    # Creases from being folded in a drawer: faint straight lines at fractions of the cloth.
    crease = np.zeros((height, width), np.float32)
    for fraction in (1 / 3, 2 / 3):
        distance = np.abs(xx - width * (fraction + rng.uniform(-0.03, 0.03)))
        crease += np.exp(-(distance ** 2) / (2 * (3 * scale + 1) ** 2))
    crease_y = np.abs(yy - height * rng.uniform(0.45, 0.55))
    crease += np.exp(-(crease_y ** 2) / (2 * (3 * scale + 1) ** 2))
    return 1.0 + 0.035 * weave + 0.04 * folds + 0.03 * crease


def _warped_grid(
    rng: np.random.Generator, width: int, height: int, scale: float
) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates nudged a few pixels by smooth noise: a cloth is never laid perfectly straight."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    shift = 5 * scale
    return (xx + shift * smooth_noise(rng, width, height, 220 * scale),
            yy + shift * smooth_noise(rng, width, height, 220 * scale))


def _paint_checks(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Gingham: a light ground crossed by coloured bands both ways; the crossings are darkest."""
    scale = min(width, height) / 720
    colour = _jitter_colour(rng, CLOTH_COLOURS_BGR[int(rng.integers(len(CLOTH_COLOURS_BGR)))], 0.08)
    light = _jitter_colour(rng, CLOTH_LIGHTS_BGR[int(rng.integers(len(CLOTH_LIGHTS_BGR)))], 0.02)
    period = rng.uniform(40, 90) * scale
    xx, yy = _warped_grid(rng, width, height, scale)
    soft = max(0.6, 0.8 * scale)
    band_x = _soft_band(xx, period, soft)
    band_y = _soft_band(yy, period, soft)
    cover = 0.5 * (band_x + band_y)
    image = light * (1 - cover[..., None]) + colour * cover[..., None]
    return _shade(image, _cloth_texture(rng, width, height, scale))


def _soft_band(coord: np.ndarray, period: float, soft: float) -> np.ndarray:
    """1 inside the first half of each period, 0 in the second, with anti-aliased edges."""
    phase = (coord % period) - period / 2
    edge = np.minimum(np.abs(phase), np.abs(np.abs(phase) - period / 2))
    inside = (phase < 0).astype(np.float32)
    blend = np.clip(edge / soft, 0, 1)
    return inside * blend + 0.5 * (1 - blend)


def _paint_stripes(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Woven stripes: a repeating sequence of bands of two or three colours on a light ground."""
    scale = min(width, height) / 720
    light = _jitter_colour(rng, CLOTH_LIGHTS_BGR[int(rng.integers(len(CLOTH_LIGHTS_BGR)))], 0.02)
    picks = rng.choice(len(CLOTH_COLOURS_BGR), size=2, replace=False)
    colours = [light] + [_jitter_colour(rng, CLOTH_COLOURS_BGR[int(p)], 0.08) for p in picks]
    widths = rng.uniform(6, 40, int(rng.integers(4, 8))) * scale
    # Light ground between coloured bands: every other band is a colour, never the ground.
    sequence = rng.integers(1, len(colours), widths.size)
    sequence[::2] = 0
    xx, yy = _warped_grid(rng, width, height, scale)
    angle = math.radians(float(rng.choice([0.0, 90.0, 45.0, 0.0])))
    along = xx * math.cos(angle) + yy * math.sin(angle)
    edges = np.concatenate([[0.0], np.cumsum(widths)])
    position = along % edges[-1]
    band = np.clip(np.searchsorted(edges, position, side="right") - 1, 0, widths.size - 1)
    palette = np.stack(colours).astype(np.float32)
    image = palette[sequence[band]]
    image = cv2.GaussianBlur(image, (0, 0), max(0.6, 0.7 * scale))
    return _shade(image, _cloth_texture(rng, width, height, scale))


def _paint_damask(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Tone-on-tone damask: a woven motif slightly lighter than the ground, on a diamond lattice."""
    scale = min(width, height) / 720
    grounds = ((200, 214, 226), (36, 30, 110), (90, 40, 24), (40, 80, 40))
    ground = _jitter_colour(rng, grounds[int(rng.integers(len(grounds)))], 0.05)
    tile = _motif_tile(rng, round(rng.uniform(110, 170) * scale), floral=False)
    motif = _tile_over(rng, tile, width, height, scale)
    motif_colour = ground * np.float32(1.18 if ground.mean() < 150 else 0.9)
    image = ground * (1 - motif[..., None]) + motif_colour * motif[..., None]
    return _shade(image, _cloth_texture(rng, width, height, scale))


def _paint_floral(kind: str, width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Printed cotton: small coloured flowers with leaves scattered on a lattice over a light ground."""
    scale = min(width, height) / 720
    light = _jitter_colour(rng, CLOTH_LIGHTS_BGR[int(rng.integers(len(CLOTH_LIGHTS_BGR)))], 0.02)
    petal = _jitter_colour(rng, CLOTH_COLOURS_BGR[int(rng.integers(len(CLOTH_COLOURS_BGR)))], 0.1)
    leaf = _jitter_colour(rng, (60, 120, 60), 0.1)
    size = round(rng.uniform(50, 90) * scale)
    petals = _tile_over(rng, _motif_tile(rng, size, floral=True), width, height, scale)
    leaves = _tile_over(rng, _leaf_tile(rng, size), width, height, scale)
    image = np.broadcast_to(light, (height, width, 3)).astype(np.float32)
    image = image * (1 - leaves[..., None]) + leaf * leaves[..., None]
    image = image * (1 - petals[..., None]) + petal * petals[..., None]
    return _shade(image, _cloth_texture(rng, width, height, scale))


def _motif_tile(rng: np.random.Generator, size: int, floral: bool) -> np.ndarray:
    """One square repeat of the pattern as coverage 0..1: a rosette in the middle, buds in the corners."""
    size = max(size, 16)
    tile = np.zeros((size, size), np.float32)
    centre = size / 2
    petals = int(rng.integers(5, 9))
    petal_len = size * (0.16 if floral else 0.2)
    for index in range(petals):
        angle = 360 * index / petals
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.ellipse(tile, (round(centre + dx * petal_len), round(centre + dy * petal_len)),
                    (max(2, round(petal_len * 0.9)), max(1, round(petal_len * 0.38))), angle, 0, 360,
                    1.0, -1, cv2.LINE_AA)
    cv2.circle(tile, (round(centre), round(centre)), max(2, round(petal_len * 0.45)), 0.0, -1, cv2.LINE_AA)
    cv2.circle(tile, (round(centre), round(centre)), max(1, round(petal_len * 0.25)), 1.0, -1, cv2.LINE_AA)
    if not floral:
        # Scrolls and a lozenge between the rosettes: the classic damask lattice.
        ring = round(size * 0.42)
        cv2.ellipse(tile, (round(centre), round(centre)), (ring, ring), 45, 0, 360, 1.0, max(1, size // 40),
                    cv2.LINE_AA)
        for corner_x in (0, size):
            for corner_y in (0, size):
                diamond = np.array([[corner_x, corner_y - size * 0.1], [corner_x + size * 0.07, corner_y],
                                    [corner_x, corner_y + size * 0.1], [corner_x - size * 0.07, corner_y]])
                cv2.fillConvexPoly(tile, np.round(diamond).astype(np.int32), 1.0, cv2.LINE_AA)
    return tile


def _leaf_tile(rng: np.random.Generator, size: int) -> np.ndarray:
    size = max(size, 16)
    tile = np.zeros((size, size), np.float32)
    centre = size / 2
    for angle in rng.uniform(0, 360, 2):
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.ellipse(tile, (round(centre + dx * size * 0.3), round(centre + dy * size * 0.3)),
                    (max(2, round(size * 0.14)), max(1, round(size * 0.05))), float(angle), 0, 360,
                    1.0, -1, cv2.LINE_AA)
    return tile


def _tile_over(
    rng: np.random.Generator, tile: np.ndarray, width: int, height: int, scale: float
) -> np.ndarray:
    """Repeat ``tile`` over the image, every other row shifted half a tile, gently warped like cloth."""
    size = tile.shape[0]
    double = np.vstack([tile, np.roll(tile, size // 2, axis=1)])
    reps_y = math.ceil(height / double.shape[0]) + 2
    reps_x = math.ceil(width / size) + 2
    big = np.tile(double, (reps_y, reps_x))
    xx, yy = _warped_grid(rng, width, height, scale)
    xx += rng.uniform(0, size)
    yy += rng.uniform(0, size)
    return cv2.remap(big, xx, yy, cv2.INTER_LINEAR)


_Painter = Callable[[str, int, int, np.random.Generator], np.ndarray]

_PAINTERS: dict[str, _Painter] = {
    "felt_green": _paint_felt,
    "felt_blue": _paint_felt,
    "felt_red": _paint_felt,
    "wood_light": _paint_wood,
    "wood_dark": _paint_wood,
    "cloth_checks": _paint_checks,
    "cloth_stripes": _paint_stripes,
    "cloth_damask": _paint_damask,
    "cloth_floral": _paint_floral,
}
