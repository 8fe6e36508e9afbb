"""Pictures of a sorted deck (vision.deck_order, enroll --in-order): the 48 orders, the most probable
one found from readings that get many cards wrong, and a folder of photos named as a phone names them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import BACK, CARD_CODES, CLASS_LABELS
from table.cli import main
from table.commands.enroll import describe_order, parse_suit_order
from tests.test_classifier import write_tiny_model
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier
from vision.crops import prepare_artwork, render_card_crop
from vision.deck_order import (
    ORDERS,
    STANDARD_ORDER,
    UNSURE_MARGIN,
    DeckOrder,
    most_probable_order,
    orders_of_suits,
)
from vision.deck_pictures import passes_and_backs, scan_in_order
from vision.deck_profile import DeckProfile
from vision.decks import Deck, find_cards_root
from vision.enrollment import EnrollmentError
from vision.scene.surfaces import make_surface
from vision.training.phone_photos import photos_of


def test_there_are_48_orders_each_holding_every_card_once() -> None:
    assert len(ORDERS) == 48 and len(set(ORDERS)) == 48
    assert all(sorted(order.codes) == sorted(CARD_CODES) for order in ORDERS)
    assert STANDARD_ORDER.codes == CARD_CODES


def test_an_order_in_words() -> None:
    order = DeckOrder(("d", "c", "b", "s"), ascending=False)
    assert order.codes[:3] == ("10d", "9d", "8d") and order.codes[-1] == "1s"
    assert describe_order(order) == "denari, coppe, bastoni, spade, dal Re all’Asso"
    assert describe_order(STANDARD_ORDER, "en") == "cups, coins, swords, batons, Ace to King"


def _readings_of(order: DeckOrder, rng: np.random.Generator, right_rank: float) -> np.ndarray:
    """Probabilities as a model that tells the suit but often not the rank would give them."""
    matrix = np.full((40, len(CLASS_LABELS)), 1e-4)
    for row, code in enumerate(order.codes):
        suit = code[-1]
        guess = code if rng.random() < right_rank else f"{rng.integers(1, 11)}{suit}"
        matrix[row, CLASS_LABELS.index(guess)] += 0.6
        for other in (f"{rank}{suit}" for rank in range(1, 11)):
            matrix[row, CLASS_LABELS.index(other)] += 0.03
    return matrix / matrix.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("index", [0, 7, 30, 47])
def test_the_order_is_found_when_the_ranks_are_read_half_wrong(index: int) -> None:
    rng = np.random.default_rng(index)
    reading = most_probable_order(_readings_of(ORDERS[index], rng, right_rank=0.5), CLASS_LABELS)
    assert reading.order == ORDERS[index] and reading.margin > 0


def test_readings_that_tell_nothing_leave_no_margin() -> None:
    reading = most_probable_order(np.full((40, len(CLASS_LABELS)), 1 / len(CLASS_LABELS)), CLASS_LABELS)
    assert reading.margin == 0.0 and reading.is_unsure and reading.runner_up != reading.order


def _spade_like_bastoni(matrix: np.ndarray, order: DeckOrder, likeness: float) -> np.ndarray:
    """``matrix`` with each spade or bastoni picture given ``likeness`` times its card's probability
    for the same rank of the other suit, renormalised."""
    matrix = matrix.copy()
    for row, code in enumerate(order.codes):
        if code[-1] in "sb":
            twin = code[:-1] + ("b" if code[-1] == "s" else "s")
            matrix[row, CLASS_LABELS.index(twin)] = matrix[row, CLASS_LABELS.index(code)] * likeness
    return matrix / matrix.sum(axis=1, keepdims=True)


def test_the_next_best_order_and_the_margin_over_it() -> None:
    # Spade and bastoni hardly told apart: the order swapping them is the next best, by little.
    order = DeckOrder(("c", "s", "b", "d"), ascending=True)
    matrix = _spade_like_bastoni(_readings_of(order, np.random.default_rng(5), right_rank=1.0), order, 0.9)
    reading = most_probable_order(matrix, CLASS_LABELS)
    assert reading.order == order and reading.runner_up == DeckOrder(("c", "b", "s", "d"), True)
    assert 0 < reading.margin < UNSURE_MARGIN and reading.is_unsure


def test_a_deck_photographed_twice_is_ordered_by_both_passes() -> None:
    # The first pass alone hardly tells spade from bastoni and would take the wrong order;
    # the second, read well, settles it.
    order = DeckOrder(("c", "s", "b", "d"), ascending=True)
    unsure = _spade_like_bastoni(_readings_of(order, np.random.default_rng(5), right_rank=1.0), order, 1.05)
    assert most_probable_order(unsure, CLASS_LABELS).order == DeckOrder(("c", "b", "s", "d"), True)
    clear = _readings_of(order, np.random.default_rng(6), right_rank=0.6)
    reading = most_probable_order(np.concatenate([unsure, clear]), CLASS_LABELS)
    assert reading.order == order and reading.margin > 0


@pytest.mark.parametrize(("count", "division"), [
    (40, (1, 0)), (41, (1, 1)), (80, (2, 0)), (81, (2, 1)), (82, (2, 2)),
    (0, None), (39, None), (42, None), (79, None), (83, None), (120, None),
])
def test_a_sorted_deck_is_one_pass_or_two_with_a_back_in_each(
    count: int, division: tuple[int, int] | None,
) -> None:
    assert passes_and_backs(count) == division


def test_the_order_of_the_suits_given_leaves_the_ranks_up_or_down() -> None:
    order = DeckOrder(("b", "s", "d", "c"), ascending=False)
    matrix = _readings_of(order, np.random.default_rng(2), right_rank=0.3)
    reading = most_probable_order(matrix, CLASS_LABELS, orders_of_suits(("b", "s", "d", "c")))
    assert reading.order == order and reading.runner_up == DeckOrder(order.suits, True)


@pytest.mark.parametrize("text, suits", [
    ("c,d,s,b", ("c", "d", "s", "b")),
    ("Spade, bastoni, coppe, denari", ("s", "b", "c", "d")),
    ("coins,cups,batons,swords", ("d", "c", "b", "s")),
])
def test_suits_in_order_by_initial_or_name(text: str, suits: tuple[str, ...]) -> None:
    assert parse_suit_order(text) == suits


@pytest.mark.parametrize("text, message", [
    ("coppe,denari,spade,fiori", r"not suits: \['fiori'\]"),
    ("c,d,s", "the four suits once each"),
    ("c,c,s,b", "the four suits once each"),
])
def test_a_wrong_order_of_suits_is_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_suit_order(text)


@pytest.mark.parametrize("shape", [(39, 42), (40, 41), (40,), (0, 42), (81, 42)])
def test_another_number_of_pictures_is_refused(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"the pictures of a sorted deck are 40.*got probabilities of shape"):
        most_probable_order(np.full(shape, 0.01), CLASS_LABELS)


def test_pictures_are_taken_in_the_order_a_phone_numbers_them(tmp_path: Path) -> None:
    for number in (10, 9, 1, 40, *range(2, 9), *range(11, 40)):
        cv2.imwrite(str(tmp_path / f"IMG_{number}.jpg"), np.full((30, 20, 3), 200, np.uint8))
    (tmp_path / "notes.txt").write_text("not a picture")
    (tmp_path / ".hidden.jpg").write_bytes(b"")
    paths = scan_in_order(tmp_path)
    assert [p.name for p in paths[:11]] == [f"IMG_{n}.jpg" for n in range(1, 12)]
    assert len(paths) == 40


def test_a_folder_that_is_not_one_sorted_deck_is_named(tmp_path: Path) -> None:
    for number in range(39):
        cv2.imwrite(str(tmp_path / f"{number:04d}.png"), np.full((30, 20, 3), 200, np.uint8))
    expected = (r"39 pictures; the pictures of a sorted deck are its 40 cards.*"
                r"photographed twice in the same order \(80, with its back 81 or 82\)")
    with pytest.raises(EnrollmentError, match=expected):
        scan_in_order(tmp_path)
    with pytest.raises(EnrollmentError, match="no such folder"):
        scan_in_order(tmp_path / "absent")


CARDS_ROOT = find_cards_root()
needs_cards = pytest.mark.skipif(
    CARDS_ROOT is None, reason="no card artwork here (../shared/cards or TRESSETTE_CARDS)"
)


def _photograph_in_order(folder: Path, style: str, order: DeckOrder, back_at: int | None,
                         passes: int = 1) -> None:
    """A phone's photos of ``style`` sorted as ``order`` (its back after ``back_at`` cards), the deck
    photographed ``passes`` times, each time with other photos."""
    assert CARDS_ROOT is not None
    deck = Deck.load(CARDS_ROOT / style)
    folder.mkdir(parents=True)
    number = 0
    for photo_pass in range(passes):
        photos = photos_of(deck, 8 + photo_pass)
        codes: list[str] = list(order.codes)
        if back_at is not None and deck.back is not None:
            codes.insert(back_at, BACK)
            back_rng = np.random.default_rng(1 + photo_pass)
            photos[BACK] = [render_card_crop(prepare_artwork(deck.back), back_rng)]
        for code in codes:
            number += 1
            cv2.imwrite(str(folder / f"IMG_{number}.jpg"), photos[code][0])


@needs_cards
def test_a_sorted_deck_with_a_photo_of_no_card_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "mazzo"
    _photograph_in_order(folder, "piacentine", DeckOrder(("c", "d", "s", "b"), ascending=True), back_at=None)
    table = make_surface("felt_green", 400, 600, np.random.default_rng(2))
    cv2.imwrite(str(folder / "IMG_5.jpg"), table)  # the Cinque di coppe missed: the cloth alone
    assert main(["enroll", "--in-order", "--views", "1", "--head-views", "2", "--threads", "1",
                 "--out", str(tmp_path / "mazzo.npz"), str(folder)]) == 0
    (warning,) = [line for line in capsys.readouterr().err.splitlines() if "non vedo una carta" in line]
    assert "in 1 foto (il modello ci legge «nessuna carta»): IMG_5.jpg." in warning


@needs_cards
def test_a_sorted_deck_enrolled_from_unnamed_photos_reads_its_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert CARDS_ROOT is not None
    order = DeckOrder(("s", "d", "b", "c"), ascending=False)
    _photograph_in_order(tmp_path / "mazzo", "piacentine", order, back_at=17)
    profile = tmp_path / "mazzo.npz"
    assert main(["enroll", "--in-order", "--views", "2", "--head-views", "32", "--out", str(profile),
                 str(tmp_path / "mazzo")]) == 0
    out = capsys.readouterr().out
    assert "40 carte e il dorso, 41 immagini" in out
    assert "Ordine delle foto: spade, denari, bastoni, coppe, dal Re all’Asso; il dorso è IMG_18.jpg." in out
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    enrolled = DeckProfile.load(profile)
    assert sorted(enrolled.classes) == sorted((*CARD_CODES, BACK))
    rng = np.random.default_rng(4)
    deck = Deck.load(CARDS_ROOT / "piacentine")
    crops = [render_card_crop(prepare_artwork(deck.faces[code]), rng) for code in CARD_CODES]
    read = classifier.classify(crops, profile=enrolled)
    assert np.mean([p.card == code for p, code in zip(read, CARD_CODES, strict=True)]) >= 0.95


@needs_cards
def test_a_sorted_deck_photographed_twice_is_enrolled_from_both_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    order = DeckOrder(("d", "c", "b", "s"), ascending=True)
    _photograph_in_order(tmp_path / "mazzo", "napoletane", order, back_at=5, passes=2)
    profile = tmp_path / "mazzo.npz"
    assert main(["enroll", "--in-order", "--lang", "en", "--views", "2", "--head-views", "8",
                 "--out", str(profile), str(tmp_path / "mazzo")]) == 0
    out = capsys.readouterr().out
    assert "40 cards and the back, 82 pictures" in out
    assert "Order of the pictures: coins, cups, batons, swords, Ace to King; the back is IMG_6.jpg, " \
           "IMG_47.jpg." in out
    enrolled = DeckProfile.load(profile)
    assert enrolled.prototype_labels.count("1d") == 2 and enrolled.prototype_labels.count(BACK) == 2
    assert len(enrolled.prototype_labels) == 82


def test_enroll_in_order_names_a_folder_that_is_not_a_sorted_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    for number in range(3):
        cv2.imwrite(str(tmp_path / f"IMG_{number}.jpg"), np.full((30, 20, 3), 200, np.uint8))
    out = tmp_path / "deck.npz"
    assert main(["enroll", "--in-order", "--lang", "en", "--out", str(out), str(tmp_path)]) == 2
    assert "3 pictures; the pictures of a sorted deck are its 40 cards" in capsys.readouterr().err
    assert not out.exists()


def test_enroll_in_order_lists_an_unreadable_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    for number in range(40):
        cv2.imwrite(str(tmp_path / f"IMG_{number}.jpg"), np.full((30, 20, 3), 200, np.uint8))
    (tmp_path / "IMG_7.jpg").write_bytes(b"not a picture")
    model = write_tiny_model(tmp_path / "tiny.onnx")
    out = tmp_path / "deck.npz"
    enroll = ["enroll", "--in-order", "--model", str(model), "--out", str(out), str(tmp_path)]
    assert main([*enroll, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "1 picture(s) cannot be read" in err and "IMG_7.jpg" in err
    assert not out.exists()
    assert main(enroll) == 2
    unreadable = f"foto illeggibili, 1:\n  {tmp_path / 'IMG_7.jpg'}: immagine illeggibile"
    assert unreadable in capsys.readouterr().err


@pytest.fixture()
def forty_pictures(tmp_path: Path) -> Path:
    folder = tmp_path / "foto"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for number in range(1, 41):
        cv2.imwrite(str(folder / f"IMG_{number}.jpg"), rng.integers(0, 255, (60, 40, 3), dtype=np.uint8))
    return folder


def test_an_unsure_order_is_said_with_the_next_best(
    tmp_path: Path, forty_pictures: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # A tiny untrained model tells the suits of noise pictures no better than chance.
    model = write_tiny_model(tmp_path / "tiny.onnx")
    out = tmp_path / "deck.npz"
    args = ["enroll", "--in-order", "--model", str(model), "--views", "1", "--head-views", "4",
            "--out", str(out)]
    assert main([*args, str(forty_pictures)]) == 0
    captured = capsys.readouterr()
    assert "Ordine delle foto:" in captured.out and out.is_file()
    assert "l'ordine delle foto è incerto, di poco più probabile del secondo:" in captured.err
    assert "chiamate ogni foto col codice della carta" in captured.err
    assert main([*args, "--suits", "denari,coppe,bastoni,spade", "--lang", "en", str(forty_pictures)]) == 0
    captured = capsys.readouterr()
    assert "Order of the pictures: coins, cups, batons, swords, " in captured.out
    assert "--suits" not in captured.err  # the suits are given: only the ranks' direction is left


def test_suits_are_refused_without_in_order_or_when_they_are_not_suits(
    forty_pictures: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["enroll", "--suits", "c,d,s,b", "--out", "x.npz", str(forty_pictures)]) == 2
    assert "--suits va usato con --in-order" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(["enroll", "--in-order", "--suits", "c,d,x,b", "--out", "x.npz", str(forty_pictures),
              "--lang", "en"])
    assert refused.value.code == 2
    assert "not suits: ['x']" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["enroll", "--in-order", "--suits", "c,d,x,b", "--out", "x.npz", str(forty_pictures)])
    assert "non sono semi: ['x']" in capsys.readouterr().err
