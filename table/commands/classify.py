"""`tressette classify IMAGE...`: read card crops with the shipped model, one JSON object per line.

Each line is ``{"path": ..., "card": "3c", "confidence": 0.98}`` (``card`` may be ``back`` or ``none``),
with ``"top": [[label, probability], ...]`` added by ``--top K``. An unreadable image, or one under
``MIN_CROP_SIDE`` pixels on a side, gets an error line on stderr naming it; the other images are still
read, and the exit status is then 1. Without ``--deck``, where the crops read as cards look like a deck
the model never saw (``vision.style_bank.is_unfamiliar_deck``: 30 cards or more), a note on stderr
suggests enrolling it. Where half the images or more are narrower than ``SMALL_CROP_WIDTH`` pixels
(their median width is under it), a note on stderr says that cards so small read less surely, and how to
see them larger.

With ``--distinct`` the images are taken to show different cards (a deck laid out, the cards of a
deal): they are read together, no card is given to two of them (``vision.distinct``), and the lines
come once all are read. A line whose card differs from the image's reading alone adds
``"alone": label``; its ``confidence`` is then the probability the model gave that card. One file given
more than once is one image there: read once, its card on each of its lines, with a note on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from engine.cards import CARD_CODES, is_card_code
from engine.errors import Message
from table.cli_parser import add_language_option, said, say
from table.errors import error_word
from vision.classifier import SMALL_CROP_WIDTH, CardClassifier, Prediction, crop_width
from vision.deck_profile import DeckProfile
from vision.decks import read_image
from vision.distinct import read_distinct
from vision.errors import VisionError, message_in
from vision.preprocess import MIN_CROP_SIDE, is_large_enough_crop
from vision.style_bank import UNFAMILIAR_BELOW, is_unfamiliar_deck
from vision.threads import held_opencv_threads

CHUNK = 64  # images read into memory at a time
OS_REASONS: dict[str, dict[type[OSError], str]] = {
    "it": {FileNotFoundError: "il file non esiste", IsADirectoryError: "è una cartella",
           PermissionError: "permesso negato"},
    "en": {FileNotFoundError: "no such file", IsADirectoryError: "a folder",
           PermissionError: "permission denied"},
}
MESSAGES = {
    "it": {
        "unreadable": "{path}: immagine illeggibile ({reason})",
        "too_small": "{path}: immagine di {width}x{height} pixel, troppo piccola per leggerci una carta "
                     "(servono almeno {side}x{side} pixel)",
        "unfamiliar": "nota: queste {count} carte somigliano poco ai mazzi che il modello conosce "
                      "(somiglianza mediana {median:.3f}, sotto {below}): se sono di un solo mazzo, "
                      "registralo con `tressette enroll --out MAZZO CARTELLA` e rileggile con "
                      "`--deck MAZZO`; un mazzo mai visto può essere letto male anche una volta su due",
        "repeated": "nota: --distinct: {path} è data {times} volte; è letta come un'immagine sola, con la "
                    "stessa carta in ogni sua riga",
        "too_many": "nota: --distinct con {count} immagini, ma le carte sono {cards}: almeno {extra} "
                    "saranno lette come dorso o non-carta",
        "small": "nota: {small} di queste {count} immagini sono larghe meno di {width} pixel (a metà "
                 "{median} pixel): carte così piccole si leggono meno bene (sui mazzi di prova il 97,7% "
                 "contro il 99,5% da {width} pixel in su); avvicinate la telecamera o ritagliate le carte "
                 "da un fotogramma più grande",
    },
    "en": {
        "unreadable": "{path}: unreadable image ({reason})",
        "too_small": "{path}: an image of {width}x{height} pixels, too small to read a card in "
                     "(it takes {side}x{side} pixels or more)",
        "unfamiliar": "note: these {count} cards look little like the decks the model knows "
                      "(median similarity {median:.3f}, under {below}): if they are of one deck, "
                      "enrol it with `tressette enroll --out DECK DIR` and read them again with "
                      "`--deck DECK`; a deck never seen may be misread as often as one card in two",
        "repeated": "note: --distinct: {path} is given {times} times; it is read as one image, with the "
                    "same card on each of its lines",
        "too_many": "note: --distinct with {count} images, but there are {cards} cards: at least {extra} "
                    "will be read as a back or no card",
        "small": "note: {small} of these {count} images are under {width} pixels wide (median {median} "
                 "pixels): cards this small are read less surely (on the test decks 97.7% against 99.5% "
                 "from {width} pixels up); bring the camera closer or cut the cards from a larger frame",
    },
}


def whole_number_at_least(minimum: int) -> Callable[[str], int]:
    """argparse type: a whole number of ``minimum`` or more; otherwise an error showing the text."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(said(Message(
                f"a whole number of {minimum} or more, got {text!r}",
                f"un numero intero da {minimum} in su, non {text!r}")))
        return value
    return parse


positive_int = whole_number_at_least(1)


def model_help() -> str:
    """The help of ``--model``, in the command line's language (classify and enroll)."""
    return say("ONNX model (default models/cards.onnx)", "modello ONNX (predefinito models/cards.onnx)")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "classify",
        help=say("reads the cards in cropped pictures (one JSON line per picture)",
                 "riconosce le carte in immagini ritagliate (una riga JSON per immagine)"),
        description=say("Reads the card in each picture (a crop of the card): one JSON line per picture.",
                        "Riconosce la carta in ogni immagine (un ritaglio della carta): "
                        "una riga JSON per immagine."),
    )
    add = parser.add_argument
    add("images", nargs="+", metavar="IMAGE", type=Path,
        help=say("card crops (jpg, png...)", "ritagli di carte (jpg, png...)"))
    add("--deck", type=Path, metavar="DECK",
        help=say("a deck profile (from `tressette enroll`)", "profilo di un mazzo (da `tressette enroll`)"))
    add("--top", type=positive_int, metavar="K",
        help=say("adds the K likeliest classes", "aggiunge le K classi più probabili"))
    add("--threads", type=positive_int, default=1, metavar="N",
        help=say("threads (default 1), the model's and OpenCV's",
                 "thread (predefinito 1), del modello e di OpenCV"))
    add("--model", type=Path, metavar="PATH", help=model_help())
    add("--distinct", action="store_true",
        help=say("the pictures show different cards (a deck, a deal): no card is read twice",
                 "le immagini mostrano carte diverse (un mazzo, una smazzata): "
                 "nessuna carta letta due volte"))
    add_language_option(parser)
    parser.set_defaults(func=run)


def prediction_line(path: Path, prediction: Prediction, top: int | None) -> str:
    """The JSON line printed for one image (``alone`` where ``--distinct`` changed its reading)."""
    record: dict[str, object] = {
        "path": str(path), "card": prediction.card, "confidence": round(prediction.confidence, 4),
    }
    if prediction.card != prediction.top[0][0]:
        record["alone"] = prediction.top[0][0]
    if top:
        record["top"] = [[label, round(p, 4)] for label, p in prediction.top[:top]]
    return json.dumps(record, ensure_ascii=False)


def _read_chunk(paths: Sequence[Path], lang: str) -> tuple[list[Path], list[np.ndarray], int]:
    """The images of ``paths`` that can be read as card crops, their paths, and how many cannot: each
    of those named on stderr (unreadable, or under ``MIN_CROP_SIDE`` pixels on a side)."""
    readable, crops, failures = [], [], 0
    text = MESSAGES[lang]
    for path in paths:
        try:
            crop = read_image(path)
        except (VisionError, OSError) as error:
            _say_error(_unreadable(path, error, lang), lang)
            failures += 1
            continue
        if not is_large_enough_crop(crop):
            height, width = crop.shape[:2]
            _say_error(text["too_small"].format(path=path, width=width, height=height, side=MIN_CROP_SIDE),
                       lang)
            failures += 1
            continue
        crops.append(crop)
        readable.append(path)
    return readable, crops, failures


def _unreadable(path: Path, error: VisionError | OSError, lang: str) -> str:
    """What is said of an image that cannot be read: the error's own Italian text where it has one
    (``vision.errors.message_in``), else that the image is unreadable, and why."""
    if lang == "it" and getattr(error, "italian", None):
        return message_in(error, lang)
    if isinstance(error, OSError):
        reason = OS_REASONS[lang].get(type(error), error.strerror or str(error))
    else:
        reason = str(error).removeprefix(f"{path}: ")
    return MESSAGES[lang]["unreadable"].format(path=path, reason=reason)


def _say_error(message: str, lang: str) -> None:
    print(f"tressette classify: {error_word(lang)}: {message}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Read the images, ``--threads`` threads in all: the model's and OpenCV's (``vision.threads``)."""
    with held_opencv_threads(args.threads):
        return _classify(args)


def _classify(args: argparse.Namespace) -> int:
    classifier = CardClassifier.load(args.model, threads=args.threads)
    profile = None
    if args.deck is not None:
        profile = DeckProfile.load(args.deck)
        profile.check_model(classifier)
    top_k = max(args.top or 0, 1)
    failures = 0
    card_embeddings: list[np.ndarray] = []
    widths: list[int] = []
    held: list[tuple[Path, Prediction]] = []  # with --distinct, printed once every image is read
    for start in range(0, len(args.images), CHUNK):
        paths, crops, failed = _read_chunk(args.images[start:start + CHUNK], args.lang)
        failures += failed
        widths += [crop_width(crop) for crop in crops]
        predictions = classifier.classify(crops, top_k=top_k, profile=profile)
        if args.distinct:
            held += zip(paths, predictions, strict=True)
        else:
            for path, prediction in zip(paths, predictions, strict=True):
                print(prediction_line(path, prediction, args.top))
        card_embeddings += [p.embedding for p in predictions if is_card_code(p.card)]
    if held:
        _print_distinct(held, classifier.labels, args.top, args.lang)
    sys.stdout.flush()
    if profile is None and classifier.bank is not None and card_embeddings:
        _note_unfamiliar_deck(classifier.bank.familiarity(np.stack(card_embeddings)), args.lang)
    _note_small_crops(widths, args.lang)
    return 1 if failures else 0


def _print_distinct(held: Sequence[tuple[Path, Prediction]], labels: Sequence[str], top: int | None,
                    lang: str) -> None:
    """The lines of images that show different cards, labelled together (``vision.distinct``); a note
    on stderr first where there are more images than cards. A file given more than once is one image:
    labelled once, its card printed on each of its lines, with a note naming it."""
    first_of: dict[Path, int] = {}
    for index, (path, _) in enumerate(held):
        first_of.setdefault(path.resolve(), index)
    unique = sorted(first_of.values())
    text = MESSAGES[lang]
    for resolved, times in Counter(path.resolve() for path, _ in held).items():
        if times > 1:
            message = text["repeated"].format(path=held[first_of[resolved]][0], times=times)
            print(f"tressette classify: {message}", file=sys.stderr)
    if len(unique) > len(CARD_CODES):
        message = text["too_many"].format(
            count=len(unique), cards=len(CARD_CODES), extra=len(unique) - len(CARD_CODES))
        print(f"tressette classify: {message}", file=sys.stderr)
    revised = dict(zip(unique, read_distinct([held[i][1] for i in unique], labels), strict=True))
    for path, _ in held:
        print(prediction_line(path, revised[first_of[path.resolve()]], top))


def _note_unfamiliar_deck(familiarities: np.ndarray, lang: str) -> None:
    """On stderr, where the cards read look like a deck the model never saw: enrol it."""
    if is_unfamiliar_deck(familiarities):
        message = MESSAGES[lang]["unfamiliar"].format(
            count=len(familiarities), median=float(np.median(familiarities)), below=UNFAMILIAR_BELOW)
        print(f"tressette classify: {message}", file=sys.stderr)


def _note_small_crops(widths: Sequence[int], lang: str) -> None:
    """On stderr, where half the images read or more are narrower than ``SMALL_CROP_WIDTH``: the cards
    are seen too small to be read as surely as larger ones."""
    median = float(np.median(widths)) if widths else float(SMALL_CROP_WIDTH)
    if median >= SMALL_CROP_WIDTH:
        return
    message = MESSAGES[lang]["small"].format(
        small=sum(width < SMALL_CROP_WIDTH for width in widths), count=len(widths), width=SMALL_CROP_WIDTH,
        median=round(median))
    print(f"tressette classify: {message}", file=sys.stderr)
