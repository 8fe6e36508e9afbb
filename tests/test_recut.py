"""A card lying askew in its crop, or with much table round it, found and cut again upright and close
(``vision.recut``), and crops rendered with the card turned inside them or with more table round it
(``CropSettings.tilt_degrees``, ``extra_margin``)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

import vision.crops
import vision.recut
from tests.test_classifier import checked_tablecloth
from vision import cutout
from vision.crops import CropSettings, _turned_in_crop, _with_more_table, prepare_artwork, render_card_crop
from vision.cutout import MIN_CARD_IN_PHOTO, clockwise_from_top_left
from vision.recut import (
    ANALYSIS_SIDE,
    CARD_PROPORTION,
    MARGIN,
    MIN_HULL_SHARE,
    MIN_TILT_DEGREES,
    UPRIGHT_WITHIN_DEGREES,
    box_spans,
    card_by_middle_colours,
    corner_touching_boxes,
    is_lopsided,
    is_plainly_upright,
    is_resized_square,
    is_seen_at_an_angle,
    is_square_crop,
    recut,
    tilt_degrees,
    turned_card_hulls,
    turned_card_touching_sides,
)
from vision.training.evaluate import padded_to_a_square, seen_at_an_angle

CARD_H, CARD_W = 150, 96
TABLE = (40, 90, 40)  # BGR: green baize
RED = (40, 40, 200)


def card_face() -> np.ndarray:
    """A white card with a red block in its upper half: which way it stands can be told."""
    face = np.full((CARD_H, CARD_W, 3), 255, np.uint8)
    face[20:70, 20:76] = RED
    return face


def notched_card_face() -> np.ndarray:
    """``card_face`` with a notch the table's colour cut into each long side: print reaching the card's
    edge, which bites into the card's paper (which fills its box under 85%) but not into its hull."""
    face = card_face()
    face[90:130, :30] = TABLE
    face[90:130, -30:] = TABLE
    return face


def checked_cloth(side: int) -> np.ndarray:
    """A light checked cloth ``side`` pixels square, white and pale grey: a white card's paper merges
    with it, and its squares' edges are everywhere."""
    return checked_tablecloth(side, side, (235, 235, 235), (190, 190, 190), square=16)


def card_on_table(degrees: float, seed: int = 0, table: int = 4, face: np.ndarray | None = None,
                  noise: float = 6.0, cloth: Callable[[int], np.ndarray] | None = None) -> np.ndarray:
    """``face`` (``card_face``) turned by ``degrees`` on a green table noisy by ``noise`` (a standard
    deviation), or on ``cloth(side)``, in an upright crop cut round it with ``table`` pixels of table
    on every side."""
    side = int(np.hypot(CARD_H, CARD_W)) + 2 * table + 12
    rng = np.random.default_rng(seed)
    if cloth is None:
        green = np.array(TABLE, np.float32) + rng.normal(0, noise, (side, side, 3))
        canvas = np.clip(green, 0, 255).astype(np.uint8)
    else:
        canvas = cloth(side)
    turn = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), degrees, 1.0)
    turn[:, 2] += (side / 2 - CARD_W / 2, side / 2 - CARD_H / 2)
    face = cv2.warpAffine(card_face() if face is None else face, turn, (side, side), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((CARD_H, CARD_W), 255, np.uint8), turn, (side, side))[:, :, None] / 255.0
    scene = (canvas * (1 - mask) + face * mask).astype(np.uint8)
    ys, xs = np.nonzero(mask[:, :, 0] > 0.5)
    return scene[max(0, ys.min() - table):ys.max() + table + 1, max(0, xs.min() - table):xs.max() + table + 1]


@pytest.mark.parametrize(("angle", "tilt"), [(90.0, 0.0), (0.0, 0.0), (10.0, 10.0), (80.0, -10.0),
                                             (45.0, 45.0), (46.0, -44.0)])
def test_the_tilt_is_measured_from_the_nearest_upright_position(angle: float, tilt: float) -> None:
    assert tilt_degrees(((50.0, 50.0), (40.0, 60.0), angle)) == pytest.approx(tilt)


def assert_cut_upright_and_close(view: np.ndarray | None) -> None:
    """``view`` is the card cut upright with MARGIN round it: its size, and ``card_face``'s red block
    spanning whole rows in one half."""
    assert view is not None
    height, width = view.shape[:2]
    assert height == pytest.approx(CARD_H * (1 + 2 * MARGIN), abs=6)
    assert width == pytest.approx(CARD_W * (1 + 2 * MARGIN), abs=6)
    red = np.all(np.abs(view.astype(int) - RED) < 40, axis=2)
    rows = np.flatnonzero(red.mean(axis=1) > 0.5)
    # the red block spans whole rows again: the card stands upright (either way up)
    assert rows.size >= 40 and (rows.max() < height / 2 or rows.min() > height / 2)


@pytest.mark.parametrize("degrees", [8.0, -15.0, 25.0])
def test_a_card_lying_askew_comes_back_upright_with_a_little_table_round_it(degrees: float) -> None:
    view = recut(card_on_table(degrees))
    assert_cut_upright_and_close(view)
    assert view is not None
    height, width = view.shape[:2]
    inner = view[round(0.1 * height):round(0.9 * height), round(0.1 * width):round(0.9 * width)]
    assert np.mean(np.all(np.abs(inner.astype(int) - TABLE) < 30, axis=2)) < 0.01  # no table inside
    assert recut(view) is None  # and, upright now, is left as it is


@pytest.mark.parametrize("degrees", [20.0, 30.0, -35.0])
def test_a_turned_card_whose_print_bites_into_its_outline_is_found_by_its_hull(degrees: float) -> None:
    # On a coarse cloth the edges' hull takes in the cloth's weave too, so no guess has a card's shape.
    crop = card_on_table(degrees, face=notched_card_face(), noise=30.0)
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    paper, unlike = cutout.paper_mask(small), cutout.unlike_outer_ring_mask(small)
    assert cutout.card_shaped_regions(small, MIN_CARD_IN_PHOTO, paper, unlike=unlike) == []
    assert len(turned_card_hulls(paper, unlike)) >= 1
    assert_cut_upright_and_close(recut(crop))


@pytest.mark.parametrize("degrees", [25.0, -30.0, 35.0])
def test_a_turned_card_no_guess_finds_is_taken_to_touch_its_crops_four_sides(degrees: float) -> None:
    crop = card_on_table(degrees, table=0, cloth=checked_cloth)
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    paper, unlike = cutout.paper_mask(small), cutout.unlike_outer_ring_mask(small)
    assert cutout.card_shaped_regions(small, MIN_CARD_IN_PHOTO, paper, unlike=unlike) == []
    assert turned_card_hulls(paper, unlike) == []
    assert_cut_upright_and_close(recut(crop))


@pytest.mark.parametrize(("degrees", "table"), [(0.0, 30), (0.0, 40), (15.0, 40), (-10.0, 50), (30.0, 40)])
def test_a_loose_card_on_a_checked_cloth_is_told_by_the_colours_of_the_crops_middle(
    degrees: float, table: int,
) -> None:
    # The card's white paper merges with the cloth's white squares, the ring's median colour is one of
    # the cloth's two and the squares' edges are everywhere: no other guess finds it.
    crop = card_on_table(degrees, table=table, cloth=checked_cloth)
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    paper, unlike = cutout.paper_mask(small), cutout.unlike_outer_ring_mask(small)
    assert cutout.card_shaped_regions(small, MIN_CARD_IN_PHOTO, paper, unlike=unlike) == []
    assert turned_card_hulls(paper, unlike) == []
    assert card_by_middle_colours(crop) is not None
    # told by its colours before a square crop's card is taken to touch its sides, which this one does not
    assert_cut_upright_and_close(recut(crop))


@pytest.mark.parametrize("side", [120, 200, 333])
def test_a_bare_checked_cloth_shows_no_card_by_its_colours(side: int) -> None:
    assert card_by_middle_colours(checked_cloth(side)) is None
    assert card_by_middle_colours(checked_cloth(side)[: side * 3 // 4]) is None


def test_a_card_upright_and_close_is_not_cut_again_by_its_colours() -> None:
    crop = card_on_table(0.0, table=6, cloth=checked_cloth)
    assert not is_square_crop(crop)
    assert card_by_middle_colours(crop) is None


@pytest.mark.parametrize(("degrees", "landscape"),
                         [(10.0, False), (25.0, False), (40.0, False), (25.0, True)])
def test_the_boxes_touching_a_crops_four_sides_are_the_turned_cards(degrees: float, landscape: bool) -> None:
    width = 80.0
    turn = np.radians(degrees)
    across = width * (np.cos(turn) + CARD_PROPORTION * np.sin(turn))
    along = width * (np.sin(turn) + CARD_PROPORTION * np.cos(turn))
    crop_height, crop_width = (across, along) if landscape else (along, across)
    boxes = corner_touching_boxes(crop_height, crop_width)
    assert sorted(box[2] for box in boxes) == pytest.approx([-degrees, degrees])
    for box in boxes:
        card = (CARD_PROPORTION * width, width) if landscape else (width, CARD_PROPORTION * width)
        assert box[1] == pytest.approx(card)
        corners = cv2.boxPoints(box)
        assert tuple(corners.min(axis=0)) == pytest.approx((0.0, 0.0), abs=1e-3)
        assert tuple(corners.max(axis=0)) == pytest.approx((crop_width, crop_height), abs=1e-3)


@pytest.mark.parametrize(("height", "width"), [(155.0, 100.0), (200.0, 100.0), (100.0, 160.0)])
def test_no_box_touches_the_sides_of_a_crop_as_long_as_a_card(height: float, width: float) -> None:
    assert corner_touching_boxes(height, width) == []


def test_the_touching_box_taken_is_the_one_the_masks_agree_with() -> None:
    crop = np.zeros((177, 157, 3), np.uint8)
    for box in corner_touching_boxes(177, 157):
        paper = np.zeros((177, 157), np.uint8)
        cv2.fillPoly(paper, [np.round(cv2.boxPoints(box)).astype(np.int32)], 255)
        corners = turned_card_touching_sides(crop, (np.zeros_like(paper), paper), 1.0)
        assert corners is not None
        np.testing.assert_allclose(corners, clockwise_from_top_left(cv2.boxPoints(box)), atol=1e-3)
    long_crop = np.zeros((177, 120, 3), np.uint8)  # not square: an upright card with its margins
    assert turned_card_touching_sides(long_crop, (np.full((177, 120), 255, np.uint8),), 1.0) is None


@pytest.mark.parametrize(("height", "width", "guessed"),
                         [(224, 224, False), (200, 199, False), (224, 221, True), (221, 224, True)])
def test_no_card_is_guessed_from_the_shape_of_a_picture_resized_to_a_square(
        height: int, width: int, guessed: bool) -> None:
    """A picture resized to a square (sides within half a percent) shows a card stretched to fill it,
    upright; a crop a percent or more off square may be one cut round a card turned in it."""
    crop = np.zeros((height, width, 3), np.uint8)
    assert is_square_crop(crop) and is_resized_square(crop) is not guessed
    paper = np.full((height, width), 255, np.uint8)
    assert (turned_card_touching_sides(crop, (paper,), 1.0) is not None) is guessed


def _notched_card_mask(degrees: float, side: int = 200) -> np.ndarray:
    """The paper mask of ``notched_card_face`` turned by ``degrees`` in a ``side`` px square."""
    paper = np.where(np.all(notched_card_face() == TABLE, axis=2), 0, 255).astype(np.uint8)
    turn = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), degrees, 1.0)
    turn[:, 2] += (side / 2 - CARD_W / 2, side / 2 - CARD_H / 2)
    return cv2.warpAffine(paper, turn, (side, side), flags=cv2.INTER_NEAREST)


@pytest.mark.parametrize(("degrees", "is_taken"), [
    (30.0, True), (-12.0, True), (MIN_TILT_DEGREES + 0.5, True), (0.0, False), (MIN_TILT_DEGREES / 2, False)])
def test_a_hull_is_taken_for_a_card_only_where_it_stands_turned(degrees: float, is_taken: bool) -> None:
    paper = _notched_card_mask(degrees)
    region = cutout.largest_region(paper)
    assert region is not None and not region.has_card_shape(MIN_CARD_IN_PHOTO)  # bitten into
    hulls = turned_card_hulls(paper, np.zeros_like(paper))  # nothing unlike the outer ring
    assert len(hulls) == is_taken
    if is_taken:
        assert sorted(hulls[0].box[1]) == pytest.approx((CARD_W, CARD_H), abs=3)


def test_a_hull_covering_under_a_quarter_of_the_crop_is_not_taken() -> None:
    for side, is_taken in ((200, True), (236, True), (264, False), (400, False)):  # the card: 14,400 px
        paper = _notched_card_mask(30.0, side)
        hulls = turned_card_hulls(paper, np.zeros_like(paper))
        assert len(hulls) == is_taken, side
        assert all(hull.share >= MIN_HULL_SHARE for hull in hulls)


@pytest.mark.parametrize("degrees", [0.0, MIN_TILT_DEGREES / 3, -MIN_TILT_DEGREES / 2])
def test_a_card_standing_upright_is_left_as_it_is(degrees: float) -> None:
    assert recut(card_on_table(degrees)) is None


def test_a_card_with_much_table_round_it_is_cut_closer() -> None:
    crop = card_on_table(0.0, table=60)  # the card fills about a third of the crop
    view = recut(crop)
    assert view is not None
    assert view.shape[:2] == pytest.approx((CARD_H * (1 + 2 * MARGIN), CARD_W * (1 + 2 * MARGIN)), abs=6)
    assert recut(card_on_table(0.0, table=12)) is None  # a rough crop's margin is left as it is


def _no_other_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the guesses after the paper's fail the test if they are made."""
    def made(_small: np.ndarray) -> np.ndarray:
        raise AssertionError("the guesses after the paper's were made")
    monkeypatch.setattr(cutout, "unlike_outer_ring_mask", made)
    monkeypatch.setattr(vision.recut, "unlike_outer_ring_mask", made)
    monkeypatch.setattr(cutout, "_outline_mask", made)


def test_a_card_whose_paper_shows_it_upright_and_close_is_settled_by_the_paper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crop = card_on_table(UPRIGHT_WITHIN_DEGREES / 2, table=12)
    assert is_plainly_upright(cutout.largest_region(cutout.paper_mask(crop)))
    _no_other_guess(monkeypatch)
    assert recut(crop) is None


@pytest.mark.parametrize(("degrees", "table"), [(10.0, 12), (2.0, 12), (0.0, 60)])
def test_a_card_askew_or_loose_is_not_settled_by_the_paper(
    degrees: float, table: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    crop = card_on_table(degrees, table=table)
    assert not is_plainly_upright(cutout.largest_region(cutout.paper_mask(crop)))
    _no_other_guess(monkeypatch)
    with pytest.raises(AssertionError, match="guesses after the paper"):
        recut(crop)


def test_no_paper_region_is_not_plainly_upright() -> None:
    assert not is_plainly_upright(None)
    assert not is_plainly_upright(cutout.largest_region(np.zeros((60, 40), np.uint8)))


@pytest.mark.parametrize(("bars", "table"), [(0, 0), (128, 0), (0, 4), (255, 4)])
def test_a_card_padded_to_a_square_is_cut_again_with_even_margins(bars: int, table: int) -> None:
    """The card, alone or with the table round it, cut out of its bars with MARGIN more on every side
    (white bars are told from a white card by the table between them)."""
    crop = card_on_table(0.0, table=table)
    assert recut(crop) is None  # framed evenly, as the model knows cards
    view = recut(padded_to_a_square(crop, bars))
    assert view is not None
    card_alone = np.array([CARD_H, CARD_W]) * (1 + 2 * MARGIN) - 4
    with_its_table = np.array(crop.shape[:2]) * (1 + 2 * MARGIN) + 4
    assert np.all(card_alone <= view.shape[:2]) and np.all(view.shape[:2] <= with_its_table), view.shape
    red = np.all(np.abs(view.astype(int) - RED) < 40, axis=2)
    assert np.flatnonzero(red.mean(axis=1) > 0.4).size >= 40  # upright: the red block spans whole rows


def test_a_card_is_framed_lopsided_from_a_fifth_more_of_one_side_than_of_the_other() -> None:
    crop = card_on_table(0.0, table=0)
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    card = cutout.largest_region(cutout.paper_mask(small))
    assert card is not None and box_spans(card, small.shape) == pytest.approx((1.0, 1.0), abs=0.03)
    assert not is_lopsided(card, small.shape)
    for more, lopsided in ((0.15, False), (0.25, True)):  # the card's width of table more, in all
        pad = round(CARD_W * more / 2)
        wider = cv2.copyMakeBorder(crop, 0, 0, pad, pad, cv2.BORDER_CONSTANT, value=TABLE)
        small, _ = cutout.shrunk(wider, ANALYSIS_SIDE)
        card = cutout.largest_region(cutout.paper_mask(small))
        assert card is not None and is_lopsided(card, small.shape) is lopsided
        assert (recut(wider) is not None) is lopsided


@pytest.mark.parametrize("far_end_up", [True, False])
def test_a_card_seen_at_an_angle_is_cut_again_by_its_corners(far_end_up: bool) -> None:
    crop = seen_at_an_angle(card_on_table(0.0, table=4), 0.3, far_end_up)
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    card = cutout.largest_region(cutout.paper_mask(small))
    assert card is not None and is_seen_at_an_angle(card) and not is_lopsided(card, small.shape)
    view = recut(crop)
    assert view is not None
    # the far end is as wide as the near one again: the red block's rows are as wide at its top and bottom
    red = np.all(np.abs(view.astype(int) - RED) < 40, axis=2)
    rows = np.flatnonzero(red.sum(axis=1) > 10)
    assert rows.size >= 40
    widths = red[rows[2]].sum(), red[rows[-3]].sum()
    assert max(widths) <= 1.06 * min(widths), widths
    assert view.shape[0] == pytest.approx(CARD_H * (1 + 2 * MARGIN), abs=8)


def test_a_card_seen_nearly_square_on_is_left_as_it_is() -> None:
    crop = seen_at_an_angle(card_on_table(0.0, table=4), 0.05, True)  # a detector's residual perspective
    small, _ = cutout.shrunk(crop, ANALYSIS_SIDE)
    card = cutout.largest_region(cutout.paper_mask(small))
    assert card is not None and not is_seen_at_an_angle(card)
    assert recut(crop) is None


def test_without_a_card_there_is_nothing_to_recut() -> None:
    rng = np.random.default_rng(3)
    assert recut(rng.integers(0, 256, (150, 100, 3), np.uint8)) is None  # noise
    assert recut(np.full((150, 100, 3), 128, np.uint8)) is None  # a bare, even table
    assert recut(card_on_table(20.0)[::8, ::8]) is None  # too few pixels to find an outline in


@pytest.mark.parametrize("degrees", [12.0, 30.0])
def test_a_rendered_card_is_turned_by_the_tilt_inside_a_crop_cut_round_it(degrees: float) -> None:
    upright = np.float32([[10, 10], [70, 10], [70, 110], [10, 110]])
    for seed in range(6):
        quad, (width, height) = _turned_in_crop(np.random.default_rng(seed), upright, 60, 100, degrees)
        top_edge = quad[1] - quad[0]
        assert abs(np.degrees(np.arctan2(top_edge[1], top_edge[0]))) == pytest.approx(degrees, abs=1e-3)
        assert np.linalg.norm(top_edge) == pytest.approx(60, abs=1e-3)  # turned, not stretched
        margins = (quad.min(axis=0), (width, height) - quad.max(axis=0))
        for margin, card_side in zip(np.concatenate(margins), (60, 100, 60, 100), strict=True):
            assert -0.5 <= margin <= 0.06 * card_side + 0.5


def test_more_table_moves_the_card_and_widens_the_crop_by_the_share_on_every_side() -> None:
    quad = np.float32([[10, 10], [70, 10], [70, 110], [10, 110]])
    moved, size = _with_more_table(quad, 80, 120, 60, 100, 0.3)
    np.testing.assert_array_equal(moved, quad + np.float32([18, 30]))
    assert size == (80 + 36, 120 + 60)


def test_no_tilt_and_no_margin_leave_the_crops_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    art = prepare_artwork(card_face())
    before = render_card_crop(art, np.random.default_rng(9), [art])

    def never(*_: object) -> None:
        raise AssertionError("a crop without tilt or margin drew them")

    monkeypatch.setattr(vision.crops, "_turned_in_crop", never)
    monkeypatch.setattr(vision.crops, "_with_more_table", never)
    assert np.array_equal(render_card_crop(art, np.random.default_rng(9), [art]), before)
    with pytest.raises(AssertionError, match="drew them"):
        render_card_crop(art, np.random.default_rng(9), [art], CropSettings(tilt_degrees=20.0))
    with pytest.raises(AssertionError, match="drew them"):
        render_card_crop(art, np.random.default_rng(9), [art], CropSettings(extra_margin=0.2))


def _scenes(count: int) -> list[np.ndarray]:
    """Cards turned by various angles on noisy tables of various colours, some cut close, some loose."""
    scenes = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        scene = card_on_table(float(rng.uniform(-40, 40)), seed=seed, table=int(rng.integers(2, 40)))
        tint = rng.integers(-40, 40, 3)
        scenes.append(np.clip(scene.astype(int) + tint, 0, 255).astype(np.uint8))
    return scenes


def test_the_largest_hull_is_the_largest_of_every_contours_hull() -> None:
    """The outline guess takes the outer contours only and stops at a bounding rectangle smaller than the
    best hull; that must give the hull a search over every contour, holes included, gives."""
    for seed, scene in enumerate(_scenes(12)):
        gray = cv2.GaussianBlur(cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        specks = (np.random.default_rng(seed).random(gray.shape) < 0.01).astype(np.uint8) * 255
        edges = cv2.dilate(cv2.Canny(gray, 30, 90) | specks, np.ones((3, 3), np.uint8))
        every, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        outer, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        expected = max(cv2.contourArea(cv2.convexHull(contour)) for contour in every)
        hull = cutout._largest_hull(outer)
        assert hull is not None and cv2.contourArea(hull) == expected
    assert cutout._largest_hull([]) is None


def test_the_unlike_outer_ring_mask_thresholds_the_colour_distance_to_the_table() -> None:
    """The mask is Otsu's threshold of each pixel's CIELAB distance to the median of the outer ring,
    scaled to 0..255, then closed and opened: the same pixels as that rule written plainly."""
    for scene in _scenes(8):
        lab = cv2.cvtColor(cv2.GaussianBlur(scene, (7, 7), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
        distance = np.linalg.norm(lab - np.median(cutout._outer_ring(lab), axis=0), axis=2).astype(np.float32)
        scaled = (distance * np.float32(255.0 / max(float(distance.max()), 1.0))).astype(np.uint8)
        _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
        expected = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        assert np.array_equal(cutout.unlike_outer_ring_mask(scene), expected)
        assert expected.mean() > 10  # the card is found at all
