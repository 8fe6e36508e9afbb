"""A deck shown to the table camera card after card, the way a player enrols it (``tressette enroll``).

The choreography: the player at seat 0 brings each card in from their side, lays it face up near the
middle of the table (a few centimetres off, turned a little, as a hand does), lets go and draws the hand
back a hand's breadth, leaves the card alone for a moment, then picks it up and takes it away before
bringing the next one. About 1.9 s a card: a deck of 40 takes 77 s, the empty second at each end
included. A ``pace`` under 1 shows the deck briskly: every step that much shorter (0.7: 1.3 s a card,
55 s for 40, the card alone on the table for a third of a second). Every card at rest is a ``rest``
truth event, with the frame it landed on.

The clip has no camera bump (a player enrolling a deck does not knock the camera), whatever the preset.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.decks import Deck
from vision.scene.choreography import HELD_HEIGHT_CM, HandKey, Key, Pose, Timeline, TruthEvent, _Builder
from vision.scene.difficulty import Difficulty
from vision.scene.layout import Layout
from vision.scene.render import RenderSettings, SceneRenderer
from vision.scene.script import MatchScript
from vision.scene.truth import write_truth
from vision.scene.video import open_writer

SHOWING_SEAT = 0
SPOT_JITTER_CM = 2.5
TURN_JITTER_DEG = 12.0
HAND_BACK_CM = 24.0  # how far the hand draws back from the card while it lies alone
SECONDS = {"reach": 0.45, "land": 0.12, "withdraw": 0.3, "alone": 0.45, "return": 0.3, "away": 0.3}
PACES = (0.3, 2.0)  # of SECONDS: a deck shown in 25 s to one shown in two and a half minutes


def check_pace(pace: float) -> float:
    """``pace`` if it is within ``PACES``; raise ValueError naming it otherwise."""
    if not PACES[0] <= pace <= PACES[1]:
        raise ValueError(f"pace {pace!r} is not between {PACES[0]} and {PACES[1]} (1: about 1.9 s a card)")
    return pace


def build_showing_timeline(codes: Sequence[str], layout: Layout, difficulty: Difficulty, fps: float,
                           rng: np.random.Generator, card_size_cm: tuple[float, float],
                           pace: float = 1.0) -> Timeline:
    """The cards ``codes`` laid down and taken back one after the other, in that order, each step
    ``pace`` times its time in ``SECONDS``; deterministic from ``rng``. One second of empty table before
    the first and after the last."""
    factor = check_pace(pace)
    seconds = {step: time * factor for step, time in SECONDS.items()}
    builder = _Builder(layout, difficulty, fps, rng, card_size_cm[0], card_size_cm[1], now=round(fps))
    seat = builder.seat(SHOWING_SEAT)
    for order, code in enumerate(codes):
        offset = rng.uniform(-SPOT_JITTER_CM, SPOT_JITTER_CM, 2)
        rest = Pose(float(offset[0]), float(offset[1]), 0.0,
                    seat.card_angle_deg + float(rng.uniform(-TURN_JITTER_DEG, TURN_JITTER_DEG)), True)
        held = Pose(rest.x, rest.y, HELD_HEIGHT_CM, rest.angle_deg, True)
        start = builder.now
        reach = start + builder.frames(seconds["reach"])
        landed = reach + builder.frames(seconds["land"])
        withdrawn = landed + builder.frames(seconds["withdraw"])
        back_again = withdrawn + builder.frames(seconds["alone"])
        touch = back_again + builder.frames(seconds["return"])
        gone = touch + builder.frames(seconds["away"])
        carried = builder.body_pose(seat, HELD_HEIGHT_CM + 4.0, True)
        card = builder.new_card(code, [Key(start, carried), Key(reach, held), Key(landed, rest),
                                       Key(touch, rest), Key(gone, carried)])
        card.end = gone
        grip_down = builder.near_end_grip(rest, seat)
        dx, dy = seat.toward_player(HAND_BACK_CM)
        hand_back = (grip_down[0] + dx, grip_down[1] + dy, 1.0)
        builder.new_hand(seat.index, [
            HandKey(start, builder.near_end_grip(carried, seat), True),
            HandKey(reach, builder.near_end_grip(held, seat), True), HandKey(landed, grip_down, True),
            HandKey(landed + 1, grip_down, False), HandKey(withdrawn, hand_back, False),
            HandKey(back_again, hand_back, False), HandKey(touch, grip_down, False),
            HandKey(touch + 1, grip_down, True), HandKey(gone, builder.near_end_grip(carried, seat), True),
        ])
        builder.events.append(TruthEvent(landed, "rest", 0, order, seat=seat.index, card=code,
                                         card_uid=card.uid))
        builder.now = gone
    return Timeline(fps, builder.now + round(fps), builder.cards, builder.hands, builder.events, None,
                    len(layout.seats))


def showing_renderer(codes: Sequence[str], deck: Deck, settings: RenderSettings,
                     pace: float = 1.0) -> SceneRenderer:
    """A renderer of ``codes`` shown card after card at a table of two, at ``pace``
    (``build_showing_timeline``, which checks it)."""
    def make(layout: Layout, difficulty: Difficulty, fps: float, rng: np.random.Generator,
             card_size_cm: tuple[float, float]) -> Timeline:
        return build_showing_timeline(codes, layout, difficulty, fps, rng, card_size_cm, pace)
    return SceneRenderer(MatchScript(2, ()), deck, settings, timeline_maker=make)


def render_showing_clip(codes: Sequence[str], deck: Deck, settings: RenderSettings, out: Path,
                        truth: Path | None = None, pace: float = 1.0) -> int:
    """Film ``codes`` shown card after card at ``pace`` into ``out`` (mp4), its truth into ``truth`` if
    given; returns the frame count."""
    renderer = showing_renderer(codes, deck, settings, pace)
    writer = open_writer(out, settings.fps, settings.size)
    try:
        for frame in renderer.frames():
            writer.write(frame)
    finally:
        writer.release()
    if truth is not None:
        write_truth(truth, renderer.truth_header(out.name), renderer.truth_events())
    return renderer.frame_count
