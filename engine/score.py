"""Scoring a whole record: fold the events and report, in the shape of RECORD.md "What `score` prints".

``score_events(rules, seats, dealer, events)`` raises ``IllegalEventError`` at the first impossible
event; with ``lenient=True`` it leaves that event out, flags it, and goes on (nothing else is lost).

The report's ``points`` of a hand include its accusi. RULES.md: "scores are added at the end of each
hand", so ``totals`` is the sum of the finished hands' ``points``, plus those of the hand in which the
match ended when it ended inside a hand (``win = immediate``, a claim). A record that stops inside a
hand of an open match lists that hand (``complete`` false) with what it holds so far, but its points
are not in ``totals`` (nor in its running ``totals``). Extra keys beyond RECORD.md:
per hand ``number``, ``complete``, ``sides``, ``card_points``, ``accusi_points``, ``cappotto``,
``renounces``, ``call``, ``open_trick`` and ``totals`` (running, after that hand); per trick ``thirds``;
at the top ``loser``, ``games``, ``reason`` and ``over``. See docs/scoring.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.cards import Lang
from engine.events import Event
from engine.flags import Flag
from engine.rules import Rules
from engine.scoring import HandResult
from engine.state import MatchState, Outcome


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """The scored record: hands (finished, then the unfinished one if it has begun), totals (the hands
    that count: see ``counts``), the outcome and the flags; ``state`` is the final match state."""

    rules: Rules
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    outcome: Outcome | None
    flags: tuple[Flag, ...]
    state: MatchState

    @property
    def winner(self) -> int | None:
        return self.outcome.winner if self.outcome else None

    def counts(self, result: HandResult) -> bool:
        """Whether the points of this listed hand are in ``totals``: a finished hand, or the hand in which
        the match ended; not the open hand of a record that stops while the match is still open."""
        return result.complete or self.outcome is not None

    def to_json(self, lang: Lang = "it") -> dict[str, Any]:
        """Exactly RECORD.md's object (plus the extra keys listed in the module docstring)."""
        running = [0] * len(self.totals)
        hands = []
        for result in self.hands:
            if self.counts(result):
                running = [a + b for a, b in zip(running, result.points, strict=True)]
            hands.append(hand_to_json(result, tuple(running)))
        outcome = self.outcome
        return {
            "hands": hands,
            "totals": list(self.totals),
            "winner": outcome.winner if outcome else None,
            "flags": [flag.to_json(lang) for flag in self.flags],
            "loser": outcome.loser if outcome else None,
            "games": outcome.games if outcome else 0,
            "reason": outcome.reason if outcome else None,
            "over": outcome is not None,
        }


def hand_to_json(result: HandResult, running: tuple[int, ...]) -> dict[str, Any]:
    """One hand in RECORD.md's shape, with the running totals after it; ``complete`` says whether all its
    tricks were played."""
    accusi = []
    for seat, combo in result.accusi:
        item: dict[str, Any] = {"by": seat}
        item.update(combo.to_json())
        accusi.append(item)
    leader, cards = result.open_trick
    return {
        "number": result.number,
        "dealer": result.dealer,
        "complete": result.complete,
        "sides": [list(side) for side in result.sides],
        "tricks": [{"leader": trick.leader, "cards": [card.code for card in trick.cards],
                    "winner": trick.winner, "thirds": trick.thirds} for trick in result.tricks],
        "open_trick": {"leader": leader, "cards": list(cards)} if cards else None,
        "card_thirds": list(result.card_thirds),
        "last_trick": result.last_trick,
        "card_points": list(result.card_points),
        "accusi": accusi,
        "accusi_points": list(result.accusi_points),
        "points": list(result.points),
        "cappotto": result.cappotto.to_json() if result.cappotto else None,
        "renounces": list(result.renounces),
        "call": result.call,
        "totals": list(running),
    }


def score_events(rules: Rules, seats: int, dealer: int, events: Iterable[Event], *,
                 lenient: bool = False) -> ScoreReport:
    """Fold ``events`` from the start of a match and report the score."""
    state = MatchState.start(rules, seats, dealer).apply_all(events, lenient=lenient)
    hands = state.hands
    totals = state.totals  # the finished hands
    if state.hand.has_started:
        current = state.current_result()
        hands = (*hands, current)
        if state.is_over:  # the match ended inside this hand: its points so far decided it, so they count
            totals = tuple([a + b for a, b in zip(totals, current.points, strict=True)])
    return ScoreReport(rules, hands, totals, state.outcome, state.flags, state)
