"""Hand scoring: thirds, the last trick, cappotto and its relatives, the match's end (RULES.md)."""

from __future__ import annotations

import random

import pytest

from engine.cards import DECK, parse_card
from engine.errors import IllegalEventError
from engine.events import Claim, Draw, Play
from engine.flags import RENOUNCE, WRONG_CLAIM
from engine.rules import PRESETS, Rules
from engine.scoring import card_points
from engine.state import MatchState, target_outcome
from tests.engine_matches import play_cards

CLASSIC = PRESETS["classic"]

# Side 0+2 takes all ten tricks, seat 0 one of them: a cappotto (2 games).
CAPPOTTO = ("3c 1d 10c 1b | 4s 2d 3s 2b | 1s 3b 1c 3d | 2s 4b 2c 4d | 5s 5b 4c 5d | 6s 6b 5c 6d | "
            "7s 7b 6c 7d | 8s 8b 7c 8d | 9s 9b 8c 9d | 10s 10b 9c 10d")
# Seat 0 takes every trick: cappottone (6 games).
CAPPOTTONE = " | ".join(f"{rank}c {rank}d {rank}s {rank}b" for rank in range(1, 11))
# Side 0+2 takes every card point, side 1+3 one pointless trick, seat 0 three thirds: stramazzo (3).
STRAMAZZO = ("1c 4c 5c 6c | 4b 5b 4d 4s | 6b 7b 5d 5s | 3c 2c 10c 9c | 3d 1d 2d 10d | 3s 1s 2s 10s | "
             "3b 1b 2b 10b | 9d 8d 7d 6d | 9s 8s 7s 6s | 9b 8b 8c 7c")
# Seat 2 takes every card point, seat 1 one pointless trick: stramazzone (8).
STRAMAZZONE = ("4b 5b 4d 4s | 6b 7b 5d 5s | 3c 1c 2c 10c | 3d 1d 2d 10d | 3s 1s 2s 10s | 3b 1b 2b 10b | "
               "9c 8c 7c 6c | 9d 8d 7d 6d | 9s 8s 7s 6s | 9b 8b 5c 4c")


def start(rules: Rules = CLASSIC, dealer: int = 3) -> MatchState:
    return MatchState.start(rules, rules.seats, dealer)


def finish_hand(state: MatchState, rng: random.Random) -> MatchState:
    """Play unseen cards in turn order until the hand ends (the engine cannot see who holds what)."""
    number = state.hand_number
    while state.hand_number == number and not state.is_over:
        state = state.apply(Play(rng.choice(state.unseen_cards()), state.to_play))  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize(("thirds", "last", "points"), [
    ((17, 15), 1, (5, 6)),   # RECORD.md's example: 17 thirds = 5 2/3, 15 + 3 = 18 thirds = 6
    ((32, 0), 0, (11, 0)),
    ((0, 32), 0, (1, 10)),
    ((20, 12), 0, (7, 4)),
    ((16, 16), 1, (5, 6)),
])
def test_each_side_scores_its_thirds_over_three_the_remainder_dropped(thirds: tuple[int, int], last: int,
                                                                      points: tuple[int, int]) -> None:
    assert card_points(CLASSIC, thirds, last) == points
    assert sum(points) == 11
    third = Rules.from_mapping({"last_trick": "third"})
    assert card_points(third, thirds, last) == points  # two sides: the English count gives the same


def test_last_trick_third_hands_out_all_eleven_even_to_four_players_alone() -> None:
    point = PRESETS["traversone"]
    third = Rules.from_mapping({"preset": "traversone", "last_trick": "third"})
    thirds = (8, 8, 8, 8)
    assert card_points(point, thirds, 0) == (3, 2, 2, 2)  # 35 thirds, 9 points: 2 2/3 dropped
    assert card_points(third, thirds, 0) == (5, 2, 2, 2)  # 33 thirds: the 2 leftover points to the taker
    assert sum(card_points(third, (10, 7, 11, 4), 2)) == 11


def test_an_unfinished_hand_counts_whole_points_taken_and_no_last_trick() -> None:
    state = play_cards(start(), "1c 1d 1s 1b")
    result = state.current_result()
    assert not result.complete and result.last_trick is None
    assert result.card_thirds == (12, 0) and result.points == (4, 0)
    assert state.live_totals() == (4, 0) and state.totals == (0, 0)


@pytest.mark.parametrize(("line", "kind", "side", "seat", "games", "points"), [
    (CAPPOTTO, "cappotto", 0, None, 2, (11, 0)),
    (CAPPOTTONE, "cappottone", 0, 0, 6, (11, 0)),
    (STRAMAZZO, "stramazzo", 0, None, 3, (11, 0)),
    (STRAMAZZONE, "stramazzone", 0, 2, 8, (11, 0)),
])
def test_cappotto_and_its_relatives_are_announced(line: str, kind: str, side: int, seat: int | None,
                                                  games: int, points: tuple[int, int]) -> None:
    state = play_cards(start(), line)
    result = state.hands[0]
    assert result.card_points == points
    assert result.cappotto is not None
    assert (result.cappotto.kind, result.cappotto.side, result.cappotto.seat, result.cappotto.games) == \
        (kind, side, seat, games)
    assert not state.is_over


def test_cappotto_match_wins_the_match_outright_with_all_eleven_points() -> None:
    rules = Rules.from_mapping({"cappotto": "match"})
    state = play_cards(start(rules), STRAMAZZO)
    assert state.is_over and state.winner == 0 and state.outcome.reason == "cappotto"  # type: ignore[union-attr]
    assert state.totals == (11, 0)


@pytest.mark.parametrize(("line", "games"), [(CAPPOTTO, 2), (STRAMAZZO, 3), (CAPPOTTONE, 6),
                                             (STRAMAZZONE, 8)])
def test_cappotto_games_are_worth_two_three_six_eight(line: str, games: int) -> None:
    rules = Rules.from_mapping({"cappotto": "games"})
    state = play_cards(start(rules), line)
    assert state.is_over and state.winner == 0
    assert state.outcome.games == games  # type: ignore[union-attr]


def test_no_cappotto_in_an_ordinary_hand() -> None:
    state = finish_hand(play_cards(start(), "1c 4c 5c 6c | 1d 3d 4d 5d"), random.Random(3))
    result = state.hands[0]
    assert min(result.card_thirds) >= 3 and result.cappotto is None


def test_end_of_hand_target_the_higher_total_wins_and_a_tie_plays_on() -> None:
    rules = Rules.from_mapping({"target": 21})
    assert target_outcome(rules, (20, 31), 9) is not None
    assert target_outcome(rules, (20, 31), 9).winner == 1  # type: ignore[union-attr]
    assert target_outcome(rules, (25, 23), 9).winner == 0  # type: ignore[union-attr]
    assert target_outcome(rules, (22, 22), 9) is None
    assert target_outcome(rules, (20, 20), 9) is None


def test_end_of_hand_win_waits_for_the_last_card() -> None:
    rules = Rules.from_mapping({"target": 3})
    state = play_cards(start(rules), "1c 1d 1s 1b")
    assert not state.is_over and state.live_totals() == (4, 0)
    state = finish_hand(state, random.Random(1))
    assert state.is_over and state.outcome.reason == "target"  # type: ignore[union-attr]


def test_win_immediate_ends_the_match_mid_hand() -> None:
    rules = Rules.from_mapping({"target": 3, "win": "immediate"})
    state = play_cards(start(rules), "1c 1d 1s 1b")
    assert state.is_over and state.winner == 0 and state.hand_number == 0
    assert state.to_play is None
    with pytest.raises(IllegalEventError, match="the match is over"):
        state.apply(Play(parse_card("2c"), 0))


def test_a_right_claim_wins_a_wrong_one_loses_and_is_flagged() -> None:
    rules = Rules.from_mapping({"preset": "fitres", "target": 5, "win": "end_of_hand"})
    state = play_cards(start(rules), "1c 1d 1s 1b | 2c 3d 10s 10b")
    right = state.apply(Claim(0))
    assert right.winner == 0 and right.outcome.reason == "claim" and not right.flags  # type: ignore[union-attr]
    state = play_cards(start(rules), "1c 1d 1s 1b")
    wrong = state.apply(Claim(0))
    assert wrong.winner == 1 and wrong.flags[0].kind == WRONG_CLAIM
    assert "4 punti, ne servono 5" in wrong.flags[0].message()
    with pytest.raises(IllegalEventError, match="claims are not allowed"):
        play_cards(start(), "1c").apply(Claim(0))


def test_a_proven_renounce_is_flagged_and_optionally_loses_the_hand() -> None:
    line = "4c 4d 5c 6c | 7c 8c 9c 10c"  # seat 1 did not follow coppe in trick 1, then plays 9c
    state = play_cards(start(), line)
    flag = state.flags[0]
    assert (flag.kind, flag.by, flag.event) == (RENOUNCE, 1, 7)
    assert "rinuncia" in flag.message() and "Cavallo di coppe" in flag.message()
    assert "renounce" in flag.message("en")
    assert finish_hand(state, random.Random(2)).hands[0].renounces[0] == 1
    penalised = finish_hand(play_cards(start(Rules.from_mapping({"renounce_penalty": True})), line),
                            random.Random(2))
    assert penalised.hands[0].card_points == (11, 0) and penalised.totals == (11, 0)


def test_following_suit_again_after_a_void_is_no_renounce_when_it_was_drawn_later() -> None:
    rules = PRESETS["due"]
    state = MatchState.start(rules, 2, 1)
    state = play_cards(state, "4c 4d")  # seat 1 did not follow coppe
    state = state.apply(Draw(parse_card("5c"), 0)).apply(Draw(parse_card("6c"), 1))
    state = play_cards(state, "7s 6c")  # 6c was drawn after the void: no proof
    assert not state.flags


def due_failing_coppe_twice(rules: Rules = PRESETS["due"]) -> MatchState:
    """Seat 1 fails coppe (trick 1), draws 5c, fails coppe again holding it (trick 2), draws 10s."""
    state = play_cards(MatchState.start(rules, 2, 1), "4c 4d")
    state = state.apply(Draw(parse_card("8s"), 0)).apply(Draw(parse_card("5c"), 1))
    state = play_cards(state, "6c 5d")
    return state.apply(Draw(parse_card("9s"), 0)).apply(Draw(parse_card("10s"), 1))


def test_a_card_drawn_between_two_failures_proves_the_second() -> None:
    """RULES.md: the renounce is provable when the player later plays the suit it did not follow having
    held it then; 5c came after the first failure but before the second one."""
    state = play_cards(due_failing_coppe_twice(), "7c 5c")
    assert [(flag.kind, flag.by, flag.event, flag.params["trick"]) for flag in state.flags] == \
        [(RENOUNCE, 1, 10, 2)]
    assert "nella presa 2" in state.flags[0].message()


def test_a_failure_from_before_a_drawn_card_stays_open_for_a_card_held_then() -> None:
    """5c proves only the second failure; 9c (dealt, so held at both) then proves the first."""
    state = play_cards(due_failing_coppe_twice(), "7c 5c")
    state = state.apply(Draw(parse_card("1s"), 0)).apply(Draw(parse_card("2s"), 1))
    state = play_cards(state, "8c 9c")
    assert [(flag.event, flag.params["trick"]) for flag in state.flags] == [(10, 2), (14, 1)]
    assert state.hand.extra.renounces == (1, 1)


def test_failing_again_with_nothing_new_in_hand_proves_one_renounce_once() -> None:
    """Four players hold only what they were dealt: seat 1's second failure to follow coppe is proven by
    the same cards as its first, so one coppe played later is one renounce, named at its first failure
    (trick 1)."""
    state = play_cards(start(), "4c 4d 5c 6c | 3c 7c 5d 8c | 2c 9c 6d 10c")  # seat 1 fails twice
    assert len(state.hand.extra.voids) == 1
    state = play_cards(state, "3s 4s 1c")
    assert [(flag.by, flag.event, flag.params["trick"]) for flag in state.flags] == [(1, 15, 1)]


def test_a_failure_in_the_second_deal_is_proven_by_a_card_of_that_deal() -> None:
    """Two players without drawing: seat 1 fails coppe in both deals; 7c, dealt in the second deal,
    proves the failure of trick 11 (it was not held at trick 1)."""
    first_deal = "4c 4d | 3s 4s | 2s 5s | 1s 6s | 3d 5d | 2d 6d | 1d 7d | 3b 4b | 2b 5b | 1b 6b"
    state = play_cards(MatchState.start(PRESETS["due-senza"], 2, 1), first_deal)
    state = play_cards(state, "5c 7b | 6c 7c")
    assert [(flag.by, flag.event, flag.params["trick"]) for flag in state.flags] == [(1, 24, 11)]


def test_every_card_counts_exactly_once_and_the_deck_holds_ten_and_two_thirds() -> None:
    assert sum(card.thirds for card in DECK) == 32


def test_seed_examples_due_tre_fante_make_one_point_and_fractions_are_dropped() -> None:
    state = play_cards(start(), "2c 3c 8c 4c")  # Due + Tre + Fante = 1 point (seed 000)
    assert state.hand.tricks[0].thirds == 3 and state.current_result().points == (0, 1)
    # 4 points and 1/3 score only 4 (seed 000): 13 thirds, the other side 19 + the last trick
    assert card_points(CLASSIC, (13, 19), 1) == (4, 7)
