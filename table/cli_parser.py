"""The command line's parser in the player's language.

argparse says its own words (``usage:``, its section titles, the ``-h`` help, the errors for a missing
argument, an unknown option, a wrong choice) in English. ``CommandParser`` says them in Italian by
default and in English with ``--lang en``, as the commands' own messages are: the language is read from
the command line before parsing (``language_of``) and kept in ``LANGUAGE`` while it is parsed, so that
the commands' argument types can word their errors too (``said``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import partial
from typing import Any, NoReturn

from engine.errors import Message
from table.errors import error_word

LANGUAGE: ContextVar[str] = ContextVar("tressette_language", default="it")

_HELP = Message("show this help message and exit", "mostra questo aiuto ed esce")
_TYPE_NAMES = {"int": "un numero intero", "float": "un numero"}
_Rewrite = Callable[[re.Match[str]], str]
_ITALIAN: tuple[tuple[re.Pattern[str], _Rewrite], ...] = tuple(
    (re.compile(pattern, re.DOTALL), rewrite) for pattern, rewrite in (
        (r"the following arguments are required: (.*)", lambda m: f"mancano questi argomenti: {m[1]}"),
        (r"unrecognized arguments: (.*)", lambda m: f"argomenti sconosciuti: {m[1]}"),
        (r"argument (.*?): (.*)", lambda m: f"argomento {m[1]}: {argparse_in_italian(m[2])}"),
        (r"invalid choice: (.*) \(choose from (.*)\)",
         lambda m: f"scelta non valida: {m[1]} (si sceglie tra {m[2]})"),
        (r"invalid (\w+) value: (.*)",
         lambda m: f"serve {_TYPE_NAMES.get(m[1], 'un valore ' + m[1])}, non {m[2]}"),
        (r"expected one argument", lambda m: "serve un valore"),
        (r"expected at most one argument", lambda m: "serve al più un valore"),
        (r"expected at least one argument", lambda m: "serve almeno un valore"),
        (r"one of the arguments (.*) is required", lambda m: f"serve uno degli argomenti {m[1]}"),
        (r"not allowed with argument (.*)", lambda m: f"non va insieme all'argomento {m[1]}"),
        (r"ambiguous option: (.*) could match (.*)", lambda m: f"opzione ambigua: {m[1]} può essere {m[2]}"),
        (r"ignored explicit argument (.*)", lambda m: f"valore ignorato: {m[1]}"),
    ))


def language_of(argv: Sequence[str]) -> str:
    """``"en"`` where the command line asks for it (``--lang en`` or ``--lang=en``), else ``"it"``."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang=en" or (word == "--lang" and argv[index + 1:index + 2] == ["en"]):
            return "en"
    return "it"


def said(message: Message) -> str:
    """The message in the language of the command line being read (Italian outside one)."""
    return message.in_language(LANGUAGE.get())


def say(english: str, italian: str) -> str:
    """``said`` of the two texts: a help text or an argument's error in the command line's language."""
    return said(Message(english, italian))


def add_language_option(parser: argparse.ArgumentParser, english: str = "language of the messages",
                        italian: str = "lingua dei messaggi") -> None:
    """``--lang it|en``, Italian by default; ``english`` / ``italian`` say what it sets."""
    parser.add_argument("--lang", choices=("it", "en"), default="it",
                        help=say(f"{english}: it (the default) or en", f"{italian}: it (predefinita) o en"))


def argparse_in_italian(message: str) -> str:
    """One of argparse's error messages in Italian; a message it does not know (the commands' own,
    already in the language asked) is returned as it is."""
    for pattern, rewrite in _ITALIAN:
        match = pattern.fullmatch(message)
        if match is not None:
            return rewrite(match)
    return message


class _ItalianHelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "uso: " if prefix is None else prefix)


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser whose own words are in ``lang`` (``"it"`` or ``"en"``), its sub-commands' too."""

    def __init__(self, *args: Any, lang: str = "it", **kwargs: Any) -> None:
        if lang == "it":
            kwargs.setdefault("formatter_class", _ItalianHelpFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self.lang = lang
        if lang == "it":
            self._positionals.title = "argomenti"
            self._optionals.title = "opzioni"
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=_HELP.in_language(lang))

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction:  # type: ignore[type-arg]
        kwargs.setdefault("parser_class", partial(CommandParser, lang=self.lang))
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        """Print the usage and one line, ``PROG: errore: MESSAGE``, and exit with status 2."""
        self.print_usage(sys.stderr)
        text = argparse_in_italian(message) if self.lang == "it" else message
        self.exit(2, f"{self.prog}: {error_word(self.lang)}: {text}\n")
