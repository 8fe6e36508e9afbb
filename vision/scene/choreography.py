"""From the match script to a timeline: where every card and every hand is, frame by frame.

The rules of the choreography (all times vary a little per action, drawn from the clip's generator):

- a play: the player's hand brings the card in from their side of the table, holds it still above its
  landing spot for about a second, releases it; the card lands in front of its player with human
  jitter (an offset, a rotation up to the preset's limit, now and then pulled into the middle so that
  it overlaps the cards already there); the hand goes back;
- the trick: after a short pause the winner's hand reaches the middle, gathers the cards into a stack,
  turns it face down and puts it on the winner's pile, a little askew on the tricks already there;
- two players with drawing: after each trick the winner, then the other, takes the stock's top card,
  shows it face up for a moment, and takes it into their hand (off the table);
- morto: the dummy's cards lie face up in a row in front of it; the first player's hand plays them;
- now and then a player who is not playing leaves a hand resting on the table for a few seconds;
- the end of a hand: the piles are swept off the table towards the next dealer; a hand the record
  stops in (an open trick, or simply no more events) stays on the table.

A card or hand track is a list of keyframes; between two keys the pose eases in and out (smoothstep).
Every truth event (a card at rest, a trick picked up, a card drawn) comes from the same keys.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from vision.scene.difficulty import Difficulty
from vision.scene.layout import Layout, Point, Seat
from vision.scene.script import HandScript, MatchScript, TrickScript

HELD_HEIGHT_CM = 6.0
SHOW_HEIGHT_CM = 12.0
CARD_THICKNESS_CM = 0.04


@dataclass(frozen=True, slots=True)
class Pose:
    """A card's centre on the table (cm), its height above the cloth, rotation (deg) and which side is up."""

    x: float
    y: float
    z: float
    angle_deg: float
    face_up: bool


@dataclass(frozen=True, slots=True)
class Key:
    frame: int
    pose: Pose


@dataclass
class CardTrack:
    """A card in the clip, visible from its first key up to ``end`` (exclusive; None: to the end)."""

    uid: int
    code: str
    keys: list[Key]
    end: int | None = None

    def is_visible(self, frame: int) -> bool:
        return self.keys[0].frame <= frame and (self.end is None or frame < self.end)

    def pose_at(self, frame: int) -> Pose:
        return _pose_at(self.keys, frame)

    def is_resting(self, frame: int) -> bool:
        """On the cloth and not moving at ``frame`` (so the renderer may draw it into the static layer)."""
        for before, after in itertools.pairwise(self.keys):
            if before.frame <= frame < after.frame:
                return before.pose == after.pose and before.pose.z <= 1.0
        return self.keys[-1].pose.z <= 1.0 and frame >= self.keys[-1].frame

    def rest_since(self, frame: int) -> int:
        """The frame this card's current rest began (used to order the static layer)."""
        since = self.keys[0].frame
        for before, after in itertools.pairwise(self.keys):
            if after.frame > frame:
                break
            since = after.frame if before.pose != after.pose else since
        return since


@dataclass(frozen=True, slots=True)
class HandPose:
    """A hand at the table: ``grip`` is where the fingertips are (cm, with height); ``seat`` whose it is;
    ``holding`` whether it is holding a card (fingers closed) or open/resting."""

    seat: int
    grip: tuple[float, float, float]
    holding: bool


@dataclass(frozen=True, slots=True)
class HandKey:
    frame: int
    grip: tuple[float, float, float]
    holding: bool


@dataclass
class HandTrack:
    uid: int
    seat: int
    keys: list[HandKey]

    @property
    def end(self) -> int:
        return self.keys[-1].frame

    def is_visible(self, frame: int) -> bool:
        return self.keys[0].frame <= frame <= self.end

    def pose_at(self, frame: int) -> HandPose:
        keys = self.keys
        if frame <= keys[0].frame:
            return HandPose(self.seat, keys[0].grip, keys[0].holding)
        for before, after in itertools.pairwise(keys):
            if frame < after.frame:
                t = _ease((frame - before.frame) / max(1, after.frame - before.frame))
                grip = tuple(a + (b - a) * t for a, b in zip(before.grip, after.grip, strict=True))
                return HandPose(self.seat, (grip[0], grip[1], grip[2]), before.holding)
        return HandPose(self.seat, keys[-1].grip, keys[-1].holding)


@dataclass(frozen=True, slots=True)
class TruthEvent:
    """Something the truth file records: ``kind`` is ``rest``, ``pickup``, ``draw`` or ``hand_end``."""

    frame: int
    kind: str
    hand: int
    trick: int | None = None
    seat: int | None = None
    card: str | None = None
    card_uid: int | None = None
    winner: int | None = None
    cards: tuple[str, ...] = ()


@dataclass
class Timeline:
    """Everything that moves in the clip, plus the frame count and the camera bump frame (None = none)."""

    fps: float
    frame_count: int
    cards: list[CardTrack]
    hands: list[HandTrack]
    events: list[TruthEvent]
    camera_bump_frame: int | None = None
    seat_count: int = 4


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3.0 - 2.0 * t)


def _angle_lerp(a: float, b: float, t: float) -> float:
    delta = (b - a + 180.0) % 360.0 - 180.0
    return a + delta * t


def _pose_at(keys: list[Key], frame: int) -> Pose:
    if frame <= keys[0].frame:
        return keys[0].pose
    for before, after in itertools.pairwise(keys):
        if frame < after.frame:
            t = (frame - before.frame) / max(1, after.frame - before.frame)
            e = _ease(t)
            a, b = before.pose, after.pose
            return Pose(a.x + (b.x - a.x) * e, a.y + (b.y - a.y) * e, a.z + (b.z - a.z) * e,
                        _angle_lerp(a.angle_deg, b.angle_deg, e), a.face_up if t < 0.5 else b.face_up)
    return keys[-1].pose


@dataclass
class _Builder:
    """Lays the script out in time; ``now`` is the frame the next action may start at."""

    layout: Layout
    difficulty: Difficulty
    fps: float
    rng: np.random.Generator
    card_width_cm: float
    card_height_cm: float
    now: int = 0
    cards: list[CardTrack] = field(default_factory=list)
    hands: list[HandTrack] = field(default_factory=list)
    events: list[TruthEvent] = field(default_factory=list)
    piles: dict[int, list[CardTrack]] = field(default_factory=dict)

    def frames(self, seconds: float, spread: float = 0.2) -> int:
        """``seconds`` give or take ``spread`` (a fraction), as a whole number of frames (at least 1)."""
        jittered = seconds * (1.0 + self.rng.uniform(-spread, spread))
        return max(1, round(jittered * self.fps))

    def new_card(self, code: str, keys: list[Key]) -> CardTrack:
        track = CardTrack(len(self.cards), code, keys)
        self.cards.append(track)
        return track

    def new_hand(self, seat: int, keys: list[HandKey]) -> HandTrack:
        track = HandTrack(len(self.hands), seat, keys)
        self.hands.append(track)
        return track

    def seat(self, index: int) -> Seat:
        return self.layout.seats[index]

    def near_end_grip(self, pose: Pose, seat: Seat) -> tuple[float, float, float]:
        """Where fingers hold a card: its edge nearest the player."""
        dx, dy = seat.toward_player(self.card_height_cm * 0.42)
        return (pose.x + dx, pose.y + dy, pose.z + 0.6)

    # ---------------------------------------------------------------- plays

    def landing_pose(self, seat: Seat) -> Pose:
        jitter = self.difficulty
        if self.rng.random() < jitter.overlap_chance:
            toward = self.rng.uniform(0.15, 0.45)
            spot = seat.play.towards(Point(0.0, 0.0), 1.0 - toward)
        else:
            spot = seat.play
        dx, dy = self.rng.normal(0.0, jitter.offset_cm / 2.0, 2).clip(-jitter.offset_cm, jitter.offset_cm)
        angle = seat.card_angle_deg + self.rng.uniform(-jitter.rotation_deg, jitter.rotation_deg)
        return Pose(spot.x + float(dx), spot.y + float(dy), 0.0, angle, True)

    def body_pose(self, seat: Seat, height: float, face_up: bool) -> Pose:
        return Pose(seat.body.x, seat.body.y, height, seat.card_angle_deg, face_up)

    def play(self, seat_index: int, code: str, hand: int, trick: int, source: CardTrack | None = None,
             player: int | None = None) -> tuple[int, CardTrack]:
        """One card played by ``seat_index`` (brought in by ``player``'s hand); returns (rest frame, card)."""
        seat, mover = self.seat(seat_index), self.seat(seat_index if player is None else player)
        rest = self.landing_pose(seat)
        drift = self.rng.normal(0.0, 0.6, 2)
        hold = Pose(rest.x + float(drift[0]), rest.y + float(drift[1]), HELD_HEIGHT_CM,
                    rest.angle_deg + float(self.rng.normal(0.0, 3.0)), True)
        start = self.now
        reach = start + self.frames(0.7)
        still_until = reach + self.frames(1.0, 0.25)
        landed = still_until + max(1, round(0.15 * self.fps))
        if source is None:
            card = self.new_card(code, [Key(start, self.body_pose(mover, HELD_HEIGHT_CM + 4.0, True))])
        else:
            card = source
            card.keys.append(Key(start, card.pose_at(start)))
        card.keys.extend([Key(reach, hold), Key(still_until, hold), Key(landed, rest)])
        grip = self.near_end_grip(hold, mover)
        away = (mover.body.x, mover.body.y, 10.0)
        approach = [HandKey(start, self.near_end_grip(card.pose_at(start), mover), True)]
        if source is not None:  # the dummy's card: the hand fetches it from the row first
            fetch = self.near_end_grip(card.pose_at(start), mover)
            approach = [HandKey(max(0, start - self.frames(0.5)), away, False), HandKey(start, fetch, True)]
        withdrawn = still_until + self.frames(0.6)
        self.new_hand(mover.index, [*approach, HandKey(reach, grip, True), HandKey(still_until, grip, True),
                                    HandKey(still_until + 1, grip, False), HandKey(withdrawn, away, False)])
        self.events.append(TruthEvent(landed, "rest", hand, trick, seat=seat_index, card=code,
                                      card_uid=card.uid))
        self.now = still_until + self.frames(0.5, 0.5)
        return landed, card

    # ---------------------------------------------------------------- tricks

    def pile_pose(self, seat: Seat, height_index: int) -> Pose:
        offset = self.rng.normal(0.0, 0.5, 2).clip(-1.2, 1.2)
        angle = seat.card_angle_deg + 90.0 + float(self.rng.normal(0.0, 6.0))
        return Pose(seat.pile.x + float(offset[0]), seat.pile.y + float(offset[1]),
                    height_index * CARD_THICKNESS_CM, angle, False)

    def pick_up(self, trick: TrickScript, cards: list[CardTrack], hand: int, trick_index: int,
                collector: int) -> None:
        """``collector``'s hand (the winner's, or the dummy's partner's when the dummy wins) gathers the
        trick, turns it over and stacks it on the collector's pile."""
        winner = self.seat(collector)
        start = self.now + self.frames(0.8, 0.4)
        touch = start + self.frames(0.6)
        gathered = touch + self.frames(0.35)
        carried = gathered + self.frames(0.7)
        withdrawn = carried + self.frames(0.5)
        centre = Pose(sum(c.keys[-1].pose.x for c in cards) / len(cards),
                      sum(c.keys[-1].pose.y for c in cards) / len(cards), 0.0, winner.card_angle_deg, True)
        pile = self.piles.setdefault(collector, [])
        for order, card in enumerate(cards):
            stacked = Pose(centre.x, centre.y, order * CARD_THICKNESS_CM, centre.angle_deg, True)
            lifted = Pose((centre.x + winner.pile.x) / 2, (centre.y + winner.pile.y) / 2, 4.0,
                          centre.angle_deg + 45.0, False)
            final = self.pile_pose(winner, len(pile))
            pile.append(card)
            card.keys.extend([Key(touch, card.pose_at(touch)), Key(gathered, stacked),
                              Key((gathered + carried) // 2, lifted), Key(carried, final)])
        grip_centre = (centre.x, centre.y, 1.0)
        grip_lifted = ((centre.x + winner.pile.x) / 2, (centre.y + winner.pile.y) / 2, 5.0)
        grip_pile = (winner.pile.x, winner.pile.y, 1.0)
        away = (winner.body.x, winner.body.y, 10.0)
        self.new_hand(collector, [HandKey(start, away, False), HandKey(touch, grip_centre, False),
                                  HandKey(gathered, grip_centre, True),
                                  HandKey((gathered + carried) // 2, grip_lifted, True),
                                  HandKey(carried, grip_pile, True),
                                  HandKey(carried + 1, grip_pile, False), HandKey(withdrawn, away, False)])
        codes = tuple(code for _, code in trick.plays)
        self.events.append(TruthEvent(touch, "pickup", hand, trick_index, winner=trick.winner, cards=codes))
        self.now = carried + self.frames(0.4)

    # ---------------------------------------------------------------- draws, dummy, resting hands

    def lay_stock(self, stock: tuple[str, ...]) -> list[CardTrack]:
        """The stock, face down, top card last in the list (drawn first)."""
        assert_point = self.layout.stock or Point(-self.layout.half * 0.55, 0.0)
        cards = []
        for depth, code in enumerate(reversed(stock)):
            jitter = self.rng.normal(0.0, 0.15, 3)
            pose = Pose(assert_point.x + float(jitter[0]), assert_point.y + float(jitter[1]),
                        depth * CARD_THICKNESS_CM, 90.0 + float(jitter[2]) * 10.0, False)
            cards.append(self.new_card(code, [Key(self.now, pose)]))
        return cards

    def draw(self, seat_index: int, card: CardTrack, hand: int, trick: int) -> None:
        """``seat_index`` takes the top stock card, shows it face up, and takes it off the table."""
        seat = self.seat(seat_index)
        start = self.now
        touch = start + self.frames(0.6)
        shown = touch + self.frames(0.5)
        shown_until = shown + self.frames(0.9)
        gone = shown_until + self.frames(0.5)
        show_point = Point(0.0, 0.0).towards(seat.edge, 0.55)
        show_pose = Pose(show_point.x, show_point.y, SHOW_HEIGHT_CM, seat.card_angle_deg, True)
        card.keys.extend([Key(touch, card.pose_at(touch)), Key(shown, show_pose), Key(shown_until, show_pose),
                          Key(gone, self.body_pose(seat, SHOW_HEIGHT_CM, False))])
        card.end = gone
        rest = card.pose_at(touch)
        self.new_hand(seat_index, [HandKey(start, (seat.body.x, seat.body.y, 10.0), False),
                                   HandKey(touch, (rest.x, rest.y, 1.0), True),
                                   HandKey(shown, self.near_end_grip(show_pose, seat), True),
                                   HandKey(shown_until, self.near_end_grip(show_pose, seat), True),
                                   HandKey(gone, (seat.body.x, seat.body.y, 10.0), True)])
        self.events.append(TruthEvent(shown, "draw", hand, trick, seat=seat_index, card=card.code))
        self.now = shown_until + self.frames(0.3)

    def lay_dummy(self, seat: Seat, codes: list[str]) -> dict[str, CardTrack]:
        """The dummy's cards face up in an overlapping row in front of it."""
        radians = math.radians(seat.facing_deg)
        along = (math.sin(radians), -math.cos(radians))
        base = Point(0.0, 0.0).towards(seat.edge, 0.72)
        step = min(4.2, 38.0 / max(1, len(codes)))
        row: dict[str, CardTrack] = {}
        for i, code in enumerate(codes):
            shift = (i - (len(codes) - 1) / 2) * step
            pose = Pose(base.x + along[0] * shift, base.y + along[1] * shift, i * CARD_THICKNESS_CM,
                        seat.card_angle_deg + float(self.rng.normal(0.0, 2.0)), True)
            row[code] = self.new_card(code, [Key(self.now, pose)])
        return row

    def maybe_rest_a_hand(self, busy: set[int]) -> None:
        """Now and then a player not in the current action leaves a hand resting on the table."""
        idle = [s for s in self.layout.seats if s.index not in busy and not s.is_dummy]
        if not idle or self.rng.random() >= self.difficulty.resting_hand_chance:
            return
        seat = idle[int(self.rng.integers(len(idle)))]
        spot = seat.edge.towards(Point(0.0, 0.0), self.rng.uniform(0.12, 0.3))
        side = self.rng.uniform(-12.0, 12.0)
        radians = math.radians(seat.facing_deg)
        place = (spot.x + math.sin(radians) * side, spot.y - math.cos(radians) * side, 0.0)
        start = self.now
        arrive = start + self.frames(0.6)
        leave = arrive + self.frames(5.0, 0.4)
        away = (seat.body.x, seat.body.y, 10.0)
        self.new_hand(seat.index, [HandKey(start, away, False), HandKey(arrive, place, False),
                                   HandKey(leave, place, False),
                                   HandKey(leave + self.frames(0.6), away, False)])

    def sweep(self, hand: int, next_dealer: int) -> None:
        """End of the hand: every card still on the table slides off towards the next dealer."""
        seat = self.seat(next_dealer)
        start = self.now + self.frames(1.0)
        gone = start + self.frames(0.8)
        for card in self.cards:
            if card.end is None and card.keys[0].frame <= start:
                card.keys.extend([Key(start, card.pose_at(start)),
                                  Key(gone, Pose(seat.body.x, seat.body.y, 2.0, seat.card_angle_deg, False))])
                card.end = gone
        self.events.append(TruthEvent(gone, "hand_end", hand))
        self.piles.clear()
        self.now = gone + self.frames(1.0)


def _dummy_player(hand: HandScript, seat_count: int, dummy: int) -> int:
    """Who plays the dummy's cards: the hand's first player (the seat after the dealer, never the dummy)."""
    seat = (hand.dealer + 1) % seat_count
    return seat if seat != dummy else (seat + 1) % seat_count


def build_timeline(script: MatchScript, layout: Layout, difficulty: Difficulty, fps: float,
                   rng: np.random.Generator, card_size_cm: tuple[float, float]) -> Timeline:
    """Lay out ``script`` in time on ``layout``; deterministic from ``rng``."""
    builder = _Builder(layout, difficulty, fps, rng, card_size_cm[0], card_size_cm[1], now=round(fps))
    for hand_number, hand in enumerate(script.hands):
        _build_hand(builder, script, hand, hand_number)
        if hand.complete:
            builder.sweep(hand_number, (hand.dealer + 1) % script.seat_count)
        else:
            builder.now += builder.frames(2.0)
    frame_count = builder.now + round(fps)
    bump = None
    if difficulty.camera_bump and frame_count > 4 * fps:
        bump = int(rng.integers(round(frame_count * 0.3), round(frame_count * 0.7)))
    events = sorted(builder.events, key=lambda e: (e.frame, e.kind != "pickup"))
    return Timeline(fps, frame_count, builder.cards, builder.hands, events, bump, script.seat_count)


def _build_hand(builder: _Builder, script: MatchScript, hand: HandScript, hand_number: int) -> None:
    stock = builder.lay_stock(hand.stock) if hand.stock else []
    dummy_row: dict[str, CardTrack] = {}
    if script.dummy_seat is not None:
        dummy = script.dummy_seat
        dummy_codes = [code for trick in hand.tricks for seat, code in trick.plays if seat == dummy]
        dummy_row = builder.lay_dummy(builder.seat(script.dummy_seat), dummy_codes)
        builder.now += builder.frames(1.0)
    for trick_number, trick in enumerate(hand.tricks):
        played: list[CardTrack] = []
        for seat, code in trick.plays:
            is_dummy = seat == script.dummy_seat
            player = _dummy_player(hand, script.seat_count, seat) if is_dummy else seat
            builder.maybe_rest_a_hand({player} if trick.winner is None else {player, trick.winner})
            if is_dummy:
                _, card = builder.play(seat, code, hand_number, trick_number, dummy_row.pop(code), player)
            else:
                _, card = builder.play(seat, code, hand_number, trick_number)
            played.append(card)
        if trick.winner is None:
            continue  # the record stops in this trick: its cards stay on the table
        collector = trick.winner
        if trick.winner == script.dummy_seat:
            collector = _dummy_player(hand, script.seat_count, trick.winner)
        builder.pick_up(trick, played, hand_number, trick_number, collector)
        for drawn in hand.draws_after[trick_number]:
            if stock:
                builder.draw(drawn.seat, stock.pop(), hand_number, trick_number)
