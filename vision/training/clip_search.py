"""How well the clip search finds the cards of a deck shown card after card, on rendered clips.

    .venv/bin/python -m vision.training.clip_search --clips 153:siciliane,114:pysol-gpl --size 1280x720

Each ``SEED:STYLE`` is filmed as ``tressette enroll`` expects a player to film a deck
(``vision.scene.showing``: the sorted deck, ``STANDARD_ORDER``, laid card after card in one spot; the
render seed picks the table, the light and the camera), then searched by
``vision.clip_cards.find_shown_cards`` and scored against the clip's truth file: a card is found when a
showing starts within ``FOUND_WITHIN_SECONDS`` of its landing (its ``rest`` event; the card may be seen
lying a frame before the hand lets go of it) where it lies (its corner error under
``MAX_CORNER_ERROR``); a showing that finds no card is extra; the corner error is the mean distance of
the found corners from the true ones over the card's width (median over the clip). ``--keep DIR`` keeps
the clips and their truth there and reuses those already made. ``--pace 0.7`` films the deck shown
briskly, 40 cards in under a minute (``vision.scene.showing``). Needs no torch.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.clip_cards import ClipCards, find_shown_cards
from vision.deck_order import STANDARD_ORDER
from vision.decks import Deck
from vision.scene.camera import parse_size
from vision.scene.render import RenderSettings
from vision.scene.showing import check_pace, render_showing_clip
from vision.scene.truth import Truth, read_truth
from vision.training.dataset import cards_root
from vision.training.pysol_decks import unknown_styles_message

FOUND_WITHIN_SECONDS = (-0.5, 1.6)  # of the card's landing: the hand lifts off it within a second
MAX_CORNER_ERROR = 0.5  # of the card's width: a showing farther off is of something else


@dataclass(frozen=True)
class ClipScore:
    """One clip's search against its truth: the cards shown, those found, the codes of those missed,
    the showings that found no card, and the median corner error of the found ones (None: none found)."""

    clip: str
    surface: str
    shown: int
    found: int
    missed: tuple[str, ...]
    extra: int
    corner_error: float | None


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean distance of ``found``'s four corners from ``truth``'s (both clockwise, from any corner) over
    the card's width (``truth``'s shorter side)."""
    width = min(float(np.linalg.norm(truth[1] - truth[0])), float(np.linalg.norm(truth[2] - truth[1])))
    return min(float(np.linalg.norm(np.roll(found, turn, axis=0) - truth, axis=1).mean())
               for turn in range(4)) / width


def score_search(found: ClipCards, truth: Truth) -> ClipScore:
    """``found`` scored against ``truth`` (see the module's docstring): each card landing is matched to
    the first showing not yet matched that starts within ``FOUND_WITHIN_SECONDS`` of it and lies within
    ``MAX_CORNER_ERROR`` of it."""
    starts = [card.first_frame / found.fps for card in found.cards]
    matched: set[int] = set()
    missed: list[str] = []
    errors: list[float] = []
    rests = truth.of_kind("rest")
    for rest in rests:
        landed, corners = rest["frame"] / found.fps, np.array(rest["corners"])
        early, late = FOUND_WITHIN_SECONDS
        in_time = [i for i, start in enumerate(starts)
                   if early <= start - landed <= late and i not in matched]
        errors_in_time = [(i, corner_error(found.cards[i].corners, corners)) for i in in_time]
        near = [(i, error) for i, error in errors_in_time if error < MAX_CORNER_ERROR]
        if not near:
            missed.append(str(rest["card"]))
            continue
        matched.add(near[0][0])
        errors.append(near[0][1])
    return ClipScore(found.path.name, str(truth.header.get("surface", "?")), len(rests),
                     len(rests) - len(missed), tuple(missed), len(starts) - len(matched),
                     float(np.median(errors)) if errors else None)


def parse_clips(text: str) -> list[tuple[int, str]]:
    """``SEED:STYLE,SEED:STYLE,...`` as (seed, style) pairs; raise ValueError naming the item at fault."""
    pairs = []
    for item in (part.strip() for part in text.split(",") if part.strip()):
        seed, _, style = item.partition(":")
        if not seed.isdigit() or not style:
            raise ValueError(f"--clips: {item!r} is not SEED:STYLE (a render seed, a deck style)")
        pairs.append((int(seed), style))
    return pairs


def film_sorted_deck(deck: Deck, seed: int, size: tuple[int, int], clip: Path,
                     truth: Path | None = None, pace: float = 1.0) -> None:
    """Film ``deck``, sorted as ``STANDARD_ORDER``, shown card after card at ``pace``
    (``vision.scene.showing``, render ``seed`` at ``size``) into ``clip``, its truth into ``truth`` if
    given: the clip a player makes for ``tressette enroll deck.mp4``."""
    render_showing_clip(STANDARD_ORDER.codes, deck, RenderSettings(seed, size=size), clip, truth, pace)


def search_clip(root: Path, seed: int, style: str, size: tuple[int, int], folder: Path,
                pace: float = 1.0) -> ClipScore:
    """Film ``style``'s sorted deck with render ``seed`` at ``size`` and ``pace`` into ``folder`` (reusing
    a clip made before), search it and score it."""
    paced = "" if pace == 1.0 else f"_pace{pace:g}"
    clip = folder / f"{seed}_{style}_{size[0]}x{size[1]}{paced}.mp4"
    truth = clip.with_suffix(".jsonl")
    if not (clip.is_file() and truth.is_file()):
        film_sorted_deck(Deck.load(root / style), seed, size, clip, truth, pace)
    return score_search(find_shown_cards(clip), read_truth(truth))


def markdown_table(scores: Sequence[ClipScore]) -> str:
    """One row a clip and a last row of them all (the corner error: the median of the clips')."""
    lines = ["| clip | surface | found | extra | missed | corner error |",
             "| --- | --- | ---: | ---: | --- | ---: |"]
    for s in scores:
        error = "-" if s.corner_error is None else f"{100 * s.corner_error:.1f}%"
        lines.append(f"| {s.clip} | {s.surface} | {s.found} of {s.shown} | {s.extra} | "
                     f"{', '.join(s.missed) or 'none'} | {error} |")
    errors = [s.corner_error for s in scores if s.corner_error is not None]
    median = f"{100 * float(np.median(errors)):.1f}%" if errors else "-"
    found, shown = sum(s.found for s in scores), sum(s.shown for s in scores)
    lines.append(f"| **all {len(scores)}** | | {found} of {shown} | {sum(s.extra for s in scores)} "
                 f"| {sum(len(s.missed) for s in scores)} | {median} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.clip_search",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--clips", required=True,
                        help="SEED:STYLE,... (the render seed and the deck style of each clip)")
    parser.add_argument("--size", default="1280x720", help="frame size, WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--keep", type=Path, help="keep the clips here, and reuse those already made")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="how long each step of the showing takes, of the usual (1: about 1.9 s a card; "
                             "0.7: 1.3 s, 40 cards in under a minute)")
    args = parser.parse_args(argv)
    try:
        clips = parse_clips(args.clips)
        size = parse_size(args.size)
        check_pace(args.pace)
    except ValueError as error:
        parser.error(str(error))
    root = cards_root()
    problem = unknown_styles_message(sorted({style for _, style in clips}), root)
    if problem:
        parser.error(problem)
    with tempfile.TemporaryDirectory(prefix="tressette-clips-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        scores = []
        for seed, style in clips:
            scores.append(search_clip(root, seed, style, size, folder, args.pace))
            print(markdown_table(scores[-1:]).splitlines()[2], flush=True)
    print(markdown_table(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
