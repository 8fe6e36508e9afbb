"""Properties over many random legal matches per preset (dealt from a seeded ``random.Random``, random legal
cards played): every hand plays each card once, a two-sided hand hands out exactly 11 points, the totals are
the sum of the hands, mandatory accusi are those of the cards dealt, ``apply`` never mutates, and an
impossible event raises naming itself. The default run is small; the ``slow`` run is large."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.accusi import combos_in
from engine.cards import DECK
from engine.errors import IllegalEventError
from engine.events import Meta, Play
from engine.rules import PRESETS, Rules
from engine.score import score_events
from engine.state import MatchState
from tests.engine_matches import random_match

ACCUSO_DECLARED = Rules.from_mapping({"preset": "accuso", "accuso": "declared"})
VARIANTS = sorted(PRESETS)


def check_match(rules: Rules, seed: int, max_hands: int) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(rules.seats)
    if rules.dummy == dealer:
        dealer = (dealer + 1) % rules.seats
    events, state, holdings = random_match(rules, rng, dealer=dealer, max_hands=max_hands)
    assert not state.flags  # legal play: no renounce, no false accuso, nothing to flag
    for hand in state.hands:
        cards = [card for trick in hand.tricks for card in trick.cards]
        assert sorted(cards, key=DECK.index) == list(DECK)  # each card played exactly once
        assert len(hand.tricks) == rules.tricks_per_hand
        assert sum(hand.card_thirds) == 32
        if len(hand.sides) == 2 or rules.last_trick == "third":
            assert sum(hand.card_points) == 11
        for trick in hand.tricks:
            assert trick.thirds == sum(card.thirds for card in trick.cards)
    assert state.totals == tuple(map(sum, zip(*(hand.points for hand in state.hands), strict=True))) \
        if state.hands else True
    if rules.accuso != "off":
        for hand, holding in zip(state.hands, holdings, strict=False):
            for seat in range(rules.seats):
                dealt = holding[seat][:rules.cards_per_deal]
                expected = sorted(combo.points for combo in combos_in(dealt, rules.four_of_a_kind))
                got = sorted(combo.points for by, combo in hand.accusi if by == seat)
                assert got == expected
    report = score_events(rules, rules.seats, state.hands[0].dealer if state.hands else 0, events)
    data = report.to_json()
    json.dumps(data)
    per_hand = [item["points"] for item in data["hands"]]
    assert data["totals"] == [sum(values) for values in zip(*per_hand, strict=True)]
    assert data["winner"] == state.winner


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_the_invariants(name: str, seed: int) -> None:
    check_match(PRESETS[name], seed, max_hands=3)


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_many_random_whole_matches_keep_the_invariants(name: str, seed: int) -> None:
    check_match(PRESETS[name], seed, max_hands=40)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 200))
def test_apply_never_mutates_and_an_impossible_event_raises_naming_itself(name: str, seed: int,
                                                                           cut: int) -> None:
    rules = PRESETS[name]
    events, _state, _holdings = random_match(rules, random.Random(seed), max_hands=6)
    state = MatchState.start(rules, rules.seats, rules.seats - 1).apply_all(events[:cut])
    before = (state.hand, state.hands, state.totals, state.flags, state.events_applied)
    if state.is_over or not state.current_trick:
        return
    state.apply(events[cut]) if cut < len(events) else None
    assert (state.hand, state.hands, state.totals, state.flags, state.events_applied) == before
    again = Play(state.current_trick[0], state.to_play, meta=Meta(number=999, line=1000))  # type: ignore[arg-type]
    with pytest.raises(IllegalEventError) as caught:
        state.apply(again)
    assert "event 999 (line 1000)" in str(caught.value) and state.current_trick[0].code in str(caught.value)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), at=st.integers(1, 100))
def test_lenient_scoring_skips_an_impossible_event_and_loses_nothing_else(seed: int, at: int) -> None:
    rules = PRESETS["accuso"]
    events, _state, _holdings = random_match(rules, random.Random(seed), max_hands=3)
    at = min(at, len(events) - 1)
    bad = Play(DECK[0], 9, meta=Meta(number=at))  # no seat 9
    strict = score_events(rules, 4, 3, events)
    lenient = score_events(rules, 4, 3, [*events[:at], bad, *events[at:]], lenient=True)
    assert lenient.totals == strict.totals and lenient.hands == strict.hands
    (flag,) = lenient.flags
    assert flag.kind == "illegal_event" and flag.event == at and "no seat 9" in flag.message("en")
    with pytest.raises(IllegalEventError, match="no seat 9"):
        score_events(rules, 4, 3, [*events[:at], bad, *events[at:]])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_honest_declarations_count_what_was_dealt_and_raise_no_flag(seed: int) -> None:
    check_match(ACCUSO_DECLARED, seed, max_hands=3)
    _events, state, _holdings = random_match(ACCUSO_DECLARED, random.Random(seed), max_hands=3)
    assert not state.flags
