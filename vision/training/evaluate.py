"""Per-style accuracy of an exported model on freshly rendered crops, zero-shot and after enrolment.

    .venv/bin/python -m vision.training.evaluate --model models/cards.onnx \\
        --styles sarde,siciliane,trentine,toscane,kde-penguins,gnome-dondorf --per-class 12

For each style, ``--per-class`` crops of each of the 42 classes are rendered with ``vision.crops``
(seeded, independent of the training seeds), read with the runtime classifier
(``vision.classifier.CardClassifier``, both orientations), and read again with a deck profile enrolled
from that style's card pictures (``vision.enrollment.enroll_pictures``: one picture per card, as a user
would enrol a deck; ``--enrol-from photos``: one rendered phone photo of each card instead, a card on a
table, cut out by enrolment as a user's photo is). The zero-shot readings are also taken as deals: the
r-th crop of each of the 40 cards make deal r, labelled one-to-one (``vision.distinct``: no card read
twice), as ``tressette classify --distinct`` reads; and all the deals of a style as one match, each
card's appearances grouped and the groups named together (``vision.match_groups``). Prints a Markdown
table, and a second one of the cards of all the styles by the width of their crop (``WIDTH_BANDS``: how
large the camera must see a card); ``--json`` writes the figures too.
Needs onnxruntime only (no torch).

``--protocol hard`` (the default) renders the cards with the full training augmentation: other cards
and fingers across them, cut corners. ``--protocol camera`` renders each card alone and uncovered
(``vision.enrollment.ENROLMENT_CROPS``: still any size, blur, noise, light, residual perspective and
either way up), the conditions of a photo roughly cut to the card's edges. ``--tilt``, ``--margin``,
``--keystone`` and ``--square`` make rough crops of them: the card turned inside its crop, more table
round it, seen at an angle, or the crop resized to a square picture (the card stretched to fill it, or
padded with ``--bars``, as datasets of card images show cards).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from engine.cards import BACK, CARD_CODES, CLASS_LABELS
from vision.classifier import (
    RECUT_BELOW,
    TURNED_BELOW,
    UNSURE_BELOW,
    CardClassifier,
    Prediction,
    crop_width,
)
from vision.crops import CropSettings, random_back_artwork, render_card_crop, render_none_crop
from vision.deck_pictures import enroll_clip
from vision.deck_profile import DeckProfile
from vision.decks import Deck, list_styles
from vision.distinct import read_distinct
from vision.enrollment import ENROLMENT_CROPS, EnrollmentError, EnrollmentSettings, enroll_pictures
from vision.match_groups import read_match
from vision.recut import MIN_SIDE
from vision.scene.showing import check_pace
from vision.training.clip_search import film_sorted_deck
from vision.training.dataset import cards_root, load_style
from vision.training.phone_photos import DEFAULT_PHOTO_SEED, photos_of
from vision.training.pysol_decks import unknown_styles_message

EVAL_SEED = 7_777_777
PICTURE_SOURCES = ("artwork", "photos")
ENROL_FROM = (*PICTURE_SOURCES, "clip")
CLIP_SIZE = (1920, 1080)
DEFAULT_ENROL_SEED = DEFAULT_PHOTO_SEED  # of the phone photos and the clips
PROTOCOLS: dict[str, CropSettings] = {"hard": CropSettings(), "camera": ENROLMENT_CROPS}
DEFAULT_PROTOCOL = "hard"
# Lower edges, in pixels, of the bands of crop width (the crop's narrower side) the cards are counted in.
WIDTH_BANDS = (0, 60, 80, 120, 200)
MAX_KEYSTONE = 0.8  # of the crop's width taken off its far end (``--keystone``)
MIN_SQUARE = MIN_SIDE  # pixels a side of a crop resized to a square (``--square``): no smaller is looked at


def protocol_settings(protocol: str) -> CropSettings:
    """The crop settings of an evaluation protocol, ``hard`` or ``camera`` (see the module's docstring)."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown evaluation protocol {protocol!r}; expected one of {sorted(PROTOCOLS)}")
    return PROTOCOLS[protocol]


@dataclass(frozen=True)
class StyleResult:
    """Accuracy on one style: over the 40 cards, over all 42 classes, both after enrolment, and over
    the cards read as deals of 40 labelled one-to-one and as one match of those deals (zero-shot)."""

    style: str
    crops: int
    cards: float
    all_classes: float
    cards_enrolled: float | None
    all_enrolled: float | None
    confusions: tuple[tuple[str, str, int], ...]
    cards_distinct: float | None = None
    cards_match: float | None = None
    # Per band of ``WIDTH_BANDS``: (cards, read right zero-shot, read right enrolled or None).
    by_width: tuple[tuple[int, int, int | None], ...] = ()
    enrol_refused: str | None = None  # why enrolment refused the style's pictures or clip


def render_eval_set(root: Path, style: str, per_class: int, seed: int, protocol: str = DEFAULT_PROTOCOL,
                    tilt: float = 0.0, margin: float = 0.0, square: int = 0,
                    bars: int | None = None, keystone: float = 0.0) -> tuple[list[np.ndarray], list[str]]:
    """``per_class`` crops of each class of ``style`` (backs from the deck or drawn; none from its faces),
    the cards and backs rendered under ``protocol``, turned by ``tilt`` degrees inside their crops, with
    ``margin`` of their size of table more on every side; with ``square``, every crop then resized to
    ``square`` x ``square`` pixels, as datasets show cards: stretched to fill the square picture, or with
    ``bars`` (a grey level) padded to a square first (``padded_to_a_square``); with ``keystone``, every
    crop first seen at an angle, one end that share narrower (``seen_at_an_angle``)."""
    settings = replace(protocol_settings(protocol), tilt_degrees=tilt, extra_margin=margin)
    art = load_style(root, style)
    rng = np.random.default_rng([seed, sum(style.encode())])
    faces = list(art.faces.values())
    crops: list[np.ndarray] = []
    labels: list[str] = []
    for label in CLASS_LABELS:
        for _ in range(per_class):
            occluders = [faces[int(i)] for i in rng.integers(0, len(faces), 3)]
            if label in art.faces:
                crops.append(render_card_crop(art.faces[label], rng, occluders, settings))
            elif label == BACK:
                back = art.back if art.back is not None and rng.random() < 0.5 else random_back_artwork(
                    rng, faces[0].aspect)
                crops.append(render_card_crop(back, rng, occluders, settings))
            else:
                crops.append(render_none_crop(rng, faces))
            labels.append(label)
    if keystone:
        crops = [seen_at_an_angle(crop, keystone, far_end_up=index % 2 == 0)
                 for index, crop in enumerate(crops)]
    if square:
        padded = crops if bars is None else [padded_to_a_square(crop, bars) for crop in crops]
        crops = [cv2.resize(crop, (square, square), interpolation=cv2.INTER_AREA) for crop in padded]
    return crops, labels


def seen_at_an_angle(crop: np.ndarray, keystone: float, far_end_up: bool) -> np.ndarray:
    """``crop`` warped as a camera tilted over the table sees it: its far end (the top, or the bottom)
    narrower than the near one by ``keystone`` of the width, the table at its edge drawn on outwards."""
    height, width = crop.shape[:2]
    inset = keystone * width / 2.0
    square_on = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    if far_end_up:
        tilted = np.float32([[inset, 0], [width - inset, 0], [width, height], [0, height]])
    else:
        tilted = np.float32([[0, 0], [width, 0], [width - inset, height], [inset, height]])
    warp = cv2.getPerspectiveTransform(square_on, tilted)
    return cv2.warpPerspective(crop, warp, (width, height), borderMode=cv2.BORDER_REPLICATE)


def padded_to_a_square(crop: np.ndarray, bars: int) -> np.ndarray:
    """``crop`` in the middle of a square picture whose other pixels are the grey level ``bars``, as a
    picture is letterboxed to a square."""
    height, width = crop.shape[:2]
    side = max(height, width)
    top, left = (side - height) // 2, (side - width) // 2
    return cv2.copyMakeBorder(crop, top, side - height - top, left, side - width - left,
                              cv2.BORDER_CONSTANT, value=(bars, bars, bars))


def width_band(crop: np.ndarray) -> int:
    """The index in ``WIDTH_BANDS`` of the band a crop's narrower side falls in."""
    return int(np.searchsorted(WIDTH_BANDS, crop_width(crop), side="right")) - 1


def count_by_width(crops: Sequence[np.ndarray], truth: Sequence[str], predicted: Sequence[str],
                   enrolled: Sequence[str] | None) -> tuple[tuple[int, int, int | None], ...]:
    """The cards among ``crops`` per band of ``WIDTH_BANDS``: how many, how many ``predicted`` right,
    and how many ``enrolled`` right (None without enrolled readings)."""
    counts = np.zeros((len(WIDTH_BANDS), 3), dtype=int)
    for i, (crop, label) in enumerate(zip(crops, truth, strict=True)):
        if label in CARD_CODES:
            row = counts[width_band(crop)]
            row += (1, predicted[i] == label, enrolled is not None and enrolled[i] == label)
    return tuple((int(n), int(right), None if enrolled is None else int(right_enrolled))
                 for n, right, right_enrolled in counts)


def _accuracies(predicted: Sequence[str], truth: Sequence[str]) -> tuple[float, float]:
    hits = [p == t for p, t in zip(predicted, truth, strict=True)]
    card_hits = [h for h, t in zip(hits, truth, strict=True) if t in CARD_CODES]
    return float(np.mean(card_hits)), float(np.mean(hits))


def deal_rows(truth: Sequence[str], per_class: int) -> list[list[int]]:
    """The crops of ``render_eval_set`` as ``per_class`` deals: deal r holds the r-th crop of each card."""
    return [[i for i in range(deal, len(truth), per_class) if truth[i] in CARD_CODES]
            for deal in range(per_class)]


def deal_accuracy(predictions: Sequence[Prediction], truth: Sequence[str], labels: Sequence[str],
                  per_class: int) -> float:
    """Accuracy over the cards read as ``deal_rows``' deals, each labelled one-to-one by
    ``vision.distinct.read_distinct``."""
    hits: list[bool] = []
    for rows in deal_rows(truth, per_class):
        revised = read_distinct([predictions[i] for i in rows], labels)
        hits += [p.card == truth[i] for p, i in zip(revised, rows, strict=True)]
    return float(np.mean(hits))


def match_accuracy(predictions: Sequence[Prediction], truth: Sequence[str], labels: Sequence[str],
                   per_class: int) -> float:
    """Accuracy over the cards read as one match of ``deal_rows``' deals (``vision.match_groups``)."""
    deals = deal_rows(truth, per_class)
    revised = read_match([[predictions[i] for i in rows] for rows in deals], labels)
    return float(np.mean([p.card == truth[i] for rows, deal in zip(deals, revised, strict=True)
                          for p, i in zip(deal, rows, strict=True)]))


def enrolment_pictures(deck: Deck, enrol_from: str, enrol_seed: int = DEFAULT_ENROL_SEED
                       ) -> dict[str, list[np.ndarray]]:
    """The pictures a deck is enrolled from, by class: ``artwork``, its card images and its back as
    they are; ``photos``, one rendered phone photo of each card (``vision.training.phone_photos``,
    drawn from ``enrol_seed``) and no back, as a user with a phone enrols a deck."""
    if enrol_from not in PICTURE_SOURCES:
        raise ValueError(f"unknown source of enrolment pictures {enrol_from!r}; expected one of "
                         f"{list(PICTURE_SOURCES)}")
    if enrol_from == "photos":
        return photos_of(deck, enrol_seed)
    pictures = {code: [image] for code, image in deck.faces.items()}
    if deck.back is not None:
        pictures[BACK] = [deck.back]
    return pictures


def clip_seed(style: str, enrol_seed: int) -> int:
    """The render seed of a style's showing clip: each style's clip on its own table and in its own light."""
    return enrol_seed * 1_000_003 + sum(style.encode())


def enrol_style(classifier: CardClassifier, deck: Deck, enrol_from: str, enrol_seed: int = DEFAULT_ENROL_SEED,
                workers: int = 1, enrol_pace: float = 1.0) -> DeckProfile:
    """A profile of ``deck`` enrolled as a user would from ``enrol_from``: ``artwork`` or ``photos``
    (``enrolment_pictures``), or ``clip``, a rendered 1080p clip of the sorted deck shown to the camera
    card after card at ``enrol_pace`` (``vision.training.clip_search.film_sorted_deck``, seed
    ``clip_seed``) and read by
    ``vision.deck_pictures.enroll_clip``, which finds the cards and their order itself. Raises
    EnrollmentError where the clip is refused (not 40 cards found)."""
    if enrol_from not in ENROL_FROM:
        raise ValueError(f"unknown enrolment source {enrol_from!r}; expected one of {list(ENROL_FROM)}")
    if enrol_from != "clip":
        return enroll_pictures(enrolment_pictures(deck, enrol_from, enrol_seed), classifier, name=deck.name,
                               workers=workers)
    with tempfile.TemporaryDirectory(prefix="tressette-eval-") as folder:
        clip = Path(folder) / f"{deck.name}.mp4"
        film_sorted_deck(deck, clip_seed(deck.name, enrol_seed), CLIP_SIZE, clip, pace=enrol_pace)
        return enroll_clip(clip, classifier, settings=EnrollmentSettings(workers=workers)).profile


def evaluate_style(classifier: CardClassifier, root: Path, style: str, per_class: int, seed: int,
                   enrol: bool, protocol: str = DEFAULT_PROTOCOL, workers: int = 1,
                   tilt: float = 0.0, margin: float = 0.0, enrol_from: str = "artwork",
                   enrol_seed: int = DEFAULT_ENROL_SEED, enrol_pace: float = 1.0,
                   square: int = 0, bars: int | None = None, keystone: float = 0.0) -> StyleResult:
    """Zero-shot (alone and as deals) and, with ``enrol``, enrolled accuracy of ``classifier`` on a style
    (enrolled in ``workers`` processes by ``enrol_style(..., enrol_from, enrol_seed, enrol_pace)``; a
    refused clip leaves the enrolled figures None and its reason in ``enrol_refused``), its cards turned
    by ``tilt`` degrees inside their crops, with ``margin`` of their size of table more on every side,
    resized to ``square`` pixels a side where it is not 0, padded with ``bars`` first where given, seen
    at an angle by ``keystone`` (``render_eval_set``)."""
    crops, truth = render_eval_set(root, style, per_class, seed, protocol, tilt, margin, square, bars,
                                   keystone)
    predictions = classifier.classify(crops)
    predicted = [p.card for p in predictions]
    cards, everything = _accuracies(predicted, truth)
    cards_distinct = deal_accuracy(predictions, truth, classifier.labels, per_class)
    cards_match = match_accuracy(predictions, truth, classifier.labels, per_class)
    cards_enrolled = all_enrolled = None
    enrolled: list[str] | None = None
    enrol_refused = None
    if enrol:
        try:
            profile = enrol_style(classifier, Deck.load(root / style), enrol_from, enrol_seed, workers,
                                  enrol_pace)
        except EnrollmentError as refused:
            enrol_refused = str(refused)
        else:
            enrolled = [p.card for p in classifier.classify(crops, profile=profile)]
            cards_enrolled, all_enrolled = _accuracies(enrolled, truth)
    mistakes = Counter((t, p) for t, p in zip(truth, predicted, strict=True) if t != p)
    confusions = tuple((t, p, n) for (t, p), n in mistakes.most_common(5))
    return StyleResult(style, len(crops), cards, everything, cards_enrolled, all_enrolled, confusions,
                       cards_distinct, cards_match, count_by_width(crops, truth, predicted, enrolled),
                       enrol_refused)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def card_crops(result: StyleResult) -> int:
    """How many of a style's evaluation crops show a card (the crops of ``back`` and ``none`` aside):
    its crops are ``per_class`` of each of the 42 classes."""
    return result.crops * len(CARD_CODES) // len(CLASS_LABELS)


# The table's figures after the crop count, each with whether it is a share of the cards (else of all
# the crops, backs and none included): the last row adds the styles up by these.
_FIGURES: tuple[tuple[str, bool], ...] = (
    ("cards", True), ("cards_distinct", True), ("cards_match", True), ("all_classes", False),
    ("cards_enrolled", True), ("all_enrolled", False),
)


def total_figure(results: Sequence[StyleResult], figure: str, of_cards: bool) -> str:
    """The StyleResult ``figure`` of all ``results`` together: the share to two decimals and how many
    crops (cards only, ``of_cards``) were read right out of how many; the styles that lack it (a style
    without deals, one whose clip enrolment refused) are left out and counted after; ``-`` where every
    style lacks it."""
    right = total = without = 0
    for result in results:
        share = getattr(result, figure)
        if share is None:
            without += 1
            continue
        count = card_crops(result) if of_cards else result.crops
        right, total = right + round(share * count), total + count
    if not total:
        return "-"
    left_out = f"; {without} style{'s' if without > 1 else ''} without" if without else ""
    return f"{100 * right / total:.2f}% ({right} of {total}{left_out})"


def markdown_table(results: Sequence[StyleResult]) -> str:
    """The per-style table of the model card, and a last row with every style together."""
    lines = [
        "| style | crops | cards zero-shot | cards zero-shot, deals one-to-one | cards zero-shot, one match "
        "| all 42 zero-shot | cards enrolled | all 42 enrolled | top confusions |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        confusions = ", ".join(f"{t}->{p} x{n}" for t, p, n in r.confusions[:3]) or "none"
        figures = [getattr(r, figure) for figure, _ in _FIGURES]
        lines.append(f"| {r.style} | {r.crops} | " + " | ".join(_percent(f) for f in figures)
                     + f" | {confusions} |")
    if len(results) > 1:
        totals = [total_figure(results, figure, of_cards) for figure, of_cards in _FIGURES]
        lines.append(f"| **all {len(results)} styles** | {sum(r.crops for r in results)} | "
                     + " | ".join(totals) + " | |")
    return "\n".join(lines)


def width_table(results: Sequence[StyleResult]) -> str:
    """The cards of all ``results`` by the width of their crop: how many, and the share read right
    zero-shot and enrolled (of the styles enrolled)."""
    lines = ["| crop width | cards | zero-shot | enrolled |", "| --- | ---: | ---: | ---: |"]
    for band, low in enumerate(WIDTH_BANDS):
        rows = [r.by_width[band] for r in results if r.by_width]
        cards = sum(n for n, _, _ in rows)
        if not cards:
            continue
        enrolled_rows = [(n, e) for n, _, e in rows if e is not None]
        enrolled_cards = sum(n for n, _ in enrolled_rows)
        enrolled = sum(e for _, e in enrolled_rows) / enrolled_cards if enrolled_cards else None
        name = f"{low}-{WIDTH_BANDS[band + 1] - 1} px" if band + 1 < len(WIDTH_BANDS) else f"{low} px or more"
        lines.append(f"| {name} | {cards} | {_percent(sum(z for _, z, _ in rows) / cards)} "
                     f"| {_percent(enrolled)} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.evaluate",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--styles", default="", help="comma-separated styles (default: all)")
    parser.add_argument("--per-class", type=int, default=10)
    parser.add_argument("--seed", type=int, default=EVAL_SEED)
    parser.add_argument("--no-enrol", action="store_true", help="skip the enrolled reading")
    parser.add_argument("--enrol-from", choices=ENROL_FROM, default="artwork",
                        help="enrol each style from its card images (artwork), from one rendered phone "
                             "photo of each card (photos) or from a rendered clip of the sorted deck "
                             "shown card after card (clip)")
    parser.add_argument("--enrol-seed", type=int, default=DEFAULT_ENROL_SEED,
                        help="seed of the phone photos or the clips")
    parser.add_argument("--enrol-pace", type=float, default=1.0,
                        help="with --enrol-from clip: how long each step of the showing takes, of the usual "
                             "(1: about 1.9 s a card; 0.7: 40 cards in under a minute)")
    parser.add_argument("--protocol", choices=sorted(PROTOCOLS), default=DEFAULT_PROTOCOL,
                        help="hard: cards covered and cut as in training; camera: each card alone")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of the classifier, and processes enrolling each style")
    parser.add_argument("--no-tight-view", dest="tight_view", action="store_false",
                        help="read each crop as it is, without the runtime's second, tighter view")
    parser.add_argument("--unsure-below", type=float, default=UNSURE_BELOW,
                        help="best probability under which a crop gets the tight view too (above 1: "
                             "every crop)")
    parser.add_argument("--turned-below", type=float, default=TURNED_BELOW,
                        help="best upright probability under which a crop is read turned half a turn too "
                             "(above 1: every crop)")
    parser.add_argument("--recut-below", type=float, default=RECUT_BELOW,
                        help="best probability under which a crop's card is looked for and cut again "
                             "where it lies askew or loose (0: never)")
    parser.add_argument("--tilt", type=float, default=0.0,
                        help="degrees by which each card is turned, either way, inside its crop")
    parser.add_argument("--margin", type=float, default=0.0,
                        help="share of the card's size of table added on every side of its crop")
    parser.add_argument("--square", type=int, default=0, metavar="PIXELS",
                        help="resize every crop to a square of this side, as datasets show cards "
                             "(stretched to fill it, or padded with --bars)")
    parser.add_argument("--bars", type=int, metavar="GREY",
                        help="with --square, pad each crop to a square with bars of this grey level "
                             "(0-255) before resizing it, instead of stretching it")
    parser.add_argument("--keystone", type=float, default=0.0, metavar="SHARE",
                        help="see every crop at an angle: one end (the top for half the crops, the bottom "
                             "for the others) narrower by this share of the width (0-0.8)")
    parser.add_argument("--no-bank", dest="use_bank", action="store_false",
                        help="read zero-shot by the model's head alone, without the style bank beside it")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    for option, value in (("--unsure-below", args.unsure_below), ("--turned-below", args.turned_below),
                          ("--recut-below", args.recut_below)):
        if not value >= 0.0:
            parser.error(f"{option} is a probability of 0 or more; got {value}")
    if not args.margin >= 0.0:
        parser.error(f"--margin is a share of the card's size of 0 or more; got {args.margin}")
    if args.square and args.square < MIN_SQUARE:
        parser.error(f"--square is a side of {MIN_SQUARE} pixels or more (0: as rendered); got {args.square}")
    if not 0.0 <= args.keystone <= MAX_KEYSTONE:
        parser.error(f"--keystone is a share of the width from 0 to {MAX_KEYSTONE:g}; got {args.keystone}")
    if args.bars is not None and not (args.square and 0 <= args.bars <= 255):
        parser.error(f"--bars is a grey level of 0-255 and needs --square; got {args.bars}")
    try:
        check_pace(args.enrol_pace)
    except ValueError as error:
        parser.error(f"--enrol-pace: {error}")
    root = cards_root()
    available = list_styles(root)
    styles = [s for s in args.styles.split(",") if s] or available
    problem = unknown_styles_message(styles, root)
    if problem:
        parser.error(problem)
    classifier = CardClassifier.load(args.model, threads=args.threads, tight_view=args.tight_view,
                                     unsure_below=args.unsure_below, use_bank=args.use_bank,
                                     turned_below=args.turned_below,
                                     recut_below=args.recut_below)
    started = time.perf_counter()
    enrol = not args.no_enrol
    results = [evaluate_style(classifier, root, s, args.per_class, args.seed, enrol, args.protocol,
                              workers=args.threads, tilt=args.tilt, margin=args.margin,
                              enrol_from=args.enrol_from, enrol_seed=args.enrol_seed,
                              enrol_pace=args.enrol_pace, square=args.square, bars=args.bars,
                              keystone=args.keystone)
               for s in styles]
    views = f"; turned below {args.turned_below:g}; cut again below {args.recut_below:g}"
    views += f"; cards turned {args.tilt:g} degrees in their crops" if args.tilt else ""
    views += f"; {args.margin:g} of the card's size of table more on every side" if args.margin else ""
    views += f"; seen at an angle, one end {args.keystone:g} narrower" if args.keystone else ""
    padding = f", padded with bars of grey {args.bars}" if args.bars is not None else ", stretched"
    views += f"; every crop resized to {args.square}x{args.square}{padding}" if args.square else ""
    views += f"; tight view below {args.unsure_below:g}" if args.tight_view else "; no tight view"
    if enrol and args.enrol_from != "artwork":
        source = "one phone photo a card" if args.enrol_from == "photos" else "a clip of the deck shown"
        paced = f", pace {args.enrol_pace:g}" if args.enrol_from == "clip" and args.enrol_pace != 1.0 else ""
        views += f"; enrolled from {source} (seed {args.enrol_seed}{paced})"
    bank = classifier.bank
    views += f"; style bank of {len(bank.styles)} styles" if bank is not None else "; no style bank"
    print(f"model {classifier.info.model_version} ({args.model}); {args.per_class} crops per class & style; "
          f"protocol {args.protocol}; seed {args.seed}{views}; {time.perf_counter() - started:.0f} s")
    print(markdown_table(results))
    for result in results:
        if result.enrol_refused:
            print(f"{result.style}: enrolment refused: {result.enrol_refused}")
    print()
    print(width_table(results))
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
