"""The application's error family."""

from __future__ import annotations


class TableError(ValueError):
    """Base of every error `table` raises for bad input (config, record files, command-line arguments)."""
