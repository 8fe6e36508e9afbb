"""The vision package's error family: every error is a ValueError naming the file or input at fault.

An error a player can meet (a missing deck profile, a picture that cannot be read, a folder of
pictures with the wrong names) also carries its message in Italian, ``italian``, which the command
line shows by default (``message_in``); the message itself, ``str(error)``, is English, for logs and
for the code that calls the library.
"""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error `vision` raises for bad input (a corrupt model, an unreadable image...)."""

    def __init__(self, message: str, italian: str | None = None) -> None:
        super().__init__(message)
        self.italian = italian

    def __reduce__(self) -> tuple[type[VisionError], tuple[str, str | None]]:
        # Raised in a worker process (vision.worker_pool), it reaches this one with its Italian text.
        return (type(self), (str(self), self.italian))


def message_in(error: BaseException, lang: str) -> str:
    """The error's message in ``lang``: its Italian text (``VisionError.italian``) for ``"it"`` where
    it has one, else its own message."""
    italian = getattr(error, "italian", None)
    return italian if lang == "it" and isinstance(italian, str) else str(error)
