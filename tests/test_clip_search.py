"""Scoring the clip search against a rendered clip's truth (``vision.training.clip_search``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.clip_cards import ClipCards, ShownCard
from vision.scene.truth import Truth
from vision.training.clip_search import (
    ClipScore,
    corner_error,
    main,
    markdown_table,
    parse_clips,
    score_search,
)

CARD = np.array([[100.0, 100.0], [140.0, 100.0], [140.0, 160.0], [100.0, 160.0]])  # 40 x 60, clockwise


def shown(first_frame: int, corners: np.ndarray = CARD) -> ShownCard:
    return ShownCard(first_frame, first_frame + 5, first_frame + 2, np.zeros((60, 40, 3), np.uint8), corners)


def rest(frame: int, card: str) -> dict[str, object]:
    return {"frame": frame, "event": "rest", "card": card, "corners": CARD.tolist()}


def test_the_corner_error_is_a_share_of_the_cards_width_from_any_first_corner() -> None:
    assert corner_error(CARD, CARD) == 0.0
    assert corner_error(np.roll(CARD, 1, axis=0), CARD) == 0.0  # the same corners, another one first
    assert corner_error(CARD + np.array([2.0, 0.0]), CARD) == pytest.approx(0.05)  # 2 px of a card 40 px wide


def test_a_card_is_found_by_a_showing_that_starts_soon_after_it_landed() -> None:
    truth = Truth({"surface": "cloth_checks"}, (rest(10, "1c"), rest(30, "2c"), rest(50, "3c")))
    nudged = CARD + np.array([4.0, 0.0])
    found = ClipCards(Path("mazzo.mp4"), (shown(12), shown(33, nudged), shown(70)), 10.0, 90)
    score = score_search(found, truth)
    assert (score.shown, score.found, score.missed, score.extra) == (3, 2, ("3c",), 1)  # 7 s late: extra
    assert score.corner_error == pytest.approx(0.05)  # the median of 0 and 0.1
    assert (score.clip, score.surface) == ("mazzo.mp4", "cloth_checks")


def test_a_card_seen_lying_a_moment_before_it_landed_is_found_but_a_sleeve_elsewhere_is_not() -> None:
    truth = Truth({}, (rest(15, "1c"), rest(35, "2c")))
    sleeve = CARD + np.array([0.0, 300.0])  # at the frame's bottom edge, at every card
    found = ClipCards(Path("a.mp4"), (shown(13, sleeve), shown(14), shown(33, sleeve)), 10.0, 60)
    score = score_search(found, truth)
    assert (score.found, score.missed, score.extra) == (1, ("2c",), 2)


def test_one_showing_finds_one_card() -> None:
    truth = Truth({}, (rest(10, "1c"), rest(14, "2c")))
    score = score_search(ClipCards(Path("a.mp4"), (shown(15),), 10.0, 30), truth)
    assert (score.found, score.missed, score.extra, score.surface) == (1, ("2c",), 0, "?")


def test_a_clip_with_nothing_found_has_no_corner_error() -> None:
    score = score_search(ClipCards(Path("a.mp4"), (), 10.0, 30), Truth({}, (rest(10, "1c"),)))
    assert score.corner_error is None and score.missed == ("1c",)
    assert "| a.mp4 | ? | 0 of 1 | 0 | 1c | - |" in markdown_table([score])


def test_the_last_row_adds_the_clips_up() -> None:
    scores = [ClipScore("a.mp4", "felt_green", 40, 40, (), 0, 0.04),
              ClipScore("b.mp4", "cloth_checks", 40, 38, ("5c", "9b"), 3, 0.10),
              ClipScore("c.mp4", "wood_dark", 40, 40, (), 0, 0.06)]
    assert markdown_table(scores).splitlines()[-1] == "| **all 3** | | 118 of 120 | 3 | 2 | 6.0% |"


def test_clips_are_named_seed_and_style() -> None:
    assert parse_clips("153:siciliane, 114:pysol-gpl,") == [(153, "siciliane"), (114, "pysol-gpl")]
    for bad in ("siciliane", "x:sarde", "12:", ":sarde"):
        with pytest.raises(ValueError, match=rf"--clips: {bad!r} is not SEED:STYLE"):
            parse_clips(f"1:sarde,{bad}")


@pytest.mark.parametrize(("argv", "expected"), [
    (["--clips", "12"], "--clips: '12' is not SEED:STYLE"),
    (["--clips", "12:sarde", "--size", "640x480"], "unsupported frame size '640x480'"),
    (["--clips", "12:sarde", "--pace", "0.1"], "pace 0.1 is not between 0.3 and 2.0"),
])
def test_the_command_names_what_it_cannot_use(argv: list[str], expected: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert expected in capsys.readouterr().err
