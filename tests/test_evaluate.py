"""The evaluation protocols of ``vision.training.evaluate`` (onnxruntime only: runs without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.training.evaluate
from engine.cards import BACK, CARD_CODES, CLASS_LABELS
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier
from vision.crops import CropSettings
from vision.cutout import cut_out_card
from vision.decks import Deck, find_cards_root
from vision.enrollment import EnrollmentError
from vision.training.evaluate import (
    WIDTH_BANDS,
    StyleResult,
    clip_seed,
    count_by_width,
    enrol_style,
    enrolment_pictures,
    evaluate_style,
    main,
    markdown_table,
    protocol_settings,
    render_eval_set,
    seen_at_an_angle,
    width_band,
    width_table,
)

CARDS_ROOT = find_cards_root()
needs_cards = pytest.mark.skipif(CARDS_ROOT is None,
                                 reason="no card artwork (../shared/cards or TRESSETTE_CARDS)")


def test_the_camera_protocol_shows_each_card_alone_and_uncovered() -> None:
    camera = protocol_settings("camera")
    assert (camera.p_other_card, camera.p_fingers, camera.p_corner_cut) == (0.0, 0.0, 0.0)
    assert camera.p_upside_down > 0 and camera.max_residual > 0  # still either way up, still warped
    assert protocol_settings("hard") == CropSettings()


def test_an_unknown_protocol_is_named() -> None:
    expected = r"unknown evaluation protocol 'easy'; expected one of \['camera', 'hard'\]"
    with pytest.raises(ValueError, match=expected):
        protocol_settings("easy")


def test_the_command_refuses_an_unknown_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--protocol", "easy"])
    assert "--protocol: invalid choice: 'easy'" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--unsure-below", "--turned-below", "--recut-below"])
def test_the_command_refuses_a_negative_threshold(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), option, "-0.5"])
    assert f"{option} is a probability of 0 or more; got -0.5" in capsys.readouterr().err


def _crop(width: int, height: int) -> np.ndarray:
    return np.zeros((height, width, 3), np.uint8)


def test_a_crop_falls_in_the_band_of_its_narrower_side() -> None:
    assert WIDTH_BANDS[0] == 0
    assert [width_band(_crop(w, 300)) for w in (40, 59, 60, 79, 80, 119, 120, 199, 200, 450)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert width_band(_crop(300, 70)) == 1  # a landscape crop: its height is the narrower side


def test_cards_are_counted_by_width_and_backs_are_not() -> None:
    crops = [_crop(50, 75), _crop(55, 80), _crop(90, 135), _crop(50, 75)]
    truth = ["3c", "4c", "10b", "back"]
    counts = count_by_width(crops, truth, ["3c", "5c", "10b", "back"], ["3c", "4c", "9b", "none"])
    assert counts[0] == (2, 1, 2) and counts[2] == (1, 1, 0)
    assert counts[1] == counts[3] == counts[4] == (0, 0, 0)
    alone = count_by_width(crops, truth, ["3c", "5c", "10b", "back"], None)
    assert alone[0] == (2, 1, None)


def test_the_width_table_sums_the_styles_and_skips_empty_bands() -> None:
    def result(name: str, by_width: tuple[tuple[int, int, int | None], ...]) -> StyleResult:
        return StyleResult(name, 0, 0.0, 0.0, None, None, (), by_width=by_width)

    table = width_table([
        result("a", ((4, 3, None), (0, 0, None), (2, 2, None), (0, 0, None), (0, 0, None))),
        result("b", ((4, 4, None), (0, 0, None), (0, 0, None), (0, 0, None), (1, 0, None))),
    ])
    assert "| 0-59 px | 8 | 87.5% | - |" in table
    assert "| 80-119 px | 2 | 100.0% | - |" in table
    assert "| 200 px or more | 1 | 0.0% | - |" in table
    assert "60-79" not in table and "120-199" not in table


def test_a_style_whose_enrolment_was_refused_is_left_out_of_the_enrolled_totals() -> None:
    enrolled = StyleResult("a", 42, 0.5, 0.5, 1.0, 1.0, (),
                           by_width=((30, 15, 30), (10, 5, 9), *[(0, 0, 0)] * 3))
    refused = StyleResult("b", 84, 0.75, 0.75, None, None, (), by_width=((80, 60, None), *[(0, 0, None)] * 4),
                          enrol_refused="b.mp4: 39 cards found lying alone")
    neither = StyleResult("c", 42, 1.0, 1.0, None, None, (), enrol_refused="c.mp4: 0 cards found")
    last = markdown_table([enrolled, refused]).splitlines()[-1]
    cells = [cell.strip() for cell in last.strip("|").split("|")]
    assert cells[2] == "66.67% (80 of 120)"  # zero-shot: both styles
    assert cells[6] == "100.00% (40 of 40; 1 style without)"  # enrolled: the first only
    table = width_table([enrolled, refused])
    assert "| 0-59 px | 110 | 68.2% | 100.0% |" in table
    assert "| 60-79 px | 10 | 50.0% | 90.0% |" in table
    assert markdown_table([refused, neither]).splitlines()[-1].split("|")[7].strip() == "-"


@needs_cards
def test_the_last_row_adds_the_styles_up_by_their_crops() -> None:
    one = StyleResult("one", 42, 0.5, 0.5, None, None, (), cards_distinct=0.75, cards_match=1.0)
    two = StyleResult("two", 84, 0.75, 0.75, None, None, (("3c", "5c", 2),), cards_distinct=None,
                      cards_match=0.5)
    last = markdown_table([one, two]).splitlines()[-1]
    cells = [cell.strip() for cell in last.strip("|").split("|")]
    assert cells[:2] == ["**all 2 styles**", "126"]
    # Cards: 20 of 40 and 60 of 80; all classes: 21 of 42 and 63 of 84; one match: 40 and 40 of 120.
    assert cells[2] == "66.67% (80 of 120)"
    assert cells[3] == "75.00% (30 of 40; 1 style without)"  # a style without deals is left out
    assert cells[4] == "66.67% (80 of 120)"
    assert cells[5] == "66.67% (84 of 126)"
    assert cells[6:8] == ["-", "-"]  # not enrolled
    assert not any(line.startswith("| **all") for line in markdown_table([one]).splitlines())


def test_the_protocols_render_the_same_classes_differently() -> None:
    assert CARDS_ROOT is not None
    hard, hard_truth = render_eval_set(CARDS_ROOT, "napoletane", 1, seed=5, protocol="hard")
    camera, camera_truth = render_eval_set(CARDS_ROOT, "napoletane", 1, seed=5, protocol="camera")
    assert hard_truth == camera_truth == list(CLASS_LABELS)
    assert any(a.shape != b.shape or not np.array_equal(a, b) for a, b in zip(hard, camera, strict=True))


def squareness(crops: list[np.ndarray]) -> float:
    """The mean of the crops' narrower side over their longer one."""
    return float(np.mean([min(crop.shape[:2]) / max(crop.shape[:2]) for crop in crops]))


@needs_cards
def test_a_tilt_turns_the_cards_inside_crops_cut_round_them() -> None:
    assert CARDS_ROOT is not None
    plain, truth = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera")
    tilted, tilted_truth = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera", tilt=20.0)
    assert tilted_truth == truth
    # a card turned by 20 degrees needs a squarer crop round it (0.63 upright, about 0.81 turned)
    assert squareness(tilted[:40]) > squareness(plain[:40]) + 0.08


@needs_cards
def test_a_margin_adds_table_round_the_cards() -> None:
    assert CARDS_ROOT is not None
    plain, _ = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera")
    loose, _ = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera", margin=0.5)
    # The first crop is drawn alike (the table's texture, of the crop's size, then moves the generator
    # on): half the card's size more on every side, so the card's size more in all, and a crop is at
    # most 1.5 times its card (a quarter of table on either side).
    before, after = plain[0], loose[0]
    assert after.shape[0] - before.shape[0] >= before.shape[0] / 1.5 - 2
    assert after.shape[1] - before.shape[1] >= before.shape[1] / 1.5 - 2
    assert np.mean([c.shape[0] for c in loose[:40]]) > 1.5 * np.mean([c.shape[0] for c in plain[:40]])


@needs_cards
def test_a_square_resizes_every_crop_to_a_square_picture() -> None:
    assert CARDS_ROOT is not None
    plain, truth = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera")
    squares, square_truth = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera", square=96)
    assert square_truth == truth and {crop.shape for crop in squares} == {(96, 96, 3)}
    # the same crop, stretched: its mean colour stays
    np.testing.assert_allclose(squares[0].mean(axis=(0, 1)), plain[0].mean(axis=(0, 1)), atol=4.0)


@needs_cards
def test_bars_pad_every_crop_to_a_square_before_it_is_resized() -> None:
    assert CARDS_ROOT is not None
    plain, _ = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera")
    padded, _ = render_eval_set(CARDS_ROOT, "bolognesi", 1, seed=5, protocol="camera", square=96, bars=255)
    assert {crop.shape for crop in padded} == {(96, 96, 3)}
    height, width = plain[0].shape[:2]
    assert height > width  # a card stands in a portrait crop: the bars are left and right
    bar = round(96 * (height - width) / 2 / height)
    assert padded[0][:, : bar - 1].min() == 255 and padded[0][:, 1 - bar:].min() == 255
    assert padded[0][:, bar + 1: -bar - 1].mean() < 250  # the crop between them


@pytest.mark.parametrize("arguments", [["--bars", "0"], ["--square", "96", "--bars", "256"],
                                       ["--square", "96", "--bars", "-1"]])
def test_the_command_refuses_bars_without_a_square_or_off_the_grey_scale(
        arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), *arguments])
    message = f"--bars is a grey level of 0-255 and needs --square; got {arguments[-1]}"
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("far_end_up", [True, False])
def test_a_crop_seen_at_an_angle_has_its_far_end_narrower(far_end_up: bool) -> None:
    crop = np.zeros((120, 80, 3), np.uint8)
    crop[10:110, 10:70] = 255  # a white card on black, 60 px wide
    seen = seen_at_an_angle(crop, 0.3, far_end_up)
    assert seen.shape == crop.shape
    widths = (seen[:, :, 0] > 128).sum(axis=1)
    rows = np.flatnonzero(widths)
    top, bottom = int(widths[rows[1]]), int(widths[rows[-2]])  # the card's first and last rows but one
    far, near = (top, bottom) if far_end_up else (bottom, top)
    assert near == pytest.approx(60, abs=4) and far < near - 12, (far, near)


@pytest.mark.parametrize("share", ["-0.1", "0.9", "nan"])
def test_the_command_refuses_a_keystone_off_its_range(share: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--keystone", share])
    assert f"--keystone is a share of the width from 0 to 0.8; got {float(share)}" in capsys.readouterr().err


@pytest.mark.parametrize("side", ["-5", "10"])
def test_the_command_refuses_a_square_too_small_to_read(side: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--square", side])
    assert f"--square is a side of 24 pixels or more (0: as rendered); got {side}" in capsys.readouterr().err


def test_the_command_refuses_a_negative_margin(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--margin", "-0.1"])
    assert "--margin is a share of the card's size of 0 or more; got -0.1" in capsys.readouterr().err


@needs_cards
def test_the_shipped_model_reads_a_style_it_knows_under_the_camera_protocol() -> None:
    assert CARDS_ROOT is not None
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    result = evaluate_style(classifier, CARDS_ROOT, "napoletane", 1, seed=11, enrol=False, protocol="camera")
    assert result.crops == len(CLASS_LABELS) and result.cards_enrolled is None
    assert result.cards >= 0.9, result
    assert result.cards_distinct is not None and result.cards_distinct >= result.cards - 0.05, result
    assert result.cards_match == result.cards_distinct  # one deal: its groups are its crops
    assert sum(n for n, _, _ in result.by_width) == 40
    assert sum(right for _, right, _ in result.by_width) == round(40 * result.cards)


@needs_cards
def test_a_deck_is_enrolled_from_its_artwork_or_from_one_phone_photo_of_each_card() -> None:
    assert CARDS_ROOT is not None
    deck = Deck.load(CARDS_ROOT / "piacentine")
    artwork = enrolment_pictures(deck, "artwork")
    assert set(artwork) == set(CARD_CODES) | {BACK} and artwork["3c"][0] is deck.faces["3c"]
    photos = enrolment_pictures(deck, "photos", enrol_seed=5)
    assert set(photos) == set(CARD_CODES) and all(len(shots) == 1 for shots in photos.values())
    face, (photo,) = deck.faces["7d"], photos["7d"]
    card = cut_out_card(photo)
    assert card.shape != photo.shape  # table round the card, which enrolment cuts away
    assert abs(card.shape[1] / card.shape[0] - face.shape[1] / face.shape[0]) < 0.06
    np.testing.assert_array_equal(enrolment_pictures(deck, "photos", enrol_seed=5)["7d"][0], photo)
    assert not np.array_equal(enrolment_pictures(deck, "photos", enrol_seed=6)["7d"][0], photo)


def test_an_unknown_source_of_pictures_is_named() -> None:
    expected = r"unknown source of enrolment pictures 'scans'; expected one of \['artwork', 'photos'\]"
    with pytest.raises(ValueError, match=expected):
        enrolment_pictures(Deck("empty", {}), "scans")


def test_the_command_refuses_an_unknown_enrolment_source(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--enrol-from", "scans"])
    assert "--enrol-from: invalid choice: 'scans'" in capsys.readouterr().err


def test_the_command_refuses_a_pace_no_hand_could_keep(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), "--enrol-from", "clip", "--enrol-pace", "3"])
    assert "--enrol-pace: pace 3.0 is not between 0.3 and 2.0" in capsys.readouterr().err


@pytest.mark.slow
@needs_cards
def test_a_style_enrolled_from_phone_photos_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    assert CARDS_ROOT is not None
    sources: list[tuple[str, int]] = []

    def recorded(deck: Deck, enrol_from: str, enrol_seed: int) -> dict[str, list[np.ndarray]]:
        sources.append((enrol_from, enrol_seed))
        return enrolment_pictures(deck, enrol_from, enrol_seed)

    monkeypatch.setattr(vision.training.evaluate, "enrolment_pictures", recorded)
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH, threads=2)
    result = evaluate_style(classifier, CARDS_ROOT, "siciliane", 1, seed=11, enrol=True, protocol="camera",
                            workers=2, enrol_from="photos", enrol_seed=8)
    assert sources == [("photos", 8)]
    assert result.cards_enrolled is not None and result.cards_enrolled >= 0.95, result
    assert all(enrolled is not None for _, _, enrolled in result.by_width)


def test_each_style_is_filmed_on_its_own_table() -> None:
    seeds = {clip_seed(style, seed) for style in ("pysol-gpl", "pysol-sylly", "sarde") for seed in (5, 6)}
    assert len(seeds) == 6
    assert clip_seed("sarde", 5) == clip_seed("sarde", 5)


def test_an_unknown_enrolment_source_is_named_by_the_style_enrolment() -> None:
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    with pytest.raises(ValueError, match=r"unknown enrolment source 'scans'; expected one of \['artwork', "):
        enrol_style(classifier, Deck("empty", {}), "scans")


@needs_cards
def test_a_refused_clip_is_told_and_the_zero_shot_figures_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert CARDS_ROOT is not None

    def refuse(*_: object) -> None:
        raise EnrollmentError("napoletane.mp4: 39 cards found lying alone")

    monkeypatch.setattr(vision.training.evaluate, "enrol_style", refuse)
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    result = evaluate_style(classifier, CARDS_ROOT, "napoletane", 1, seed=11, enrol=True, protocol="camera",
                            enrol_from="clip")
    assert result.enrol_refused == "napoletane.mp4: 39 cards found lying alone"
    assert result.cards_enrolled is None and result.all_enrolled is None and result.cards >= 0.9


@pytest.mark.slow
@needs_cards
def test_a_style_enrolled_from_a_clip_of_its_sorted_deck_is_read() -> None:
    assert CARDS_ROOT is not None
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH, threads=2)
    result = evaluate_style(classifier, CARDS_ROOT, "siciliane", 1, seed=11, enrol=True, protocol="camera",
                            workers=2, enrol_from="clip")
    assert result.enrol_refused is None
    assert result.cards_enrolled is not None and result.cards_enrolled >= 0.95, result
