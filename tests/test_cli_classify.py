"""`tressette classify` and `tressette enroll`, run in-process through the real command line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS
from table.cli import main
from table.commands.enroll import scan_progress_on_terminal
from tests.test_classifier import good_metadata, write_tiny_model
from tests.test_decks import write_heic
from vision.classifier import CardClassifier
from vision.crops import prepare_artwork, render_card_crop
from vision.deck_profile import DeckProfile
from vision.decks import Deck, find_cards_root, read_image
from vision.enrollment import ENROLMENT_CROPS
from vision.scene.surfaces import make_surface
from vision.style_bank import StyleBank, bank_path


def _write_picture(path: Path, seed: int, size: tuple[int, int] = (80, 120)) -> Path:
    """A picture of random pixels, ``size`` = (width, height)."""
    rng = np.random.default_rng(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8))
    return path


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_model(tmp_path_factory.mktemp("model") / "tiny.onnx")


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_classify_prints_one_json_object_per_image(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    images = [_write_picture(tmp_path / f"crop{i}.png", i) for i in range(3)]
    assert main(["classify", "--model", str(tiny_model), *map(str, images)]) == 0
    rows = _lines(capsys.readouterr().out)
    assert [row["path"] for row in rows] == [str(p) for p in images]
    for row in rows:
        assert set(row) == {"path", "card", "confidence"}
        assert row["card"] in CLASS_LABELS and 0.0 <= row["confidence"] <= 1.0


def test_classify_top_k_lists_k_labels_best_first(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    image = _write_picture(tmp_path / "crop.png", 1)
    assert main(["classify", "--model", str(tiny_model), "--top", "4", "--threads", "2", str(image)]) == 0
    (row,) = _lines(capsys.readouterr().out)
    top = row["top"]
    assert len(top) == 4 and top[0][0] == row["card"] and top[0][1] == row["confidence"]
    assert [p for _, p in top] == sorted((p for _, p in top), reverse=True)


def test_classify_reads_on_as_many_opencv_threads_as_it_is_given(
    tmp_path: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """`--threads N` holds OpenCV's pool (cutting cards again, resizing) to N while the images are read,
    and gives it back as it was."""
    seen: list[int] = []
    classify = CardClassifier.classify

    def counting(self: CardClassifier, *args: object, **kwargs: object) -> object:
        seen.append(cv2.getNumThreads())
        return classify(self, *args, **kwargs)

    monkeypatch.setattr(CardClassifier, "classify", counting)
    before = cv2.getNumThreads()
    image = _write_picture(tmp_path / "a.png", 5)
    for threads in ("1", "3"):
        assert main(["classify", "--model", str(tiny_model), "--threads", threads, str(image)]) == 0
    assert seen == [1, 3]
    assert cv2.getNumThreads() == before
    assert len(_lines(capsys.readouterr().out)) == 2


def test_an_unreadable_image_is_named_and_the_rest_still_read(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    good = _write_picture(tmp_path / "good.png", 1)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not an image")
    missing = tmp_path / "missing.png"
    status = main(["classify", "--model", str(tiny_model), str(broken), str(good), str(missing)])
    captured = capsys.readouterr()
    assert status == 1
    assert [row["path"] for row in _lines(captured.out)] == [str(good)]
    errors = captured.err.splitlines()
    assert len(errors) == 2
    assert "broken.jpg: immagine illeggibile" in errors[0]
    assert "missing.png: immagine illeggibile" in errors[1]


def test_an_unreadable_image_message_in_english(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"")
    assert main(["classify", "--lang", "en", "--model", str(tiny_model), str(broken)]) == 1
    assert capsys.readouterr().err.startswith(f"tressette classify: error: {broken}: unreadable image")


def test_an_image_too_small_for_a_crop_is_named_and_the_rest_still_read(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    first, last = _write_picture(tmp_path / "first.png", 1), _write_picture(tmp_path / "last.png", 2)
    speck = _write_picture(tmp_path / "speck.png", 3, size=(1, 1))
    assert main(["classify", "--model", str(tiny_model), str(first), str(speck), str(last)]) == 1
    captured = capsys.readouterr()
    assert [row["path"] for row in _lines(captured.out)] == [str(first), str(last)]
    (error,) = captured.err.splitlines()
    assert "speck.png: immagine di 1x1 pixel, troppo piccola" in error
    assert main(["classify", "--lang", "en", "--model", str(tiny_model), str(speck)]) == 1
    assert "speck.png: an image of 1x1 pixels, too small to read a card in" in capsys.readouterr().err


def test_a_missing_model_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = _write_picture(tmp_path / "crop.png", 1)
    assert main(["classify", "--lang", "en", "--model", str(tmp_path / "none.onnx"), str(image)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tressette classify: error: no model at") and "none.onnx" in err
    assert main(["classify", "--model", str(tmp_path / "none.onnx"), str(image)]) == 2
    assert capsys.readouterr().err.startswith("tressette classify: errore: nessun modello in")


def test_crops_mostly_too_small_get_a_note_to_see_the_cards_larger(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    small = [_write_picture(tmp_path / f"small{i}.png", i, (40, 60)) for i in range(2)]
    lying = _write_picture(tmp_path / "lying.png", 7, (90, 55))  # landscape: 55 px across the card
    large = _write_picture(tmp_path / "large.png", 9, (100, 150))
    assert main(["classify", "--model", str(tiny_model), *map(str, [*small, lying, large])]) == 0
    captured = capsys.readouterr()
    assert len(_lines(captured.out)) == 4
    assert "nota: 3 di queste 4 immagini sono larghe meno di 60 pixel (a metà 48 pixel)" in captured.err
    assert main(["classify", "--lang", "en", "--model", str(tiny_model), str(small[0])]) == 0
    assert "note: 1 of these 1 images are under 60 pixels wide (median 40 pixels)" in capsys.readouterr().err


def test_a_few_small_crops_among_larger_ones_get_no_note(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    small = [_write_picture(tmp_path / f"small{i}.png", i, (59, 90)) for i in range(2)]
    large = [_write_picture(tmp_path / f"large{i}.png", i, (60, 90)) for i in range(3)]
    assert main(["classify", "--model", str(tiny_model), *map(str, [*small, *large])]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argument", [["--top", "0"], ["--threads", "zero"]])
def test_bad_numbers_are_refused(argument: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["classify", *argument, "x.png"])
    assert caught.value.code == 2
    assert argument[0] in capsys.readouterr().err


def test_enroll_writes_a_profile_and_warns_of_missing_cards(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    for i, code in enumerate([c for c in CARD_CODES if c != "5c"] + ["back"]):
        _write_picture(pictures / f"{code}.png", i)
    out = tmp_path / "mio-mazzo.npz"
    status = main(["enroll", "--model", str(tiny_model), "--views", "1", "--head-views", "2",
                   "--out", str(out), str(pictures)])
    captured = capsys.readouterr()
    assert status == 0 and out.is_file()
    assert "mancano 1 carte" in captured.err and "Cinque di coppe (5c)" in captured.err
    assert "Mazzo «deck» registrato" in captured.out and "39 carte e il dorso" in captured.out

    image = _write_picture(tmp_path / "crop.png", 99)
    assert main(["classify", "--model", str(tiny_model), "--deck", str(out), str(image)]) == 0
    assert _lines(capsys.readouterr().out)[0]["path"] == str(image)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_enroll_shows_its_progress_on_a_terminal_only(
    tmp_path: Path, tiny_model: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    _write_picture(pictures / "4c.png", 2)
    enroll = ["enroll", "--model", str(tiny_model), "--views", "1", "--head-views", "2", "--threads", "1",
              "--out", str(tmp_path / "d.npz"), str(pictures)]
    assert main(enroll) == 0
    assert "Registro il mazzo" not in capsys.readouterr().err  # a file or a pipe: the warnings alone
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(enroll) == 0
    assert terminal.getvalue().startswith(
        "\rRegistro il mazzo: 1 foto su 2\033[K\rRegistro il mazzo: 2 foto su 2\033[K\n")
    terminal.truncate(0)
    terminal.seek(0)
    assert main([*enroll, "--lang", "en"]) == 0
    assert "\rEnrolling the deck: 2 pictures of 2\033[K\n" in terminal.getvalue()


def test_the_search_of_a_clip_is_shown_on_a_terminal_a_second_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    show = scan_progress_on_terminal("it")
    assert show is not None
    show(1.0, 77.2)
    show(2.0, None)  # a clip whose file does not state its length
    show(77.2, 77.2)
    assert terminal.getvalue() == ("\rCerco le carte nel video: 1 s su 77\033[K"
                                   "\rCerco le carte nel video: 2 s\033[K"
                                   "\rCerco le carte nel video: 77 s su 77\033[K\n")
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert scan_progress_on_terminal("en") is None


def test_enroll_head_views_zero_makes_a_profile_of_prototypes_only(tmp_path: Path, tiny_model: Path) -> None:
    pictures = tmp_path / "deck"
    for i, code in enumerate(["3c", "1d"]):
        _write_picture(pictures / f"{code}.png", i)
    out = tmp_path / "prototipi.npz"
    assert main(["enroll", "--model", str(tiny_model), "--views", "1", "--head-views", "0", "--out", str(out),
                 str(pictures)]) == 0
    assert DeckProfile.load(out).head is None


def test_enroll_in_worker_processes_writes_the_profile_of_one(tmp_path: Path, tiny_model: Path) -> None:
    pictures = tmp_path / "deck"
    for i, code in enumerate(["3c", "1d", "10s"]):
        _write_picture(pictures / f"{code}.png", i)
    profiles = {}
    for threads in ("1", "3"):
        out = tmp_path / f"mazzo-{threads}.npz"
        assert main(["enroll", "--model", str(tiny_model), "--views", "2", "--head-views", "3",
                     "--threads", threads, "--out", str(out), str(pictures)]) == 0
        profiles[threads] = DeckProfile.load(out)
    np.testing.assert_array_equal(profiles["3"].prototypes, profiles["1"].prototypes)
    assert profiles["3"].head is not None and profiles["1"].head is not None
    np.testing.assert_array_equal(profiles["3"].head.weights, profiles["1"].head.weights)


@pytest.mark.parametrize("value", ["-1", "molte", "1.5"])
def test_enroll_refuses_a_bad_count_of_head_views(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["enroll", "--head-views", value, "--out", "x.npz", "deck", "--lang", "en"])
    assert caught.value.code == 2
    assert f"--head-views: a whole number of 0 or more, got {value!r}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["enroll", "--head-views", value, "--out", "x.npz", "deck"])
    italian = capsys.readouterr().err
    assert f"errore: argomento --head-views: un numero intero da 0 in su, non {value!r}" in italian


def test_enroll_names_the_photos_it_could_not_cut_to_the_card(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    pictures.mkdir()
    on_felt = np.full((300, 240, 3), (40, 110, 30), np.uint8)  # a card lying on green felt
    cv2.rectangle(on_felt, (50, 40), (190, 260), (235, 240, 245), -1)
    cv2.imwrite(str(pictures / "3c.png"), on_felt)
    _write_picture(pictures / "4s.png", 4)  # noise: no card edge to find anywhere
    status = main(["enroll", "--lang", "en", "--model", str(tiny_model), "--views", "1",
                   "--out", str(tmp_path / "d.npz"), str(pictures)])
    err = capsys.readouterr().err
    assert status == 0 and (tmp_path / "d.npz").is_file()
    assert "in 1 pictures I cannot find the card's edge" in err
    assert "4s.png" in err and "3c.png" not in err


def test_enroll_lists_every_bad_file(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    _write_picture(pictures / "3x.png", 2)
    _write_picture(pictures / "foto.png", 3)
    status = main(["enroll", "--lang", "en", "--model", str(tiny_model), "--out", str(tmp_path / "d"),
                   str(pictures)])
    err = capsys.readouterr().err
    assert status == 2 and not (tmp_path / "d").exists()
    assert "2 file(s) cannot be enrolled" in err and "3x.png" in err and "foto.png" in err


def test_enroll_names_a_picture_too_small_to_show_a_card(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    _write_picture(pictures / "4c.png", 2, size=(5, 7))
    enroll = ["enroll", "--model", str(tiny_model), "--out", str(tmp_path / "d.npz"), str(pictures)]
    status = main([*enroll, "--lang", "en"])
    err = capsys.readouterr().err
    assert status == 2 and not (tmp_path / "d.npz").exists()
    assert "4c.png: 5x7 pixels, too small to show a card (8x8 or more)" in err and "3c.png" not in err
    assert main(enroll) == 2
    assert "4c.png: 5x7 pixel, troppo piccola per mostrare una carta (ne servono almeno 8x8)" \
        in capsys.readouterr().err


@pytest.mark.parametrize(("out", "message"), [
    ("deck", "--out {tmp}/deck: è una cartella; date il nome del file del profilo da scrivere, come "
             "{tmp}/deck/mio-mazzo.npz"),
    ("nowhere/d.npz", "--out {tmp}/nowhere/d.npz: la cartella {tmp}/nowhere non esiste"),
])
def test_enroll_refuses_a_profile_it_could_not_write_before_reading_any_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, message: str,
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    # No model at the path given: had the pictures been read first, the model would be missing first.
    status = main(["enroll", "--model", str(tmp_path / "none.onnx"), "--out", str(tmp_path / out),
                   str(pictures)])
    assert status == 2
    assert message.format(tmp=tmp_path) in capsys.readouterr().err


def test_enroll_refuses_to_save_pictures_over_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    taken = _write_picture(tmp_path / "taken.png", 2)
    status = main(["enroll", "--lang", "en", "--in-order", "--save-pictures", str(taken),
                   "--model", str(tmp_path / "none.onnx"), "--out", str(tmp_path / "d.npz"), str(pictures)])
    assert status == 2
    assert capsys.readouterr().err.startswith(f"tressette enroll: error: --save-pictures {taken}: a file, "
                                              "not a folder")


def test_classify_refuses_a_profile_of_another_model(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pictures = tmp_path / "deck"
    _write_picture(pictures / "3c.png", 1)
    profile = tmp_path / "deck.npz"
    enroll = ["enroll", "--model", str(tiny_model), "--views", "1", "--out", str(profile), str(pictures)]
    assert main(enroll) == 0
    other = write_tiny_model(tmp_path / "v2.onnx", good_metadata(model_version="v2"))
    image = _write_picture(tmp_path / "crop.png", 5)
    capsys.readouterr()
    classify = ["classify", "--model", str(other), "--deck", str(profile), str(image)]
    assert main([*classify, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "deck.npz: made with model 'tiny-test'" in err and "enrol the deck again" in err
    assert main(classify) == 2
    err = capsys.readouterr().err
    assert "deck.npz: fatto col modello 'tiny-test'" in err and "registrate di nuovo il mazzo" in err


def test_a_corrupt_profile_is_one_error_line(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    profile = tmp_path / "deck.npz"
    profile.write_bytes(b"rubbish")
    image = _write_picture(tmp_path / "crop.png", 5)
    classify = ["classify", "--model", str(tiny_model), "--deck", str(profile), str(image)]
    assert main([*classify, "--lang", "en"]) == 2
    assert "deck.npz: not a deck profile" in capsys.readouterr().err
    assert main(classify) == 2
    assert "deck.npz: non è un profilo di mazzo (non è un archivio .npz: 7 byte di altro)" \
        in capsys.readouterr().err


def test_a_style_bank_of_another_model_is_one_error_line_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    prototypes = np.ones((1, len(CLASS_LABELS), 8), np.float32) / np.sqrt(8)
    StyleBank("an-older-model", CLASS_LABELS, ("francesi",), prototypes).save(bank_path(model))
    image = _write_picture(tmp_path / "crop.png", 6)
    assert main(["classify", "--model", str(model), str(image)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tressette classify: errore: the style bank beside")
    assert "an-older-model" in err and "tiny-test" in err and "vision.training.bank" in err


# ---------------------------------------------------------------------------------------------------
# The shipped model, through the command line, on real artwork.

CARDS_ROOT = find_cards_root()
needs_cards = pytest.mark.skipif(
    CARDS_ROOT is None, reason="no card artwork here (../shared/cards or TRESSETTE_CARDS)"
)


@needs_cards
def test_classify_reads_card_pictures_with_the_shipped_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    pictures = [CARDS_ROOT / "napoletane" / "1c.jpg", CARDS_ROOT / "napoletane" / "3c.jpg",
                CARDS_ROOT / "kde-standard" / "1d.jpg", CARDS_ROOT / "napoletane" / "back.jpg"]
    lying = tmp_path / "3c-landscape.png"  # a card lying sideways reads the same
    cv2.imwrite(str(lying), cv2.rotate(read_image(pictures[1]), cv2.ROTATE_90_COUNTERCLOCKWISE))
    assert main(["classify", "--top", "2", *map(str, pictures), str(lying)]) == 0
    rows = _lines(capsys.readouterr().out)
    assert [row["card"] for row in rows] == ["1c", "3c", "1d", "back", "3c"]
    assert all(len(row["top"]) == 2 for row in rows)


@needs_cards
def test_classify_reads_a_phones_heic_photo_of_a_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    face = read_image(CARDS_ROOT / "napoletane" / "7s.jpg")
    photo = write_heic(tmp_path / "IMG_0007.HEIC", face)
    assert main(["classify", str(photo)]) == 0
    (row,) = _lines(capsys.readouterr().out)
    assert row["path"] == str(photo) and row["card"] == "7s"


def _write_crops(folder: Path, styles: list[str], negative: bool) -> list[str]:
    """One uncovered crop of each card of ``styles`` (as printed, or printed in negative)."""
    assert CARDS_ROOT is not None
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(5)
    paths = []
    for style in styles:
        for code, face in Deck.load(CARDS_ROOT / style).faces.items():
            art = prepare_artwork(np.ascontiguousarray(255 - face) if negative else face)
            path = folder / f"{style}-{code}.png"
            cv2.imwrite(str(path), render_card_crop(art, rng, (), ENROLMENT_CROPS))
            paths.append(str(path))
    return paths


@needs_cards
def test_a_deck_the_model_never_saw_gets_a_note_to_enrol_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # A deck printed in negative is one no training style looks like; its crops are still read.
    strange = _write_crops(tmp_path / "negative", ["napoletane", "gnome-paris"], negative=True)
    assert main(["classify", *strange]) == 0
    captured = capsys.readouterr()
    assert len(_lines(captured.out)) == 80
    assert "nota: queste" in captured.err and "tressette enroll" in captured.err
    assert main(["classify", "--lang", "en", *strange]) == 0
    assert "note: these" in capsys.readouterr().err


@needs_cards
def test_a_deck_the_model_knows_gets_no_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = _write_crops(tmp_path / "known", ["napoletane"], negative=False)
    assert main(["classify", *known]) == 0
    captured = capsys.readouterr()
    assert [row["card"] for row in _lines(captured.out)].count("3c") >= 1
    assert captured.err == ""


@needs_cards
def test_enroll_a_deck_folder_then_classify_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    profile = tmp_path / "siciliane.npz"
    folder = CARDS_ROOT / "siciliane"
    assert main(["enroll", "--views", "2", "--head-views", "16", "--lang", "en", "--out", str(profile),
                 str(folder)]) == 0
    captured = capsys.readouterr()
    assert "Deck “siciliane” enrolled" in captured.out and "40 cards, 40 pictures" in captured.out
    assert captured.err == ""
    crop = tmp_path / "crop.png"
    art = prepare_artwork(Deck.load(folder).faces["5b"])
    cv2.imwrite(str(crop), render_card_crop(art, np.random.default_rng(3)))
    assert main(["classify", "--deck", str(profile), str(crop)]) == 0
    (row,) = _lines(capsys.readouterr().out)
    assert row["path"] == str(crop) and row["card"] in CLASS_LABELS


@needs_cards
def test_distinct_reads_no_card_twice_and_names_the_reading_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Two files of the same picture of the Tre di coppe: read alone both are 3c; read as different
    # cards, one keeps 3c and the other takes its next most probable card, saying what it read alone.
    assert CARDS_ROOT is not None
    three = str(CARDS_ROOT / "napoletane" / "3c.jpg")
    copy = tmp_path / "3c-copy.jpg"
    copy.write_bytes(Path(three).read_bytes())
    again = str(copy)
    ace = str(CARDS_ROOT / "napoletane" / "1d.jpg")
    assert main(["classify", three, again, ace]) == 0
    assert [row["card"] for row in _lines(capsys.readouterr().out)] == ["3c", "3c", "1d"]
    assert main(["classify", "--distinct", "--top", "3", three, again, ace]) == 0
    rows = _lines(capsys.readouterr().out)
    assert [row["path"] for row in rows] == [three, again, ace]
    assert sorted(row["card"] == "3c" for row in rows[:2]) == [False, True]
    moved = next(row for row in rows[:2] if row["card"] != "3c")
    assert moved["alone"] == "3c" and moved["top"][0][0] == "3c"
    assert [moved["card"], moved["confidence"]] == moved["top"][1]  # its next most probable card
    assert rows[2] == {"path": ace, "card": "1d", "confidence": rows[2]["confidence"],
                       "top": rows[2]["top"]}


@needs_cards
def test_distinct_reads_one_file_given_twice_as_one_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    monkeypatch.chdir(CARDS_ROOT)
    three, ace = str(CARDS_ROOT / "napoletane" / "3c.jpg"), str(CARDS_ROOT / "napoletane" / "1d.jpg")
    by_another_name = "napoletane/3c.jpg"
    assert main(["classify", "--distinct", three, ace, by_another_name]) == 0
    captured = capsys.readouterr()
    rows = _lines(captured.out)
    assert [row["path"] for row in rows] == [three, ace, by_another_name]
    assert [row["card"] for row in rows] == ["3c", "1d", "3c"]
    assert rows[0]["confidence"] == rows[2]["confidence"]
    assert all("alone" not in row for row in rows)
    assert f"--distinct: {three} è data 2 volte; è letta come un'immagine sola" in captured.err


@needs_cards
def test_distinct_keeps_a_known_deck_read_right(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = _write_crops(tmp_path / "known", ["piacentine"], negative=False)
    assert main(["classify", "--distinct", *known]) == 0
    rows = _lines(capsys.readouterr().out)
    truth = [Path(path).stem.split("-")[-1] for path in known]
    assert [row["card"] for row in rows] == truth
    assert all("alone" not in row for row in rows)


def test_distinct_with_more_images_than_cards_says_so_and_reads_them_all(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    images = [str(_write_picture(tmp_path / f"crop{i}.png", i)) for i in range(len(CARD_CODES) + 2)]
    assert main(["classify", "--model", str(tiny_model), "--distinct", *images]) == 0
    captured = capsys.readouterr()
    rows = _lines(captured.out)
    assert [row["path"] for row in rows] == images
    cards = [row["card"] for row in rows if row["card"] in CARD_CODES]
    assert len(cards) == len(set(cards))
    assert "--distinct con 42 immagini, ma le carte sono 40: almeno 2" in captured.err


@needs_cards
def test_enroll_warns_of_pictures_that_show_no_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    pictures = tmp_path / "deck"
    pictures.mkdir()
    for code in ("1c", "2c", "back"):
        (pictures / f"{code}.jpg").write_bytes((CARDS_ROOT / "napoletane" / f"{code}.jpg").read_bytes())
    table = make_surface("wood_dark", 400, 600, np.random.default_rng(3))
    cv2.imwrite(str(pictures / "3c.png"), table)  # the table photographed instead of the Tre di coppe
    cv2.imwrite(str(pictures / "4c.png"), np.full((600, 400, 3), 128, np.uint8))
    out = tmp_path / "deck.npz"
    assert main(["enroll", "--views", "1", "--head-views", "2", "--threads", "1", "--out", str(out),
                 str(pictures)]) == 0
    err = capsys.readouterr().err
    (warning,) = [line for line in err.splitlines() if "non vedo una carta" in line]
    assert f"in 2 foto (il modello ci legge «nessuna carta»): {pictures / '3c.png'}, {pictures / '4c.png'}" \
        in warning
    assert out.is_file()
