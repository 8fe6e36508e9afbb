"""The evaluation protocols of ``vision.training.evaluate`` (onnxruntime only: runs without torch)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import CLASS_LABELS
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier
from vision.crops import CropSettings
from vision.decks import find_cards_root
from vision.training.evaluate import evaluate_style, main, protocol_settings, render_eval_set

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


@pytest.mark.parametrize("option", ["--unsure-below", "--turned-below"])
def test_the_command_refuses_a_negative_threshold(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--model", str(DEFAULT_MODEL_PATH), option, "-0.5"])
    assert f"{option} is a probability of 0 or more; got -0.5" in capsys.readouterr().err


@needs_cards
def test_the_protocols_render_the_same_classes_differently() -> None:
    assert CARDS_ROOT is not None
    hard, hard_truth = render_eval_set(CARDS_ROOT, "napoletane", 1, seed=5, protocol="hard")
    camera, camera_truth = render_eval_set(CARDS_ROOT, "napoletane", 1, seed=5, protocol="camera")
    assert hard_truth == camera_truth == list(CLASS_LABELS)
    assert any(a.shape != b.shape or not np.array_equal(a, b) for a, b in zip(hard, camera, strict=True))


@needs_cards
def test_the_shipped_model_reads_a_style_it_knows_under_the_camera_protocol() -> None:
    assert CARDS_ROOT is not None
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    result = evaluate_style(classifier, CARDS_ROOT, "napoletane", 1, seed=11, enrol=False, protocol="camera")
    assert result.crops == len(CLASS_LABELS) and result.cards_enrolled is None
    assert result.cards >= 0.9, result
    assert result.cards_distinct is not None and result.cards_distinct >= result.cards - 0.05, result
    assert result.cards_match == result.cards_distinct  # one deal: its groups are its crops
