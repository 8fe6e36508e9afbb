"""Flags: what the rules call wrong but can happen at a real table, kept with the event that showed it.

A flag never stops the match; its consequence (if any) is applied by the rules options. Messages are
Italian by default, English on request, with card names as players say them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Lang, parse_card
from engine.errors import Message

RENOUNCE = "renounce"
FALSE_ACCUSO = "false_accuso"
LATE_ACCUSO = "late_accuso"
FOUR_OF_DENARI = "four_of_denari"
WRONG_CLAIM = "wrong_claim"
ILLEGAL_EVENT = "illegal_event"

_MESSAGES: dict[str, dict[str, str]] = {
    RENOUNCE: {
        "it": "rinuncia provata: il posto {by} non ha risposto a {suit} nella presa {trick} "
              "e ora gioca {card}",
        "en": "renounce proven: seat {by} did not follow {suit} in trick {trick} and now plays {card}",
    },
    FALSE_ACCUSO: {
        "it": "accuso falso del posto {by}: {card} {why}",
        "en": "false accuso by seat {by}: {card} {why}",
    },
    LATE_ACCUSO: {
        "it": "accuso fuori tempo del posto {by} (presa {trick}): non conta",
        "en": "accuso by seat {by} out of its window (trick {trick}): it does not count",
    },
    FOUR_OF_DENARI: {
        "it": "il Quattro di denari è del posto {by}, ma la prima mano l'ha aperta il posto {leader}",
        "en": "the Four of coins belongs to seat {by}, but seat {leader} led the first hand",
    },
    WRONG_CLAIM: {
        "it": "chiamata fuori sbagliata del lato {side}: {total} punti, ne servono {target}; "
              "perde la partita",
        "en": "wrong claim by side {side}: {total} points, {target} needed; it loses the match",
    },
    ILLEGAL_EVENT: {
        "it": "evento impossibile saltato: {error}",
        "en": "impossible event skipped: {error}",
    },
}

_WHY: dict[str, dict[str, str]] = {
    "played_by": {"it": "è stato giocato dal posto {other}", "en": "was played by seat {other}"},
    "drawn_by": {"it": "è stato pescato dal posto {other}", "en": "was drawn by seat {other}"},
    "drawn_later": {"it": "era nel tallone (pescato dopo l'accuso)",
                    "en": "was in the stock (drawn after the accuso)"},
    "other_deal": {"it": "era nell'altra distribuzione", "en": "belonged to the other deal"},
}

_SUIT_IT = {"c": "coppe", "d": "denari", "s": "spade", "b": "bastoni"}
_SUIT_EN = {"c": "cups", "d": "coins", "s": "swords", "b": "batons"}


@dataclass(frozen=True, slots=True)
class Flag:
    """Something wrong, shown by event number ``event`` (1 = the first event after the header).

    ``kind`` is one of the constants above; ``by`` the seat (or side, for claims) it concerns;
    ``params`` the facts the message states (card codes, suit initials, trick numbers counted from 1; for
    an impossible event, ``error``: the error's ``Message``).
    """

    event: int
    kind: str
    by: int | None
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: Lang = "it") -> str:
        """The flag in words, Italian by default."""
        values: dict[str, Any] = dict(self.params)
        values["by"] = self.by
        if "card" in values:
            values["card"] = parse_card(values["card"]).name(lang)
        if "suit" in values:
            values["suit"] = (_SUIT_IT if lang == "it" else _SUIT_EN)[values["suit"]]
        if isinstance(values.get("error"), Message):
            values["error"] = values["error"].in_language(lang)
        if "why" in values:
            values["why"] = _WHY[values["why"]][lang].format(**values)
        return _MESSAGES[self.kind][lang].format(**values)

    def to_json(self, lang: Lang = "it") -> dict[str, Any]:
        return {"event": self.event, "kind": self.kind, "by": self.by, "message": self.message(lang)}
