"""The vision package's error family: every error is a ValueError naming the file or input at fault."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error `vision` raises for bad input (a corrupt model, an unreadable image...)."""
