"""Finding the cards a player shows the camera one after another (``vision.clip_cards``), on clips the
scene renderer films (``vision.scene.showing``), and the clip's errors."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_render import synthetic_deck
from vision.clip_cards import (
    ClipError,
    EmptyTable,
    card_regions,
    exposure_change,
    find_shown_cards,
    is_clip_path,
    read_frames,
    unlike_table_mask,
)
from vision.decks import Deck
from vision.scene.render import RenderSettings
from vision.scene.showing import render_showing_clip, showing_renderer
from vision.scene.truth import read_truth

SHOWN = ("1c", "2d", "3s", "7b", "10c")


def rest_events(truth: Path) -> list[dict]:
    return read_truth(truth).of_kind("rest")


@pytest.fixture(scope="module")
def shown_clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Five cards of a deck drawn for tests, shown one after another at 1280x720 (normal preset)."""
    folder = tmp_path_factory.mktemp("shown")
    clip, truth = folder / "shown.mp4", folder / "shown.truth.jsonl"
    render_showing_clip(SHOWN, synthetic_deck(), RenderSettings(seed=11, size=(1280, 720)), clip, truth)
    return clip, truth


def test_the_search_of_a_clip_tells_how_far_it_has_gone(shown_clip: tuple[Path, Path]) -> None:
    clip, _ = shown_clip
    told: list[tuple[float, float | None]] = []
    found = find_shown_cards(clip, lambda done, total: told.append((done, total)))
    length = found.frame_count / found.fps
    assert told[-1] == (length, length)
    seconds = [done for done, _ in told[:-1]]
    assert seconds == [float(s) for s in range(1, len(seconds) + 1)]  # once a second of clip
    assert len(seconds) == int(length - 1e-9) and {total for _, total in told[:-1]} == {length}
    assert [card.frame for card in found.cards] == [card.frame for card in find_shown_cards(clip).cards]


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance over the card's width, whichever corner each list starts from."""
    width = float(np.linalg.norm(truth[0] - truth[1]))
    return min(float(np.abs(np.roll(truth, k, axis=0) - found).max()) for k in range(4)) / width


def test_every_card_shown_is_found_once_in_order_where_it_lay(shown_clip: tuple[Path, Path]) -> None:
    clip, truth = shown_clip
    found = find_shown_cards(clip)
    rests = rest_events(truth)
    assert [event["card"] for event in rests] == list(SHOWN)
    assert len(found.cards) == len(SHOWN)
    for card, rest in zip(found.cards, rests, strict=True):
        assert rest["frame"] <= card.first_frame <= card.frame <= card.last_frame
        assert corner_error(card.corners, np.array(rest["corners"])) < 0.25
        assert card.crop.shape[0] > card.crop.shape[1]  # upright: portrait
    assert found.fps == 10.0 and found.time_of(25) == "0:02.5"


COLOURS = {"1c": (40, 40, 200), "2d": (0, 200, 230), "3s": (180, 60, 20), "7b": (30, 140, 30),
           "10c": (160, 40, 160)}  # BGR


def coloured_deck() -> Deck:
    """The test deck with each card of ``SHOWN`` painted all over in its own colour."""
    deck = synthetic_deck()
    faces = dict(deck.faces)
    for code, colour in COLOURS.items():
        face = np.empty_like(faces[code])
        face[:] = colour
        faces[code] = face
    return replace(deck, faces=faces)


def test_each_crop_shows_the_card_that_lay_there(tmp_path: Path) -> None:
    clip = tmp_path / "coloured.mp4"
    render_showing_clip(SHOWN, coloured_deck(), RenderSettings(seed=4, size=(1280, 720)), clip)
    found = find_shown_cards(clip)
    seen = []
    for card in found.cards:
        height, width = card.crop.shape[:2]
        middle = card.crop[height // 4: 3 * height // 4, width // 4: 3 * width // 4].reshape(-1, 3)
        colour = np.median(middle, axis=0)
        seen.append(min(COLOURS, key=lambda code: float(np.linalg.norm(colour - COLOURS[code]))))
    assert seen == list(SHOWN)


def test_the_showing_choreography_is_deterministic_and_takes_about_two_seconds_a_card() -> None:
    settings = RenderSettings(seed=5, size=(1280, 720))
    first = showing_renderer(SHOWN, synthetic_deck(), settings)
    again = showing_renderer(SHOWN, synthetic_deck(), settings)
    assert first.truth_events() == again.truth_events()
    seconds_per_card = (first.frame_count / settings.fps - 2.0) / len(SHOWN)
    assert 1.5 <= seconds_per_card <= 2.2
    assert first.timeline.camera_bump_frame is None


def test_a_deck_shown_briskly_takes_under_a_minute_and_every_card_is_found(tmp_path: Path) -> None:
    settings = RenderSettings(seed=11, size=(1280, 720))
    brisk = showing_renderer(SHOWN, synthetic_deck(), settings, pace=0.7)
    seconds_per_card = (brisk.frame_count / settings.fps - 2.0) / len(SHOWN)
    assert 40 * seconds_per_card + 2.0 < 60.0
    clip, truth = tmp_path / "svelto.mp4", tmp_path / "svelto.jsonl"
    render_showing_clip(SHOWN, synthetic_deck(), settings, clip, truth, pace=0.7)
    found = find_shown_cards(clip)
    rests = rest_events(truth)
    assert len(found.cards) == len(SHOWN)
    for card, rest in zip(found.cards, rests, strict=True):
        assert rest["frame"] - 1 <= card.first_frame <= card.frame <= card.last_frame
        assert corner_error(card.corners, np.array(rest["corners"])) < 0.25


@pytest.mark.parametrize("pace", [0.1, 2.5, float("nan")])
def test_a_pace_no_hand_could_keep_is_named(pace: float) -> None:
    with pytest.raises(ValueError, match=rf"pace {pace!r} is not between 0.3 and 2.0"):
        showing_renderer(SHOWN, synthetic_deck(), RenderSettings(seed=1), pace=pace)


def test_a_phone_clip_at_thirty_frames_a_second_is_searched_ten_times_a_second(tmp_path: Path) -> None:
    clip = tmp_path / "telefono.mp4"
    render_showing_clip(SHOWN[:3], synthetic_deck(), RenderSettings(seed=8, size=(1280, 720), fps=30.0), clip)
    found = find_shown_cards(clip)
    assert found.fps == 30.0
    assert len(found.cards) == 3
    assert all(card.frame % 3 == 0 for card in found.cards)
    assert [index for index, _ in read_frames(clip, every=3)][:4] == [0, 3, 6, 9]


def test_an_empty_table_shows_no_card(tmp_path: Path) -> None:
    clip = tmp_path / "empty.mp4"
    render_showing_clip((), synthetic_deck(), RenderSettings(seed=2, size=(1280, 720)), clip)
    found = find_shown_cards(clip)
    assert found.cards == () and found.frame_count == 20


def test_card_regions_are_card_shaped_marks_and_not_round_or_thin_ones() -> None:
    mask = np.zeros((540, 960), np.uint8)
    cv2.rectangle(mask, (400, 200), (440, 265), 255, -1)  # a card 41x66
    cv2.circle(mask, (700, 300), 40, 255, -1)  # round: no card
    cv2.rectangle(mask, (100, 100), (300, 115), 255, -1)  # a long thin strip: no card
    cv2.rectangle(mask, (600, 40), (641, 106), 255, -1)  # a card-shaped outline around a spread hand:
    cv2.rectangle(mask, (608, 48), (633, 98), 0, -1)  # half of it empty, open on one side
    cv2.rectangle(mask, (630, 48), (641, 98), 0, -1)
    regions = card_regions(mask)
    assert len(regions) == 1
    assert np.allclose(regions[0].box[0], (420, 232.5), atol=1.5)
    assert card_regions(np.zeros((540, 960), np.uint8)) == []


def test_a_card_on_a_grained_table_is_cut_to_its_paper_not_to_the_grain_joined_to_it() -> None:
    mask = np.zeros((540, 960), np.uint8)
    card = cv2.boxPoints(((480, 270), (60, 95), 10)).astype(np.float32)  # turned 10 degrees
    cv2.fillPoly(mask, [card.astype(np.int32)], 255)  # paper unlike the wood all over
    for y in (215, 240, 300, 322):
        cv2.line(mask, (380, y), (600, y), 255, 1)  # grain lines across it, joined to it by the grouping
    regions = card_regions(mask)
    assert len(regions) == 1
    assert corner_error(regions[0].corners(), card) < 0.05  # the grain tilted the box: 0.14


def test_a_card_found_only_by_its_outline_keeps_its_region() -> None:
    mask = np.zeros((540, 960), np.uint8)
    card = cv2.boxPoints(((480, 270), (60, 95), 10)).astype(np.float32)
    cv2.polylines(mask, [card.astype(np.int32)], True, 255, 2)  # a white card on a cream cloth
    cv2.circle(mask, (480, 270), 10, 255, -1)  # its one pip: a solid part, but no card
    regions = card_regions(mask)
    assert len(regions) == 1
    assert corner_error(regions[0].corners(), card) < 0.05


def test_a_cloths_faint_print_in_a_noisy_frame_neither_marks_the_table_nor_joins_the_card() -> None:
    table = np.full((540, 960, 3), 70, np.uint8)
    for x in range(60, 960, 120):
        for y in range(60, 540, 120):
            cv2.circle(table, (x, y), 40, (76, 76, 76), 2, cv2.LINE_AA)  # a damask, its lines just too faint
    frame = np.clip(table + np.random.default_rng(3).normal(0, 2.5, table.shape), 0, 255).astype(np.uint8)
    empty = EmptyTable.from_image(table)
    assert (unlike_table_mask(frame, empty) > 0).mean() < 0.001  # with the frame's thresholds: 2.4%
    cv2.rectangle(frame, (450, 220), (510, 315), (230, 230, 230), -1)  # a card over one of its circles
    regions = card_regions(unlike_table_mask(frame, empty))
    assert len(regions) == 1
    assert sorted(regions[0].box[1]) == pytest.approx([64, 99], abs=3)  # joined to the circle: 106x144


def two_tone_cloth() -> np.ndarray:
    """A white cloth with purple squares, 22 px every 32 (47% of it): its median is the white's."""
    cloth = np.full((540, 960, 3), (232, 230, 228), np.uint8)
    for x in range(0, 960, 32):
        for y in range(0, 540, 32):
            cloth[y:y + 22, x:x + 22] = (110, 40, 100)
    return cloth


def test_a_sleeve_over_a_two_tone_cloth_does_not_light_up_the_cloth() -> None:
    table = two_tone_cloth()
    empty = EmptyTable.from_image(table)
    frame = np.clip(table + np.random.default_rng(5).normal(0, 2.0, table.shape), 0, 255).astype(np.uint8)
    frame[240:, 380:580] = (40, 45, 70)  # a dark sleeve from the bottom edge: 12% of the frame
    lab, table_lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB), cv2.cvtColor(table, cv2.COLOR_BGR2LAB)
    assert np.median(lab[:, :, 0]) < np.median(table_lab[:, :, 0]) / 2  # the frame's median: a purple's
    assert exposure_change(lab[:, :, 0].astype(np.float32), table_lab[:, :, 0].astype(np.float32)) == (
        pytest.approx(1.0, abs=0.02))
    unlike = unlike_table_mask(frame, empty) > 0
    unlike[230:, 370:590] = False  # the sleeve and its edge
    assert unlike.mean() < 0.002  # with the medians' ratio as the exposure's change: 87%


def test_a_darker_exposure_is_matched_before_the_frame_is_compared() -> None:
    table = two_tone_cloth()
    darker = (table * 0.85).astype(np.uint8)
    lab, table_lab = cv2.cvtColor(darker, cv2.COLOR_BGR2LAB), cv2.cvtColor(table, cv2.COLOR_BGR2LAB)
    assert exposure_change(lab[:, :, 0].astype(np.float32), table_lab[:, :, 0].astype(np.float32)) < 0.95
    assert (unlike_table_mask(darker, EmptyTable.from_image(table)) > 0).mean() < 0.002


def test_a_black_table_gives_no_exposure_change_to_match() -> None:
    black = np.zeros((60, 80), np.float32)
    assert exposure_change(black + 40.0, black) == 1.0


def test_a_card_shaped_mark_cut_off_by_the_frames_edge_is_no_card() -> None:
    for left, top in ((0, 200), (919, 200), (400, 0), (400, 474), (400, 471)):
        mask = np.zeros((540, 960), np.uint8)
        cv2.rectangle(mask, (left, top), (left + 40, top + 65), 255, -1)  # 41x66: a card's shape
        touches = left in (0, 919) or top in (0, 474)
        assert len(card_regions(mask)) == (0 if touches else 1), (left, top)


def card_with_a_corner_like_the_cloth(bite: int) -> np.ndarray:
    """A mask of a card 46 x 63 px whose top left corner, ``bite`` px along each side, was not told
    from the cloth (white paper over a white square of a checked cloth)."""
    mask = np.zeros((540, 960), np.uint8)
    cv2.rectangle(mask, (458, 239), (503, 301), 255, -1)
    cv2.fillPoly(mask, [np.array([[458, 239], [458 + bite, 239], [458, 239 + bite]], np.int32)], 0)
    return mask


def test_a_card_with_a_corner_like_the_cloth_is_still_a_card() -> None:
    (region,) = card_regions(card_with_a_corner_like_the_cloth(26))  # its hull fills 87% of its box
    assert sorted(region.box[1]) == pytest.approx([45, 62], abs=1.5)
    assert card_regions(card_with_a_corner_like_the_cloth(32)) == []  # 82%: a ragged thing, no card


def card_with_a_side_like_the_cloth(depth: int, height: int = 22) -> np.ndarray:
    """A mask of a card 46 x 63 px with a bite ``depth`` px deep and ``height`` px high into its right
    side, paper not told from the cloth (a white card half on a white square, its outline there unseen)."""
    mask = np.zeros((540, 960), np.uint8)
    cv2.rectangle(mask, (458, 239), (503, 301), 255, -1)
    cv2.rectangle(mask, (503 - depth, 260), (503, 259 + height), 0, -1)
    return mask


def test_a_card_with_a_bite_of_paper_like_the_cloth_is_still_a_card() -> None:
    (region,) = card_regions(card_with_a_side_like_the_cloth(18))  # fills 84% of its hull
    assert sorted(region.box[1]) == pytest.approx([45, 62], abs=1.5)
    # 78% of its hull: filled again with gaps up to half its side bridged (a card on checks shown briskly)
    (region,) = card_regions(card_with_a_side_like_the_cloth(26))
    assert sorted(region.box[1]) == pytest.approx([45, 62], abs=1.5)
    assert card_regions(card_with_a_side_like_the_cloth(26, height=30)) == []  # more bite than card
    assert card_regions(card_with_a_side_like_the_cloth(40)) == []  # a hook, nearly cut through


def test_a_turned_card_with_ragged_corners_is_boxed_turned_as_it_lies() -> None:
    """The mask of a card with a dark border lying turned 12 degrees on a damask (``tests/data``): its
    corners missed and a stray line joined to it. Cut square to the frame, its filled shape's smallest
    box came out upright, the card askew in its crop."""
    picture = Path(__file__).parent / "data" / "clip_mask_turned_card.png"
    patch = cv2.imread(str(picture), cv2.IMREAD_GRAYSCALE)
    mask = np.zeros((540, 960), np.uint8)
    mask[204:304, 426:526] = patch
    (region,) = card_regions(mask)
    turn = region.box[2] % 90
    assert 9 <= min(turn, 90 - turn) <= 15  # the card lies 12.3 degrees off the frame's axes
    assert sorted(region.box[1]) == pytest.approx([43.4, 56.4], abs=2.5)


def test_a_missing_clip_is_named(tmp_path: Path) -> None:
    with pytest.raises(ClipError, match=r"nothing\.mp4: no such clip"):
        find_shown_cards(tmp_path / "nothing.mp4")


def test_a_file_that_is_no_video_is_named(tmp_path: Path) -> None:
    fake = tmp_path / "fake.mp4"
    fake.write_text("not a video\n")
    with pytest.raises(ClipError, match=r"fake\.mp4: (not a video OpenCV can read|the clip holds no frame)"):
        find_shown_cards(fake)


def test_a_truncated_clip_gives_the_frames_it_has(shown_clip: tuple[Path, Path], tmp_path: Path) -> None:
    """A clip cut short (a phone's recording stopped, a copy broken off) is read up to where it stops."""
    whole = shown_clip[0].read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(whole[: len(whole) // 2])
    try:
        frames = sum(1 for _ in read_frames(cut))  # (index, frame) pairs
    except ClipError as error:
        assert "cut.mp4" in str(error)
    else:
        assert frames < sum(1 for _ in read_frames(shown_clip[0]))


def test_clip_paths_are_known_by_suffix() -> None:
    assert is_clip_path(Path("mazzo.MP4")) and is_clip_path(Path("a/b.mkv")) and is_clip_path(Path("x.mov"))
    assert not is_clip_path(Path("3c.jpg")) and not is_clip_path(Path("foto"))


PHONE_CLIP = Path(__file__).parent / "data" / "hevc-10bit-turned.mov"


def test_a_phones_hevc_clip_is_read_turned_as_the_phone_shows_it() -> None:
    assert is_clip_path(Path("IMG_0001.MOV"))
    frames = list(read_frames(PHONE_CLIP))
    assert len(frames) == 10
    assert all(frame.shape == (320, 176, 3) for _, frame in frames)  # stored 320x176, shown upright
