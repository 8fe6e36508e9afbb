"""The engine's error family: every error is a ValueError that shows the input and the state."""

from __future__ import annotations


class TressetteError(ValueError):
    """Base of every error the engine raises for bad input."""


class CardError(TressetteError):
    """A card code that does not name one of the 40 cards."""


class RuleError(TressetteError):
    """A rule option, preset or value that RULES.md does not allow; names the key and the value."""


class IllegalEventError(TressetteError):
    """An event that cannot happen in the state it is applied to (a card played twice, a play out of turn,
    a draw when none is due, an unknown seat...); names where the event came from, the event and the state."""
