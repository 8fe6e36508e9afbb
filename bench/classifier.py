"""Classifier speed on one CPU thread, side by side, and what reading more views of a crop buys.

Prints milliseconds per card for batch 1 and batch 16, with and without ``both_orientations`` and
``tight_view`` (each on the crops the readings before it are unsure of, as the runtime does, or on every
crop), a card lying askew or loose in its crop cut again (``recut_below``; the two single-view settings
go without it) and the style bank beside the model (``vision.style_bank``; where the model has none, the
two first settings are the same), and each figure's ratio to the frame budget (10 fps = 100 ms per
frame) and to the goal of <= 2 ms per card; then the accuracy of each setting on the same rendered crops
(every style in ``../shared/cards``); then what labelling a deal of 40 one-to-one (``vision.distinct``,
as ``classify --distinct`` reads) costs beside reading its cards; then, for the styles the model was not
trained on, how long enrolling the deck takes and how many of its cards are read without and with the
profile, after one deck's enrolment timed in one process and in ``--workers`` processes side by side.
``--compare MODEL`` times and scores another model in the same turns (the previous one, say, taken from
git) and prints the ratio of the default readings. The line after the model's says how this processor
multiplies an 8-bit model's bytes (``vision.cpu``): on x86 without VNNI the exact way, which sets the
figures apart.
Run from the checkout: ``.venv/bin/python bench/classifier.py [--model PATH] [--compare PATH]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/engine.py would hide the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from engine.cards import CARD_CODES  # noqa: E402
from vision.classifier import (  # noqa: E402
    EXACT_BYTE_PRODUCTS_OPTION,
    RECUT_BELOW,
    TURNED_BELOW,
    UNSURE_BELOW,
    CardClassifier,
)
from vision.cpu import this_machine_has_overflowing_byte_products  # noqa: E402
from vision.crops import prepare_artwork, render_card_crop  # noqa: E402
from vision.decks import Deck, find_cards_root, list_styles  # noqa: E402
from vision.distinct import read_distinct  # noqa: E402
from vision.enrollment import DEFAULT_HEAD_VIEWS, DEFAULT_VIEWS, enroll_pictures  # noqa: E402
from vision.threads import held_opencv_threads  # noqa: E402
from vision.worker_pool import machine_cores  # noqa: E402

FRAME_BUDGET_MS = 100.0  # 10 frames per second
GOAL_MS_PER_CARD = 2.0
COMPARED = "compared model"
DEFAULT_SETTING = "turned, tight if unsure"  # the runtime's default views


def rendered_crops(styles: Sequence[Path], per_style: int, seed: int) -> tuple[list[np.ndarray], list[str]]:
    """``per_style`` seeded camera-like crops of random cards of each style, with their true codes."""
    rng = np.random.default_rng(seed)
    crops, truth = [], []
    for folder in styles:
        deck = Deck.load(folder)
        for code in rng.choice(CARD_CODES, size=per_style, replace=False):
            crops.append(render_card_crop(prepare_artwork(deck.faces[str(code)]), rng))
            truth.append(str(code))
    return crops, truth


def processor_note() -> str:
    """How this processor multiplies an 8-bit model's bytes, which decides its speed (``vision.cpu``)."""
    if this_machine_has_overflowing_byte_products():
        return (f"{platform.machine()} without VNNI (or with flags that cannot be read): an 8-bit model's "
                f"byte products are made exact "
                f"({EXACT_BYTE_PRODUCTS_OPTION}), slower than the fast way, which overflows here")
    return f"{platform.machine()}: an 8-bit model's byte products are exact the fast way"


def ms_per_card(readers: dict[str, CardClassifier], crops: Sequence[np.ndarray], batch: int,
                repeats: int) -> dict[str, float]:
    """Per reader, the median over ``repeats`` passes of the wall time per card, reading ``crops``
    ``batch`` at a time; the readers take turns pass by pass, so that the machine's drift falls on all.
    numpy's BLAS (the style bank's product) and OpenCV's pool (cutting cards again, resizing crops) are
    held to one thread too, so that one thread is all."""
    with threadpool_limits(limits=1), held_opencv_threads(1):
        return _timed_turns(readers, crops, batch, repeats)


def _timed_turns(readers: dict[str, CardClassifier], crops: Sequence[np.ndarray], batch: int,
                 repeats: int) -> dict[str, float]:
    for classifier in readers.values():
        classifier.classify(crops[:batch])  # warm-up
    timings: dict[str, list[float]] = {name: [] for name in readers}
    used = len(crops) // batch * batch
    for _ in range(repeats):
        for name, classifier in readers.items():
            start = time.perf_counter()
            for first in range(0, used, batch):
                classifier.classify(crops[first:first + batch])
            timings[name].append((time.perf_counter() - start) / used)
    return {name: float(np.median(times)) * 1000.0 for name, times in timings.items()}


def accuracy(classifier: CardClassifier, crops: Sequence[np.ndarray], truth: Sequence[str]) -> float:
    predictions = classifier.classify(crops)
    return float(np.mean([p.card == t for p, t in zip(predictions, truth, strict=True)]))


def deal_report(classifier: CardClassifier, styles: Sequence[Path], seed: int, repeats: int = 7) -> None:
    """Per deal of 40 crops (one per card of a style), the median milliseconds to read its cards and
    to label them one-to-one, side by side, and the labelling's share of the reading."""
    rng = np.random.default_rng(seed)
    reading, labelling = [], []
    for folder in styles:
        deck = Deck.load(folder)
        crops = [render_card_crop(prepare_artwork(deck.faces[code]), rng) for code in CARD_CODES]
        for _ in range(repeats):
            start = time.perf_counter()
            predictions = classifier.classify(crops)
            middle = time.perf_counter()
            read_distinct(predictions, classifier.labels)
            reading.append(middle - start)
            labelling.append(time.perf_counter() - middle)
    read_ms, label_ms = 1000 * float(np.median(reading)), 1000 * float(np.median(labelling))
    print(f"a deal of {len(CARD_CODES)} cards ({len(styles)} styles, {repeats} runs each): read in "
          f"{read_ms:.1f} ms, labelled one-to-one in {label_ms:.2f} ms "
          f"(x {label_ms / read_ms:.4f} of the reading)")


def enrolment_report(classifier: CardClassifier, root: Path, styles: Sequence[str], seed: int) -> None:
    """Per unseen style: seconds to enrol its pictures, and cards read without and with the profile."""
    views = f"{DEFAULT_VIEWS} + {DEFAULT_HEAD_VIEWS} views per picture"
    print(f"enrolment ({views}) of the styles the model did not train on:")
    totals = []
    for style in styles:
        deck = Deck.load(root / style)
        pictures = {code: [face] for code, face in deck.faces.items()}
        if deck.back is not None:
            pictures["back"] = [deck.back]
        start = time.perf_counter()
        profile = enroll_pictures(pictures, classifier, name=style)
        seconds = time.perf_counter() - start
        crops, truth = rendered_crops([root / style], len(CARD_CODES), seed)
        base = np.mean([p.card == t for p, t in zip(classifier.classify(crops), truth, strict=True)])
        read = classifier.classify(crops, profile=profile)
        enrolled = np.mean([p.card == t for p, t in zip(read, truth, strict=True)])
        totals.append((base, enrolled))
        print(f"  {style:<16} {len(pictures)} pictures enrolled in {seconds:5.1f} s   "
              f"cards read {base:.3f} -> {enrolled:.3f}")
    if totals:
        base, enrolled = np.mean(totals, axis=0)
        print(f"  mean             cards read {base:.3f} -> {enrolled:.3f}")


def enrolment_speed(classifier: CardClassifier, folder: Path, workers: int, turns: int = 2) -> None:
    """Seconds to enrol one deck (its 40 faces, default views) in this process and in ``workers``
    processes, taking turns; the median of each, their ratio, and whether the profiles are the same."""
    deck = Deck.load(folder)
    pictures = {code: [face] for code, face in deck.faces.items()}
    seconds: dict[int, list[float]] = {1: [], workers: []}
    profiles = {}
    for _ in range(turns):
        for count in seconds:
            start = time.perf_counter()
            profiles[count] = enroll_pictures(pictures, classifier, name=folder.name, workers=count)
            seconds[count].append(time.perf_counter() - start)
    alone, shared = (float(np.median(seconds[count])) for count in (1, workers))
    same = np.array_equal(profiles[1].prototypes, profiles[workers].prototypes)
    print(f"enrolling {folder.name} ({len(pictures)} pictures, {DEFAULT_VIEWS} + {DEFAULT_HEAD_VIEWS} views "
          f"each, median of {turns}): 1 process {alone:.1f} s, {workers} processes {shared:.1f} s "
          f"(x {shared / alone:.2f}); the same profile: {'yes' if same else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--per-style", type=int, default=8, help="crops per deck style for the accuracy part")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-enrol", dest="enrol", action="store_false", help="skip the enrolment part")
    parser.add_argument("--workers", type=int, default=max(2, machine_cores()),
                        help="processes for the enrolment timed beside one (default: the machine's cores)")
    parser.add_argument("--compare", type=Path, default=None, metavar="MODEL",
                        help="also time and score another model (e.g. the previous one, from git) read by "
                             "default, in the same turns, and print the ratio of the two")
    args = parser.parse_args()
    root = find_cards_root()
    styles = [root / name for name in list_styles(root)] if root else []
    if not styles:
        raise SystemExit("bench/classifier.py: no card artwork found (../shared/cards or TRESSETTE_CARDS)")
    crops, truth = rendered_crops(styles, args.per_style, args.seed)
    timing_crops = crops[::max(1, len(crops) // 64)][:64]  # spread over all the styles
    # name: (both_orientations, turned_below, tight_view, unsure_below, use_bank, recut_below)
    settings = {
        DEFAULT_SETTING: (True, TURNED_BELOW, True, UNSURE_BELOW, True, RECUT_BELOW),
        "the same, not recut": (True, TURNED_BELOW, True, UNSURE_BELOW, True, 0.0),
        "turned and recut under 0.9": (True, 0.9, True, UNSURE_BELOW, True, 0.9),
        "the same, recut under 0.8": (True, TURNED_BELOW, True, UNSURE_BELOW, True, 0.8),
        "the same, no style bank": (True, TURNED_BELOW, True, UNSURE_BELOW, False, RECUT_BELOW),
        "both ways, tight if unsure": (True, 1.5, True, UNSURE_BELOW, True, RECUT_BELOW),
        "both ways, tight always": (True, 1.5, True, 1.5, True, RECUT_BELOW),
        "both ways": (True, 1.5, False, UNSURE_BELOW, True, 0.0),
        "one way": (False, 1.5, False, UNSURE_BELOW, True, 0.0),
    }
    readers = {name: CardClassifier.load(args.model, threads=1, both_orientations=both, turned_below=turned,
                                         tight_view=tight, unsure_below=below, use_bank=bank,
                                         recut_below=recut)
               for name, (both, turned, tight, below, bank, recut) in settings.items()}
    default = readers[DEFAULT_SETTING]
    if args.compare is not None:
        readers[COMPARED] = CardClassifier.load(args.compare, threads=1)
        print(f"compared with {args.compare} version {readers[COMPARED].info.model_version}, read by default")
    print(f"model {default.path} version {default.info.model_version}, input {default.info.width}x"
          f"{default.info.height}, 1 thread, {len(timing_crops)} rendered crops")
    print(f"processor: {processor_note()}")
    print(f"{'views':<27}{'batch':>6}{'ms/card':>10}{'x 100 ms frame':>16}{'x 2 ms goal':>13}")
    for batch in (1, 16):
        timings = ms_per_card(readers, timing_crops, batch, repeats=7)
        for name, ms in timings.items():
            frame, goal = ms / FRAME_BUDGET_MS, ms / GOAL_MS_PER_CARD
            print(f"{name:<27}{batch:>6}{ms:>10.2f}{frame:>16.4f}{goal:>13.2f}")
        if COMPARED in timings:
            ratio = timings[DEFAULT_SETTING] / timings[COMPARED]
            print(f"{'  this model / compared':<27}{batch:>6}{ratio:>10.2f}")
    print(f"accuracy on {len(crops)} rendered crops ({args.per_style} per style, {len(styles)} styles, "
          f"seed {args.seed}):")
    read = {name: accuracy(reader, crops, truth) for name, reader in readers.items()}
    print("  " + "   ".join(f"{name} {share:.4f}" for name, share in read.items()))
    deal_report(default, styles[::max(1, len(styles) // 8)][:8], args.seed)
    trained = set(json.loads(default.info.trained_on or "[]"))
    unseen = [folder.name for folder in styles if folder.name not in trained]
    if args.enrol:
        enrolment_speed(default, root / (unseen or [styles[0].name])[0], args.workers)
    if args.enrol and unseen:
        enrolment_report(default, root, unseen, args.seed + 1)


if __name__ == "__main__":
    main()
