"""bench/same_readings.py: two machines' readings of the same crops compared, known answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench import same_readings  # not installed: the checkout's root, on sys.path for the tests
from engine.cards import CARD_CODES
from vision.decks import find_cards_root, list_styles


def readings(machine: str, cards: list[str], confidence: list[float]) -> dict[str, object]:
    return {"machine": machine, "exact_byte_products": machine == "x86_64", "model_version": "m1",
            "truth": ["1c", "2c", "3c", "4c"], "cards": cards, "confidence": confidence}


def test_comparison_counts_right_cards_differences_and_confidence_gaps() -> None:
    here = readings("x86_64", ["1c", "2c", "3c", "5c"], [0.9, 0.8, 0.7, 0.6])
    pi = readings("aarch64", ["1c", "2c", "9c", "5c"], [0.9, 0.6, 0.5, 0.6])
    result = same_readings.comparison(here, pi)
    assert result["crops"] == 4
    assert result["right"] == [3, 2]
    assert result["read_differently"] == 1
    assert result["confidence_gap_max"] == pytest.approx(0.2)
    assert result["confidence_gap_mean"] == pytest.approx(0.1)
    text = same_readings.report(here, pi)
    assert "aarch64 (exact byte products: False): 2 right (ratio 0.6667)" in text
    assert "crops read as different cards: 1" in text


@pytest.mark.parametrize(("key", "value", "named"), [
    ("truth", ["1c", "2c", "3c", "5c"], "different crops"),
    ("model_version", "m2", "different models"),
    ("deck", "mine.deck", "different deck profiles"),
])
def test_readings_of_other_crops_or_models_are_refused(key: str, value: object, named: str) -> None:
    here = readings("x86_64", ["1c", "2c", "3c", "4c"], [0.9] * 4)
    other = {**readings("aarch64", ["1c", "2c", "3c", "4c"], [0.9] * 4), key: value}
    with pytest.raises(ValueError, match=named):
        same_readings.comparison(here, other)


def test_readings_missing_a_crop_are_refused() -> None:
    here = readings("x86_64", ["1c", "2c", "3c", "4c"], [0.9] * 4)
    short = readings("aarch64", ["1c", "2c", "3c"], [0.9] * 3)
    with pytest.raises(ValueError, match="4 crops, but 4 and 3 readings"):
        same_readings.comparison(here, short)


@pytest.mark.skipif(find_cards_root() is None, reason="needs the card artwork (../shared/cards)")
def test_written_crops_come_back_with_their_truth(tmp_path: Path) -> None:
    path = tmp_path / "crops.npz"
    count = same_readings.write_crops(path, per_style=1, seed=3)
    crops, truth = same_readings.read_crops(path)
    assert count == len(crops) == len(truth) == len(list_styles(find_cards_root()))
    assert set(truth) <= set(CARD_CODES)
    assert all(crop.dtype == np.uint8 and crop.ndim == 3 for crop in crops)


def test_a_file_that_is_not_crops_is_named(tmp_path: Path) -> None:
    path = tmp_path / "crops.npz"
    path.write_bytes(b"not an npz")
    with pytest.raises(ValueError, match=r"crops\.npz: not a file of crops"):
        same_readings.read_crops(path)


def test_a_file_that_is_not_readings_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "here.json"
    good.write_text(json.dumps(readings("x86_64", ["1c", "2c", "3c", "4c"], [0.9] * 4)), encoding="utf-8")
    broken = tmp_path / "pi.json"
    broken.write_text('{"machine": "aarch64", "cards": []}', encoding="utf-8")
    assert same_readings.main(["compare", str(good), str(broken)]) == 1
    error = capsys.readouterr().err
    assert "pi.json: not a file of readings" in error and "truth" in error
    broken.write_text("{", encoding="utf-8")
    assert same_readings.main(["compare", str(good), str(broken)]) == 1
    assert "pi.json: not a readable file of readings" in capsys.readouterr().err
    assert same_readings.main(["compare", str(good), str(good)]) == 0
    assert "crops read as different cards: 0" in capsys.readouterr().out
