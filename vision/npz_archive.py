"""The ``.npz`` archives deck profiles and style banks are kept in: read with a clear error, written
whole or not at all.

Reading never unpickles (``allow_pickle=False``), and a file that is not a zip archive at all is
named as such before numpy sees it (numpy would otherwise try it as a pickle and say so). Writing
goes to a hidden file beside the target, which then replaces the target in one rename: a profile
already there is lost only once its successor is complete.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from vision.errors import VisionError


def read_npz(source: Path, what: str, error_type: type[VisionError], what_it: str) -> dict[str, np.ndarray]:
    """Every array in the archive at ``source``, by name; raise ``error_type`` with
    ``"{source}: not a {what} (...)"`` (in Italian ``"{source}: non è un {what_it} (...)"``) where the
    file cannot be read as an ``.npz`` archive."""
    def refuse(reason: str, reason_it: str) -> VisionError:
        return error_type(f"{source}: not a {what} ({reason})", f"{source}: non è un {what_it} ({reason_it})")

    if not zipfile.is_zipfile(source):
        try:
            size = source.stat().st_size
        except OSError as error:
            reason = str(error.strerror or error)
            raise refuse(reason, reason) from None
        if size == 0:
            raise refuse("not an .npz archive: an empty file", "non è un archivio .npz: un file vuoto")
        raise refuse(f"not an .npz archive: {size} bytes of something else",
                     f"non è un archivio .npz: {size} byte di altro")
    try:
        with np.load(source, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        reason = f"{type(error).__name__}: {error}"
        raise refuse(reason, reason) from None


def write_npz(target: Path, arrays: Mapping[str, np.ndarray], error_type: type[VisionError]) -> Path:
    """Write ``arrays`` compressed to exactly ``target`` (no suffix added), replacing any file there
    only once the new one is complete; raise ``error_type`` naming ``target`` where it cannot be
    written (its folder missing, a folder in its place, a full disk), the hidden temporary file
    removed and any file already at ``target`` left as it was."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as stream:
            np.savez_compressed(stream, **arrays)
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            reason = error.strerror or error
            raise error_type(f"{target}: cannot be written ({reason})",
                             f"{target}: non si può scrivere ({reason})") from None
        raise
    return target
