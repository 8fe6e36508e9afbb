"""Where the pictures of a deck to enrol come from, and which card each one shows.

A folder of pictures named by card code (``3c.jpg`` ... ``10b.png``, ``back.jpg``, a second picture
``3c-2.jpg``) or by the card's name (``Tre di coppe.jpg``, ``dorso.jpg``), or of folders so named
(``3c/``); a folder of a sorted deck's pictures in the order taken (``IMG_1.jpg`` ...), or a video clip
of that deck shown card after card, whose cards are named from their order (``vision.deck_order``).
Each is read, cut to the card (``vision.cutout``) and enrolled (``vision.enrollment.enroll_pictures``);
bad files are all listed in one EnrollmentError.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.card_names import card_from_words, name_words
from engine.cards import BACK, CARD_CODES, CLASS_LABELS, NONE
from vision.classifier import CardClassifier, l2_normalise
from vision.clip_cards import ScanProgress, find_shown_cards
from vision.crops import MIN_ARTWORK_SIDE
from vision.cutout import cut_out_card_telling
from vision.deck_order import CARDS_IN_ORDER, ORDERS, OrderReading, most_probable_order, orders_of_suits
from vision.deck_profile import DeckProfile
from vision.decks import IMAGE_SUFFIXES, read_image
from vision.enrollment import DEFAULT_SETTINGS, EnrollmentError, EnrollmentSettings
from vision.errors import VisionError, message_in

# Two pictures in a row of a sorted deck whose embeddings are this close are taken to show one card twice.
# On rendered clips (models/NOTEBOOK.md, "Enrolment from a clip"), one card in two clips: 0.941-0.998,
# median 0.984; two cards in a row of one clip: at most 0.814 on a known deck, 0.964 on an unseen one.
SAME_CARD_COSINE = 0.97

_BACK_WORDS = ("dorso", "retro", "back")
_PICTURE_NAME = re.compile(r"(?P<label>[0-9]*[a-z]+)(?:[ _\-.(].*)?", re.IGNORECASE | re.DOTALL)


def parse_picture_name(stem: str) -> str | None:
    """The class label a picture's file name gives, or None: the card code alone (``3c``, ``back``)
    or followed by a separator (space, ``_``, ``-``, ``.``, ``(``) and anything, so that a second
    picture of a card can sit beside the first (``3c-2.jpg``, ``3c (2).jpg``, ``10b_bis.png``); or
    the card's name as players write it (``engine.card_names``: ``Tre di coppe.jpg``,
    ``asso_spade (2).jpg``, ``K di cuori.png``), or ``dorso`` / ``retro`` for the back, followed the
    same way."""
    match = _PICTURE_NAME.fullmatch(stem.strip())
    code = match.group("label").lower() if match is not None else None
    if code in CLASS_LABELS:
        return code
    words = name_words(stem.replace("(", " "))
    if words and words[0] in _BACK_WORDS:
        return BACK
    for length in (3, 2):
        card = card_from_words(words[:length])
        if card is not None:
            return card.code
    return None


@dataclass(frozen=True)
class FolderPictures:
    """What a folder holds: picture paths by class label, and the cards it lacks."""

    paths: dict[str, tuple[Path, ...]]
    missing_cards: tuple[str, ...]


@dataclass(frozen=True)
class Enrollment:
    """The result of enrolling a folder: the profile, the cards it lacks, how many pictures were used,
    and those in which no card could be cut out (``vision.cutout.cut_out_card_telling``: enrolled whole)."""

    profile: DeckProfile
    missing_cards: tuple[str, ...]
    pictures: int
    uncut: tuple[str, ...] = ()  # the files
    order: OrderReading | None = None  # pictures of a sorted deck (``enroll_sorted``): their order
    back_pictures: tuple[str, ...] = ()  # and the names of those that show the back
    # the pictures enrolled, cut to the card, by class label (from a sorted deck or a clip: so that a
    # player can look at them and keep them, named by card; ``write_card_pictures``)
    labelled: Mapping[str, Sequence[np.ndarray]] = field(default_factory=dict, compare=False, repr=False)
    picture_names: tuple[str, ...] = ()  # of a sorted deck's pictures, in the order taken
    alike_neighbours: tuple[tuple[str, str], ...] = ()  # pictures in a row that look like one card twice
    no_card: tuple[str, ...] = ()  # files of card pictures the model reads as no card (``reads_as_no_card``)


def _is_picture(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".") and path.suffix.lower() in IMAGE_SUFFIXES


def scan_folder(folder: Path) -> FolderPictures:
    """Find the pictures of each class; raise EnrollmentError listing every file with an unknown name.

    A picture is named by its card code or its name (``parse_picture_name``: ``3c.jpg``, or ``3c-2.jpg``
    for another picture of the same card; ``Tre di coppe.jpg``), or sits in a folder so named
    (``3c/a.jpg``). Files that are not pictures (by suffix) and hidden files are ignored.
    """
    _check_folder(folder)
    found: dict[str, list[Path]] = {}
    problems = _Problems()
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            label = parse_picture_name(entry.name) or entry.name.lower()
            paths = [p for p in sorted(entry.iterdir()) if _is_picture(p)]
        elif _is_picture(entry):
            label, paths = parse_picture_name(entry.stem) or entry.stem.lower(), [entry]
        else:
            continue
        name = entry.stem if entry.is_file() else entry.name
        if label not in CLASS_LABELS:
            problems.add(f"{entry}: {name!r} is neither a card code nor a card's name",
                         f"{entry}: {name!r} non è né il codice né il nome di una carta")
        elif entry.is_dir() and not paths:
            suffixes = ", ".join(IMAGE_SUFFIXES)
            problems.add(f"{entry}: the folder holds no pictures ({suffixes})",
                         f"{entry}: la cartella non contiene foto ({suffixes})")
        else:
            found.setdefault(label, []).extend(paths)
    problems.raise_if_any(
        "{count} file(s) cannot be enrolled (name pictures by card code: 3c.jpg, 10b.png, back.jpg, a "
        "second picture 3c-2.jpg; or by name: 'Tre di coppe.jpg', 'dorso.jpg'; or folders such as 3c/ "
        "holding pictures):",
        "file che non si possono registrare, {count} (chiamate le foto col codice della carta: 3c.jpg, "
        "10b.png, back.jpg, una seconda foto 3c-2.jpg; o col suo nome: 'Tre di coppe.jpg', 'dorso.jpg'; "
        "o usate cartelle come 3c/ con dentro le foto):")
    if not found:
        raise EnrollmentError(
            f"{folder}: no card pictures found (name them by card code, 3c.jpg, 10b.png ..., or by name, "
            "'Tre di coppe.jpg')",
            f"{folder}: nessuna foto di carte (chiamatele col codice della carta, 3c.jpg, 10b.png ..., o "
            "col suo nome, 'Tre di coppe.jpg')")
    missing = tuple(code for code in CARD_CODES if code not in found)
    return FolderPictures({label: tuple(paths) for label, paths in found.items()}, missing)


def read_picture_list(paths: Sequence[Path]) -> list[np.ndarray]:
    """Read every picture, in order; raise EnrollmentError listing every file that is unreadable or
    under ``MIN_ARTWORK_SIDE`` pixels on a side."""
    pictures: list[np.ndarray] = []
    problems = _Problems()
    for path in paths:
        try:
            picture = read_image(path)
        except VisionError as error:
            problems.add(str(error), message_in(error, "it"))
            continue
        if min(picture.shape[:2]) < MIN_ARTWORK_SIDE:
            height, width = picture.shape[:2]
            side = MIN_ARTWORK_SIDE
            problems.add(f"{path}: {width}x{height} pixels, too small to show a card ({side}x{side} or more)",
                         f"{path}: {width}x{height} pixel, troppo piccola per mostrare una carta (ne servono "
                         f"almeno {side}x{side})")
        else:
            pictures.append(picture)
    problems.raise_if_any("{count} picture(s) cannot be read:", "foto illeggibili, {count}:")
    return pictures


@dataclass
class _Problems:
    """The bad files of a folder, each in English and Italian, raised together as one EnrollmentError."""

    english: list[str] = field(default_factory=list)
    italian: list[str] = field(default_factory=list)

    def add(self, english: str, italian: str) -> None:
        self.english.append(english)
        self.italian.append(italian)

    def raise_if_any(self, heading: str, heading_it: str) -> None:
        """Raise the heading (``{count}`` in it the number of files) and the files, one a line, where
        there is any."""
        if self.english:
            count = len(self.english)
            raise EnrollmentError(heading.format(count=count) + "\n  " + "\n  ".join(self.english),
                                  heading_it.format(count=count) + "\n  " + "\n  ".join(self.italian))


def _check_folder(folder: Path) -> None:
    if not folder.is_dir():
        raise EnrollmentError(f"{folder}: no such folder of card pictures",
                              f"{folder}: questa cartella di foto non esiste")


def read_pictures(paths: Mapping[str, Sequence[Path]]) -> dict[str, list[np.ndarray]]:
    """Read every picture by class label; raise EnrollmentError listing every unreadable file."""
    pictures = iter(read_picture_list([path for label_paths in paths.values() for path in label_paths]))
    return {label: [next(pictures) for _ in label_paths] for label, label_paths in paths.items()}


def _name_order(path: Path) -> list[tuple[int, int | str]]:
    """Sort key of file names as a phone numbers its photos: ``IMG_9`` before ``IMG_10``."""
    return [(0, int(part)) if part.isdigit() else (1, part.lower())
            for part in re.split(r"(\d+)", path.name) if part]


def passes_and_backs(count: int) -> tuple[int, int] | None:
    """How ``count`` pictures of a sorted deck divide: (times the deck was photographed, pictures of
    its back), one pass with up to one back or two passes with up to two; None for another count."""
    for passes in (1, 2):
        backs = count - passes * CARDS_IN_ORDER
        if 0 <= backs <= passes:
            return passes, backs
    return None


def scan_in_order(folder: Path) -> tuple[Path, ...]:
    """The pictures of a sorted deck in ``folder``, in the order of their names (numbers by value);
    raise EnrollmentError unless ``passes_and_backs`` divides them: 40 (the cards), 41 (and the back),
    or the deck photographed twice in the same order, 80 to 82."""
    _check_folder(folder)
    paths = tuple(sorted((p for p in folder.iterdir() if _is_picture(p)), key=_name_order))
    if passes_and_backs(len(paths)) is None:
        raise EnrollmentError(
            f"{folder}: {len(paths)} pictures; the pictures of a sorted deck are its {CARDS_IN_ORDER} cards, "
            f"one after the other, and perhaps its back ({CARDS_IN_ORDER + 1}), or the deck photographed "
            f"twice in the same order ({2 * CARDS_IN_ORDER}, with its back {2 * CARDS_IN_ORDER + 1} or "
            f"{2 * CARDS_IN_ORDER + 2})",
            f"{folder}: {len(paths)} foto; le foto di un mazzo ordinato sono le sue {CARDS_IN_ORDER} carte, "
            f"una dopo l'altra, e magari il dorso ({CARDS_IN_ORDER + 1}), o il mazzo fotografato due volte "
            f"nello stesso ordine ({2 * CARDS_IN_ORDER}, col dorso {2 * CARDS_IN_ORDER + 1} o "
            f"{2 * CARDS_IN_ORDER + 2})")
    return paths


def enroll_folder(
    folder: Path | str,
    classifier: CardClassifier,
    settings: EnrollmentSettings = DEFAULT_SETTINGS,
) -> Enrollment:
    """Enrol the deck pictured in ``folder`` (``vision.enrollment.enroll_pictures``, with ``settings``);
    cards it lacks are listed in ``missing_cards``, not an error."""
    source = Path(folder)
    scanned = scan_folder(source)
    pictures = read_pictures(scanned.paths)
    cards: dict[str, list[np.ndarray]] = {}
    uncut: list[Path] = []
    for label, paths in scanned.paths.items():
        for path, picture in zip(paths, pictures[label], strict=True):
            card, is_uncut = cut_out_card_telling(picture)
            cards.setdefault(label, []).append(card)
            uncut.extend([path] if is_uncut else [])
    profile = settings.enroll(cards, classifier, source.resolve().name, cut=False)
    card_paths = [(path, card) for label, paths in scanned.paths.items() if label != BACK
                  for path, card in zip(paths, cards[label], strict=True)]
    no_card = reads_as_no_card(classifier, [card for _, card in card_paths])
    return Enrollment(profile, scanned.missing_cards, sum(len(p) for p in pictures.values()),
                      tuple(str(path) for path in uncut),
                      no_card=tuple(str(path) for (path, _), empty in zip(card_paths, no_card, strict=True)
                                    if empty))


def reads_as_no_card(classifier: CardClassifier, cards: Sequence[np.ndarray]) -> list[bool]:
    """For each picture, a card already cut out, whether the model reads it as no card (``none`` its most
    probable class): a wrong file, the table, a thumb. Not for a back, which in a deck the model never
    saw can read as ``none``. Measured (models/NOTEBOOK.md, "A picture that shows no card"): 2,400
    pictures of the cards of 15 decks the model never saw, none so read (``none`` at most 0.17); plain,
    noisy, felt and wooden pictures so read, patterned cloth read as a back."""
    if not cards:
        return []
    probabilities = classifier.read(cards).probabilities
    return [classifier.labels[int(row.argmax())] == NONE for row in probabilities]


def enroll_in_order(
    folder: Path | str,
    classifier: CardClassifier,
    suits: Sequence[str] | None = None,
    settings: EnrollmentSettings = DEFAULT_SETTINGS,
) -> Enrollment:
    """Enrol a sorted deck photographed card after card: ``folder`` holds its 40 pictures, named in
    their order (``scan_in_order``), or 80, the deck photographed twice in the same order, and perhaps
    a picture of its back in each pass (``enroll_sorted``)."""
    source = Path(folder)
    paths = scan_in_order(source)
    cut = [cut_out_card_telling(picture) for picture in read_picture_list(paths)]
    uncut = tuple(str(path) for path, (_, is_uncut) in zip(paths, cut, strict=True) if is_uncut)
    return enroll_sorted([card for card, _ in cut], [path.name for path in paths], source.resolve().name,
                         classifier, suits, settings, uncut)


def enroll_clip(
    clip: Path | str,
    classifier: CardClassifier,
    suits: Sequence[str] | None = None,
    settings: EnrollmentSettings = DEFAULT_SETTINGS,
    scan_progress: ScanProgress | None = None,
) -> Enrollment:
    """Enrol a sorted deck shown to the camera card after card in the video ``clip``
    (``vision.clip_cards.find_shown_cards``: each card laid on the table and taken back), once or
    twice, perhaps with its back in each pass (``enroll_sorted``). Each picture is named by the clip and
    the time the card lay there (``partita.mp4@0:12.4``). Raise EnrollmentError listing the times of
    the cards found when their number is not one a sorted deck gives (``passes_and_backs``).
    ``scan_progress`` is told how far the search of the clip has gone (``find_shown_cards``)."""
    source = Path(clip)
    found = find_shown_cards(source, scan_progress)
    times = [found.time_of(card.frame) for card in found.cards]
    if passes_and_backs(len(found.cards)) is None:
        listed = ", ".join(times) if times else "none"
        raise EnrollmentError(
            f"{source}: {len(found.cards)} cards found lying alone ({listed}); a sorted deck shown card "
            f"after card gives {CARDS_IN_ORDER}, or {CARDS_IN_ORDER + 1} with its back, or twice that "
            f"when shown twice. Film from above with the camera still, start on the empty table, lay each "
            f"card on its own in about the same spot, well inside the picture (a card touching its edge is "
            f"not taken), and take your hand off it for a moment; a plain white cloth hides white cards",
            f"{source}: {len(found.cards)} carte trovate posate da sole ({listed if times else 'nessuna'}); "
            f"un mazzo ordinato mostrato carta per carta ne dà {CARDS_IN_ORDER}, o {CARDS_IN_ORDER + 1} col "
            f"dorso, o il doppio se mostrato due volte. Riprendete dall'alto con la telecamera ferma, "
            f"cominciate col tavolo vuoto, posate ogni carta da sola più o meno nello stesso punto, ben "
            f"dentro l'inquadratura (una carta che ne tocca il bordo non viene presa), e staccate la mano "
            f"per un momento; una tovaglia bianca e liscia nasconde le carte bianche")
    return enroll_sorted([card.crop for card in found.cards], [f"{source.name}@{t}" for t in times],
                         source.stem, classifier, suits, settings)


def enroll_sorted(
    cards: Sequence[np.ndarray],
    names: Sequence[str],
    deck_name: str,
    classifier: CardClassifier,
    suits: Sequence[str] | None = None,
    settings: EnrollmentSettings = DEFAULT_SETTINGS,
    uncut: tuple[str, ...] = (),
) -> Enrollment:
    """Enrol a sorted deck from its ``cards`` (pictures cut to the card), in the order taken, named
    ``names`` for messages: 40, or 80 for the deck taken twice in the same order, and perhaps a picture
    of its back in each pass, taken to be the pictures the model finds most like a back. Which card each
    picture is comes from their order (``vision.deck_order.most_probable_order``: suits in any order,
    or in the order of ``suits`` where given; ranks up or down). EnrollmentError for another count. The
    faces the model reads as no card are named in ``no_card`` (``reads_as_no_card``)."""
    division = passes_and_backs(len(cards))
    if division is None:
        raise EnrollmentError(f"{deck_name}: {len(cards)} pictures cannot be a sorted deck, taken once or "
                              "twice")
    passes, back_count = division
    readings = classifier.classify(list(cards), top_k=1)
    back_column = classifier.labels.index(BACK)
    likeness = [-reading.probabilities[back_column] for reading in readings]
    backs = sorted(int(i) for i in np.argsort(likeness, kind="stable")[:back_count])
    faces = [i for i in range(len(cards)) if i not in backs]
    orders = ORDERS if suits is None else orders_of_suits(suits)
    alike = _alike_neighbours(np.stack([readings[i].embedding for i in faces]), [names[i] for i in faces])
    faces_read = np.stack([readings[i].probabilities for i in faces])
    order = most_probable_order(faces_read, classifier.labels, orders)
    labelled: dict[str, list[np.ndarray]] = {}
    for code, i in zip(order.codes * passes, faces, strict=True):
        labelled.setdefault(code, []).append(cards[i])
    if backs:
        labelled[BACK] = [cards[i] for i in backs]
    profile = settings.enroll(labelled, classifier, deck_name, cut=False)
    no_card = reads_as_no_card(classifier, [cards[i] for i in faces])
    return Enrollment(profile, (), len(cards), uncut, order, tuple(names[i] for i in backs), labelled,
                      tuple(names), alike, tuple(names[i] for i, empty in zip(faces, no_card, strict=True)
                                                 if empty))


def _alike_neighbours(embeddings: np.ndarray, names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The pairs of pictures, one right after the other, whose embeddings (``[N, D]``) are within
    cosine ``SAME_CARD_COSINE``: most likely one card taken twice (and, in a sorted deck, the next one
    skipped), which would shift every name after it."""
    unit = l2_normalise(embeddings)
    cosines = np.einsum("nd,nd->n", unit[:-1], unit[1:])
    return tuple((names[i], names[i + 1]) for i in np.flatnonzero(cosines >= SAME_CARD_COSINE))


def write_card_pictures(folder: Path | str, labelled: Mapping[str, Sequence[np.ndarray]]) -> list[Path]:
    """Write each picture into ``folder`` (made if missing) named by its card, as ``scan_folder``
    reads them back: ``3c.jpg``, a second one ``3c-2.jpg``, ``back.jpg``; return the paths written.
    Raise EnrollmentError naming a file that cannot be written."""
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EnrollmentError(f"{out}: cannot make the folder for the card pictures: {error}") from None
    written: list[Path] = []
    for label, pictures in labelled.items():
        for number, picture in enumerate(pictures, start=1):
            path = out / (f"{label}.jpg" if number == 1 else f"{label}-{number}.jpg")
            if not cv2.imwrite(str(path), picture):
                raise EnrollmentError(f"{path}: cannot write the card picture")
            written.append(path)
    return written
