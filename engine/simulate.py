"""Random legal matches, for tests, demos and benchmarks: ``simulate_match(rules, rng)``.

The simulator deals real hands from a shuffled deck and keeps each seat's cards apart: a simulated
player sees only its own hand and asks the match state which of its cards it may play, then plays
one at random. Everything the record needs is written as it would be at a table: ``draw`` events
with drawing (``due``), the ``call`` of chiamata del tre, ``accuso`` events when accusi are
``declared`` (each seat declares what it holds, in its window), the occasional ``claim`` where
claims are allowed, and ``t`` timestamps that move like a real game.

Deterministic: the same rules, players, dealer and seed give the same record. All randomness comes
from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.accusi import Combo, combos_in, declared_combos, new_combos
from engine.cards import DECK, SUITS, Card
from engine.declare import is_in_window
from engine.errors import Message, TressetteError
from engine.events import Accuso, Call, Claim, Draw, Event, Meta, Play
from engine.hand import SECOND_DEAL_TRICK
from engine.record import Header, Record
from engine.rules import PRESETS, Rules
from engine.state import MatchState

PLAYER_NAMES: tuple[str, ...] = ("Anna", "Bruno", "Carla", "Dario", "Elena")
DUMMY_NAME = "Morto"
FOUR_OF_DENARI = Card(4, "d")
DEFAULT_MAX_EVENTS = 100_000

# Seconds a table takes, as (shortest, longest): drawn uniformly.
_SHUFFLE_AND_DEAL = (25.0, 45.0)
_THINK_AND_PLAY = (1.5, 6.0)
_GATHER_TRICK = (2.0, 4.0)
_DRAW = (1.0, 2.5)
_CALL = (3.0, 8.0)
_DECLARE = (2.0, 5.0)
_CLAIM_CHANCE = 0.6  # a side at the target claims at the end of a trick
_WRONG_CLAIM_CHANCE = 0.03  # a side one point short claims anyway


class SimulationError(TressetteError):
    """The simulation could not finish a match (more events than ``max_events``)."""


@dataclass(slots=True)
class _SeatView:
    """One simulated player: its own cards and the accusi it has declared this hand. Nothing else."""

    seat: int
    cards: list[Card] = field(default_factory=list)
    declared: list[Combo] = field(default_factory=list)


@dataclass(slots=True)
class _Deal:
    """The dealer's side of a hand: the stock still to draw and the second deal still to hand out."""

    stock: list[Card]
    second_deal: list[list[Card]]


@dataclass(slots=True)
class _Clock:
    """Seconds since the header, moving by random amounts the way a table does."""

    rng: random.Random
    now: float = 0.0

    def advance(self, span: tuple[float, float]) -> Meta:
        self.now += self.rng.uniform(*span)
        return Meta(t=round(self.now, 1))


def default_players(rules: Rules) -> tuple[str, ...]:
    """Italian names for the seats; in morto the dummy's seat is called "Morto"."""
    names = list(PLAYER_NAMES[: rules.seats])
    if rules.dummy is not None:
        names[rules.dummy] = DUMMY_NAME
    return tuple(names)


def default_dealer(rules: Rules) -> int:
    """The last seat deals first, as RECORD.md's default; in morto the last seat that is not the dummy
    (the dummy never deals)."""
    seat = rules.seats - 1
    return seat - 1 if seat == rules.dummy else seat


def rules_mapping(rules: Rules) -> dict[str, object]:
    """The shortest header ``rules`` object that means these rules: the preset and what differs from it."""
    preset = PRESETS[rules.preset].to_mapping()
    full = rules.to_mapping()
    short: dict[str, object] = {"preset": rules.preset}
    short.update({key: value for key, value in full.items() if key != "preset" and preset[key] != value})
    return short if Rules.from_mapping(short) == rules else full


def simulate_match(rules: Rules, rng: random.Random, players: Sequence[str] | None = None,
                   dealer: int | None = None, *, max_events: int = DEFAULT_MAX_EVENTS) -> Record:
    """A whole random legal match under ``rules``, as a record (header + events with ``t``)."""
    names = tuple(players) if players is not None else default_players(rules)
    header = Header.create(rules_mapping(rules), names, default_dealer(rules) if dealer is None else dealer)
    state = MatchState.start(rules, header.seats, header.dealer)
    clock = _Clock(rng)
    events: list[Event] = []
    while not state.is_over:
        hand_number = state.hand_number
        views, deal = _deal(rules, rng)
        clock.advance(_SHUFFLE_AND_DEAL)
        while state.hand_number == hand_number and not state.is_over:
            if len(events) >= max_events:
                totals = ", ".join(map(str, state.totals))
                raise SimulationError(Message(
                    f"no winner after {max_events} events (totals {totals}, target {rules.target}); "
                    "lower the target (or raise max_events)",
                    f"nessun vincitore dopo {max_events} eventi (punteggio {totals}, "
                    f"si gioca a {rules.target}); abbassate il punteggio da raggiungere (target)"))
            event = _next_event(state, views, deal, rng, clock)
            state = state.apply(event)
            events.append(event)
    return Record.from_events(header, events)


def _deal(rules: Rules, rng: random.Random) -> tuple[list[_SeatView], _Deal]:
    """Shuffle and deal: each seat's cards; with drawing the rest is the stock; with two deals the rest
    is the second deal, handed out after trick 10."""
    deck = list(DECK)
    rng.shuffle(deck)
    size = rules.cards_per_deal
    views = [_SeatView(seat, deck[seat * size:(seat + 1) * size]) for seat in range(rules.seats)]
    rest = deck[rules.seats * size:]
    if rules.drawing:
        return views, _Deal(stock=rest, second_deal=[])
    second = [rest[seat * size:(seat + 1) * size] for seat in range(rules.seats)] if rest else []
    return views, _Deal(stock=[], second_deal=second)


def _next_event(state: MatchState, views: list[_SeatView], deal: _Deal, rng: random.Random,
                clock: _Clock) -> Event:
    """What happens next at the table: a call, a draw, a declaration, a claim or a play."""
    rules = state.rules
    if state.call_due is not None:
        return _call(views[state.call_due], rng, clock)
    if state.draw_due is not None:
        seat = state.draw_due
        card = deal.stock.pop(0)
        views[seat].cards.append(card)
        return Draw(card, seat, clock.advance(_DRAW))
    hand = state.hand
    if deal.second_deal and len(hand.tricks) == SECOND_DEAL_TRICK and not hand.trick:
        for view, cards in zip(views, deal.second_deal, strict=True):
            view.cards.extend(cards)
            view.declared.clear()
        deal.second_deal = []
    if rules.claim and not hand.trick:
        claim = _claim(state, rng, clock)
        if claim is not None:
            return claim
    seat = state.to_play
    if seat is None:
        seat = next(view.seat for view in views if FOUR_OF_DENARI in view.cards)
    if rules.accuso == "declared":
        accuso = _declaration(state, views[seat], clock)
        if accuso is not None:
            return accuso
    return _play(state, views[seat], rng, clock)


def _play(state: MatchState, view: _SeatView, rng: random.Random, clock: _Clock) -> Play:
    legal = state.legal_plays(view.seat, tuple(view.cards))
    if not legal:
        raise SimulationError(f"seat {view.seat} holds {[c.code for c in view.cards]} but may play none "
                              f"({state!r})")
    card = rng.choice(legal)
    view.cards.remove(card)
    meta = clock.advance(_THINK_AND_PLAY)
    if len(state.current_trick) == state.seats - 1:
        clock.advance(_GATHER_TRICK)
    return Play(card, view.seat, meta)


def _call(view: _SeatView, rng: random.Random, clock: _Clock) -> Call:
    """Chiamata del tre: name a suit whose 3 the caller lacks (any suit if it holds all four)."""
    lacking = [suit for suit in SUITS if Card(3, suit) not in view.cards]
    return Call(rng.choice(lacking or list(SUITS)), view.seat, clock.advance(_CALL))


def _declaration(state: MatchState, view: _SeatView, clock: _Clock) -> Accuso | None:
    """The combinations the seat holds and has not declared yet, if it may declare now."""
    rules = state.rules
    if not is_in_window(rules, state.hand, view.seat):
        return None
    fresh = new_combos(combos_in(view.cards, rules.four_of_a_kind), view.declared)
    if not fresh:
        return None
    cards = tuple(dict.fromkeys(card for combo in fresh for card in combo.cards))
    declared = declared_combos(cards, rules.four_of_a_kind) or ()
    view.declared.extend(declared)
    return Accuso(cards, view.seat, clock.advance(_DECLARE))


def _claim(state: MatchState, rng: random.Random, clock: _Clock) -> Claim | None:
    """Between tricks, a side at the target sometimes claims it; rarely a side one point short does too."""
    target = state.rules.target
    for side, total in enumerate(state.live_totals()):
        chance = _CLAIM_CHANCE if total >= target else _WRONG_CLAIM_CHANCE if total == target - 1 else 0.0
        if chance and rng.random() < chance:
            return Claim(side, clock.advance(_DECLARE))
    return None
