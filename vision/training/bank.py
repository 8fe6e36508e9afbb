"""Build a model's style bank (``vision.style_bank``) from the artwork of the styles it was trained on.

    .venv/bin/python -m vision.training.bank --model models/cards.onnx

renders ``--per-class`` crops of every class of every style (the camera protocol of
``vision.training.evaluate``, from ``--seed``, another seed than the evaluation's), reads them with the
model as the runtime does, and keeps each class's mean embedding per style, made unit. The styles are
the model's ``trained_on`` metadata unless ``--styles`` names others (a held-out twin's bank holds its
training styles only, so that its held-out styles stay unseen). Written beside the model
(``models/cards.bank.npz``) unless ``--out`` says where.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.classifier import CardClassifier, l2_normalise
from vision.errors import VisionError
from vision.style_bank import DEFAULT_TEMPERATURE, StyleBank, bank_path
from vision.training.dataset import cards_root
from vision.training.evaluate import render_eval_set
from vision.training.pysol_decks import unknown_styles_message

BANK_PER_CLASS = 3
BANK_SEED = 12345
BANK_PROTOCOL = "camera"


def build_bank(classifier: CardClassifier, root: Path, styles: Sequence[str],
               per_class: int = BANK_PER_CLASS, seed: int = BANK_SEED) -> StyleBank:
    """The bank of ``styles`` for ``classifier``'s model: per style and class, the unit mean of the
    embeddings of ``per_class`` rendered crops."""
    if not styles:
        raise VisionError("a style bank needs at least one style")
    if per_class < 1:
        raise VisionError(f"a style bank needs at least one crop per class, got {per_class}")
    labels = classifier.labels
    prototypes = np.empty((len(styles), len(labels), classifier.info.embedding_dim), np.float32)
    for row, style in enumerate(styles):
        crops, truth = render_eval_set(root, style, per_class, seed, BANK_PROTOCOL)
        embeddings = classifier.read(crops).embeddings
        classes = np.array([labels.index(label) for label in truth])
        sums = np.zeros(prototypes.shape[1:], np.float64)
        np.add.at(sums, classes, embeddings)
        prototypes[row] = l2_normalise(sums)
    return StyleBank(classifier.info.model_version, labels, tuple(styles), prototypes, DEFAULT_TEMPERATURE)


def trained_styles(classifier: CardClassifier) -> tuple[str, ...]:
    """The styles in the model's ``trained_on`` metadata (a JSON list); VisionError when it has none."""
    try:
        styles = json.loads(classifier.info.trained_on or "[]")
    except json.JSONDecodeError:
        styles = None
    if not isinstance(styles, list) or not styles or not all(isinstance(s, str) for s in styles):
        raise VisionError(f"{classifier.path}: metadata 'trained_on' names no styles "
                          f"({classifier.info.trained_on!r}); give them with --styles")
    return tuple(styles)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.bank",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--out", type=Path, help="where to write the bank (default: beside the model)")
    parser.add_argument("--styles", default="", help="comma-separated styles (default: the model's "
                                                     "trained_on metadata)")
    parser.add_argument("--per-class", type=int, default=BANK_PER_CLASS)
    parser.add_argument("--seed", type=int, default=BANK_SEED)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if args.per_class < 1:
        parser.error(f"--per-class is 1 or more; got {args.per_class}")
    root = cards_root()
    classifier = CardClassifier.load(args.model, threads=args.threads, use_bank=False)
    styles = tuple(s for s in args.styles.split(",") if s) or trained_styles(classifier)
    problem = unknown_styles_message(styles, root)
    if problem:
        parser.error(problem)
    started = time.perf_counter()
    bank = build_bank(classifier, root, styles, args.per_class, args.seed)
    out = bank.save(args.out or bank_path(args.model))
    print(json.dumps({"out": str(out), "model_version": bank.model_version, "styles": len(styles),
                      "wall_s": round(time.perf_counter() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
