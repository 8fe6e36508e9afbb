"""Where everyone sits around the table, where each seat plays its card and where its tricks pile up.

Seats are numbered in playing order and go round counter-clockwise as the camera sees the table
(RULES.md's default direction): seat 0 at the bottom of the picture, seat 1 to its right, and so on.
Two seats face each other, three sit in a triangle; three players with the dummy (``morto``) have four
seats in the record and use the four-seat layout, the dummy in its own place; five seats sit at the
corners of a pentagon. All positions are table-plane
centimetres (see :mod:`vision.scene.camera`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.errors import VisionError

SEAT_COUNTS: tuple[int, ...] = (2, 3, 4, 5)
TABLE_SIZE_CM = 78.0


class LayoutError(VisionError):
    """A seat count the table cannot sit."""


@dataclass(frozen=True, slots=True)
class Point:
    """A table-plane point in centimetres."""

    x: float
    y: float

    def plus(self, dx: float, dy: float) -> Point:
        return Point(self.x + dx, self.y + dy)

    def towards(self, other: Point, fraction: float) -> Point:
        return Point(self.x + (other.x - self.x) * fraction, self.y + (other.y - self.y) * fraction)


@dataclass(frozen=True, slots=True)
class Seat:
    """One place at the table.

    ``facing_deg``: direction from the table centre to the player (0 = +x, counter-clockwise);
    a card played by this seat lies with its top towards the centre, i.e. rotated ``facing_deg + 90``.
    ``edge``: where the player's arms cross the table's edge; ``body``: where the player sits, off
    the table; ``play``: where their card lands in a trick; ``pile``: where their face-down tricks grow.
    """

    index: int
    facing_deg: float
    edge: Point
    body: Point
    play: Point
    pile: Point
    is_dummy: bool = False

    @property
    def card_angle_deg(self) -> float:
        """Rotation of a card lying upright for this player (its top towards the centre)."""
        return self.facing_deg + 90.0

    def toward_player(self, distance: float) -> tuple[float, float]:
        """Offset of ``distance`` cm from the centre towards this player."""
        angle = math.radians(self.facing_deg)
        return distance * math.cos(angle), distance * math.sin(angle)


@dataclass(frozen=True, slots=True)
class Layout:
    """The table (a square of ``table_size`` cm), its seats, and the draw stock for two players."""

    table_size: float
    seats: tuple[Seat, ...]
    stock: Point | None

    @property
    def half(self) -> float:
        return self.table_size / 2.0


def _edge_point(angle_deg: float, half: float) -> Point:
    """Where a ray from the centre at ``angle_deg`` leaves the square table."""
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    scale = half / max(abs(dx), abs(dy))
    return Point(dx * scale, dy * scale)


def _seat(index: int, facing_deg: float, half: float, play_radius: float, is_dummy: bool) -> Seat:
    edge = _edge_point(facing_deg, half)
    radians = math.radians(facing_deg)
    outward = (math.cos(radians), math.sin(radians))
    players_right = (math.sin(radians), -math.cos(radians))  # the player's right hand, seen from above
    body = edge.plus(outward[0] * 25.0, outward[1] * 25.0)
    play = Point(outward[0] * play_radius, outward[1] * play_radius)
    pile_base = edge.towards(Point(0.0, 0.0), 0.24)
    pile = pile_base.plus(players_right[0] * 15.0, players_right[1] * 15.0)
    return Seat(index, facing_deg, edge, body, play, pile, is_dummy)


def make_layout(seat_count: int, dummy_seat: int | None = None, table_size: float = TABLE_SIZE_CM) -> Layout:
    """The layout for ``seat_count`` seats in the record (3 players with the dummy have 4 seats).

    ``dummy_seat`` marks the dummy's place (``morto``): its cards lie face up in front of it.
    Raise LayoutError for a seat count the game does not know.
    """
    if seat_count not in SEAT_COUNTS:
        counts = ", ".join(map(str, SEAT_COUNTS))
        raise LayoutError(f"cannot seat {seat_count} players: the table seats {counts}")
    if dummy_seat is not None and not 0 <= dummy_seat < seat_count:
        raise LayoutError(f"dummy seat {dummy_seat} is not one of the {seat_count} seats")
    half = table_size / 2.0
    play_radius = {2: 9.0, 3: 10.0, 4: 11.0, 5: 12.5}[seat_count]
    seats = tuple(
        _seat(i, -90.0 + i * 360.0 / seat_count, half, play_radius, is_dummy=(i == dummy_seat))
        for i in range(seat_count)
    )
    stock = Point(-half * 0.55, 0.0) if seat_count == 2 else None
    return Layout(table_size, seats, stock)
