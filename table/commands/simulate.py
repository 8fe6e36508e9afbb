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
from table.cli_parser import said
from table.errors import TableError
from table.record_file import save_record


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "simulate",
        help="scrive la registrazione di una partita casuale ma regolare",
        description="Gioca una partita intera a caso (solo giocate regolari) e ne scrive la registrazione "
                    "(RECORD.md). Stesso seme, stessa partita.",
    )
    parser.add_argument("--preset", required=True, choices=tuple(PRESETS), help="le regole di base")
    parser.add_argument("--seed", required=True, type=int, help="il seme del generatore casuale")
    parser.add_argument("--out", metavar="FILE", help="il file da scrivere (predefinito: lo standard output)")
    parser.add_argument("--players", metavar="A,B,C,D", type=parse_players,
                        help="i nomi dei giocatori in ordine di gioco, separati da virgole")
    parser.add_argument("--dealer", type=int, help="il posto di chi dà le carte nella prima mano")
    parser.add_argument("--rule", metavar="KEY=VALUE", action="append", default=[], type=parse_rule,
                        help="un'opzione delle regole sopra il preset, ripetibile: --rule target=41")
    parser.add_argument("--lang", choices=("it", "en"), default="it",
                        help="lingua dei messaggi d'errore: it (predefinita) o en")
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
