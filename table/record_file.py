"""Reading and writing game record files (the text format itself is `engine.record`'s)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import Message
from engine.record import Record, parse_record, write_record
from table.errors import TableError

STDIN = "-"


def read_record(path: str | Path, *, lenient: bool = False) -> Record:
    """Read a record file (UTF-8 JSON Lines; ``-`` reads standard input). Errors name the file:
    a missing or unreadable file raises TableError, a malformed record RecordError ``file:LINE: ...``."""
    name = str(path)
    if name == STDIN:
        return parse_record(sys.stdin.read(), name="<stdin>", lenient=lenient)
    file = Path(path)
    if not file.exists():
        raise TableError(Message(f"{name}: no such record file",
                                 f"{name}: questo file di partita non esiste"))
    if file.is_dir():
        raise TableError(Message(f"{name}: is a folder, not a record file",
                                 f"{name}: è una cartella, non un file di partita"))
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        where = error.start
        raise TableError(Message(f"{name}: not UTF-8 text (bad byte at offset {where})",
                                 f"{name}: non è testo UTF-8 (byte non valido alla posizione {where})")
                         ) from error
    return parse_record(text, name=name, lenient=lenient)


def save_record(record: Record, path: str | Path | None) -> None:
    """Write a record as text to ``path``, or to standard output when ``path`` is None or ``-``."""
    text = write_record(record)
    if path is None or str(path) == STDIN:
        sys.stdout.write(text)
        return
    Path(path).write_text(text, encoding="utf-8")
