"""The match state: turns, following suit, trick winners, hands, points, immutability, illegal events."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_card
from engine.errors import IllegalEventError, RuleError
from engine.events import Draw, Meta, Play
from engine.rules import PRESETS, Rules
from engine.state import MatchState
from tests.engine_matches import play_cards, random_match

CLASSIC = PRESETS["classic"]


def c(code: str) -> Card:
    return parse_card(code)


def fresh(rules: Rules = CLASSIC, dealer: int = 3) -> MatchState:
    return MatchState.start(rules, rules.seats, dealer)


def one_suit_each_deal() -> str:
    """Seat 0 holds all coppe, 1 denari, 2 spade, 3 bastoni: seat 0 leads and takes every trick."""
    tricks = []
    for rank in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
        tricks.append(f"{rank}c {rank}d {rank}s {rank}b")
    return " | ".join(tricks)


def test_first_lead_is_the_seat_after_the_dealer_and_turns_follow_seat_order() -> None:
    state = fresh(dealer=3)
    assert state.to_play == 0
    state = state.apply(Play(c("5b"), 0))
    assert state.to_play == 1
    assert fresh(dealer=1).to_play == 2


def test_only_the_suit_led_takes_highest_by_three_two_asso() -> None:
    state = play_cards(fresh(), "5b 1b 9b 4b")
    trick = state.hand.tricks[0]
    assert trick.winner == 1 and trick.leader == 0
    assert state.to_play == 1  # the winner leads next
    state = play_cards(state, "7c 3d 2d 1d")  # nobody follows coppe: the leader takes
    assert state.hand.tricks[1].winner == 1
    state = play_cards(state, "2s 3s 1s 10s")
    assert state.hand.tricks[2].winner == 2


def test_trick_thirds_asso_three_figures_and_twos_one_third_scartine_nothing() -> None:
    state = play_cards(fresh(), "1b 2b 10b 4b")
    assert state.hand.tricks[0].thirds == 3 + 1 + 1 + 0


def test_a_hand_ends_with_its_last_card_and_the_deal_passes_on() -> None:
    state = play_cards(fresh(dealer=3), one_suit_each_deal())
    assert state.hand_number == 1
    assert state.dealer == 0 and state.to_play == 1
    result = state.hands[0]
    assert result.complete
    assert result.card_thirds == (32, 0)
    assert result.card_points == (11, 0)
    assert result.last_trick == 0
    assert state.totals == (11, 0)


def test_cappotto_is_always_announced() -> None:
    state = play_cards(fresh(), one_suit_each_deal())
    cappotto = state.hands[0].cappotto
    assert cappotto is not None and cappotto.kind == "cappottone" and cappotto.seat == 0
    assert not state.is_over  # cappotto = none: announced only


def test_apply_never_mutates_and_equal_folds_are_equal() -> None:
    start = fresh()
    after = start.apply(Play(c("5b"), 0))
    assert start.current_trick == () and start.to_play == 0
    assert after.current_trick == (c("5b"),)
    assert after == fresh().apply(Play(c("5b"), 0))
    with pytest.raises(AttributeError):
        start._hand = after._hand  # type: ignore[misc]


@pytest.mark.parametrize(("codes", "event", "words"), [
    ("", Play(c("3c"), 2), "seat 0's turn"),
    ("5b", Play(c("5b"), 1), "already played"),
    ("", Play(c("3c"), 7), "no seat 7"),
    ("", Draw(c("3c"), 0), "no draw is due"),
])
def test_impossible_events_raise_naming_the_event_and_the_state(codes: str, event: Play | Draw,
                                                                 words: str) -> None:
    state = play_cards(fresh(), codes)
    numbered = type(event)(event.card, event.by, meta=Meta(number=12, line=13))
    with pytest.raises(IllegalEventError) as caught:
        state.apply(numbered)
    message = str(caught.value)
    assert "event 12 (line 13)" in message
    assert event.card.code in message
    assert words in message
    assert "hand 1, trick 1" in message


def test_start_refuses_a_dealer_or_seat_count_that_does_not_fit() -> None:
    with pytest.raises(RuleError, match="dealer"):
        MatchState.start(CLASSIC, 4, 4)
    with pytest.raises(RuleError, match="5 players"):
        MatchState.start(CLASSIC, 5, 0)


def test_legal_plays_follow_suit_when_able() -> None:
    state = play_cards(fresh(), "5b")
    hand = [c("3c"), c("7b"), c("1b")]
    assert state.legal_plays(1, hand) == (c("1b"), c("7b"))
    assert state.legal_plays(1, [c("3c"), c("2d")]) == (c("3c"), c("2d"))
    assert state.legal_plays(2, hand) == ()  # not seat 2's turn
    assert c("5b") not in state.legal_plays(1)
    assert len(state.unseen_cards()) == 39


def test_a_random_classic_match_ends_at_the_target() -> None:
    _events, state, _holdings = random_match(CLASSIC, random.Random(7))
    assert state.is_over
    assert max(state.totals) >= 21
    assert state.winner == state.totals.index(max(state.totals))


def test_something_that_is_not_a_card_is_refused() -> None:
    with pytest.raises(IllegalEventError, match="'3c' is not a card"):
        fresh().apply(Play("3c", 0))  # type: ignore[arg-type]
    with pytest.raises(IllegalEventError, match="no seat True"):
        fresh().apply(Play(c("3c"), True))


def test_known_voids_are_the_suits_a_seat_did_not_follow() -> None:
    state = play_cards(fresh(), "5b 3c 6b 1d")
    assert state.known_voids() == {0: frozenset(), 1: frozenset({"b"}), 2: frozenset(), 3: frozenset({"b"})}


def test_a_claim_for_no_side_and_a_non_event_are_refused() -> None:
    from engine.events import Claim

    fitres = PRESETS["fitres"]
    with pytest.raises(IllegalEventError, match="no side 2"):
        fresh(fitres).apply(Claim(2))
    with pytest.raises(IllegalEventError, match="is not a record event"):
        fresh().apply("play 3c")  # type: ignore[arg-type]
    from engine.score import score_events

    report = score_events(CLASSIC, 4, 3, ["nonsense", Play(c("3c"), 0)], lenient=True)  # type: ignore[list-item]
    assert report.flags[0].kind == "illegal_event" and report.hands[0].open_trick == (0, ("3c",))
