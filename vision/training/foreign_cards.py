"""How a model reads the cards a Tressette deck does not hold: a French deck's 8, 9, 10 and jokers.

    TRESSETTE_CARDS=/tmp/cards-all .venv/bin/python -m vision.training.foreign_cards \\
        --model models/cards.onnx --per-card 4

A player who does not strip a French deck puts these cards on the table; the right reading of each is
``none`` (no Tressette card), so that the scorekeeper does not count an 8 of hearts as a seven. For every
style with a ``foreign/`` folder (``vision.training.pysol_decks``; ``--styles`` to choose), ``--per-card``
crops of each of those cards are rendered under an evaluation protocol (``vision.training.evaluate``:
``camera``, the default, a card alone on the table roughly cut to its edges; ``hard``, covered and cut),
read with the runtime classifier, and counted: read ``none``, read as a back, read as a card (and as
which rank). Prints a Markdown table, one row a style and the total; ``--json`` writes the figures too.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from engine.cards import BACK, NONE
from vision.classifier import CardClassifier
from vision.crops import render_card_crop
from vision.decks import list_styles
from vision.training.dataset import cards_root, foreign_pictures, load_style
from vision.training.evaluate import DEFAULT_PROTOCOL, EVAL_SEED, PROTOCOLS, protocol_settings
from vision.training.pysol_decks import unknown_styles_message

FOREIGN_PROTOCOL = "camera"
TOP_READINGS = 3


@dataclass(frozen=True)
class ForeignResult:
    """One style's foreign cards as read: how many crops, how many read ``none``, as a back, as a card,
    and the ranks most often read (``"7": 12``: read as some seven twelve times)."""

    style: str
    crops: int
    read_none: int
    read_back: int
    read_card: int
    ranks_read: dict[str, int]

    @property
    def none_share(self) -> float:
        """The share of the crops read ``none``, the right reading."""
        return self.read_none / self.crops if self.crops else 0.0


def render_foreign_set(root: Path, style: str, per_card: int, seed: int,
                       protocol: str = FOREIGN_PROTOCOL) -> tuple[list[np.ndarray], list[str]]:
    """``per_card`` crops of each picture in ``style``'s ``foreign/`` folder under ``protocol``, and the
    picture each came from (its file stem, ``"08h"``); none if the style has no such folder."""
    settings = protocol_settings(protocol)
    art = load_style(root, style)
    stems = [path.stem for path in foreign_pictures(root / style)]
    rng = np.random.default_rng([seed, sum(style.encode()), 8])
    faces = list(art.faces.values())
    crops: list[np.ndarray] = []
    names: list[str] = []
    for stem, card in zip(stems, art.foreign, strict=True):
        for _ in range(per_card):
            occluders = [faces[int(i)] for i in rng.integers(0, len(faces), 3)]
            crops.append(render_card_crop(card, rng, occluders, settings))
            names.append(stem)
    return crops, names


def count_readings(style: str, readings: Sequence[str]) -> ForeignResult:
    """``readings`` of one style's foreign crops counted (``ForeignResult``)."""
    cards = [reading for reading in readings if reading not in (NONE, BACK)]
    ranks = Counter(card[:-1] for card in cards)
    return ForeignResult(style=style, crops=len(readings), read_none=readings.count(NONE),
                         read_back=readings.count(BACK), read_card=len(cards),
                         ranks_read=dict(ranks.most_common()))


def evaluate_foreign(classifier: CardClassifier, root: Path, style: str, per_card: int,
                     seed: int = EVAL_SEED, protocol: str = FOREIGN_PROTOCOL) -> ForeignResult:
    """Render ``style``'s foreign cards (``render_foreign_set``) and count how the classifier reads them."""
    crops, _ = render_foreign_set(root, style, per_card, seed, protocol)
    readings = [prediction.card for prediction in classifier.classify(crops)] if crops else []
    return count_readings(style, readings)


def total(results: Sequence[ForeignResult]) -> ForeignResult:
    """All the styles' counts together, as one row named ``all``."""
    ranks: Counter[str] = Counter()
    for result in results:
        ranks.update(result.ranks_read)
    return ForeignResult(style="all", crops=sum(r.crops for r in results),
                         read_none=sum(r.read_none for r in results),
                         read_back=sum(r.read_back for r in results),
                         read_card=sum(r.read_card for r in results), ranks_read=dict(ranks.most_common()))


def markdown_table(results: Sequence[ForeignResult]) -> str:
    """One row a style and the total: crops, read none (the right reading), as a back, as a card, and the
    ranks most often read."""
    rows = ["| style | crops | read none | as a back | as a card | ranks read |",
            "|---|---:|---:|---:|---:|---|"]
    for result in [*results, total(results)]:
        top = list(result.ranks_read.items())[:TOP_READINGS]
        ranks = ", ".join(f"{rank}: {count}" for rank, count in top)
        share = f"{100 * result.none_share:.1f}%"
        rows.append(f"| {result.style} | {result.crops} | {result.read_none} ({share}) "
                    f"| {result.read_back} | {result.read_card} | {ranks} |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.foreign_cards",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--styles", default="", help="comma-separated styles (default: all with foreign/)")
    parser.add_argument("--per-card", type=int, default=4, help="crops of each foreign card")
    parser.add_argument("--seed", type=int, default=EVAL_SEED)
    parser.add_argument("--protocol", choices=sorted(PROTOCOLS), default=FOREIGN_PROTOCOL,
                        help=f"how the crops are rendered (default {FOREIGN_PROTOCOL}; the evaluation's "
                             f"default is {DEFAULT_PROTOCOL})")
    parser.add_argument("--threads", type=int, default=1, help="inference threads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.per_card < 1:
        parser.error(f"--per-card is a count of 1 or more; got {args.per_card}")
    root = cards_root()
    chosen = [s for s in args.styles.split(",") if s]
    problem = unknown_styles_message(chosen, root) if chosen else None
    if problem:
        parser.error(problem)
    styles = chosen or [s for s in list_styles(root) if foreign_pictures(root / s)]
    if not styles:
        parser.error(f"no style under {root} has a foreign/ folder: make the PySolFC decks with "
                     ".venv/bin/python -m vision.training.pysol_decks --out DIR, then TRESSETTE_CARDS=DIR")
    classifier = CardClassifier.load(args.model, threads=args.threads)
    started = time.perf_counter()
    results = [evaluate_foreign(classifier, root, style, args.per_card, args.seed, args.protocol)
               for style in styles]
    print(f"model {classifier.info.model_version} ({args.model}); {args.per_card} crops of each foreign "
          f"card; protocol {args.protocol}; seed {args.seed}; {time.perf_counter() - started:.0f} s")
    print(markdown_table(results))
    if args.json:
        args.json.write_text(json.dumps([asdict(result) for result in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
