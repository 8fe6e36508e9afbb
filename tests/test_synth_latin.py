"""The invented Italian-suited training decks: as many pieces as the rank, seeded, and their own share."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES
from vision.decks import Deck, is_italian_style
from vision.training import synth_latin
from vision.training.dataset import Augmentations, draw_sample, load_style, style_draw_weights, style_group
from vision.training.synth_latin import (
    CARD_HEIGHT,
    CARD_WIDTH,
    figure_lenders,
    number_card,
    random_look,
    write_deck,
)

BOX = (20.0, 30.0, 256.0, 430.0)


def _donor() -> Deck:
    rng = np.random.default_rng(0)
    faces = {code: rng.integers(0, 255, (90, 60, 3), dtype=np.uint8) for code in CARD_CODES}
    return Deck(name="donor", faces=faces)


@pytest.mark.parametrize("rank", range(1, 8))
def test_every_layout_places_as_many_pieces_as_the_rank(rank: int) -> None:
    rng = np.random.default_rng(rank)
    assert len(synth_latin._grid_positions(rank, rng)) == rank
    assert len(synth_latin._column_placements(rank, BOX, rng)) == rank
    assert len(synth_latin._crossed_placements(rank, BOX, rng)) == rank
    assert len(synth_latin._oval_placements(rank, BOX, rng)) == rank


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_coins_and_cups_are_drawn_as_separate_pieces_one_per_pip(seed: int) -> None:
    look = dataclasses.replace(random_look(np.random.default_rng(seed)), frame=0, numerals=False)
    for suit in "dc":
        for rank in range(1, 8):
            card = number_card(look, suit, rank, np.random.default_rng(rank))
            assert card.shape == (CARD_HEIGHT, CARD_WIDTH, 3)
            ink = (np.abs(card.astype(int) - np.array(look.paper)).max(axis=2) > 40).astype(np.uint8)
            count, _, stats, _ = cv2.connectedComponentsWithStats(ink)
            pieces = sum(stats[i, cv2.CC_STAT_AREA] > 30 for i in range(1, count))
            assert pieces == rank, f"{rank}{suit} of look {seed}: {pieces} pieces"


def test_a_deck_is_seeded_complete_and_readable(tmp_path: Path) -> None:
    donor = _donor()
    first = Deck.load(write_deck(tmp_path / "a", 4, 11, donor))
    again = Deck.load(write_deck(tmp_path / "b", 4, 11, donor))
    other = Deck.load(write_deck(tmp_path / "c", 5, 11, donor))
    assert first.name == "synth-latin-004" and first.italian
    assert set(first.faces) == set(CARD_CODES)
    assert all(np.array_equal(first.faces[code], again.faces[code]) for code in CARD_CODES)
    assert not np.array_equal(first.faces["5s"], other.faces["5s"])
    assert not np.array_equal(first.faces["5s"], first.faces["5b"])


def test_the_invented_decks_are_italian_suited_and_drawn_in_their_own_group() -> None:
    assert is_italian_style("synth-latin-017") and style_group("synth-latin-017") == "synth"
    assert style_group("napoletane") == "italian" and style_group("pysol-gpl") == "pysol"
    invented = [f"synth-latin-{i:03d}" for i in range(8)]
    names = ["napoletane", "sarde", "kde-penguins", "gnome-paris", *invented]
    weights = style_draw_weights(names, italian_share=0.25, synth_share=0.25)
    assert weights[:2].sum() == pytest.approx(0.25) and weights[4:].sum() == pytest.approx(0.25)
    assert np.allclose(weights[2:4], 0.25)


def test_figure_lenders_leave_out_the_held_out_and_the_invented_styles(tmp_path: Path) -> None:
    for name in ("napoletane", "sarde", "gnome-paris", "synth-latin-000"):
        (tmp_path / name).mkdir()
    assert figure_lenders(tmp_path, ["sarde"]) == ["napoletane"]


def test_without_a_donor_the_command_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gnome-paris").mkdir()
    monkeypatch.setenv("TRESSETTE_CARDS", str(tmp_path))
    assert synth_latin.main(["--out", str(tmp_path / "out"), "--decks", "1"]) == 1
    assert "no Italian-suited style" in capsys.readouterr().err


def test_a_donor_missing_a_figure_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "napoletane").mkdir()
    monkeypatch.setenv("TRESSETTE_CARDS", str(tmp_path))
    assert synth_latin.main(["--out", str(tmp_path / "out"), "--decks", "1", "--no-link"]) == 1
    assert "napoletane: no image for card '1c'" in capsys.readouterr().err


def test_an_invented_deck_renders_training_crops_of_its_own_group(tmp_path: Path) -> None:
    write_deck(tmp_path, 0, 5, _donor())
    style = load_style(tmp_path, "synth-latin-000")
    rng = np.random.default_rng(2)
    crops = [draw_sample(rng, [style], Augmentations(synth_share=0.5)) for _ in range(6)]
    assert all(crop.ndim == 3 and crop.dtype == np.uint8 for crop, _, _ in crops)
    assert {style_index for _, _, style_index in crops} == {0}
