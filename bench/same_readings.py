"""Whether another processor reads the same cards as this one: the shipped model's readings of the same
crops, written on each machine and compared side by side.

The crops are rendered once (so that both machines read the very same pixels), read on each machine as
``tressette classify`` reads by default, and the two files of readings compared: how many cards each
reads right, how many crops they read as different cards, and how far their confidences lie apart.
Made to check a Raspberry Pi's onnxruntime kernels (ARM) against this machine's without a Pi at hand:
``bench/emulated_pi.sh`` runs the ``read`` step under an emulated one. Timings under emulation say
nothing about a Pi's speed, so none is printed.

Run from the checkout::

    .venv/bin/python bench/same_readings.py crops CROPS.npz [--per-style 8] [--seed 1] [--styles S,...]
    .venv/bin/python bench/same_readings.py read CROPS.npz HERE.json [--model PATH] [--deck DECK]
    sudo bench/emulated_pi.sh bench/same_readings.py read CROPS.npz PI.json
    .venv/bin/python bench/same_readings.py compare HERE.json PI.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# Run as a script, this folder comes first on sys.path, and bench/engine.py would hide the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402

TRUTH_KEY = "truth"


def write_crops(path: Path, per_style: int, seed: int, styles: Sequence[str] = ()) -> int:
    """Render ``per_style`` crops of each of ``styles`` (default: every style in ``../shared/cards``)
    as ``bench/classifier.py`` does and store them with their true codes in ``path`` (npz); return how
    many."""
    from vision.decks import find_cards_root, list_styles

    rendered_crops = bench_classifier().rendered_crops
    root = find_cards_root()
    if root is None:
        raise SystemExit("same_readings: no card artwork found (../shared/cards or TRESSETTE_CARDS)")
    crops, truth = rendered_crops([root / name for name in styles or list_styles(root)], per_style, seed)
    np.savez_compressed(path, **{TRUTH_KEY: np.array(truth)}, **{f"crop{i}": c for i, c in enumerate(crops)})
    return len(crops)


def bench_classifier() -> ModuleType:
    """``bench/classifier.py``, loaded from its file (this folder is not a package)."""
    path = Path(__file__).with_name("classifier.py")
    spec = importlib.util.spec_from_file_location("bench_classifier", path)
    if spec is None or spec.loader is None:
        raise ImportError("bench/classifier.py cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_crops(path: Path) -> tuple[list[np.ndarray], list[str]]:
    """The crops and true codes ``write_crops`` stored; ValueError naming the file where it is not such
    a file (missing, not an npz, a crop or the truth missing)."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            truth = [str(code) for code in stored[TRUTH_KEY]]
            return [stored[f"crop{i}"] for i in range(len(truth))], truth
    except (OSError, ValueError, KeyError, EOFError) as error:
        raise ValueError(f"{path}: not a file of crops written by 'same_readings.py crops' "
                         f"({error})") from None


def readings_of(crops_path: Path, model: Path | None, deck: Path | None = None) -> dict[str, object]:
    """This machine's default reading of the stored crops (with the deck profile ``deck``, made on any
    machine, where given): card and confidence per crop. ``exact_byte_products`` says whether the
    runtime asked onnxruntime for its exact x86 way (``vision.cpu``); it is False on ARM, whose
    kernels need no such option, and on x86 with VNNI."""
    from vision.classifier import CardClassifier
    from vision.cpu import this_machine_has_overflowing_byte_products
    from vision.deck_profile import DeckProfile

    crops, truth = read_crops(crops_path)
    classifier = CardClassifier.load(model)
    profile = DeckProfile.load(deck) if deck is not None else None
    predictions = classifier.classify(crops, profile=profile)
    return {
        "machine": platform.machine(),
        "exact_byte_products": this_machine_has_overflowing_byte_products(),
        "model_version": classifier.info.model_version,
        "deck": str(deck) if deck is not None else None,
        "truth": truth,
        "cards": [p.card for p in predictions],
        "confidence": [round(float(p.confidence), 6) for p in predictions],
    }


READINGS_KEYS = ("machine", "exact_byte_products", "model_version", "truth", "cards", "confidence")


def load_readings(path: Path) -> dict[str, object]:
    """A file ``read`` wrote; ValueError naming the file and what is wrong where it is not one."""
    try:
        readings = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a readable file of readings ({error})") from None
    missing = [key for key in READINGS_KEYS if not isinstance(readings, dict) or key not in readings]
    if missing:
        raise ValueError(f"{path}: not a file of readings written by 'same_readings.py read' "
                         f"(missing {', '.join(missing)})")
    return readings


def comparison(first: dict[str, object], second: dict[str, object]) -> dict[str, object]:
    """How two machines' readings of the same crops differ; ValueError where they are not of the same
    crops and model."""
    for key, what in (("truth", "crops"), ("model_version", "models"), ("deck", "deck profiles")):
        if first.get(key) != second.get(key):
            raise ValueError(f"the two files read different {what}: {key} differs")
    truth = first["truth"]
    cards_a, cards_b = first["cards"], second["cards"]
    if not len(cards_a) == len(cards_b) == len(truth):
        raise ValueError(f"{len(truth)} crops, but {len(cards_a)} and {len(cards_b)} readings")
    gaps = np.abs(np.asarray(first["confidence"], float) - np.asarray(second["confidence"], float))
    return {
        "crops": len(truth),
        "right": [sum(c == t for c, t in zip(cards, truth, strict=True)) for cards in (cards_a, cards_b)],
        "read_differently": sum(a != b for a, b in zip(cards_a, cards_b, strict=True)),
        "confidence_gap_mean": float(gaps.mean()) if len(gaps) else 0.0,
        "confidence_gap_max": float(gaps.max()) if len(gaps) else 0.0,
    }


def report(first: dict[str, object], second: dict[str, object]) -> str:
    """``comparison`` as lines for a person."""
    result = comparison(first, second)
    crops, (right_a, right_b) = result["crops"], result["right"]
    return "\n".join([
        f"model {first['model_version']}, {crops} crops"
        + (f", deck profile {first['deck']}" if first.get("deck") else ""),
        f"{first['machine']} (exact byte products: {first['exact_byte_products']}): {right_a} right",
        f"{second['machine']} (exact byte products: {second['exact_byte_products']}): {right_b} right"
        f" (ratio {right_b / max(right_a, 1):.4f})",
        f"crops read as different cards: {result['read_differently']}",
        f"confidence apart: mean {result['confidence_gap_mean']:.4f}, "
        f"most {result['confidence_gap_max']:.4f}",
    ])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    crops = steps.add_parser("crops", help="render the crops once")
    crops.add_argument("out", type=Path)
    crops.add_argument("--per-style", type=int, default=8)
    crops.add_argument("--seed", type=int, default=1)
    crops.add_argument("--styles", default="", help="comma-separated styles (default: all)")
    read = steps.add_parser("read", help="read them on this machine")
    read.add_argument("crops", type=Path)
    read.add_argument("out", type=Path)
    read.add_argument("--model", type=Path, default=None)
    read.add_argument("--deck", type=Path, default=None, help="a deck profile (tressette enroll)")
    compare = steps.add_parser("compare", help="compare two machines' readings")
    compare.add_argument("first", type=Path)
    compare.add_argument("second", type=Path)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        run(args)
    except (OSError, ValueError) as error:  # VisionError is a ValueError: model, profile, artwork
        print(f"same_readings: {error}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> None:
    """The step ``args.step`` of the module docstring."""
    if args.step == "crops":
        styles = [name for name in args.styles.split(",") if name]
        print(f"{write_crops(args.out, args.per_style, args.seed, styles)} crops in {args.out}")
    elif args.step == "read":
        args.out.write_text(json.dumps(readings_of(args.crops, args.model, args.deck)), encoding="utf-8")
        print(f"readings in {args.out}")
    else:
        first, second = load_readings(args.first), load_readings(args.second)
        print(report(first, second))


if __name__ == "__main__":
    sys.exit(main())
