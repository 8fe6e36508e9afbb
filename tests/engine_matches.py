"""Helpers for the engine tests: random legal matches dealt from a seeded ``random.Random``, and
playing hand-written card sequences in turn order."""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.accusi import combos_in
from engine.cards import DECK, SUITS, Card, parse_card
from engine.events import Accuso, Call, Draw, Event, Meta, Play
from engine.rules import Rules
from engine.state import MatchState

FOUR_DENARI = parse_card("4d")


def deal(rules: Rules, rng: random.Random) -> tuple[dict[int, list[Card]], list[Card]]:
    """Shuffle and deal: each seat's cards, and the rest (stock, or the second deal)."""
    deck = list(DECK)
    rng.shuffle(deck)
    size = rules.cards_per_deal
    hands = {seat: deck[seat * size:(seat + 1) * size] for seat in range(rules.seats)}
    return hands, deck[rules.seats * size:]


def random_match(rules: Rules, rng: random.Random, *, dealer: int | None = None,
                 max_hands: int = 40) -> tuple[list[Event], MatchState, list[dict[int, list[Card]]]]:
    """Play random legal cards until the match ends (or ``max_hands``): the events, the final state, and
    each hand's full holdings per seat (dealt plus drawn / second deal)."""
    state = MatchState.start(rules, rules.seats, rules.seats - 1 if dealer is None else dealer)
    events: list[Event] = []
    holdings: list[dict[int, list[Card]]] = []
    hands: dict[int, list[Card]] = {}
    rest: list[Card] = []
    current = -1
    declared: set[int] = set()
    while not state.is_over and state.hand_number < max_hands:
        if state.hand_number != current:
            current = state.hand_number
            hands, rest = deal(rules, rng)
            holdings.append({seat: list(cards) for seat, cards in hands.items()})
            declared = set()
        event = _declaration(rules, state, hands, declared) or \
            _next_event(rules, state, rng, hands, rest, holdings[-1])
        event = _numbered(event, len(events) + 1)
        events.append(event)
        state = state.apply(event)
    return events, state, holdings


def _declaration(rules: Rules, state: MatchState, hands: dict[int, list[Card]],
                 declared: set[int]) -> Event | None:
    """With declared accusi, each seat declares every combination it was dealt just before its first play."""
    seat = state.to_play
    if rules.accuso != "declared" or seat is None or seat in declared or state.hand.tricks:
        return None
    declared.add(seat)
    combos = combos_in(hands[seat], rules.four_of_a_kind)
    if not combos:
        return None
    cards = tuple(dict.fromkeys(card for combo in combos for card in combo.cards))
    return Accuso(cards, seat)


def _next_event(rules: Rules, state: MatchState, rng: random.Random, hands: dict[int, list[Card]],
                rest: list[Card], holding: dict[int, list[Card]]) -> Event:
    if state.call_due is not None:
        return Call(rng.choice(SUITS), state.call_due)
    if state.draw_due is not None:
        card = rest.pop(0)
        hands[state.draw_due].append(card)
        holding[state.draw_due].append(card)
        return Draw(card, state.draw_due)
    seat = state.to_play
    if seat is None:
        seat = next(s for s, cards in hands.items() if FOUR_DENARI in cards)
    if not hands[seat] and rest:  # two players without drawing: the second deal
        for s in range(rules.seats):
            hands[s] = rest[s * 10:(s + 1) * 10]
            holding[s].extend(hands[s])
        del rest[:]
    card = rng.choice(state.legal_plays(seat, hands[seat]))
    hands[seat].remove(card)
    return Play(card, seat)


def _numbered(event: Event, number: int) -> Event:
    kind = type(event)
    values = {name: getattr(event, name) for name in kind.__dataclass_fields__ if name != "meta"}
    return kind(**values, meta=Meta(number=number))  # type: ignore[arg-type]


def play_cards(state: MatchState, codes: str | Iterable[str]) -> MatchState:
    """Play these cards, each by the seat whose turn it is (a hand-written line of tricks)."""
    if isinstance(codes, str):
        codes = codes.split()
    for code in codes:
        if code == "|":
            continue
        seat = state.to_play
        if seat is None:
            raise AssertionError(f"nobody is to play before {code}: {state.describe()}")
        state = state.apply(Play(parse_card(code), seat))
    return state
