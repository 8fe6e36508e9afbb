"""The engine's error family: every error is a ValueError that shows the input and the state."""

from __future__ import annotations


class TressetteError(ValueError):
    """Base of every error the engine raises for bad input."""


class CardError(TressetteError):
    """A card code that does not name one of the 40 cards."""
