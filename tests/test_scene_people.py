"""Hands, forearms and head shadows: only the returned mask changes, the held card goes between the layers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.scene.people import (
    DRAW_ORDER,
    ArmPose,
    HeadShadows,
    Look,
    PeopleError,
    draw_arm,
    render_arm,
)

LOOK = Look(skin_bgr=(120, 156, 208), sleeve_bgr=(84, 50, 30), sleeve_reach=0.6)
CARD_BGR = (255, 0, 0)


def table(width: int = 320, height: int = 240) -> np.ndarray:
    rng = np.random.default_rng(0)
    return (rng.integers(0, 20, (height, width, 3)) + np.array([40, 110, 30])).astype(np.uint8)


def reaching(grip: str = "flat", **changes: object) -> ArmPose:
    values: dict[str, object] = {"entry": (160.0, 240.0), "hand": (165.0, 140.0), "scale": 36.0, "grip": grip}
    values.update(changes)
    return ArmPose(**values)  # type: ignore[arg-type]


def paint_card(frame: np.ndarray, corners: np.ndarray) -> None:
    cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), CARD_BGR)


@pytest.mark.parametrize("grip", ["flat", "open", "holding"])
def test_without_its_shadow_an_arm_changes_only_pixels_inside_its_mask(grip: str) -> None:
    frame = table()
    before = frame.copy()
    drawing = draw_arm(frame, reaching(grip, shadow=0.0, card_size=(40.0, 64.0)), LOOK)
    changed = np.any(frame != before, axis=2)
    mask = drawing.mask(frame.shape)
    assert changed.any()
    assert not (changed & ~mask).any()
    assert drawing.occlusion(frame.shape).sum() <= mask.sum()


def test_with_its_shadow_an_arm_changes_only_pixels_it_says_it_touched() -> None:
    frame = table()
    before = frame.copy()
    drawing = draw_arm(frame, reaching(lift=0.8, shadow=0.5), LOOK)
    changed = np.any(frame != before, axis=2)
    touched = drawing.touched(frame.shape)
    assert not (changed & ~touched).any()
    shadow_only = touched & ~drawing.mask(frame.shape)
    assert shadow_only.any()
    assert (frame[shadow_only].astype(int) <= before[shadow_only]).all()


def test_the_hand_covers_the_hand_point_and_the_forearm_reaches_the_table_edge() -> None:
    frame = table()
    occluded = draw_arm(frame, reaching(), LOOK).occlusion(frame.shape)
    assert occluded[140, 165]
    assert occluded[238, 160]
    assert not occluded[20, 20]


def test_a_held_card_is_painted_between_the_thumb_and_the_fingers() -> None:
    frame = table()
    calls: list[np.ndarray] = []

    def painter(canvas: np.ndarray, corners: np.ndarray) -> None:
        calls.append(corners)
        paint_card(canvas, corners)

    pose = reaching("holding", card_size=(40.0, 64.0), shadow=0.0)
    drawing = draw_arm(frame, pose, LOOK, painter)
    assert len(calls) == 1
    corners = calls[0]
    assert corners.shape == (4, 2)
    assert np.hypot(*(corners[1] - corners[0])) == pytest.approx(40.0)
    assert np.hypot(*(corners[3] - corners[0])) == pytest.approx(64.0)
    assert corners[:, 1].mean() < 140          # held out beyond the hand, away from the player
    assert corners[0][1] < corners[3][1]       # upright for its player: top edge furthest away
    card_pixels = np.all(frame == CARD_BGR, axis=2)
    assert card_pixels.sum() > 0.6 * 40 * 64
    # The fingers lie over the card's near edge: the arm hides part of where the card is.
    card_area = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(card_area, np.round(corners).astype(np.int32), 1)
    over_card = drawing.over.mask(frame.shape, 0.5) & card_area.astype(bool)
    assert over_card.any()
    # ... and the thumb, under the card, is hidden by it.
    assert not drawing.under.is_empty
    thumb_in_card = drawing.under.mask(frame.shape, 0.5) & card_area.astype(bool) & ~over_card
    assert thumb_in_card.any()
    assert np.all(frame[thumb_in_card] == CARD_BGR)


def test_no_card_is_asked_for_when_the_hand_holds_none() -> None:
    calls: list[np.ndarray] = []
    drawing = draw_arm(table(), reaching("flat", card_size=(40.0, 64.0)), LOOK, lambda f, c: calls.append(c))
    assert calls == []
    assert drawing.card_corners is None


def test_drawing_is_deterministic_and_looks_differ_by_seed() -> None:
    first, again = table(), table()
    draw_arm(first, reaching("open"), LOOK)
    draw_arm(again, reaching("open"), LOOK)
    assert np.array_equal(first, again)
    looks = {Look.random(np.random.default_rng(seed)) for seed in range(12)}
    assert Look.random(np.random.default_rng(3)) == Look.random(np.random.default_rng(3))
    assert len({look.skin_bgr for look in looks}) > 5
    assert len({look.sleeve_bgr for look in looks}) > 5


def test_skin_tone_shows_on_the_back_of_the_hand() -> None:
    for skin in [(170, 196, 236), (42, 58, 92)]:
        frame = table()
        draw_arm(frame, reaching(shadow=0.0), Look(skin, (30, 30, 30), 0.0))
        patch = frame[135:146, 160:171].reshape(-1, 3).mean(axis=0)
        assert np.abs(patch - skin).max() < 0.45 * max(skin)


def test_motion_blur_widens_the_arm_and_an_arm_outside_the_frame_draws_nothing() -> None:
    shape = (240, 320, 3)
    still = render_arm(shape, reaching(), LOOK).mask(shape).sum()
    moving = render_arm(shape, reaching(blur=(12.0, 0.0)), LOOK).mask(shape).sum()
    assert moving > still * 1.05
    frame = table()
    before = frame.copy()
    drawing = draw_arm(frame, reaching(entry=(-500.0, -500.0), hand=(-400.0, -450.0)), LOOK)
    assert np.array_equal(frame, before)
    assert not drawing.touched(frame.shape).any()


def test_the_draw_order_puts_the_held_card_between_hand_layers_and_the_sensor_last() -> None:
    order = list(DRAW_ORDER)
    assert order.index("hand under the held card") < order.index("held card")
    assert order.index("held card") < order.index("hand and forearm over the card")
    assert order[-1] == "sensor"


@pytest.mark.parametrize(("changes", "words"), [
    ({"scale": 0.0}, "scale"),
    ({"grip": "fist"}, "flat, open, holding"),
    ({"hand": (float("nan"), 3.0)}, "hand"),
    ({"card_size": (0.0, 50.0)}, "card_size"),
    ({"shadow": 1.5}, "shadow"),
])
def test_bad_poses_are_refused_naming_what_is_wrong(changes: dict[str, object], words: str) -> None:
    with pytest.raises(PeopleError, match=words) as caught:
        reaching(**changes)
    assert isinstance(caught.value, VisionError)


def test_a_frame_that_is_not_bgr_uint8_is_refused() -> None:
    with pytest.raises(PeopleError, match="uint8"):
        draw_arm(table().astype(np.float32), reaching(), LOOK)


def test_head_shadows_only_darken_drift_slowly_and_do_not_depend_on_call_order() -> None:
    shadows = HeadShadows.from_rng(np.random.default_rng(1), [(160.0, 260.0), (-20.0, 120.0)], (320, 240), 10)
    base = np.full((240, 320, 3), 200, np.uint8)
    frames = []
    for index in (0, 1, 50):
        frame = base.copy()
        shadows.apply(frame, index)
        frames.append(frame.astype(int))
    assert all((frame <= 200).all() for frame in frames)
    assert (frames[0] < 190).any()
    step = np.abs(frames[1] - frames[0]).max()
    assert step < 10                                   # a tenth of a second moves a shadow a little
    assert np.abs(frames[2] - frames[0]).max() > step   # five seconds move it more
    later = base.copy()
    shadows.apply(later, 1)
    assert np.array_equal(later.astype(int), frames[1])


def test_head_shadow_arguments_are_checked() -> None:
    with pytest.raises(PeopleError, match="darkness"):
        HeadShadows.from_rng(np.random.default_rng(1), [(0.0, 0.0)], (320, 240), 10, darkness=2.0)


def test_covered_fraction_says_how_much_of_a_card_the_arm_hides() -> None:
    shape = (240, 320, 3)
    drawing = render_arm(shape, reaching(), LOOK)
    under_hand = np.array([[150.0, 125.0], [180.0, 125.0], [180.0, 155.0], [150.0, 155.0]])
    far_away = under_hand - np.array([130.0, 110.0])
    half_under = np.array([[165.0, 125.0], [235.0, 125.0], [235.0, 155.0], [165.0, 155.0]])
    assert drawing.covered_fraction(under_hand) > 0.95
    assert drawing.covered_fraction(far_away) == 0.0
    occlusion = drawing.occlusion(shape)
    inside = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, half_under.astype(np.int32), 1)
    expected = np.count_nonzero(occlusion & inside.astype(bool)) / np.count_nonzero(inside)
    assert 0.1 < drawing.covered_fraction(half_under) < 0.9
    assert drawing.covered_fraction(half_under) == pytest.approx(expected, abs=0.05)


def test_a_hand_at_its_entry_point_or_at_the_frame_corner_still_draws() -> None:
    cases = [((160.0, 200.0), (160.0, 200.0)), ((0.0, 0.0), (3.0, 2.0)), ((330.0, 250.0), (300.0, 230.0))]
    for entry, hand in cases:
        frame = table()
        drawing = draw_arm(frame, reaching(entry=entry, hand=hand), Look.random(np.random.default_rng(1)))
        assert drawing.occlusion(frame.shape)[int(min(hand[1], 239)), int(min(hand[0], 319))]
