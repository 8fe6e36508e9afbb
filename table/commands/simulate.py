"""`tressette simulate --preset P --seed N [--out FILE] [--players A,B,C,D]`: a random legal match record."""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from engine.errors import Message, RuleError
from engine.record import RecordError
from engine.rules import PRESETS, Rules
from engine.simulate import simulate_match
from table.cli_parser import add_language_option, said, say
from table.errors import TableError
from table.record_file import save_record


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "simulate",
        help=say("writes the record of a random but legal match",
                 "scrive la registrazione di una partita casuale ma regolare"),
        description=say("Plays a whole match at random (legal plays only) and writes its record "
                        "(RECORD.md). Same seed, same match.",
                        "Gioca una partita intera a caso (solo giocate regolari) e ne scrive "
                        "la registrazione (RECORD.md). Stesso seme, stessa partita."),
    )
    add = parser.add_argument
    add("--preset", required=True, choices=tuple(PRESETS), help=say("the base rules", "le regole di base"))
    add("--seed", required=True, type=int,
        help=say("the seed of the random generator", "il seme del generatore casuale"))
    add("--out", metavar="FILE", help=say("the file to write (default: standard output)",
                                          "il file da scrivere (predefinito: lo standard output)"))
    add("--players", metavar="A,B,C,D", type=parse_players,
        help=say("the players' names in playing order, separated by commas",
                 "i nomi dei giocatori in ordine di gioco, separati da virgole"))
    add("--dealer", type=int,
        help=say("the seat that deals the first hand", "il posto di chi dà le carte nella prima mano"))
    add("--rule", metavar="KEY=VALUE", action="append", default=[], type=parse_rule,
        help=say("a rules option over the preset, repeatable: --rule target=41",
                 "un'opzione delle regole sopra il preset, ripetibile: --rule target=41"))
    add_language_option(parser, "language of the error messages", "lingua dei messaggi d'errore")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    mapping: dict[str, Any] = {"preset": args.preset, **dict(args.rule)}
    try:
        rules = Rules.from_mapping(mapping)
    except RuleError as error:
        raise TableError("--rule: " + error.message) from error
    try:
        record = simulate_match(rules, random.Random(args.seed), args.players, args.dealer)
    except RecordError as error:
        raise TableError("--players/--dealer: " + error.problem_words) from error
    save_record(record, args.out)
    return 0


def parse_players(text: str) -> tuple[str, ...]:
    """``Anna,Bruno,Carla,Dario`` -> the names, spaces around them dropped."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(said(Message(
            f"names separated by commas, none empty: {text!r}",
            f"nomi separati da virgole, senza nomi vuoti: {text!r}")))
    return names


def parse_rule(text: str) -> tuple[str, Any]:
    """``target=41`` -> ("target", 41): the value is read as JSON (numbers, true/false), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(said(Message(f"expected KEY=VALUE, such as target=41: {text!r}",
                                                      f"atteso CHIAVE=VALORE, come target=41: {text!r}")))
    try:
        parsed: Any = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return key.strip(), parsed
