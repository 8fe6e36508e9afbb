"""The match state: an immutable value folded from the record's events.

``MatchState.start(rules, seats, dealer)`` opens a match; ``state.apply(event)`` returns the next state
and never changes ``state``. An event that cannot happen raises ``IllegalEventError`` naming the event's
place in the record, the event and the state; what the rules call wrong but a real table can do
(a renounce proven later, a false accuso, a wrong claim...) becomes a ``Flag`` with its consequence.

Hands are not delimited in the record: a hand ends with its last card, and the deal passes to the next
seat (in morto, to the next seat that is not the dummy).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from engine.cards import DECK, SUITS, Card
from engine.declare import declare
from engine.errors import IllegalEventError, Message, RuleError, TressetteError, joined
from engine.events import NO_META, Accuso, Call, Claim, Draw, Event, Meta, Play
from engine.flags import ILLEGAL_EVENT, WRONG_CLAIM, Flag
from engine.hand import Hand, call, card_info, draw, event_words, new_hand, place_words, play
from engine.rules import Rules
from engine.scoring import HandResult, is_all_points, score_hand


class Outcome(NamedTuple):
    """How the match ended: the ``winner`` (side, or seat where each scores alone; ``None`` when nobody
    can be named), the ``loser`` (avoiding points: who reached the target), the ``games`` it is worth,
    the ``reason`` (target, cappotto, claim) and the event that ended it."""

    winner: int | None
    loser: int | None
    games: int
    reason: str
    event: int


class _Progress(NamedTuple):
    hands: tuple[HandResult, ...]
    totals: tuple[int, ...]
    flags: tuple[Flag, ...]
    outcome: Outcome | None


class MatchState:
    """A match in progress: the rules, the finished hands, the hand in play, the totals and the flags.

    Immutable: every query is read-only and ``apply`` returns a new state.
    """

    __slots__ = ("_events", "_hand", "_progress", "_rules")

    _rules: Rules
    _hand: Hand
    _progress: _Progress
    _events: int

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MatchState is immutable; {name} cannot be set (use apply)")

    @classmethod
    def start(cls, rules: Rules, seats: int | None = None, dealer: int | None = None) -> MatchState:
        """A match about to begin. ``seats`` must agree with the rules (default: theirs); ``dealer`` is the
        first hand's dealer (default: the last seat)."""
        if seats is None:
            seats = rules.seats
        if seats != rules.seats:
            raise RuleError(Message(
                f"the record has {seats} players but the rules ({rules.preset}) are for {rules.seats} seats",
                f"la partita ha {seats} giocatori ma le regole ({rules.preset}) sono per "
                f"{rules.seats} posti"))
        if dealer is None:
            dealer = seats - 1
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise RuleError(Message(f"dealer = {dealer!r} must be a seat 0..{seats - 1}",
                                    f"dealer = {dealer!r} deve essere un posto 0..{seats - 1}"))
        first = None if rules.first_lead == "four_of_denari" else _first_player(rules, dealer)
        hand = new_hand(rules, 0, dealer, first)
        return _make(rules, hand, _Progress((), _zeros(rules), (), None), 0)

    # --- queries -------------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seats(self) -> int:
        return self._rules.seats

    @property
    def hand(self) -> Hand:
        """The hand in play (the next one, once a hand has ended)."""
        return self._hand

    @property
    def hand_number(self) -> int:
        """The hand in play, counted from 0."""
        return self._hand.number

    @property
    def dealer(self) -> int:
        return self._hand.dealer

    @property
    def to_play(self) -> int | None:
        """Who plays next; ``None`` while a draw or a call is due, when any seat may lead (first lead
        with ``four_of_denari``), or when the match is over."""
        return None if self._progress.outcome else self._hand.turn

    @property
    def draw_due(self) -> int | None:
        """The seat that must draw next (two players with drawing), else ``None``."""
        pending = self._hand.extra.pending
        return pending[0] if pending and not self._progress.outcome else None

    @property
    def call_due(self) -> int | None:
        """The seat that must call a suit (chiamata del tre) before the first lead, else ``None``."""
        hand = self._hand
        if self._rules.sides == "called" and hand.extra.call is None and not hand.played \
                and not self._progress.outcome:
            return hand.first
        return None

    @property
    def suit_led(self) -> str | None:
        trick = self._hand.trick
        return trick[0].suit if trick else None

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """The cards of the trick in play, in play order from its leader."""
        return self._hand.trick

    @property
    def trick_leader(self) -> int | None:
        return self._hand.leader

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards not yet seen in this hand (not played; with drawing, not drawn either)."""
        seen = self._hand.played | self._hand.extra.drawn_mask
        return tuple(card for index, card in enumerate(DECK) if not seen >> index & 1)

    def legal_plays(self, seat: int, hand: tuple[Card, ...] | list[Card] | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` may play now. With its ``hand`` known: any card to lead, else the cards of the
        suit led if it has one, else any. Unknown: every unseen card (a seat may always be void).
        Empty when it is not that seat's turn."""
        current = self._hand
        may_lead_anyone = current.turn is None and current.first is None and not current.played \
            and not current.extra.pending
        if self._progress.outcome or (seat != current.turn and not may_lead_anyone):
            return ()
        if hand is None:
            drawn_elsewhere = 0
            for card, by, _when in current.extra.drawn:
                if by != seat:
                    drawn_elsewhere |= card_info(card)[0]
            seen = current.played | drawn_elsewhere
            return tuple(card for index, card in enumerate(DECK) if not seen >> index & 1)
        held = set(hand)
        cards = tuple(card for card in DECK if card in held and not current.played & card_info(card)[0])
        if current.trick:
            lead = current.trick[0].suit
            following = tuple(card for card in cards if card.suit == lead)
            if following:
                return following
        return cards

    def known_voids(self) -> dict[int, frozenset[str]]:
        """The suits each seat has shown it lacks in this hand (it did not follow them); a card of such a
        suit from that seat would prove a renounce."""
        mask = self._hand.void_mask
        return {seat: frozenset(suit for index, suit in enumerate(SUITS) if mask >> (seat * 4 + index) & 1)
                for seat in range(self._rules.seats)}

    @property
    def hands(self) -> tuple[HandResult, ...]:
        """The finished hands, scored."""
        return self._progress.hands

    def current_result(self) -> HandResult:
        """The hand in play scored as it stands."""
        return score_hand(self._rules, self._hand)

    @property
    def totals(self) -> tuple[int, ...]:
        """The match score from the finished hands (per side, or per seat where each scores alone)."""
        return self._progress.totals

    def live_totals(self) -> tuple[int, ...]:
        """``totals`` plus what the hand in play holds so far (whole points taken, accusi made)."""
        if not self._hand.has_started:
            return self._progress.totals
        current = self.current_result().points
        return tuple(a + b for a, b in zip(self._progress.totals, current, strict=True))

    @property
    def flags(self) -> tuple[Flag, ...]:
        return self._progress.flags

    @property
    def outcome(self) -> Outcome | None:
        return self._progress.outcome

    @property
    def is_over(self) -> bool:
        return self._progress.outcome is not None

    @property
    def winner(self) -> int | None:
        outcome = self._progress.outcome
        return outcome.winner if outcome else None

    @property
    def events_applied(self) -> int:
        return self._events

    def describe(self, lang: str = "en") -> str:
        """The state in words, for error messages (English, or Italian for ``"it"``)."""
        if self._progress.outcome:
            outcome = self._progress.outcome
            if lang == "it":
                return (f"la partita è finita (vince {outcome.winner}, {outcome.reason} "
                        f"all'evento {outcome.event})")
            return f"the match is over (winner {outcome.winner}, {outcome.reason} at event {outcome.event})"
        return self._hand.describe(lang)

    # --- events ----------------------------------------------------------------------------------------

    def apply(self, event: Event) -> MatchState:
        """The state after ``event``; raises ``IllegalEventError`` if it cannot happen now."""
        return _apply(self._rules, self._hand, self._progress, self._events, event)

    def apply_all(self, events: Iterable[Event], *, lenient: bool = False) -> MatchState:
        """Fold ``events`` in order, as ``apply`` would one by one; with ``lenient`` an impossible event is
        left out and flagged (``skip``) instead of raising."""
        rules, hand, progress, count = self._rules, self._hand, self._progress, self._events
        seats = rules.seats
        tricks_per_hand = 40 // seats
        # The common case, a numbered play in a match decided at the end of a hand, skips _step's dispatch
        # (same calls, in the same order: this is the fold's hot loop).
        plain = rules.win == "end_of_hand"
        for event in events:
            try:
                meta = event.meta if type(event) is Play else None
                if plain and meta is not None and meta.number is not None and progress.outcome is None:
                    by = event.by
                    if by.__class__ is not int or not 0 <= by < seats:
                        raise _no_seat(rules, hand, event, meta)
                    count = meta.number
                    hand, flags = play(rules, hand, event.card, by, count, meta)
                    if flags:
                        progress = progress._replace(flags=progress.flags + flags)
                    if len(hand.tricks) == tricks_per_hand:
                        hand, progress = _finish_hand(rules, hand, progress, count)
                else:
                    rules, hand, progress, count = _step(rules, hand, progress, count, event)
            except TressetteError as error:
                if not lenient:
                    raise
                skipped = _make(rules, hand, progress, count).skip(event, error)
                progress, count = skipped._progress, skipped._events
        return _make(rules, hand, progress, count)

    def skip(self, event: Event, error: Exception) -> MatchState:
        """The state after an impossible ``event`` is left out: unchanged but for a flag saying so."""
        meta = getattr(event, "meta", NO_META)
        number = meta.number if meta.number is not None else self._events + 1
        flag = Flag(number, ILLEGAL_EVENT, getattr(event, "by", None), {"error": _message_of(error)})
        progress = self._progress._replace(flags=(*self._progress.flags, flag))
        return _make(self._rules, self._hand, progress, number)

    def __repr__(self) -> str:
        return f"MatchState({self._rules.preset}, totals={self.totals}, {self.describe()})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return (self._rules, self._hand, self._progress, self._events) == \
            (other._rules, other._hand, other._progress, other._events)

    def __hash__(self) -> int:
        return hash((self._hand.number, self._hand.played, self._events))


_set_rules = MatchState._rules.__set__  # type: ignore[attr-defined]
_set_hand = MatchState._hand.__set__  # type: ignore[attr-defined]
_set_progress = MatchState._progress.__set__  # type: ignore[attr-defined]
_set_events = MatchState._events.__set__  # type: ignore[attr-defined]
_new = object.__new__


def _make(rules: Rules, hand: Hand, progress: _Progress, events: int) -> MatchState:
    state = _new(MatchState)
    _set_rules(state, rules)
    _set_hand(state, hand)
    _set_progress(state, progress)
    _set_events(state, events)
    return state


def _apply(rules: Rules, hand: Hand, progress: _Progress, count: int, event: Event) -> MatchState:
    return _make(*_step(rules, hand, progress, count, event))


def _step(rules: Rules, hand: Hand, progress: _Progress, count: int,
          event: Event) -> tuple[Rules, Hand, _Progress, int]:
    """One event folded into the match: the next (rules, hand, progress, events applied)."""
    kind = type(event)
    if kind not in _EVENT_TYPES:
        raise IllegalEventError(Message(
            f"event {count + 1}: {event!r} is not a record event (play, accuso, draw, call or claim)",
            f"evento {count + 1}: {event!r} non è un evento della partita "
            '("play", "accuso", "draw", "call" o "claim")'))
    meta = event.meta
    number = meta.number if meta.number is not None else count + 1
    where: Meta | int = meta if meta.number is not None or meta.line is not None else number
    if progress.outcome is not None:
        state = _make(rules, hand, progress, count)
        raise IllegalEventError(joined(place_words(where), _event_words(event),
                                       Message(state.describe("en"), state.describe("it"))))
    if kind is Play:
        by = event.by  # type: ignore[union-attr]
        if by.__class__ is not int or not 0 <= by < rules.seats:
            raise _no_seat(rules, hand, event, where)
        hand, flags = play(rules, hand, event.card, by, number, where)  # type: ignore[union-attr]
    elif kind is Claim:
        return _claim(rules, hand, progress, count, event.side, number, where)  # type: ignore[union-attr]
    else:
        by = getattr(event, "by", None)
        if by.__class__ is not int or not 0 <= by < rules.seats:  # type: ignore[operator]
            raise _no_seat(rules, hand, event, where)
        if kind is Draw:
            hand, flags = draw(rules, hand, event.card, by, number, where)  # type: ignore[union-attr]
        elif kind is Accuso:
            hand, flags = declare(rules, hand, tuple(event.cards), by, number, where)  # type: ignore[union-attr]
        else:
            hand, flags = call(rules, hand, event.suit, by, where), ()  # type: ignore[union-attr]
    if flags:
        progress = progress._replace(flags=progress.flags + flags)
    if len(hand.tricks) == 40 // rules.seats:
        hand, progress = _finish_hand(rules, hand, progress, number)
    elif rules.win == "immediate" and (not hand.trick or kind is Accuso or rules.accuso == "mandatory"):
        outcome = _immediate(rules, hand, progress, number)
        if outcome is not None:
            progress = progress._replace(outcome=outcome)
    return rules, hand, progress, number


_EVENT_TYPES = (Play, Accuso, Draw, Call, Claim)


def _message_of(error: Exception) -> Message:
    """An error's message in both languages (English twice where it has no Italian)."""
    return error.message if isinstance(error, TressetteError) else Message(str(error), str(error))


def _no_seat(rules: Rules, hand: Hand, event: Event, where: Meta | int) -> IllegalEventError:
    seat = getattr(event, "by", None)
    last = rules.seats - 1
    why = Message(f"no seat {seat!r} (seats 0..{last}) ({hand.describe('en')})",
                  f"non c'è il posto {seat!r} (posti 0..{last}) ({hand.describe('it')})")
    return IllegalEventError(joined(place_words(where), _event_words(event), why))


def _zeros(rules: Rules) -> tuple[int, ...]:
    per_seat = rules.scoring != "points"
    return (0,) * (rules.seats if per_seat else len(rules.sides))


def _claim(rules: Rules, hand: Hand, progress: _Progress, count: int, side: int, number: int,
           where: Meta | int) -> tuple[Rules, Hand, _Progress, int]:
    """A side claims the target with what it holds: right, it wins; wrong, it loses (and is flagged)."""
    if not rules.claim:
        why = Message(f"claims are not allowed in this match (option claim = false) ({hand.describe('en')})",
                      "in questa partita non ci si chiama fuori (opzione claim = false) "
                      f"({hand.describe('it')})")
        raise IllegalEventError(joined(place_words(where), event_words("claim", side), why))
    if side.__class__ is not int or side not in (0, 1):
        raise IllegalEventError(joined(place_words(where), event_words("claim", repr(side)),
                                       Message(f"no side {side!r} (sides 0 and 1)",
                                               f"non c'è il lato {side!r} (lati 0 e 1)")))
    total = _make(rules, hand, progress, count).live_totals()[side]
    if total >= rules.target:
        outcome = Outcome(side, None, 1, "claim", number)
    else:
        outcome = Outcome(1 - side, None, 1, "wrong_claim", number)
        flag = Flag(number, WRONG_CLAIM, side, {"side": side, "total": total, "target": rules.target})
        progress = progress._replace(flags=(*progress.flags, flag))
    return rules, hand, progress._replace(outcome=outcome), number


def _first_player(rules: Rules, dealer: int) -> int:
    """The seat after the dealer (in morto, the first seat after the dealer that is not the dummy)."""
    seat = (dealer + 1) % rules.seats
    if rules.dummy is not None and seat == rules.dummy:
        seat = (seat + 1) % rules.seats
    return seat


def _next_dealer(rules: Rules, dealer: int) -> int:
    return _first_player(rules, dealer)


def _finish_hand(rules: Rules, hand: Hand, progress: _Progress, number: int) -> tuple[Hand, _Progress]:
    """Score the finished hand, add it to the totals, settle the match or deal the next hand."""
    result = score_hand(rules, hand)
    totals = tuple([a + b for a, b in zip(progress.totals, result.points, strict=True)])
    outcome = progress.outcome
    if outcome is None:
        outcome = _outcome_after_hand(rules, result, totals, number)
    progress = _Progress((*progress.hands, result), totals, progress.flags, outcome)
    dealer = _next_dealer(rules, hand.dealer)
    return new_hand(rules, hand.number + 1, dealer, _first_player(rules, dealer)), progress


def _outcome_after_hand(rules: Rules, result: HandResult, totals: tuple[int, ...],
                        number: int) -> Outcome | None:
    if rules.cappotto == "match":
        side = is_all_points(result)
        if side is not None:
            return Outcome(side, None, 1, "cappotto", number)
    if rules.cappotto == "games" and result.cappotto is not None:
        return Outcome(result.cappotto.side, None, result.cappotto.games, result.cappotto.kind, number)
    return target_outcome(rules, totals, number)


def target_outcome(rules: Rules, totals: tuple[int, ...], number: int) -> Outcome | None:
    """Who the totals settle the match for: among those at the target or past it the highest wins
    (avoiding points: the highest loses, the lowest of all wins); a tie at the top settles nothing."""
    reached = [index for index, total in enumerate(totals) if total >= rules.target]
    if not reached:
        return None
    top = max(totals[index] for index in reached)
    leaders = [index for index in reached if totals[index] == top]
    if len(leaders) > 1:
        return None
    if rules.scoring == "avoid":
        low = min(totals)
        lowest = [index for index, total in enumerate(totals) if total == low]
        return Outcome(lowest[0] if len(lowest) == 1 else None, leaders[0], 1, "target", number)
    return Outcome(leaders[0], None, 1, "target", number)


def _immediate(rules: Rules, hand: Hand, progress: _Progress, number: int) -> Outcome | None:
    """``win = immediate``: the match total plus what this hand holds so far reaches the target."""
    if rules.scoring == "hands":
        return None
    current = score_hand(rules, hand).points
    live = tuple(a + b for a, b in zip(progress.totals, current, strict=True))
    return target_outcome(rules, live, number)


def _event_words(event: Event) -> Message:
    if isinstance(event, Play | Draw):
        return event_words(type(event).__name__.lower(), event.card.code, event.by)
    if isinstance(event, Accuso):
        return event_words("accuso", " ".join(card.code for card in event.cards), event.by)
    if isinstance(event, Call):
        return event_words("call", event.suit, event.by)
    if isinstance(event, Claim):
        return event_words("claim", event.side)
    return Message(repr(event), repr(event))
