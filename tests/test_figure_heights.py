"""Reading a deck's figures at fixed card heights, with the mistakes split into rank and suit."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import CardClassifier, default_model_path
from vision.crops import prepare_artwork, render_card_crop
from vision.decks import find_cards_root
from vision.training.dataset import load_style
from vision.training.figure_heights import (
    FIGURES,
    fixed_height_settings,
    main,
    read_figures,
    render_figures,
    score_figures,
)

CARDS_ROOT = find_cards_root()


@pytest.mark.parametrize("height", [70, 141, 300])
def test_the_card_is_always_the_asked_height(height: int) -> None:
    art = prepare_artwork(np.full((150, 100, 3), 200, np.uint8))
    settings = fixed_height_settings(height, art.aspect)
    for seed in range(8):
        crop = render_card_crop(art, np.random.default_rng(seed), (), settings)
        # A tight cut takes up to 4% off each side, a loose one adds up to 25% of table.
        assert 0.9 * height <= crop.shape[0] <= 1.6 * height, crop.shape


@pytest.mark.parametrize(("height", "aspect"), [(0, 0.66), (100, 0.0), (100, 1.5)])
def test_a_height_or_aspect_that_makes_no_card_is_refused(height: int, aspect: float) -> None:
    with pytest.raises(ValueError, match="positive height and a portrait aspect"):
        fixed_height_settings(height, aspect)


def test_mistakes_split_into_rank_and_suit() -> None:
    truth = ["8c", "9s", "10b", "8d", "9c"]
    predicted = ["8c", "9b", "8b", "5d", "none"]  # right, wrong suit, wrong rank, neither, neither
    reading = score_figures(predicted, truth)
    assert (reading.crops, reading.read, reading.wrong_suit, reading.wrong_rank) == (5, 0.2, 0.2, 0.2)


def test_readings_and_crops_must_pair_up() -> None:
    with pytest.raises(ValueError, match="as many readings as crops, got 1 and 2"):
        score_figures(["8c"], ["8c", "9c"])


def test_every_figure_is_rendered_per_card_times() -> None:
    faces = {code: prepare_artwork(np.full((90, 60, 3), 10 * i, np.uint8)) for i, code in enumerate(FIGURES)}
    crops, labels = render_figures(faces, 100, 2, np.random.default_rng(0))
    assert len(crops) == 24 and sorted(set(labels)) == sorted(FIGURES)


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_the_shipped_model_reads_the_figures_of_a_deck_it_knows() -> None:
    assert CARDS_ROOT is not None
    faces = load_style(CARDS_ROOT, "kde-standard").faces
    (reading,) = read_figures([CardClassifier.load(default_model_path())], faces, 140, 2)
    assert reading.crops == 24 and reading.read >= 0.9, reading


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_the_command_prints_a_row_per_height(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--model", str(default_model_path()), "--styles", "kde-standard", "--heights", "90,140",
                 "--per-card", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| kde-standard")]
    assert code == 0 and [row.split(" | ")[1] for row in rows] == ["90 px", "140 px"]


def test_an_unknown_style_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    if CARDS_ROOT is None:
        pytest.skip("needs the deck artwork in shared/cards")
    code = main(["--model", str(default_model_path()), "--styles", "no-such-deck", "--per-card", "1"])
    assert code == 2 and "no-such-deck" in capsys.readouterr().err
