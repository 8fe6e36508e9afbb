"""How a model reads a French deck's 8, 9, 10 and jokers: rendered from the deck's foreign/ folder, counted,
and the command's errors when there is nothing to read."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES
from tests.test_classifier import write_tiny_model
from vision.training import foreign_cards
from vision.training.foreign_cards import count_readings, markdown_table, render_foreign_set, total
from vision.training.pysol_decks import FOREIGN_DIR


def _deck(root: Path, name: str, foreign: tuple[str, ...]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    for index, code in enumerate(CARD_CODES):
        cv2.imwrite(str(folder / f"{code}.png"), np.full((120, 80, 3), 100 + index, np.uint8))
    if foreign:
        (folder / FOREIGN_DIR).mkdir()
    for index, stem in enumerate(foreign):
        cv2.imwrite(str(folder / FOREIGN_DIR / f"{stem}.png"), np.full((120, 80, 3), 10 * index, np.uint8))
    return folder


def test_readings_are_counted_as_none_back_or_a_card_of_some_rank() -> None:
    result = count_readings("pysol-x", ["none", "7c", "7s", "back", "none", "10d", "none"])
    assert (result.crops, result.read_none, result.read_back, result.read_card) == (7, 3, 1, 3)
    assert result.ranks_read == {"7": 2, "10": 1} and result.none_share == pytest.approx(3 / 7)
    both = total([result, count_readings("pysol-y", ["6b", "none"])])
    assert (both.style, both.crops, both.read_none, both.read_card) == ("all", 9, 4, 4)
    assert both.ranks_read == {"7": 2, "10": 1, "6": 1}
    table = markdown_table([result])
    assert "| pysol-x | 7 | 3 (42.9%) | 1 | 3 | 7: 2, 10: 1 |" in table and "| all | 7 |" in table
    assert count_readings("empty", []).none_share == 0.0


def test_each_foreign_card_is_rendered_per_card_times_and_named_by_its_file(tmp_path: Path) -> None:
    _deck(tmp_path, "pysol-a", ("08h", "01z"))
    crops, names = render_foreign_set(tmp_path, "pysol-a", 3, seed=1)
    assert names == ["01z"] * 3 + ["08h"] * 3 and all(crop.ndim == 3 for crop in crops)
    again, _ = render_foreign_set(tmp_path, "pysol-a", 3, seed=1)
    assert all(np.array_equal(a, b) for a, b in zip(crops, again, strict=True))
    _deck(tmp_path, "plain", ())
    assert render_foreign_set(tmp_path, "plain", 3, seed=1) == ([], [])


def test_the_command_reads_every_style_with_foreign_cards_and_writes_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "cards"
    _deck(root, "pysol-a", ("08h", "09d"))
    _deck(root, "francesi", ())
    monkeypatch.setenv("TRESSETTE_CARDS", str(root))
    model = write_tiny_model(tmp_path / "tiny.onnx")
    figures = tmp_path / "foreign.json"
    assert foreign_cards.main(["--model", str(model), "--per-card", "2", "--json", str(figures)]) == 0
    out = capsys.readouterr().out
    assert "| pysol-a | 4 |" in out and "francesi" not in out and "| all | 4 |" in out
    assert [row["style"] for row in json.loads(figures.read_text())] == ["pysol-a"]


def test_the_command_names_what_it_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "cards"
    _deck(root, "francesi", ())
    monkeypatch.setenv("TRESSETTE_CARDS", str(root))
    model = str(write_tiny_model(tmp_path / "tiny.onnx"))
    with pytest.raises(SystemExit):
        foreign_cards.main(["--model", model])
    assert "no style under" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        foreign_cards.main(["--model", model, "--per-card", "0"])
    assert "--per-card is a count of 1 or more; got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        foreign_cards.main(["--model", model, "--styles", "pysol-nowhere"])
    assert "vision.training.pysol_decks --out DIR" in capsys.readouterr().err
