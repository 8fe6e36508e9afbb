"""The `tressette` command line.

Each sub-command lives in its own module under ``table/commands/`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable
taking the parsed arguments and returning an exit status. Modules are found by
name, so adding a command never edits this file.

With no sub-command, `tressette` runs the main job on its embedded default (``demo``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from engine.errors import TressetteError
from table import commands
from table.cli_parser import LANGUAGE, CommandParser, language_of, say
from table.errors import TableError, error_word
from vision.errors import VisionError, message_in

DEFAULT_COMMAND = "demo"
USER_ERRORS: tuple[type[Exception], ...] = (TressetteError, TableError, VisionError, OSError)


def build_parser(lang: str = "it") -> argparse.ArgumentParser:
    """The full parser, with every sub-command module under table/commands registered; its help texts
    and argparse's own words (usage, errors) in ``lang``."""
    token = LANGUAGE.set(lang)
    try:
        parser = CommandParser(
            lang=lang,
            prog="tressette",
            description=say("Tressette Table: follows a game of Tressette and keeps the score.",
                            "Tressette Table: segue una partita di Tressette e tiene il punteggio."),
        )
        subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
        for module_info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
            if module_info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{commands.__name__}.{module_info.name}")
            module.register(subparsers)
    finally:
        LANGUAGE.reset(token)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; bad input ends with a one-line error on stderr and exit status 2."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, DEFAULT_COMMAND)  # `tressette --lang en` is the demo in English
    lang = language_of(args_list)
    parser = build_parser(lang)
    token = LANGUAGE.set(lang)  # the commands' argument types word their errors in it
    try:
        args = parser.parse_args(args_list)
    finally:
        LANGUAGE.reset(token)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`tressette replay ... | head`): nothing more to say, and nobody to say it to.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except USER_ERRORS as error:
        lang = getattr(args, "lang", "it")
        print(f"tressette {args.command}: {error_word(lang)}: {message_in(error, lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
