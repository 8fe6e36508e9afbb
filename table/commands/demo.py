"""`tressette demo`: the main job's embedded default (``tressette`` with no arguments, ``./demo.sh``).

Until the camera pipeline runs end to end, the demo tells the bundled example match
(``table/data/demo.jsonl``, a classic four-player match) trick by trick in the terminal.
"""

from __future__ import annotations

import argparse
from importlib import resources

from engine.cards import Lang
from engine.record import parse_record
from table.cli_parser import add_language_option, say
from table.commands.replay import replay_text

DEMO_RECORD = "demo.jsonl"
INTRO: dict[Lang, str] = {
    "it": "Tressette Table, dimostrazione: la partita d'esempio inclusa ({name}), "
          "raccontata presa per presa.",
    "en": "Tressette Table demo: the bundled example match ({name}), told trick by trick.",
}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "demo",
        help=say("tells the bundled example match (what `tressette` does with no arguments)",
                 "racconta la partita d'esempio inclusa (quello che fa `tressette` senza argomenti)"),
        description=say("The demo: tells the bundled example match trick by trick.",
                        "La dimostrazione: racconta presa per presa la partita d'esempio inclusa."),
    )
    add_language_option(parser, "language of the telling", "lingua del racconto")
    parser.set_defaults(func=run)


def demo_text() -> str:
    """The bundled demo record's text."""
    return resources.files("table").joinpath("data", DEMO_RECORD).read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    lang: Lang = getattr(args, "lang", "it")
    name = f"table/data/{DEMO_RECORD}"
    record = parse_record(demo_text(), name=name)
    told = replay_text(record, lang=lang)
    print(INTRO[lang].format(name=name))
    print()
    print(told, end="")
    return 0
