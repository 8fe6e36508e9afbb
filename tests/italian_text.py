"""A check that an error a player can meet says it in Italian: it has an Italian text, and no English
words are left in it outside quoted input (keys, values, JSON the player wrote)."""

from __future__ import annotations

import re

# Quoted input, paths, JSON, lists, an option with its value (``seats = 3``), a list of the names known.
_QUOTED = re.compile(r"\"[^\"]*\"|(?<!\w)'[^']*'|\S*/\S*|\{.*\}|\[.*?\]|\b\w+ = "
                     r"|\(quell[ie] not[ie]: [^)]*\)")
_ENGLISH = re.compile(r"\b(expected|got|must|missing|key|seats?|event|line|the|is|are|not|already|unknown|"
                      r"needs?|players|hand|trick|turn|no such|draws?|plays?|calls?|led|by|side|of|an)\b")


def italian_of(error: BaseException) -> str:
    """The error's Italian text, checked: present, not the English one, with no English words left."""
    italian = getattr(error, "italian", None)
    assert isinstance(italian, str), f"no Italian text: {error}"
    assert italian != str(error), f"the Italian text is the English one: {italian}"
    leftover = _ENGLISH.findall(_QUOTED.sub("", italian))
    assert not leftover, f"English words {leftover} in: {italian}"
    return italian
