"""The variants of RULES.md: two players (drawing, two deals), morto, chiamata, cinque, traversone,
first lead by the Quattro di denari, and the table's direction."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_card
from engine.errors import IllegalEventError
from engine.events import Call, Draw, Play
from engine.flags import FOUR_OF_DENARI
from engine.rules import PRESETS, Rules
from engine.scoring import hand_points
from engine.state import MatchState, target_outcome
from tests.engine_matches import play_cards, random_match

ONE_SUIT_EACH = " | ".join(f"{rank}c {rank}d {rank}s {rank}b" for rank in range(1, 11))


def c(code: str) -> Card:
    return parse_card(code)


# --- two players with drawing ----------------------------------------------------------------------

def test_due_winner_draws_first_then_the_other_then_the_winner_leads() -> None:
    state = play_cards(MatchState.start(PRESETS["due"], 2, 1), "4c 5c")
    assert state.draw_due == 1 and state.to_play is None
    with pytest.raises(IllegalEventError, match="seat 1 draws first"):
        state.apply(Draw(c("6c"), 0))
    with pytest.raises(IllegalEventError, match="seat 1 must draw first"):
        state.apply(Play(c("6c"), 1))
    state = state.apply(Draw(c("6c"), 1))
    assert state.draw_due == 0
    state = state.apply(Draw(c("7c"), 0))
    assert state.draw_due is None and state.to_play == 1
    assert c("7c") not in state.unseen_cards()
    with pytest.raises(IllegalEventError, match="7c was drawn by seat 0"):
        state.apply(Play(c("7c"), 1))
    with pytest.raises(IllegalEventError, match="already drawn"):
        play_cards(state, "8c 9c").apply(Draw(c("7c"), 0))


def test_due_plays_twenty_tricks_with_ten_rounds_of_draws() -> None:
    events, state, _holdings = random_match(PRESETS["due"], random.Random(5), max_hands=1)
    hand = state.hands[0]
    assert len(hand.tricks) == 20
    assert sum(isinstance(event, Draw) for event in events[:60]) == 20
    assert sum(hand.card_points) == 11 and hand.last_trick == hand.tricks[-1].winner


def test_due_senza_is_one_hand_of_twenty_tricks_from_two_deals() -> None:
    _events, state, holdings = random_match(PRESETS["due-senza"], random.Random(6), max_hands=1)
    hand = state.hands[0]
    assert len(hand.tricks) == 20 and sum(hand.card_points) == 11
    assert all(len(cards) == 20 for cards in holdings[0].values())


# --- morto --------------------------------------------------------------------------------------------

def test_morto_first_player_plays_with_the_dummy_and_the_deal_skips_the_dummy() -> None:
    rules = PRESETS["morto"]  # dummy: seat 3
    _events, state, _holdings = random_match(rules, random.Random(8), max_hands=4)
    dealers = [hand.dealer for hand in state.hands]
    firsts = [hand.tricks[0].leader for hand in state.hands]
    assert dealers == [3, 0, 1, 2] and firsts == [0, 1, 2, 0]
    for hand in state.hands:
        assert hand.sides[0] == (hand.tricks[0].leader, 3)
        partner = hand.sides[0][0]
        assert hand.points[3] == 0
        won = hand.card_points[0] + hand.accusi_points[0] > hand.card_points[1] + hand.accusi_points[1]
        assert hand.points[partner] == (2 if won else -2)
        assert all(hand.points[seat] == (-1 if won else 1) for seat in hand.sides[1])


# --- chiamata del tre ---------------------------------------------------------------------------------

def test_chiamata_the_first_player_calls_before_the_first_lead() -> None:
    state = MatchState.start(PRESETS["chiamata"], 4, 3)
    assert state.call_due == 0 and state.to_play is None
    with pytest.raises(IllegalEventError, match="seat 0 must call a suit first"):
        state.apply(Play(c("5b"), 0))
    with pytest.raises(IllegalEventError, match="seat 0 calls"):
        state.apply(Call("c", 1))
    with pytest.raises(IllegalEventError, match="not a suit"):
        state.apply(Call("x", 0))
    called = state.apply(Call("c", 0))
    assert called.to_play == 0 and called.call_due is None
    with pytest.raises(IllegalEventError, match="already called"):
        called.apply(Call("d", 0))
    with pytest.raises(IllegalEventError, match="no call in this game"):
        MatchState.start(PRESETS["classic"], 4, 3).apply(Call("c", 0))


def test_chiamata_the_holder_of_the_called_three_is_the_partner() -> None:
    state = MatchState.start(PRESETS["chiamata"], 4, 3).apply(Call("s", 0))
    state = play_cards(state, ONE_SUIT_EACH)  # seat 2 plays the 3 di spade
    hand = state.hands[0]
    assert hand.sides == ((0, 2), (1, 3)) and hand.call == "s"
    assert hand.points == (1, -1, 1, -1)
    alone = play_cards(MatchState.start(PRESETS["chiamata"], 4, 3).apply(Call("c", 0)), ONE_SUIT_EACH)
    assert alone.hands[0].sides == ((0,), (1, 2, 3))  # the caller held the 3 itself
    assert alone.hands[0].points == (1, -1, -1, -1)


# --- five players ---------------------------------------------------------------------------------------

def test_cinque_is_eight_tricks_between_sides_of_two_and_three() -> None:
    _events, state, holdings = random_match(PRESETS["cinque"], random.Random(4), max_hands=2)
    for hand in state.hands:
        assert len(hand.tricks) == 8 and hand.sides == ((0, 2), (1, 3, 4))
        assert sum(hand.card_points) == 11
    assert all(len(cards) == 8 for cards in holdings[0].values())


# --- traversone ----------------------------------------------------------------------------------------

def test_traversone_each_scores_points_taken_and_all_eleven_turns_around() -> None:
    state = play_cards(MatchState.start(PRESETS["traversone"], 4, 3), ONE_SUIT_EACH)
    assert state.hands[0].points == (0, 11, 11, 11)
    assert state.hands[0].cappotto is None and not state.hands[0].accusi


def test_traversone_the_first_to_the_target_loses_the_lowest_wins() -> None:
    rules = PRESETS["traversone"]
    outcome = target_outcome(rules, (5, 21, 30, 2), 40)
    assert outcome is not None and (outcome.loser, outcome.winner) == (2, 3)
    tied_low = target_outcome(rules, (22, 11, 11, 11), 40)
    assert tied_low is not None and (tied_low.loser, tied_low.winner) == (0, None)
    assert target_outcome(rules, (22, 22, 1, 0), 40) is None  # a tie at the top plays on
    _events, state, _holdings = random_match(rules, random.Random(2))
    assert state.is_over and state.outcome.loser == state.totals.index(max(state.totals))  # type: ignore[union-attr]


# --- first lead by the Quattro di denari ------------------------------------------------------------------

def test_four_of_denari_any_seat_leads_the_first_hand_and_a_wrong_one_is_flagged() -> None:
    rules = Rules.from_mapping({"first_lead": "four_of_denari"})
    state = MatchState.start(rules, 4, 3)
    assert state.to_play is None and len(state.legal_plays(2)) == 40
    good = play_cards(state.apply(Play(c("4d"), 2)), "5d 6d 7d")
    assert not good.flags
    wrong = play_cards(state.apply(Play(c("5d"), 2)), "4d")
    assert (wrong.flags[0].kind, wrong.flags[0].by) == (FOUR_OF_DENARI, 3)
    assert "Quattro di denari" in wrong.flags[0].message()
    second = play_cards(MatchState.start(rules, 4, 3).apply(Play(c("1c"), 1)),
                        [code for code in ONE_SUIT_EACH.split() if code not in ("|", "1c")][:39])
    assert second.hand_number == 1 and second.to_play == 1  # later hands: the seat after the dealer


def test_direction_only_describes_the_table() -> None:
    clockwise = Rules.from_mapping({"direction": "clockwise"})
    events, state, _holdings = random_match(PRESETS["classic"], random.Random(9), max_hands=2)
    other = MatchState.start(clockwise, 4, 3).apply_all(events)
    assert other.totals == state.totals and other.hands == state.hands


def test_morto_hand_won_by_the_dummy_side_scores_two_and_minus_one() -> None:
    state = play_cards(MatchState.start(PRESETS["morto"], 4, 3), ONE_SUIT_EACH)  # seat 0 takes every trick
    hand = state.hands[0]
    assert hand.sides == ((0, 3), (1, 2)) and hand.card_points == (11, 0)
    assert hand.points == (2, -1, -1, 0) and state.totals == (2, -1, -1, 0)
    assert state.dealer == 0 and state.to_play == 1  # next hand: seat 1 plays with the dummy


def test_hands_scoring_tie_scores_nothing() -> None:
    rules = PRESETS["chiamata"]
    assert hand_points(rules, ((0, 2), (1, 3)), (4, 7), (3, 0), True, None) == (0, 0, 0, 0)


def test_traversone_immediate_loses_mid_hand() -> None:
    rules = Rules.from_mapping({"preset": "traversone", "target": 3, "win": "immediate"})
    state = play_cards(MatchState.start(rules, 4, 3), "1c 1d 1s 1b")
    assert state.is_over and state.outcome is not None and state.outcome.loser == 0
    assert state.winner is None  # the other three are tied at 0


def test_a_draw_of_something_that_is_not_a_card_is_refused() -> None:
    state = play_cards(MatchState.start(PRESETS["due"], 2, 1), "4c 5c")
    with pytest.raises(IllegalEventError, match="'6c' is not a card"):
        state.apply(Draw("6c", 1))  # type: ignore[arg-type]
