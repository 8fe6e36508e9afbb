"""`tressette replay RECORD [--lang it|en]`: the match told trick by trick, for people."""

from __future__ import annotations

import argparse

from engine.cards import Lang
from engine.errors import TressetteError
from engine.events import Claim, Draw
from engine.record import Record
from engine.rules import Rules
from engine.state import MatchState
from table.cli_parser import add_language_option, say
from table.commands.score import record_help, score_json
from table.record_file import read_record
from table.replay_text import Table, claim_line, draw_line, match_text


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "replay",
        help=say("tells the match trick by trick", "racconta la partita presa per presa"),
        description=say("Tells a recorded match trick by trick: who leads, what is played, who takes it "
                        "and why, the points, the accusi, the score and who wins.",
                        "Racconta una partita registrata presa per presa: chi apre, cosa si gioca, "
                        "chi prende e perché, i punti, gli accusi, il punteggio e chi vince."),
    )
    parser.add_argument("record", metavar="RECORD", help=record_help())
    add_language_option(parser, "language of the telling", "lingua del racconto")
    parser.add_argument("--lenient", action="store_true",
                        help=say("skips the unreadable lines and the impossible events and lists them "
                                 "at the end",
                                 "salta le righe illeggibili e gli eventi impossibili e li segnala "
                                 "alla fine"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = read_record(args.record, lenient=args.lenient)
    print(replay_text(record, lang=args.lang, lenient=args.lenient), end="")
    return 0


def replay_text(record: Record, *, lang: Lang = "it", lenient: bool = False) -> str:
    """The whole match told from the record's score (strict unless ``lenient``)."""
    report = score_json(record, lenient=lenient, lang=lang)
    table = table_for(record.header.rules, record.header.players, lang)
    notes = between_tricks(record, table, lang)
    rules = record.header.rules
    return match_text(report, table, lang, target=rules.target, avoid=rules.scoring == "avoid", notes=notes)


def between_tricks(record: Record, table: Table, lang: Lang = "it") -> list[dict[int, list[str]]]:
    """What happened between the tricks of each hand and is not in the score object: the draws (two
    players with drawing) and the claims, keyed by hand (from 0) and by the tricks done before them.
    Impossible events are left out here: scoring has already refused or flagged them."""
    header = record.header
    state = MatchState.start(header.rules, header.seats, header.dealer)
    notes: list[dict[int, list[str]]] = []
    for event in record.corrected_events():
        hand, done = state.hand_number, len(state.hand.tricks)
        try:
            state = state.apply(event)
        except TressetteError:
            continue
        if isinstance(event, Draw):
            line = draw_line(event.by, event.card.code, table, lang)
        elif isinstance(event, Claim):
            line = claim_line(event.side, table, lang)
        else:
            continue
        notes.extend({} for _ in range(hand + 1 - len(notes)))
        notes[hand].setdefault(done, []).append(line)
    return notes


def table_for(rules: Rules, players: tuple[str, ...], lang: Lang = "it") -> Table:
    """Name what the score's points are indexed by: the fixed sides, or each player where each scores
    alone (and where sides change every hand: chiamata, morto)."""
    if rules.scoring == "points" and isinstance(rules.sides, tuple):
        return Table.with_sides(players, rules.sides, lang)
    return Table.each_alone(players, partners_change=rules.sides in ("called", "dummy"))
