"""The engine's error family: every error is a ValueError that shows the input and the state.

A player meets these errors (``tressette score``, ``replay``, a record the camera wrote), so each one
carries its message in English, ``str(error)``, for logs and for code, and in Italian, ``italian``,
which the command line shows by default (``Message``: the two texts of one message).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Message(NamedTuple):
    """One message in English and in Italian."""

    en: str
    it: str

    def in_language(self, lang: str) -> str:
        """The Italian text for ``"it"``, else the English one."""
        return self.it if lang == "it" else self.en

    def __add__(self, other: object) -> Message:  # type: ignore[override]
        """The two messages one after the other, each language with its own (a plain str is both)."""
        if isinstance(other, Message):
            return Message(self.en + other.en, self.it + other.it)
        if isinstance(other, str):
            return Message(self.en + other, self.it + other)
        return NotImplemented

    def __radd__(self, other: object) -> Message:
        if isinstance(other, str):
            return Message(other + self.en, other + self.it)
        return NotImplemented


def joined(*parts: Message | str, separator: str = ": ") -> Message:
    """The parts joined by ``separator`` in both languages (a plain str reads the same in both)."""
    result = Message("", "")
    for index, part in enumerate(parts):
        result = result + (separator if index else "") + part
    return result


class BilingualError(ValueError):
    """An error a player can meet. Built from a ``Message`` it has an Italian text, ``italian``; built
    from a str (a programming error, not a player's), it has none."""

    def __init__(self, message: Message | str) -> None:
        english, italian = (message.en, message.it) if isinstance(message, Message) else (message, None)
        super().__init__(english)
        self.italian = italian

    @property
    def message(self) -> Message:
        """The error's message in both languages (English twice where it has no Italian)."""
        return Message(str(self), self.italian if self.italian is not None else str(self))

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process, it reaches this one with its Italian text.
        return (type(self), (self.message if self.italian is not None else str(self),))


class TressetteError(BilingualError):
    """Base of every error the engine raises for bad input."""


class CardError(TressetteError):
    """A card code that does not name one of the 40 cards."""


class RuleError(TressetteError):
    """A rule option, preset or value that RULES.md does not allow; names the key and the value."""


class IllegalEventError(TressetteError):
    """An event that cannot happen in the state it is applied to (a card played twice, a play out of turn,
    a draw when none is due, an unknown seat...); names where the event came from, the event and the state."""
