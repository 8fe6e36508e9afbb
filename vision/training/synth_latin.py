"""Procedural Italian-suited decks: many pip designs for training, drawn from a seed.

An unseen regional pattern fails where it draws spade, bastoni and their counts differently from the
eight patterns of ``../shared/cards`` (model card, "Where the unseen Italian patterns fail"). Each deck
written here is one consistent invented pattern: its own shapes and inks for coins, cups, swords and
clubs, its own layout family per suit (the southern columns of separate pieces, the crossed pieces of
the Spanish and Sicilian packs, the northern interlaced ovals of curved swords), its own paper, frame
and, for some, corner numerals. The number cards carry exactly as many pieces as their rank. The
figures (8, 9, 10) are a real training pattern's, one donor per deck, hue-turned, inside the deck's
frame: only the pips are invented.

``python -m vision.training.synth_latin --out DIR --decks N [--exclude STYLES]`` writes
``synth-latin-000`` .. into DIR (with links to the default artwork's styles, as ``pysol_decks``), so
``TRESSETTE_CARDS=DIR train --synth-share S`` trains on them.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.decks import SYNTH_LATIN_PREFIX, Deck, DeckError, find_cards_root, is_italian_style, list_styles
from vision.training.pysol_decks import link_styles

STYLE_PREFIX = SYNTH_LATIN_PREFIX
CARD_WIDTH = 276
CARD_HEIGHT = 460
SUPERSAMPLE = 2
FIGURE_RANKS = (8, 9, 10)

# Printing inks in BGR: the reds, blues, yellows, greens and browns of Italian packs.
INKS: tuple[tuple[int, int, int], ...] = (
    (40, 40, 200), (30, 30, 160), (180, 90, 30), (140, 50, 20), (40, 200, 240), (50, 170, 215),
    (60, 150, 50), (40, 100, 30), (40, 80, 140), (30, 50, 90), (30, 30, 30), (150, 150, 150),
    (60, 130, 230), (120, 60, 150),
)

Polygon = np.ndarray  # float (N, 2) in a piece's own units: one unit is the piece's length


@dataclass(frozen=True)
class Part:
    """One filled, outlined polygon of a piece, painted with ink ``ink`` of the deck's palette."""

    points: Polygon
    ink: int


@dataclass(frozen=True)
class Placement:
    """Where a piece goes: centre in card pixels, angle in degrees (0: upright), length in pixels."""

    x: float
    y: float
    angle: float
    length: float
    mirrored: bool = False


def _rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float)


def _ellipse(cx: float, cy: float, rx: float, ry: float, points: int = 28) -> Polygon:
    t = np.linspace(0.0, 2.0 * np.pi, points, endpoint=False)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _star(cx: float, cy: float, outer: float, inner: float, tips: int) -> Polygon:
    t = np.linspace(0.0, 2.0 * np.pi, 2 * tips, endpoint=False) - np.pi / 2
    radius = np.where(np.arange(2 * tips) % 2 == 0, outer, inner)
    return np.stack([cx + radius * np.cos(t), cy + radius * np.sin(t)], axis=1)


def _ribbon(centre: np.ndarray, half_widths: np.ndarray) -> Polygon:
    """A band of varying width along a centre line ``(N, 2)``: its two edges joined into one polygon."""
    tangent = np.gradient(centre, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True) + 1e-9
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    left = centre + normal * half_widths[:, None]
    right = centre - normal * half_widths[:, None]
    return np.concatenate([left, right[::-1]])


def _bent(parts: list[Part], bend: float) -> list[Part]:
    """The parts of an upright piece bowed sideways by ``bend`` lengths at its middle, not at its ends."""
    if not bend:
        return parts
    return [Part(p.points + np.stack([bend * np.cos(np.pi * p.points[:, 1]), np.zeros(len(p.points))], 1),
                 p.ink) for p in parts]


@dataclass(frozen=True)
class SuitDesign:
    """One suit's look in one deck: the parts of a piece (bent by ``bend`` where it can bend), the
    layout family that places a card's pieces, and whether a piece is long (a sword, a club)."""

    make_parts: Callable[[float], list[Part]]
    layout: str
    is_long: bool


def _sword_design(rng: np.random.Generator, inks: Sequence[int]) -> Callable[[float], list[Part]]:
    blade, hilt, grip = inks[0], inks[1], inks[2]
    blade_width = rng.uniform(0.03, 0.06)
    guard = rng.uniform(0.08, 0.18)
    guard_height = rng.uniform(0.02, 0.05)
    pommel = rng.uniform(0.025, 0.05)
    has_fuller = rng.random() < 0.5

    def parts(bend: float) -> list[Part]:
        t = np.linspace(0.0, 1.0, 24)
        centre = np.stack([np.zeros_like(t), 0.2 - 0.7 * t], axis=1)  # from the hilt to the tip
        widths = blade_width * np.clip(1.1 - t, 0.05, 1.0) ** 0.5
        result = [Part(_ribbon(centre, widths), blade)]
        if has_fuller:
            result.append(Part(_ribbon(centre[:18], widths[:18] * 0.3), grip))
        result += [Part(_rect(-guard, 0.2, guard, 0.2 + guard_height), hilt),
                   Part(_rect(-0.02, 0.2 + guard_height, 0.02, 0.42), grip),
                   Part(_ellipse(0.0, 0.45, pommel, pommel), hilt)]
        return _bent(result, bend)

    return parts


def _cudgel_design(rng: np.random.Generator, inks: Sequence[int]) -> Callable[[float], list[Part]]:
    wood, knot = inks[0], inks[1]
    top = rng.uniform(0.07, 0.14)
    bottom = rng.uniform(0.025, 0.05)
    knots = int(rng.integers(2, 7))
    knot_at = rng.uniform(0.1, 0.9, knots)
    knot_side = rng.choice([-1.0, 1.0], knots)
    has_bands = rng.random() < 0.4

    def parts(bend: float) -> list[Part]:
        t = np.linspace(0.0, 1.0, 24)
        centre = np.stack([np.zeros_like(t), 0.5 - t], axis=1)  # from the handle to the head
        widths = bottom + (top - bottom) * t ** 1.5
        result = [Part(_ribbon(centre, widths), wood)]
        for at, side in zip(knot_at, knot_side, strict=True):
            i = int(at * 23)
            result.append(Part(_ellipse(centre[i, 0] + side * widths[i], centre[i, 1],
                                        widths[i] * 0.45, widths[i] * 0.3, 12), knot))
        if has_bands:
            result.append(Part(_rect(-bottom * 1.3, 0.38, bottom * 1.3, 0.42), knot))
        return _bent(result, bend)

    return parts


def _baton_design(rng: np.random.Generator, inks: Sequence[int]) -> Callable[[float], list[Part]]:
    staff, band, cap = inks[0], inks[1], inks[2]
    width = rng.uniform(0.03, 0.06)
    bands = int(rng.integers(0, 5))
    cap_size = rng.uniform(1.0, 2.0)

    def parts(bend: float) -> list[Part]:
        result = [Part(_rect(-width, -0.46, width, 0.46), staff)]
        for y in np.linspace(-0.3, 0.3, bands) if bands else ():
            result.append(Part(_rect(-width * 1.15, y - 0.02, width * 1.15, y + 0.02), band))
        for y in (-0.48, 0.48):
            result.append(Part(_ellipse(0.0, y, width * cap_size, width * 1.2, 16), cap))
        return result

    return parts


def _cup_design(rng: np.random.Generator, inks: Sequence[int]) -> Callable[[float], list[Part]]:
    bowl, stem, rim = inks[0], inks[1], inks[2]
    bowl_width = rng.uniform(0.28, 0.45)
    bowl_depth = rng.uniform(0.25, 0.45)
    foot = rng.uniform(0.15, 0.32)
    has_lid = rng.random() < 0.3
    rounded = rng.random() < 0.6

    def parts(bend: float) -> list[Part]:
        top = -0.4 if has_lid else -0.5
        bottom_of_bowl = top + bowl_depth
        if rounded:
            t = np.linspace(0.0, np.pi, 20)
            body = np.stack([bowl_width * np.cos(t), top + bowl_depth * np.sin(t)], axis=1)
        else:
            body = np.array([(-bowl_width, top), (bowl_width, top), (bowl_width * 0.3, bottom_of_bowl),
                             (-bowl_width * 0.3, bottom_of_bowl)])
        result = [Part(body, bowl), Part(_ellipse(0.0, top, bowl_width, 0.04), rim),
                  Part(_rect(-0.045, bottom_of_bowl, 0.045, 0.36), stem),
                  Part(_ellipse(0.0, (bottom_of_bowl + 0.36) / 2, 0.09, 0.05), rim),
                  Part(np.array([(-0.05, 0.36), (0.05, 0.36), (foot, 0.5), (-foot, 0.5)]), bowl)]
        if has_lid:
            result.append(Part(_ellipse(0.0, -0.46, bowl_width * 0.6, 0.07), stem))
        return result

    return parts


def _coin_design(rng: np.random.Generator, inks: Sequence[int]) -> Callable[[float], list[Part]]:
    ring, face, centre = inks[0], inks[1], inks[2]
    inner = rng.uniform(0.3, 0.42)
    tips = int(rng.integers(5, 13))
    has_star = rng.random() < 0.7

    def parts(bend: float) -> list[Part]:
        result = [Part(_ellipse(0.0, 0.0, 0.5, 0.5, 40), ring),
                  Part(_ellipse(0.0, 0.0, inner, inner, 40), face)]
        if has_star:
            result.append(Part(_star(0.0, 0.0, inner * 0.9, inner * 0.45, tips), centre))
        else:
            result.append(Part(_ellipse(0.0, 0.0, inner * 0.5, inner * 0.5, 24), centre))
        return result

    return parts


def _grid_positions(rank: int, rng: np.random.Generator) -> list[tuple[float, float]]:
    """Centres in the unit box for ``rank`` separate pieces, the way coins and cups are laid out."""
    columns = (0.27, 0.73)
    if rank == 1:
        return [(0.5, 0.5)]
    if rank == 2:
        return [(0.5, 0.22), (0.5, 0.78)] if rng.random() < 0.7 else [(0.3, 0.3), (0.7, 0.7)]
    if rank == 3:
        return [(0.5, 0.17), (0.5, 0.5), (0.5, 0.83)] if rng.random() < 0.5 else \
            [(0.5, 0.2), (0.27, 0.78), (0.73, 0.78)]
    corners = [(x, y) for y in (0.2, 0.8) for x in columns]
    if rank == 4:
        return corners
    if rank == 5:
        return [*corners, (0.5, 0.5)]
    six = [(x, y) for y in (0.16, 0.5, 0.84) for x in columns]
    return six if rank == 6 else [*six, (0.5, 0.33)]


def _column_placements(rank: int, box: tuple[float, float, float, float],
                       rng: np.random.Generator) -> list[Placement]:
    """Long pieces standing upright side by side, in one row or two (the southern packs)."""
    x0, y0, x1, y1 = box
    rows = 1 if rank <= 3 else 2
    per_row = [rank] if rows == 1 else [rank // 2, rank - rank // 2]
    placements = []
    for row, count in enumerate(per_row):
        height = (y1 - y0) / rows
        for i in range(count):
            x = x0 + (x1 - x0) * (i + 1) / (count + 1)
            y = y0 + height * (row + 0.5)
            placements.append(Placement(x, y, float(rng.normal(0.0, 4.0)), height * 0.92,
                                        mirrored=bool(rng.random() < 0.5 and row == 1)))
    return placements


def _crossed_placements(rank: int, box: tuple[float, float, float, float],
                        rng: np.random.Generator) -> list[Placement]:
    """Long pieces crossing on the diagonals, halves each way, an odd one upright in the middle."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    length = float(np.hypot(x1 - x0, y1 - y0) * rng.uniform(0.7, 0.85))
    slant = float(np.degrees(np.arctan2(x1 - x0, y1 - y0)) * rng.uniform(0.7, 0.95))
    if rank == 1:
        return [Placement(cx, cy, slant, length)]
    pairs = rank // 2
    spacing = (x1 - x0) * rng.uniform(0.16, 0.24) / max(1.0, pairs / 2)
    placements = []
    for i in range(pairs):
        offset = (i - (pairs - 1) / 2) * spacing
        placements.append(Placement(cx + offset, cy, slant, length))
        placements.append(Placement(cx + offset, cy, -slant, length, mirrored=True))
    if rank % 2:
        placements.append(Placement(cx, cy, 0.0, (y1 - y0) * 0.95))
    return placements


def _oval_placements(rank: int, box: tuple[float, float, float, float],
                     rng: np.random.Generator) -> list[tuple[Placement, float]]:
    """Curved swords bowed apart in pairs, nested ovals (the northern packs); an odd one straight."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    length = (y1 - y0) * 0.95
    pairs = rank // 2
    placed: list[tuple[Placement, float]] = []
    for i in range(pairs):
        bow = (x1 - x0) / length * (0.42 - 0.3 * i / max(1, pairs)) * rng.uniform(0.85, 1.0)
        placed.append((Placement(cx, cy, 0.0, length), -bow))
        placed.append((Placement(cx, cy, 180.0, length), -bow))
    if rank % 2:
        placed.append((Placement(cx, cy, 0.0, length), 0.0))
    return placed


def _paint(canvas: np.ndarray, parts: list[Part], where: Placement, palette: np.ndarray,
           outline: tuple[int, int, int], outline_width: int) -> None:
    angle = np.radians(where.angle)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    for part in parts:
        points = part.points * np.array([-1.0 if where.mirrored else 1.0, 1.0])
        pixels = (points * where.length) @ rotation.T + np.array([where.x, where.y])
        contour = np.round(pixels * SUPERSAMPLE * 16).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(canvas, [contour], tuple(int(v) for v in palette[part.ink]), cv2.LINE_AA, shift=4)
        cv2.polylines(canvas, [contour], True, outline, outline_width * SUPERSAMPLE, cv2.LINE_AA, shift=4)


@dataclass(frozen=True)
class DeckLook:
    """What every card of one invented deck shares: paper, frame, palette, outline, numerals."""

    paper: tuple[int, int, int]
    palette: np.ndarray
    outline: tuple[int, int, int]
    outline_width: int
    frame: int
    margin: float
    numerals: bool
    designs: dict[str, SuitDesign]


_SUIT_MAKERS = {"d": _coin_design, "c": _cup_design}


def random_look(rng: np.random.Generator) -> DeckLook:
    """Draw one deck's look: its inks, its paper and frame, and a design and layout for each suit."""
    palette = np.array([INKS[i] for i in rng.choice(len(INKS), 6, replace=False)], float)
    palette = np.clip(palette * rng.uniform(0.8, 1.15, (6, 1)) + rng.normal(0, 12, (6, 3)), 0, 255)

    def inks() -> list[int]:
        return [int(i) for i in rng.choice(6, 3, replace=False)]

    designs = {suit: SuitDesign(maker(rng, inks()), "grid", is_long=False)
               for suit, maker in _SUIT_MAKERS.items()}
    sword_layout = str(rng.choice(["columns", "crossed", "ovals"]))
    designs["s"] = SuitDesign(_sword_design(rng, inks()), sword_layout, is_long=True)
    club_maker = _cudgel_design if rng.random() < 0.6 else _baton_design
    designs["b"] = SuitDesign(club_maker(rng, inks()), str(rng.choice(["columns", "crossed"])), is_long=True)
    tint = rng.uniform(0, 30) * rng.dirichlet([1.0, 1.0, 1.0]) + rng.uniform(0, 12)
    paper = tuple(int(v) for v in np.clip(255 - tint, 0, 255))
    outline = (0, 0, 0) if rng.random() < 0.7 else tuple(int(v) for v in palette[int(rng.integers(6))] * 0.4)
    return DeckLook(paper=paper, palette=palette, outline=outline, outline_width=int(rng.integers(1, 3)),
                    frame=int(rng.integers(0, 3)), margin=float(rng.uniform(0.07, 0.13)),
                    numerals=bool(rng.random() < 0.35), designs=designs)


def _blank(look: DeckLook) -> np.ndarray:
    canvas = np.full((CARD_HEIGHT * SUPERSAMPLE, CARD_WIDTH * SUPERSAMPLE, 3), look.paper, np.uint8)
    if look.frame:
        inset = int(0.04 * CARD_WIDTH * SUPERSAMPLE)
        cv2.rectangle(canvas, (inset, inset), (canvas.shape[1] - inset, canvas.shape[0] - inset),
                      tuple(int(v) for v in look.palette[0]), look.frame * SUPERSAMPLE, cv2.LINE_AA)
    return canvas


def _finish(canvas: np.ndarray, look: DeckLook, rank: int) -> np.ndarray:
    if look.numerals:
        for corner, flip in (((0.06, 0.1), False), ((0.94, 0.92), True)):
            text = str(rank)
            scale = 0.9 * SUPERSAMPLE
            (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2 * SUPERSAMPLE)
            x = int(corner[0] * canvas.shape[1] - (w if flip else 0))
            y = int(corner[1] * canvas.shape[0] + (0 if flip else h // 2))
            cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, look.outline, 2 * SUPERSAMPLE,
                        cv2.LINE_AA)
    return cv2.resize(canvas, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)


def number_card(look: DeckLook, suit: str, rank: int, rng: np.random.Generator) -> np.ndarray:
    """The card ``rank`` (1-7) of ``suit`` in this look: exactly ``rank`` pieces, laid out the suit's way."""
    design = look.designs[suit]
    side = look.margin * CARD_WIDTH
    box = (side, side * 1.3, CARD_WIDTH - side, CARD_HEIGHT - side * 1.3)
    canvas = _blank(look)
    paint = functools.partial(_paint, canvas, palette=look.palette, outline=look.outline,
                              outline_width=look.outline_width)
    if design.layout == "grid" or (rank == 1 and design.layout != "crossed"):
        width, height = box[2] - box[0], box[3] - box[1]
        size = min(width, height) * (0.8 if rank == 1 else 0.3 if rank > 3 else 0.36)
        if design.is_long:
            size = height * (0.85 if rank == 1 else 0.3)
        bend = 0.08 if design.layout == "ovals" else 0.0
        for u, v in _grid_positions(rank, rng):
            paint(design.make_parts(bend), Placement(box[0] + u * width, box[1] + v * height,
                                                      float(rng.normal(0, 3)), size))
    elif design.layout == "columns":
        for where in _column_placements(rank, box, rng):
            paint(design.make_parts(0.0), where)
    elif design.layout == "crossed":
        for where in _crossed_placements(rank, box, rng):
            paint(design.make_parts(0.0), where)
    else:
        for where, bow in _oval_placements(rank, box, rng):
            paint(design.make_parts(bow), where)
    return _finish(canvas, look, rank)


def figure_card(look: DeckLook, donor_face: np.ndarray, rank: int, hue_turn: int) -> np.ndarray:
    """A donor pattern's figure, hue-turned, inside this look's paper and frame."""
    canvas = _blank(look)
    inset = int((0.06 + 0.02 * (look.frame > 0)) * CARD_WIDTH) * SUPERSAMPLE
    size = (canvas.shape[1] - 2 * inset, canvas.shape[0] - 2 * inset)
    hsv = cv2.cvtColor(donor_face, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + hue_turn) % 180).astype(np.uint8)
    picture = cv2.resize(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), size, interpolation=cv2.INTER_CUBIC)
    canvas[inset:inset + size[1], inset:inset + size[0]] = picture
    return _finish(canvas, look, rank)


def figure_lenders(root: Path, exclude: Sequence[str]) -> list[str]:
    """The Italian-suited styles under ``root`` that may lend their figures (``exclude`` left out)."""
    return [name for name in list_styles(root)
            if is_italian_style(name) and not name.startswith(STYLE_PREFIX) and name not in exclude]


def write_deck(out: Path, index: int, seed: int, donor: Deck) -> Path:
    """Write deck ``index`` (drawn from ``seed`` and ``index``) to ``out/synth-latin-NNN``."""
    rng = np.random.default_rng([seed, index])
    look = random_look(rng)
    folder = out / f"{STYLE_PREFIX}{index:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    hue_turn = int(rng.integers(0, 180)) if rng.random() < 0.5 else 0
    for suit in "cdsb":
        for rank in range(1, 11):
            code = f"{rank}{suit}"
            if rank in FIGURE_RANKS:
                image = figure_card(look, donor.faces[code], rank, hue_turn)
            else:
                image = number_card(look, suit, rank, rng)
            cv2.imwrite(str(folder / f"{code}.png"), image)
    return folder


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.synth_latin",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the decks to")
    parser.add_argument("--decks", type=int, default=40, help="how many decks to invent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exclude", default="", help="comma-separated styles that must not lend figures "
                        "(the styles a held-out run leaves out)")
    parser.add_argument("--no-link", action="store_true", help="do not link the default artwork's styles in")
    args = parser.parse_args(argv)
    root = find_cards_root()
    if root is None:
        print("synth_latin: no card artwork to take figures from: set TRESSETTE_CARDS", file=sys.stderr)
        return 1
    exclude = [name for name in args.exclude.split(",") if name]
    donors = figure_lenders(root, exclude)
    if not donors:
        print(f"synth_latin: no Italian-suited style under {root} may lend its figures", file=sys.stderr)
        return 1
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        decks = {name: Deck.load(root / name) for name in donors}
        for index in range(args.decks):
            write_deck(args.out, index, args.seed, decks[donors[index % len(donors)]])
        linked = [] if args.no_link or root.resolve() == args.out.resolve() else link_styles(root, args.out)
    except (OSError, DeckError) as error:
        print(f"synth_latin: {error}", file=sys.stderr)
        return 1
    print(f"synth_latin: {args.decks} decks written to {args.out} (figures of {', '.join(donors)}), "
          f"{len(linked)} styles linked from {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
