"""Scoring one hand (RULES.md, "Card points", "Accusi", "Cappotto", and the variants' scoring).

Everything is in integer thirds until the end:

- ``last_trick = point``: the last trick adds 3 thirds; each side scores its thirds // 3, the remainder is
  dropped, so a hand between two sides always hands out 11 points;
- ``last_trick = third``: the last trick adds 1 third, each side scores its thirds // 3 and the thirds left
  over (always a whole number of points) go to the side that took the last trick; still 11.

A hand's ``points`` are what it adds to the match totals: per side for ``scoring = points`` (card points
plus accusi), per seat for ``hands`` (each winner +1, each loser -1; the dummy's partner +2/-2, the dummy
0) and for ``avoid`` (card points; a seat that takes all 11 scores 0 and every other seat 11).
An unfinished hand scores what it holds so far: whole points of the tricks taken, plus accusi.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.accusi import Combo
from engine.declare import hand_accusi
from engine.hand import Hand, Trick
from engine.rules import Rules

LAST_TRICK_THIRDS = {"point": 3, "third": 1}
HAND_POINTS = 11
GAMES = {"cappotto": 2, "stramazzo": 3, "cappottone": 6, "stramazzone": 8}


@dataclass(frozen=True, slots=True)
class Cappotto:
    """A cappotto or one of its relatives, always announced: ``kind`` (cappotto, stramazzo, cappottone,
    stramazzone), the ``side`` that made it, the single ``seat`` for the player-level kinds, and
    ``games`` (what it is worth with ``cappotto = games``)."""

    kind: str
    side: int
    seat: int | None
    games: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "side": self.side, "seat": self.seat, "games": self.games}


class HandResult(NamedTuple):
    """One hand scored. ``sides`` are the seat groups of this hand (per seat when each plays alone);
    ``card_thirds``, ``card_points`` and ``accusi_points`` are per side; ``points`` per side (scoring
    ``points``) or per seat (``hands``, ``avoid``); ``last_trick`` is the side that took it (``None`` while
    the hand is unfinished); ``renounces`` the seats proven to have renounced."""

    number: int
    dealer: int
    sides: tuple[tuple[int, ...], ...]
    tricks: tuple[Trick, ...]
    open_trick: tuple[int | None, tuple[str, ...]]
    complete: bool
    card_thirds: tuple[int, ...]
    last_trick: int | None
    card_points: tuple[int, ...]
    accusi: tuple[tuple[int, Combo], ...]
    accusi_points: tuple[int, ...]
    points: tuple[int, ...]
    cappotto: Cappotto | None
    renounces: tuple[int, ...]
    penalty_side: int | None
    call: str | None


def hand_sides(rules: Rules, hand: Hand) -> tuple[tuple[int, ...], ...]:
    """The sides of this hand: fixed, each alone, the caller + the holder of the called 3 (the caller alone
    if the partner is not yet known or is the caller), or the first player + the dummy."""
    sides = rules.sides
    if isinstance(sides, tuple):
        return sides
    seats = range(rules.seats)
    if sides == "alone":
        return tuple((seat,) for seat in seats)
    first = hand.first if hand.first is not None else (hand.dealer + 1) % rules.seats
    if sides == "dummy":
        dummy = rules.dummy if rules.dummy is not None else (first + 2) % rules.seats
        if first == dummy:  # the dummy led (four_of_denari): it plays with the next seat
            first = (first + 1) % rules.seats
        team = (first, dummy)
    else:
        partner = hand.extra.partner
        team = (first,) if partner is None or partner == first else tuple(sorted((first, partner)))
    return (team, tuple(seat for seat in seats if seat not in team))


def side_of(sides: tuple[tuple[int, ...], ...], seat: int) -> int:
    return next(index for index, side in enumerate(sides) if seat in side)


def score_hand(rules: Rules, hand: Hand) -> HandResult:
    """Score ``hand`` as it stands (complete when all its tricks are played)."""
    sides = hand_sides(rules, hand)
    complete = len(hand.tricks) == rules.tricks_per_hand
    thirds = hand.thirds
    card_thirds = tuple([sum([thirds[seat] for seat in side]) for side in sides])
    last_side = side_of(sides, hand.tricks[-1].winner) if complete else None
    taken = card_points(rules, card_thirds, last_side)
    accusi = hand_accusi(rules, hand)
    accusi_points = tuple([sum([combo.points for seat, combo in accusi if seat in side]) for side in sides]) \
        if accusi else (0,) * len(sides)
    penalty_side = None
    if complete and rules.renounce_penalty and hand.extra.renounces:
        penalty_side = side_of(sides, hand.extra.renounces[0])
        taken = _penalty(rules, len(sides), penalty_side)
    cappotto = None
    if complete and rules.scoring == "points" and min(card_thirds) < 3:
        cappotto = _cappotto(rules, hand, sides)
    points = hand_points(rules, sides, taken, accusi_points, complete, penalty_side)
    leader = hand.leader if hand.trick else None
    open_trick = (leader, tuple(card.code for card in hand.trick))
    return HandResult(hand.number, hand.dealer, sides, hand.tricks, open_trick, complete, card_thirds,
                      last_side, taken, accusi, accusi_points, points, cappotto, hand.extra.renounces,
                      penalty_side, hand.extra.call)


def card_points(rules: Rules, card_thirds: tuple[int, ...], last_side: int | None) -> tuple[int, ...]:
    """Whole card points per side from their thirds and the side that took the last trick (``None``: the
    hand is unfinished, no last trick yet). With two sides ``point`` and ``third`` always agree (the last
    trick's side gets 11 minus the other side's whole points); with more sides only ``third`` hands out
    all 11."""
    if last_side is None:
        return tuple(thirds // 3 for thirds in card_thirds)
    with_last = list(card_thirds)
    with_last[last_side] += LAST_TRICK_THIRDS[rules.last_trick]
    points = [thirds // 3 for thirds in with_last]
    if rules.last_trick == "third":
        points[last_side] += (sum(with_last) - 3 * sum(points)) // 3
    return tuple(points)


def _penalty(rules: Rules, sides: int, offender: int) -> tuple[int, ...]:
    """A proven renounce loses the hand 11 to 0: the other side takes 11 (avoiding points: the offender
    takes 11)."""
    if rules.scoring == "avoid":
        return tuple(HAND_POINTS if side == offender else 0 for side in range(sides))
    return tuple(0 if side == offender else HAND_POINTS for side in range(sides))


def hand_points(rules: Rules, sides: tuple[tuple[int, ...], ...], card_points: tuple[int, ...],
                accusi_points: tuple[int, ...], complete: bool, penalty_side: int | None) -> tuple[int, ...]:
    """What the hand adds to the totals, per side (``points``) or per seat (``hands``, ``avoid``); see the
    module docstring. ``hands``: the side with more card points + accusi wins, a tie scores nothing."""
    if rules.scoring == "points":
        return tuple(card + accusi for card, accusi in zip(card_points, accusi_points, strict=True))
    seats = rules.seats
    if rules.scoring == "avoid":
        by_seat = [0] * seats
        for side, points in zip(sides, card_points, strict=True):
            by_seat[side[0]] = points
        if complete and HAND_POINTS in by_seat and penalty_side is None:
            taker = by_seat.index(HAND_POINTS)
            return tuple(0 if seat == taker else HAND_POINTS for seat in range(seats))
        return tuple(by_seat)
    by_seat = [0] * seats
    if not complete:
        return tuple(by_seat)
    totals = [card + accusi for card, accusi in zip(card_points, accusi_points, strict=True)]
    if totals[0] == totals[1]:
        return tuple(by_seat)
    winner = 0 if totals[0] > totals[1] else 1
    for index, side in enumerate(sides):
        score = 1 if index == winner else -1
        for seat in side:
            by_seat[seat] = score
    if rules.sides == "dummy" and rules.dummy is not None:
        partner = next(seat for seat in sides[0] if seat != rules.dummy)
        by_seat[partner] *= 2
        by_seat[rules.dummy] = 0
    return tuple(by_seat)


def _cappotto(rules: Rules, hand: Hand, sides: tuple[tuple[int, ...], ...]) -> Cappotto | None:
    """The richest of cappotto (a side takes every trick: 2 games), stramazzo (a side takes every card
    point, the other's tricks holding under one point: 3), cappottone (one player takes every trick: 6),
    stramazzone (one player takes every card point, the other three under one point together: 8); or a
    plain 'cappotto' when a side takes all 11 points and the other none."""
    tricks_by_seat = [0] * rules.seats
    for trick in hand.tricks:
        tricks_by_seat[trick.winner] += 1
    total = len(hand.tricks)
    found: list[Cappotto] = []
    for index, side in enumerate(sides):
        others = [seat for seat in range(rules.seats) if seat not in side]
        other_thirds = sum(hand.thirds[seat] for seat in others)
        other_tricks = sum(tricks_by_seat[seat] for seat in others)
        if other_tricks == 0:
            found.append(Cappotto("cappotto", index, None, GAMES["cappotto"]))
        elif other_thirds < 3:
            found.append(Cappotto("stramazzo", index, None, GAMES["stramazzo"]))
        if len(side) < 2:
            continue
        for seat in side:
            rest = [other for other in range(rules.seats) if other != seat]
            if tricks_by_seat[seat] == total:
                found.append(Cappotto("cappottone", index, seat, GAMES["cappottone"]))
            elif sum(hand.thirds[other] for other in rest) < 3:
                found.append(Cappotto("stramazzone", index, seat, GAMES["stramazzone"]))
    if found:
        return max(found, key=lambda item: item.games)
    return None


def is_all_points(result: HandResult) -> int | None:
    """The side that took all 11 card points of a finished two-sided hand while the other took none."""
    if not result.complete or len(result.card_points) != 2:
        return None
    for side, points in enumerate(result.card_points):
        if points == HAND_POINTS and result.card_points[1 - side] == 0:
            return side
    return None
