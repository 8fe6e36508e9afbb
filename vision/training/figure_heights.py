"""How well a model reads a deck's figures (Jack, Queen, King: 8, 9, 10) at each card height.

A figure of a French-suited deck is told from the other figures by its corner index alone once the
picture is a design the model never saw, and the index is a few pixels of the model's input: this
tells whether a larger card in the camera frame helps, or the model's input is the limit. It renders
the twelve figures of a style under the camera protocol (``vision.enrollment.ENROLMENT_CROPS``:
uncovered, any light, blur, noise, either way up) at fixed card heights and splits the mistakes into
a wrong rank (a Queen read as a Jack of any suit) and a right rank of the wrong suit, which is what a
model that reads the index's letter but not its small suit symbol gets wrong.

    python -m vision.training.figure_heights --model M [--model M2] --styles kde-penguins,gnome-dondorf

prints a markdown table, one row per style and height, one column group per model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.classifier import CardClassifier
from vision.crops import Artwork, CropSettings, render_card_crop
from vision.decks import find_cards_root
from vision.enrollment import ENROLMENT_CROPS
from vision.errors import VisionError
from vision.figure_swap import FIGURE_CODES, FIGURE_RANKS
from vision.training.dataset import load_style

FIGURES = FIGURE_CODES
DEFAULT_HEIGHTS: tuple[int, ...] = (70, 100, 140, 200, 300)
DEFAULT_PER_CARD = 15
SEED = 2024


@dataclass(frozen=True)
class FigureReading:
    """Shares of a style's figure crops read right, with a wrong rank, and with the right rank of
    another suit (the rest went to a number card, ``back`` or ``none``)."""

    crops: int
    read: float
    wrong_rank: float
    wrong_suit: float


def fixed_height_settings(height: int, aspect: float, base: CropSettings = ENROLMENT_CROPS) -> CropSettings:
    """``base`` with the card always ``height`` camera pixels tall (its width ``aspect`` times that)."""
    if height < 1 or not 0.0 < aspect <= 1.0:
        raise ValueError(f"need a positive height and a portrait aspect, got {height} and {aspect}")
    # The width is rounded down so that the height it implies never exceeds ``height``.
    return replace(base, min_card_width=max(1, int(height * aspect)), typical_card_height=height,
                   max_card_height=height, p_large=0.0)


def render_figures(faces: dict[str, Artwork], height: int, per_card: int,
                   rng: np.random.Generator) -> tuple[list[np.ndarray], list[str]]:
    """``per_card`` crops of each of the twelve figures in ``faces`` with the card ``height`` px tall."""
    crops: list[np.ndarray] = []
    labels: list[str] = []
    for code in FIGURES:
        art = faces[code]
        settings = fixed_height_settings(height, art.aspect)
        for _ in range(per_card):
            crops.append(render_card_crop(art, rng, (), settings))
            labels.append(code)
    return crops, labels


def score_figures(predicted: Sequence[str], truth: Sequence[str]) -> FigureReading:
    """Split the readings of figure crops into right, wrong rank and wrong suit of the right rank."""
    if not truth or len(predicted) != len(truth):
        raise ValueError(f"need as many readings as crops, got {len(predicted)} and {len(truth)}")
    right = wrong_rank = wrong_suit = 0
    for guess, card in zip(predicted, truth, strict=True):
        if guess == card:
            right += 1
        elif guess[:-1] == card[:-1]:
            wrong_suit += 1
        elif guess[:-1] in FIGURE_RANKS:
            wrong_rank += 1
    n = len(truth)
    return FigureReading(n, right / n, wrong_rank / n, wrong_suit / n)


def read_figures(classifiers: Sequence[CardClassifier], faces: dict[str, Artwork], height: int,
                 per_card: int, seed: int = SEED) -> list[FigureReading]:
    """Render a style's figures at ``height`` once (seeded by the height) and score each classifier on
    the same crops."""
    crops, truth = render_figures(faces, height, per_card, np.random.default_rng([seed, height]))
    return [score_figures([p.card for p in classifier.classify(crops)], truth) for classifier in classifiers]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, action="append", required=True, help="repeat to compare")
    parser.add_argument("--styles", default="kde-penguins,gnome-dondorf", help="comma-separated styles")
    parser.add_argument("--heights", default=",".join(map(str, DEFAULT_HEIGHTS)), help="card heights, px")
    parser.add_argument("--per-card", type=int, default=DEFAULT_PER_CARD)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    root = find_cards_root()
    if root is None:
        print("figure_heights: the deck artwork (../shared/cards) was not found", file=sys.stderr)
        return 2
    try:
        heights = [int(h) for h in args.heights.split(",")]
        classifiers = [CardClassifier.load(path) for path in args.model]
        print("| style | card height | " + " | ".join(f"{p.name}: read / wrong rank / wrong suit"
                                                    for p in args.model) + " |")
        print("| --- | ---: |" + " ---: |" * len(args.model))
        for style in [s for s in args.styles.split(",") if s]:
            faces = load_style(root, style).faces
            for height in heights:
                cells = [f"{100 * r.read:.0f} / {100 * r.wrong_rank:.0f} / {100 * r.wrong_suit:.0f}%"
                         for r in read_figures(classifiers, faces, height, args.per_card, args.seed)]
                print(f"| {style} | {height} px | " + " | ".join(cells) + " |", flush=True)
    except (VisionError, ValueError, KeyError) as error:
        print(f"figure_heights: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
