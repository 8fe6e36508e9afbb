"""What happened at the table, as the renderer needs it: hands of tricks, plus the draws of two players.

Built from the public score object (RECORD.md "What `score` prints": hands -> tricks -> ``leader``,
``cards`` in play order, ``winner``) and, for two players with drawing, the ``draw`` events placed by
how many plays came before each. Plain data in, so ``vision`` never needs the rules engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import is_card_code
from vision.errors import VisionError


class ScriptError(VisionError):
    """A score object or draw list the renderer cannot follow: names the hand, trick and key at fault."""


@dataclass(frozen=True, slots=True)
class TrickScript:
    """One trick: ``plays`` are (seat, card code) in play order; ``winner`` takes it (None: the trick
    the record stops in, still open on the table)."""

    plays: tuple[tuple[int, str], ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class DrawScript:
    """Two players with drawing: ``seat`` draws ``card`` from the stock and shows it."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class HandScript:
    """One hand: its dealer, its tricks, and the draws made after each trick (same length as tricks);
    ``complete`` is False for the hand a record stops in (its cards stay on the table)."""

    dealer: int
    tricks: tuple[TrickScript, ...]
    draws_after: tuple[tuple[DrawScript, ...], ...]
    complete: bool = True

    @property
    def stock(self) -> tuple[str, ...]:
        """The stock from the top down: the cards in the order they are drawn."""
        return tuple(draw.card for draws in self.draws_after for draw in draws)


@dataclass(frozen=True, slots=True)
class MatchScript:
    """The hands to render, the number of seats, and the dummy's seat for ``morto`` (else None)."""

    seat_count: int
    hands: tuple[HandScript, ...]
    dummy_seat: int | None = None

    def limited(self, hand_count: int | None) -> MatchScript:
        """Only the first ``hand_count`` hands (all when None)."""
        if hand_count is None:
            return self
        return MatchScript(self.seat_count, self.hands[:hand_count], self.dummy_seat)


def _trick_from_json(data: Any, seat_count: int, where: str, is_open: bool = False) -> TrickScript:
    if not isinstance(data, Mapping):
        raise ScriptError(f"{where}: a trick must be an object, got {data!r}")
    leader, cards, winner = data.get("leader"), data.get("cards"), data.get("winner")
    checks = (("leader", leader),) if is_open else (("leader", leader), ("winner", winner))
    for key, value in checks:
        if not isinstance(value, int) or not 0 <= value < seat_count:
            raise ScriptError(f"{where}: '{key}' must be a seat 0..{seat_count - 1}, got {value!r}")
    if not isinstance(cards, Sequence) or isinstance(cards, str) or not cards:
        raise ScriptError(f"{where}: 'cards' must be a list of card codes, got {cards!r}")
    for code in cards:
        if not is_card_code(code):
            raise ScriptError(f"{where}: not a card code in 'cards': {code!r}")
    plays = tuple(((leader + i) % seat_count, str(code)) for i, code in enumerate(cards))
    return TrickScript(plays, None if is_open else winner)


def script_from_score(score: Mapping[str, Any], seat_count: int,
                      draws: Sequence[tuple[int, int, str]] = (),
                      dummy_seat: int | None = None) -> MatchScript:
    """The match script of a score object.

    ``draws``: (plays before it in the whole record, seat, card) for each ``draw`` event, so each draw
    is placed after the trick it follows. Raise ScriptError naming the hand and trick at fault.
    """
    hands_json = score.get("hands") if isinstance(score, Mapping) else None
    if not isinstance(hands_json, Sequence):
        raise ScriptError(f"the score object has no 'hands' list: {str(score)[:120]!r}")
    pending = sorted(draws, key=lambda draw: draw[0])
    plays_so_far = 0
    hands: list[HandScript] = []
    for hand_number, hand in enumerate(hands_json, start=1):
        if not isinstance(hand, Mapping) or not isinstance(hand.get("tricks"), Sequence):
            raise ScriptError(f"hand {hand_number}: expected an object with a 'tricks' list, got {hand!r}")
        dealer = hand.get("dealer", seat_count - 1)
        tricks: list[TrickScript] = []
        draws_after: list[tuple[DrawScript, ...]] = []
        for trick_number, trick in enumerate(hand["tricks"], start=1):
            trick_script = _trick_from_json(trick, seat_count, f"hand {hand_number}, trick {trick_number}")
            tricks.append(trick_script)
            plays_so_far += len(trick_script.plays)
            after: list[DrawScript] = []
            while pending and pending[0][0] <= plays_so_far:
                _, seat, card = pending.pop(0)
                after.append(DrawScript(seat, card))
            draws_after.append(tuple(after))
        open_trick = hand.get("open_trick")
        if open_trick:
            tricks.append(_trick_from_json(open_trick, seat_count, f"hand {hand_number}, open trick", True))
            draws_after.append(())
        if not isinstance(dealer, int):
            raise ScriptError(f"hand {hand_number}: 'dealer' must be a seat, got {dealer!r}")
        complete = bool(hand.get("complete", True)) and not open_trick
        hands.append(HandScript(dealer, tuple(tricks), tuple(draws_after), complete))
    return MatchScript(seat_count, tuple(hands), dummy_seat)
