"""Game record events as small immutable values (RECORD.md, "Following lines: events").

An event says what happened at the table; the match state folds them in order.
Corrections (``fix``/``undo``) are resolved by the record reader before folding,
so the state only ever sees the corrected sequence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class Meta:
    """Where an event came from: its number (1 = first event after the header), the record line,
    and the optional ``t``/``source``/``confidence`` plus any other keys, kept as read."""

    number: int | None = None
    line: int | None = None
    t: float | None = None
    source: str | None = None
    confidence: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def where(self, lang: str = "en") -> str:
        """``event 17 (line 18)`` (``evento 17 (riga 18)`` for ``"it"``) or whatever part of that is known,
        for error messages."""
        event_word, line_word = ("evento", "riga") if lang == "it" else ("event", "line")
        parts = []
        if self.number is not None:
            parts.append(f"{event_word} {self.number}")
        if self.line is not None:
            parts.append(f"{line_word} {self.line}")
        if len(parts) == 2:
            return f"{parts[0]} ({parts[1]})"
        return parts[0] if parts else event_word


NO_META = Meta()


@dataclass(frozen=True, slots=True)
class Play:
    """Seat ``by`` plays ``card``."""

    card: Card
    by: int
    meta: Meta = field(default=NO_META, compare=False)


@dataclass(frozen=True, slots=True)
class Accuso:
    """Seat ``by`` declares these cards (used when accusi are ``declared``)."""

    cards: tuple[Card, ...]
    by: int
    meta: Meta = field(default=NO_META, compare=False)


@dataclass(frozen=True, slots=True)
class Draw:
    """Two players with drawing: seat ``by`` draws ``card`` from the stock and shows it."""

    card: Card
    by: int
    meta: Meta = field(default=NO_META, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    """Chiamata del tre: seat ``by`` names ``suit``; the holder of its 3 is their partner."""

    suit: Suit
    by: int
    meta: Meta = field(default=NO_META, compare=False)


@dataclass(frozen=True, slots=True)
class Claim:
    """Side (or player, where each plays alone) ``side`` stops play and claims the target."""

    side: int
    meta: Meta = field(default=NO_META, compare=False)


Event = Play | Accuso | Draw | Call | Claim
