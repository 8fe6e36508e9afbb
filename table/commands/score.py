"""`tressette score RECORD [--lenient] [--lang it|en]`: the score of a game record, as the JSON object of
RECORD.md (flag messages and errors in Italian, or in English with ``--lang en``).

Strict by default: a malformed line or an event that cannot happen (a card played twice, a play out of
turn) ends with one line naming the file and the line, and nothing on standard output. ``--lenient``
skips both and lists them in ``flags`` (python-chess style: collect the errors, lose nothing else).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.cards import Lang
from engine.errors import Message
from engine.flags import ILLEGAL_EVENT
from engine.record import Record, RecordError
from engine.score import ScoreReport, score_events
from table.cli_parser import add_language_option, say
from table.record_file import read_record

UNREADABLE_LINE = "unreadable_line"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "score",
        help=say("prints the score of a recorded match, as JSON",
                 "stampa il punteggio di una partita registrata, in JSON"),
        description=say("Prints the score of a match file (RECORD.md) as a JSON object.",
                        "Stampa il punteggio di un file di partita (RECORD.md) come un oggetto JSON."),
    )
    parser.add_argument("record", metavar="RECORD", help=record_help())
    parser.add_argument("--lenient", action="store_true",
                        help=say("skips the unreadable lines and the impossible events and lists them "
                                 "in flags",
                                 "salta le righe illeggibili e gli eventi impossibili e li elenca in flags"))
    add_language_option(parser, "language of the messages (flags, errors)",
                        "lingua dei messaggi (flags, errori)")
    parser.set_defaults(func=run)


def record_help() -> str:
    """The help of a command's RECORD argument, in the command line's language."""
    return say("the match file (JSON Lines); - reads standard input",
               "il file della partita (JSON Lines); - legge lo standard input")


def run(args: argparse.Namespace) -> int:
    """Print the score object; every error is raised before anything is printed."""
    record = read_record(args.record, lenient=args.lenient)
    print(format_score(score_json(record, lenient=args.lenient, lang=args.lang)))
    return 0


def format_score(report: dict[str, Any]) -> str:
    """The score object as JSON for people: indented, but anything short (a trick, a list of points)
    on one line, as RECORD.md shows it. ``json.loads`` of the text gives the object back."""
    return _format(report, 0)


_INLINE_WIDTH = 100


def _format(value: Any, depth: int) -> str:
    compact = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or len(compact) + 2 * depth <= _INLINE_WIDTH:
        return compact
    inner = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(key, ensure_ascii=False)}: {_format(item, depth + 1)}"
                 for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    items = [inner + _format(item, depth + 1) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"


def score_record(record: Record, *, lenient: bool = False) -> ScoreReport:
    """Score the record's corrected events. Strict: the first impossible event raises RecordError naming
    the record's file and line; lenient: it is skipped and flagged."""
    header = record.header
    events = record.corrected_events()
    report = score_events(header.rules, header.seats, header.dealer, events, lenient=True)
    if not lenient:
        first = next((flag for flag in report.flags if flag.kind == ILLEGAL_EVENT), None)
        if first is not None:
            event = next(event for event in events if event.meta.number == first.event)
            error: Message = first.params["error"]
            # "event 14 (line 15): ..." becomes "file:15: event 14: ...".
            english = error.en.removeprefix(event.meta.where("en") + ": ")
            italian = error.it.removeprefix(event.meta.where("it") + ": ")
            problem = Message(f"event {first.event}: {english}", f"evento {first.event}: {italian}")
            raise RecordError(record.name, event.meta.line or 0, problem, first.event)
    return report


def score_json(record: Record, *, lenient: bool = False, lang: Lang = "it") -> dict[str, Any]:
    """RECORD.md's score object; with ``lenient``, the lines the reader skipped are flags too
    (kind ``unreadable_line``, in event order with the others). Flag messages in ``lang``."""
    report = score_record(record, lenient=lenient).to_json(lang)
    if record.errors:
        line_word = "riga" if lang == "it" else "line"
        unreadable = [{"event": error.event, "kind": UNREADABLE_LINE, "by": None,
                       "message": f"{line_word} {error.line}: {error.problem_words.in_language(lang)}"}
                      for error in record.errors]
        report["flags"] = sorted([*report["flags"], *unreadable], key=lambda flag: flag["event"] or 0)
    return report
