"""The application's error family."""

from __future__ import annotations

from engine.errors import BilingualError


class TableError(BilingualError):
    """Base of every error `table` raises for bad input (config, record files, command-line arguments);
    built from an ``engine.errors.Message``, it carries its Italian text."""


def error_word(lang: str) -> str:
    """How a command's error line is headed: ``errore`` in Italian, the default; ``error`` with
    ``--lang en``."""
    return "error" if lang == "en" else "errore"
