"""The table scene renderer: camera, layout, script, choreography, frames and truth (vision.scene)."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.decks import Deck
from vision.scene.camera import Camera, CameraError, parse_size
from vision.scene.difficulty import DifficultyError, get_difficulty
from vision.scene.drawn_deck import drawn_deck
from vision.scene.layout import LayoutError, make_layout
from vision.scene.render import RenderSettings, SceneRenderer, card_corners
from vision.scene.script import ScriptError, script_from_score
from vision.scene.truth import TruthError, read_truth, write_truth


def synthetic_deck(name: str = "synthetic", with_back: bool = True) -> Deck:
    """Forty white cards with a coloured border and the code printed large (no artwork needed)."""
    return drawn_deck(name, with_back)


TRICKS = [
    {"leader": 0, "cards": ["5b", "1b", "9b", "4b"], "winner": 1},
    {"leader": 1, "cards": ["3c", "2c", "7c", "1c"], "winner": 1},
    {"leader": 1, "cards": ["10d", "3d", "4d", "5d"], "winner": 2},
]


def four_seat_score(tricks: int = 2) -> dict:
    """A hand-written classic hand: its first ``tricks`` tricks."""
    return {"hands": [{"dealer": 3, "tricks": TRICKS[:tricks]}]}


def renderer(difficulty: str = "easy", seed: int = 3, tricks: int = 1, fps: float = 5.0) -> SceneRenderer:
    script = script_from_score(four_seat_score(tricks), 4)
    return SceneRenderer(script, synthetic_deck(), RenderSettings(seed=seed, difficulty=difficulty, fps=fps))


# ---------------------------------------------------------------- camera

def test_parse_size_accepts_the_two_camera_sizes() -> None:
    assert parse_size("1280x720") == (1280, 720)
    assert parse_size(" 1920X1080 ") == (1920, 1080)


@pytest.mark.parametrize("text", ["big", "1280", "1280x", "640x480", "x720", ""])
def test_parse_size_names_the_bad_input(text: str) -> None:
    with pytest.raises(CameraError, match="size"):
        parse_size(text)


def test_straight_down_camera_sees_the_table_centre_in_the_middle_and_seat_zero_below() -> None:
    camera = Camera(1280, 720, 100.0, 66.0)
    centre, near_seat_zero, right = camera.project(np.array([[0.0, 0.0], [0.0, -20.0], [20.0, 0.0]]))
    assert np.allclose(centre, [640, 360])
    assert near_seat_zero[1] > 360 and abs(near_seat_zero[0] - 640) < 1e-6
    assert right[0] > 640


def test_tilt_beyond_twenty_degrees_is_refused() -> None:
    with pytest.raises(CameraError, match="tilt"):
        Camera(1280, 720, 100.0, 66.0, tilt_deg=25.0)


def test_lens_distortion_moves_pixels_exactly_where_project_says() -> None:
    camera = Camera(1280, 720, 100.0, 66.0, tilt_deg=12.0, roll_deg=5.0, k1=-0.15, k2=-0.03)
    points = np.array([[30.0, 20.0, 0.0], [-35.0, -18.0, 0.0], [5.0, 25.0, 6.0]])
    width, height = camera.canvas_size
    for point, expected in zip(points, camera.project(points), strict=True):
        canvas = np.zeros((height, width), np.float32)
        x, y = camera.project_ideal(point[None])[0]
        cv2.circle(canvas, (round(x * 16), round(y * 16)), 3 * 16, 1.0, -1, cv2.LINE_AA, shift=4)
        maps = camera.distort_maps()
        assert maps is not None
        frame = cv2.remap(canvas, maps[0], maps[1], cv2.INTER_LINEAR)
        ys, xs = np.nonzero(frame > 0.01)
        weights = frame[ys, xs]
        centroid = np.array([np.average(xs, weights=weights), np.average(ys, weights=weights)])
        assert np.linalg.norm(centroid - expected) < 1.0


def test_camera_round_trips_through_its_json() -> None:
    camera = Camera(1920, 1080, 110.0, 66.0, 8.0, -3.0, 1.0, -2.0, -0.05, -0.01)
    assert Camera.from_json(camera.to_json()) == camera
    with pytest.raises(CameraError, match="bad camera"):
        Camera.from_json({"width": 1280})


# ---------------------------------------------------------------- layout, difficulty, script

@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_seat_count_has_distinct_play_spots_and_piles_on_the_table(seats: int) -> None:
    layout = make_layout(seats)
    assert len(layout.seats) == seats
    assert layout.seats[0].edge.y < 0 and abs(layout.seats[0].edge.x) < 1e-9  # seat 0 at the bottom
    spots = {(round(s.play.x, 3), round(s.play.y, 3)) for s in layout.seats}
    assert len(spots) == seats
    for seat in layout.seats:
        assert abs(seat.pile.x) < layout.half and abs(seat.pile.y) < layout.half
    assert (layout.stock is not None) == (seats == 2)


def test_seats_go_round_counter_clockwise_as_the_camera_sees_them() -> None:
    layout = make_layout(4)
    assert layout.seats[1].edge.x > 0  # seat 1 to the right of seat 0
    assert layout.seats[2].edge.y > 0  # seat 2 opposite


def test_bad_seat_counts_and_difficulties_are_refused() -> None:
    with pytest.raises(LayoutError, match="6 players"):
        make_layout(6)
    with pytest.raises(LayoutError, match="dummy seat 7"):
        make_layout(4, dummy_seat=7)
    with pytest.raises(DifficultyError, match="'brutal'"):
        get_difficulty("brutal")


def test_script_follows_the_score_leader_and_play_order() -> None:
    script = script_from_score(four_seat_score(2), 4)
    second = script.hands[0].tricks[1]
    assert second.plays == ((1, "3c"), (2, "2c"), (3, "7c"), (0, "1c"))
    assert second.winner == 1


def test_draws_are_placed_after_the_trick_they_follow() -> None:
    score = {"hands": [{"dealer": 1, "tricks": [{"leader": 0, "cards": ["3c", "4c"], "winner": 0},
                                                {"leader": 0, "cards": ["2c", "5c"], "winner": 0}]}]}
    script = script_from_score(score, 2, draws=[(2, 0, "7d"), (2, 1, "1s"), (4, 0, "6d"), (4, 1, "2s")])
    hand = script.hands[0]
    assert [(d.seat, d.card) for d in hand.draws_after[0]] == [(0, "7d"), (1, "1s")]
    assert hand.stock == ("7d", "1s", "6d", "2s")


@pytest.mark.parametrize(("score", "message"), [
    ({}, "no 'hands'"),
    ({"hands": [{"tricks": [{"leader": 0, "cards": ["3c", "zz"], "winner": 0}]}]}, "hand 1, trick 1.*'zz'"),
    ({"hands": [{"tricks": [{"leader": 9, "cards": ["3c"], "winner": 0}]}]}, "'leader' must be a seat"),
    ({"hands": [{"tricks": [{"leader": 0, "cards": [], "winner": 0}]}]}, "'cards'"),
    ({"hands": ["nope"]}, "hand 1"),
])
def test_bad_score_objects_name_the_hand_trick_and_key(score: dict, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        script_from_score(score, 4)


# ---------------------------------------------------------------- choreography and truth

def test_truth_lists_every_card_once_at_its_seat_in_play_order_and_pickups_match_winners() -> None:
    scene = renderer(tricks=3, fps=10.0)
    events = scene.truth_events()
    rests = [e for e in events if e["event"] == "rest"]
    expected = [((t["leader"] + i) % 4, code) for t in TRICKS for i, code in enumerate(t["cards"])]
    assert [(e["seat"], e["card"]) for e in rests] == expected
    assert Counter(e["card"] for e in rests).most_common(1)[0][1] == 1
    pickups = [e for e in events if e["event"] == "pickup"]
    assert [p["winner"] for p in pickups] == [t["winner"] for t in TRICKS]
    assert [p["cards"] for p in pickups] == [t["cards"] for t in TRICKS]
    for pickup, trick in zip(pickups, range(3), strict=True):
        last_rest = max(e["frame"] for e in rests if e["trick"] == trick)
        assert pickup["frame"] > last_rest
    frames = [e["frame"] for e in events]
    assert frames == sorted(frames)
    assert max(frames) < scene.frame_count


def test_the_card_is_held_still_about_a_second_before_it_lands() -> None:
    scene = renderer(fps=10.0)
    card = scene.timeline.cards[0]
    held = [k for a, k in zip(card.keys, card.keys[1:], strict=False) if a.pose == k.pose and k.pose.z > 1]
    assert held, "the card never hangs still above the table"
    still = next((b.frame - a.frame) for a, b in zip(card.keys, card.keys[1:], strict=False)
                 if a.pose == b.pose and a.pose.z > 1)
    assert 7 <= still <= 13


def test_two_player_clip_shows_each_drawn_card_after_its_trick() -> None:
    score = {"hands": [{"dealer": 1, "tricks": [{"leader": 0, "cards": ["3c", "4c"], "winner": 0},
                                                {"leader": 0, "cards": ["2c", "5c"], "winner": 0}]}]}
    script = script_from_score(score, 2, draws=[(2, 0, "7d"), (2, 1, "1s"), (4, 0, "6d"), (4, 1, "2s")])
    scene = SceneRenderer(script, synthetic_deck(), RenderSettings(seed=1, difficulty="easy", fps=5.0))
    events = scene.truth_events()
    kinds = [e["event"] for e in events if e["event"] != "hand_end"]
    assert kinds == ["rest", "rest", "pickup", "draw", "draw", "rest", "rest", "pickup", "draw", "draw"]
    assert [(e["seat"], e["card"]) for e in events if e["event"] == "draw"] == [
        (0, "7d"), (1, "1s"), (0, "6d"), (1, "2s")]


def test_morto_lays_the_dummy_cards_face_up_and_its_plays_come_from_the_row() -> None:
    dummy_wins = {"leader": 1, "cards": ["6c", "7c", "3c", "5c"], "winner": 3}
    score = {"hands": [{"dealer": 2, "tricks": [TRICKS[0], dummy_wins]}]}
    script = script_from_score(score, 4, dummy_seat=3)
    scene = SceneRenderer(script, synthetic_deck(), RenderSettings(seed=1, difficulty="easy", fps=5.0))
    dummy_card = next(c for c in scene.timeline.cards if c.code == "4b")
    assert dummy_card.keys[0].pose.face_up and dummy_card.keys[0].frame < 10
    rest = next(e for e in scene.truth_events() if e.get("card") == "4b")
    assert rest["seat"] == 3
    dummy_hands = [h for h in scene.timeline.hands if h.seat == 3]
    assert not dummy_hands, "the dummy has no hands of its own: its partner plays and collects for it"
    assert [e["winner"] for e in scene.truth_events() if e["event"] == "pickup"] == [1, 3]


def test_truth_file_round_trips_and_bad_files_name_the_line(tmp_path) -> None:
    scene = renderer()
    path = tmp_path / "clip.truth.jsonl"
    write_truth(path, scene.truth_header("clip.jsonl"), scene.truth_events())
    truth = read_truth(path)
    assert truth.header["frames"] == scene.frame_count and truth.header["deck"] == "synthetic"
    assert len(truth.of_kind("rest")) == 4 and len(truth.of_kind("pickup")) == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().splitlines()[0] + '\n{"frame": 3, "event": "explode"}\n')
    with pytest.raises(TruthError, match=r"bad.jsonl:2: unknown 'event' 'explode'"):
        read_truth(bad)
    bad.write_text('{"truth": 1}\n')
    with pytest.raises(TruthError, match="header lacks 'record'"):
        read_truth(bad)
    with pytest.raises(TruthError, match="cannot read"):
        read_truth(tmp_path / "missing.jsonl")


# ---------------------------------------------------------------- frames

def test_the_same_seed_gives_byte_identical_frames_and_another_seed_does_not() -> None:
    first, second, other = renderer("normal", seed=5), renderer("normal", seed=5), renderer("normal", seed=6)
    for frame in range(0, 40):
        a, b = first.render_frame(frame), second.render_frame(frame)
        assert a.shape == (720, 1280, 3) and a.dtype == np.uint8
        assert np.array_equal(a, b), f"frame {frame} differs between two renders with the same seed"
    assert not np.array_equal(first.render_frame(40), other.render_frame(40))
    assert first.truth_events() == second.truth_events()


def _frame_without_arms(scene: SceneRenderer, start: int) -> int:
    for frame in range(start, scene.frame_count):
        if scene.arms_in_view(frame) == 0:
            return frame
    raise AssertionError("no frame without arms after the card landed")


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_truth_corners_enclose_the_resting_card_pixels(difficulty: str) -> None:
    scene = renderer(difficulty, seed=2, fps=10.0)
    # Geometry only: tilt and lens distortion stay, the light track and head shadows go.
    scene.sensor, scene.heads = None, None
    rest = next(e for e in scene.truth_events() if e["event"] == "rest")
    frame = _frame_without_arms(scene, rest["frame"])
    image = scene.render_frame(frame).astype(np.int16)
    empty = scene.background_frame(frame).astype(np.int16)
    changed = (np.abs(image - empty).max(axis=2) > 40).astype(np.uint8)
    corners = np.array(rest["corners"], np.float32)
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    near = cv2.dilate(inside, np.ones((5, 5), np.uint8))  # 2 px of tolerance for anti-aliasing
    neighbourhood = cv2.dilate(inside, np.ones((61, 61), np.uint8))
    assert changed[(neighbourhood == 1) & (near == 0)].sum() == 0, "card pixels outside the truth corners"
    interior = cv2.erode(inside, np.ones((5, 5), np.uint8))
    assert changed[interior == 1].mean() > 0.6, "the truth corners enclose mostly empty table"
    top = corners[:2].mean(axis=0)
    bottom = corners[2:].mean(axis=0)
    assert top[1] < bottom[1], "seat 0's card should stand upright: its top edge towards the centre"


def test_a_deck_without_a_back_gets_a_drawn_one() -> None:
    script = script_from_score(four_seat_score(1), 4)
    scene = SceneRenderer(script, synthetic_deck(with_back=False), RenderSettings(difficulty="easy", fps=5.0))
    assert scene.textures.back.shape == scene.textures.faces["1c"].shape
    assert scene.textures.back[..., :3].std() > 10


def test_full_hd_frames_have_the_full_hd_size_and_proportionally_larger_cards() -> None:
    script = script_from_score(four_seat_score(1), 4)
    small = SceneRenderer(script, synthetic_deck(), RenderSettings(difficulty="easy", fps=5.0))
    full_hd = RenderSettings(difficulty="easy", fps=5.0, size=(1920, 1080))
    large = SceneRenderer(script, synthetic_deck(), full_hd)
    assert large.render_frame(3).shape == (1080, 1920, 3)
    first_small = np.array(small.truth_events()[0]["corners"])
    first_large = np.array(large.truth_events()[0]["corners"])
    assert np.allclose(first_large, first_small * 1.5, atol=0.5)


def test_after_the_camera_bump_corners_follow_the_new_camera() -> None:
    scene = renderer("hard", seed=4, tricks=3, fps=10.0)
    events = scene.truth_events()
    bump = next(e for e in events if e["event"] == "camera")
    assert bump["camera"] != scene.truth_header("x")["camera"]
    later = [e for e in events if e["event"] == "rest" and e["frame"] >= bump["frame"]]
    assert later, "the bump should fall before the last card lands"
    moved = Camera.from_json(bump["camera"])
    card = next(c for c in scene.timeline.cards if c.code == later[0]["card"])
    corners = card_corners(card.pose_at(later[0]["frame"]), scene.textures.width_cm, scene.textures.height_cm)
    assert np.allclose(moved.project(corners), later[0]["corners"], atol=0.01)


def test_rest_events_say_how_much_of_the_card_the_releasing_hand_still_hides() -> None:
    rests = [e for e in renderer("normal", tricks=2, fps=10.0).truth_events() if e["event"] == "rest"]
    shares = [e["occluded"] for e in rests]
    assert all(0.0 <= share <= 1.0 for share in shares)
    assert max(shares) > 0.0, "the hand that lets the card go is still over it when it lands"
