"""`tressette render RECORD --out CLIP.mp4 --truth TRUTH.jsonl`: film a match as the table camera would.

The clip shows the match's tricks being played on a synthetic table seen from above; the truth file says,
frame by frame, which card came to rest where (its corners in pixels) and when each trick was picked up
(docs/renderer.md, `vision.scene.truth`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import Message
from engine.events import Draw, Event, Play
from engine.record import Record
from engine.score import score_events
from table.cli_parser import add_language_option, say
from table.errors import TableError
from table.record_file import read_record
from vision.decks import Deck, find_cards_root
from vision.scene.camera import parse_size
from vision.scene.difficulty import DIFFICULTIES
from vision.scene.render import RenderSettings
from vision.scene.script import MatchScript, script_from_score
from vision.scene.video import render_clip

DEFAULT_DECK = "napoletane"
SUMMARY = {
    "it": "{out}: {frames} fotogrammi, {seconds:.1f} s, {cards} carte, {tricks} prese; verità in {truth}",
    "en": "{out}: {frames} frames, {seconds:.1f} s, {cards} cards, {tricks} tricks; truth in {truth}",
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "render",
        help=say("films a recorded match as the table camera would see it (video and truth)",
                 "filma una partita registrata come la vedrebbe la telecamera (video e verità)"),
        description=say("Films a recorded match as the camera above the table would see it: an mp4 video and "
                        "a JSON Lines file with the truth (cards, positions, tricks).",
                        "Filma una partita registrata come la vedrebbe la telecamera sopra il tavolo: "
                        "un video mp4 e un file JSON Lines con la verità (carte, posizioni, prese)."),
    )
    add = parser.add_argument
    add("record", metavar="RECORD", help=say("the match file (JSON Lines, RECORD.md)",
                                             "file della partita (JSON Lines, RECORD.md)"))
    add("--out", required=True, metavar="CLIP.mp4",
        help=say("the video to write (mp4)", "il video da scrivere (mp4)"))
    add("--truth", required=True, metavar="TRUTH.jsonl",
        help=say("the truth file to write", "il file della verità da scrivere"))
    add("--deck", default=None, metavar="DIR",
        help=say(f"the cards' folder (default: {DEFAULT_DECK} in ../shared/cards)",
                 f"cartella delle carte (predefinita: {DEFAULT_DECK} in ../shared/cards)"))
    add("--seed", type=int, default=0, help=say("seed: the same seed gives the same video (default 0)",
                                                "seme: lo stesso seme dà lo stesso video (predefinito 0)"))
    add("--difficulty", default="normal", choices=DIFFICULTIES,
        help=say("realism (default normal)", "realismo (predefinito normal)"))
    add("--fps", type=float, default=10.0,
        help=say("frames per second (default 10)", "fotogrammi al secondo (predefiniti 10)"))
    add("--size", default="1280x720", help=say("1280x720 (the default) or 1920x1080",
                                               "1280x720 (predefinito) o 1920x1080"))
    add("--hands", type=int, default=None, metavar="N",
        help=say("only the first N hands", "solo le prime N mani"))
    add("--contact", default=None, metavar="SHEET.png",
        help=say("also writes a contact sheet (a few frames) as PNG",
                 "scrive anche un foglio di provini (alcuni fotogrammi) in PNG"))
    add_language_option(parser)
    parser.set_defaults(func=run)


def resolve_deck_folder(deck: str | None) -> Path:
    """The deck folder: ``deck`` as a path, or as a style name under the cards root; default napoletane.

    A folder that does not exist is returned as given, so that loading it names it in the error.
    """
    root = find_cards_root()
    if deck is None:
        if root is None:
            raise TableError(Message(
                f"no card artwork found for the default deck {DEFAULT_DECK!r}: "
                "pass --deck DIR or set TRESSETTE_CARDS",
                f"non trovo le immagini delle carte del mazzo predefinito {DEFAULT_DECK!r}: "
                "indica --deck CARTELLA o imposta TRESSETTE_CARDS"))
        return root / DEFAULT_DECK
    if not Path(deck).is_dir() and root is not None and (root / deck).is_dir():
        return root / deck
    return Path(deck)


def draws_by_position(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    """Each draw event as (plays before it, seat, card code), to place it after its trick."""
    plays = 0
    draws: list[tuple[int, int, str]] = []
    for event in events:
        if isinstance(event, Play):
            plays += 1
        elif isinstance(event, Draw):
            draws.append((plays, event.by, event.card.code))
    return draws


def script_of_record(record: Record) -> MatchScript:
    """The renderer's script of a record: its corrected events scored, plus the draws."""
    header = record.header
    events = record.corrected_events()
    score: dict[str, Any] = score_events(header.rules, header.seats, header.dealer, events).to_json()
    return script_from_score(score, header.seats, draws_by_position(events), header.rules.dummy)


def parse_settings(args: argparse.Namespace) -> RenderSettings:
    if args.fps <= 0 or args.fps > 60:
        raise TableError(Message(f"--fps must lie in (0, 60], got {args.fps}",
                                 f"--fps deve stare in (0, 60], non {args.fps}"))
    if args.hands is not None and args.hands < 1:
        raise TableError(Message(f"--hands must be at least 1, got {args.hands}",
                                 f"--hands deve essere almeno 1, non {args.hands}"))
    size = parse_size(args.size)
    return RenderSettings(seed=args.seed, difficulty=args.difficulty, fps=args.fps, size=size)


def run(args: argparse.Namespace) -> int:
    """Render the clip and write the truth; print a one-line summary."""
    settings = parse_settings(args)
    deck = Deck.load(resolve_deck_folder(args.deck))
    script = script_of_record(read_record(args.record)).limited(args.hands)
    if not script.hands:
        raise TableError(Message(f"{args.record}: the record has no complete trick to render",
                                 f"{args.record}: la partita non ha una presa completa da mostrare"))
    summary = render_clip(script, deck, settings, Path(args.out), Path(args.truth),
                          record_name=Path(args.record).name,
                          contact_sheet_path=Path(args.contact) if args.contact else None)
    print(SUMMARY[args.lang].format(out=args.out, frames=summary.frames, seconds=summary.seconds,
                                     cards=summary.cards, tricks=summary.tricks, truth=args.truth))
    return 0
