"""`tressette enroll` from a clip of a sorted deck shown card after card
(``vision.deck_pictures.enroll_clip``), the pictures it keeps (``write_card_pictures``), and what it says
of a clip it cannot use."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import BACK, CARD_CODES
from table.cli import main
from tests.test_render import synthetic_deck
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier
from vision.crops import prepare_artwork, render_card_crop
from vision.deck_order import DeckOrder
from vision.deck_pictures import enroll_clip, scan_folder, write_card_pictures
from vision.deck_profile import DeckProfile
from vision.decks import Deck, find_cards_root
from vision.enrollment import EnrollmentError
from vision.scene.render import RenderSettings
from vision.scene.showing import render_showing_clip
from vision.training.phone_photos import photos_of

CARDS_ROOT = find_cards_root()
needs_cards = pytest.mark.skipif(
    CARDS_ROOT is None, reason="no card artwork here (../shared/cards or TRESSETTE_CARDS)"
)


@pytest.fixture(scope="module")
def three_cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clip in which only three cards are shown: not a deck."""
    clip = tmp_path_factory.mktemp("three") / "tre carte.mp4"
    render_showing_clip(("1c", "2c", "3c"), synthetic_deck(), RenderSettings(seed=3, size=(1280, 720)), clip)
    return clip


def test_a_clip_with_too_few_cards_names_the_count_and_when_each_lay(three_cards: Path) -> None:
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    with pytest.raises(EnrollmentError) as caught:
        enroll_clip(three_cards, classifier)
    message = str(caught.value)
    assert message.startswith(f"{three_cards}: 3 cards found lying alone (0:0")
    assert "a sorted deck shown card after card gives 40, or 41 with its back" in message
    assert message.count(", 0:") == 2  # the three times
    assert "well inside the picture (a card touching its edge is not taken)" in message


def test_the_cli_names_a_clip_that_is_not_a_deck(three_cards: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mazzo.npz"
    assert main(["enroll", "--out", str(out), "--lang", "en", str(three_cards)]) == 2
    error = capsys.readouterr().err
    assert "tre carte.mp4: 3 cards found lying alone" in error
    assert not out.exists()


def test_the_cli_names_a_file_that_is_neither_pictures_nor_a_clip(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "carte.txt"
    notes.write_text("3c 4c\n")
    assert main(["enroll", "--out", str(tmp_path / "m.npz"), str(notes)]) == 2
    assert "carte.txt: non è né una cartella di foto né un video (.mp4, .mkv" in capsys.readouterr().err


def test_the_cli_names_a_broken_clip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "rotto.mp4"
    broken.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(200))
    assert main(["enroll", "--out", str(tmp_path / "m.npz"), str(broken)]) == 2
    assert "rotto.mp4: " in capsys.readouterr().err


def test_save_pictures_needs_a_sorted_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "foto").mkdir()
    assert main(["enroll", "--out", str(tmp_path / "m.npz"), "--save-pictures", str(tmp_path / "carte"),
                 str(tmp_path / "foto")]) == 2
    assert "--save-pictures va usato con --in-order o con un video" in capsys.readouterr().err


def test_pictures_written_by_card_are_read_back_by_name(tmp_path: Path) -> None:
    picture = np.full((90, 60, 3), 200, np.uint8)
    written = write_card_pictures(tmp_path / "carte", {"3c": [picture, picture], BACK: [picture]})
    assert sorted(path.name for path in written) == ["3c-2.jpg", "3c.jpg", "back.jpg"]
    scanned = scan_folder(tmp_path / "carte")
    assert {label: len(paths) for label, paths in scanned.paths.items()} == {"3c": 2, BACK: 1}


def test_pictures_cannot_be_written_where_a_file_stands(tmp_path: Path) -> None:
    (tmp_path / "carte").write_text("")
    with pytest.raises(EnrollmentError, match="carte: cannot make the folder"):
        write_card_pictures(tmp_path / "carte", {"3c": [np.zeros((9, 6, 3), np.uint8)]})


@needs_cards
@pytest.mark.slow
def test_a_deck_shown_to_the_camera_is_enrolled_and_its_pictures_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The whole path: the sorted deck filmed card after card, enrolled by the CLI, read with it."""
    assert CARDS_ROOT is not None
    order = DeckOrder(("b", "s", "c", "d"), ascending=True)
    deck = Deck.load(CARDS_ROOT / "trevisane")
    clip = tmp_path / "mazzo.mp4"
    render_showing_clip(order.codes, deck, RenderSettings(seed=21, size=(1920, 1080)), clip)
    profile, pictures = tmp_path / "mazzo.npz", tmp_path / "carte"
    assert main(["enroll", "--views", "2", "--head-views", "16", "--out", str(profile),
                 "--save-pictures", str(pictures), str(clip)]) == 0
    out = capsys.readouterr().out
    assert f"Nel video {clip} ho trovato 40 carte, dalla prima a 0:0" in out
    assert "Ordine delle foto: bastoni, spade, coppe, denari, dall’Asso al Re." in out
    assert sorted(path.stem for path in pictures.iterdir()) == sorted(CARD_CODES)
    enrolled = DeckProfile.load(profile)
    assert sorted(enrolled.classes) == sorted(CARD_CODES)
    rng = np.random.default_rng(6)
    crops = [render_card_crop(prepare_artwork(deck.faces[code]), rng) for code in CARD_CODES]
    read = CardClassifier.load(DEFAULT_MODEL_PATH).classify(crops, profile=enrolled)
    assert np.mean([p.card == code for p, code in zip(read, CARD_CODES, strict=True)]) >= 0.95


@needs_cards
def test_a_card_taken_twice_in_a_row_is_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A sorted deck photographed with the Tre di denari taken twice and the Quattro skipped: every name
    after it is one off, and the two pictures are named in a warning."""
    assert CARDS_ROOT is not None
    deck = Deck.load(CARDS_ROOT / "napoletane")
    photos, again = photos_of(deck, 8), photos_of(deck, 9)
    order = DeckOrder(("c", "d", "s", "b"), ascending=True)
    folder = tmp_path / "foto"
    folder.mkdir()
    for number, code in enumerate(order.codes, start=1):
        photo = again["3d"][0] if code == "4d" else photos[code][0]
        cv2.imwrite(str(folder / f"IMG_{number}.jpg"), photo)
    assert main(["enroll", "--in-order", "--views", "2", "--head-views", "0", "--out",
                 str(tmp_path / "m.npz"), str(folder)]) == 0
    error = capsys.readouterr().err
    assert "sembrano la stessa carta due volte" in error
    assert "IMG_13.jpg e IMG_14.jpg" in error
    assert error.count(" e IMG_") == 1
