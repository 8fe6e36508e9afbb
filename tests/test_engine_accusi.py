"""Accusi: Napoletana and Bongioco, tallied (mandatory) or declared and verified (RULES.md, "Accusi")."""

from __future__ import annotations

import random

import pytest

from engine.accusi import combos_in, declared_combos
from engine.cards import Card, parse_card
from engine.errors import IllegalEventError
from engine.events import Accuso, Draw, Meta
from engine.flags import FALSE_ACCUSO, LATE_ACCUSO
from engine.rules import PRESETS, Rules
from engine.state import MatchState
from tests.engine_matches import play_cards, random_match

ACCUSO = PRESETS["accuso"]
DECLARED = Rules.from_mapping({"preset": "accuso", "accuso": "declared"})
# Each seat holds one whole suit: seat 0 coppe, 1 denari, 2 spade, 3 bastoni; seat 0 takes every trick.
ONE_SUIT_EACH = " | ".join(f"{rank}c {rank}d {rank}s {rank}b" for rank in range(1, 11))


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def points(text: str, four: int = 4) -> int:
    return sum(combo.points for combo in combos_in(cards(text), four))


def accuso(text: str, by: int, number: int = 1) -> Accuso:
    return Accuso(tuple(cards(text)), by, meta=Meta(number=number))


def test_napoletana_is_asso_two_three_of_one_suit_worth_three() -> None:
    (combo,) = combos_in(cards("1c 2c 3c 7b"))
    assert (combo.kind, combo.suit, combo.points) == ("napoletana", "c", 3)
    assert combos_in(cards("1c 2c 3d")) == ()


def test_bongioco_three_of_a_kind_names_the_missing_suit() -> None:
    (combo,) = combos_in(cards("3c 3d 3b"))
    assert (combo.kind, combo.rank, combo.missing, combo.points) == ("bongioco", 3, "s", 3)
    assert combos_in(cards("10c 10d 10s")) == ()  # only Assi, 2s and 3s


def test_four_of_a_kind_is_four_or_three_by_option() -> None:
    assert points("1c 1d 1s 1b") == 4
    assert points("1c 1d 1s 1b", four=3) == 3


def test_combinations_add_up_and_share_cards_as_the_seeds_say() -> None:
    assert points("1c 2c 3c 2d 2s 2b") == 7  # Napoletana of coppe + four 2s (seed 002)
    assert points("1c 1d 1s 1b 2d 2s 2b 3d") == 10  # 4 Assi + 3 Due + Napoletana of denari (seed 000)


def test_a_declaration_must_be_made_of_combinations() -> None:
    assert declared_combos(cards("1c 2c 3c"))
    assert declared_combos(cards("1c 2c")) is None
    assert declared_combos(cards("1c 2c 3c 7b")) is None
    assert declared_combos(cards("1c 1c 1d")) is None


def test_mandatory_accusi_are_tallied_from_the_cards_each_seat_played() -> None:
    state = play_cards(MatchState.start(ACCUSO, 4, 3), ONE_SUIT_EACH)
    result = state.hands[0]
    assert sorted((seat, combo.kind, combo.suit) for seat, combo in result.accusi) == [
        (0, "napoletana", "c"), (1, "napoletana", "d"), (2, "napoletana", "s"), (3, "napoletana", "b")]
    assert result.card_points == (11, 0)
    assert result.accusi_points == (6, 6)
    assert result.points == (17, 6)  # a hand's points include its accusi
    assert state.totals == (17, 6)


def test_mandatory_tally_grows_as_the_cards_are_seen_three_then_four() -> None:
    state = play_cards(MatchState.start(ACCUSO, 4, 3), "1c 4c 5c 6c | 1d 4d 5d 6d")
    assert state.current_result().accusi == ()
    state = play_cards(state, "1s 4s 5s 6s")
    ((seat, combo),) = state.current_result().accusi
    assert (seat, combo.rank, combo.missing, combo.points) == (0, 1, "b", 3)
    state = play_cards(state, "1b 4b 5b 6b")
    ((seat, combo),) = state.current_result().accusi
    assert combo.points == 4 and combo.missing is None  # four Assi: 4, not 3 + 4
    assert state.live_totals() == (4 + 4, 0)


def test_four_of_a_kind_three_option_in_the_tally() -> None:
    rules = Rules.from_mapping({"preset": "accuso", "four_of_a_kind": 3})
    state = play_cards(MatchState.start(rules, 4, 3), "1c 4c 5c 6c | 1d 4d 5d 6d | 1s 4s 5s 6s | 1b 4b 5b 6b")
    assert state.current_result().accusi_points == (3, 0)


def test_a_declared_accuso_counts_at_once_and_is_verified_by_later_plays() -> None:
    state = play_cards(MatchState.start(DECLARED, 4, 3), "5b")
    state = state.apply(accuso("1c 2c 3c", 1, number=2))
    assert state.current_result().accusi_points == (0, 3)
    assert state.live_totals() == (0, 3)
    honest = play_cards(state, "7b 6b 4b | 1c 4c 5c 6c")  # seat 1 takes trick 1 and leads its Asso
    assert not honest.flags
    false = play_cards(state, "7b 6b 4b | 7c 8c 2c 9c")  # seat 3 plays the 2 seat 1 declared
    flag = false.flags[0]
    assert (flag.kind, flag.by) == (FALSE_ACCUSO, 1)
    assert "Due di coppe" in flag.message() and "posto 3" in flag.message()
    assert false.current_result().accusi_points == (0, 0)  # a false accuso is withdrawn


def test_an_accuso_naming_a_card_already_seen_elsewhere_is_false_at_once() -> None:
    state = play_cards(MatchState.start(DECLARED, 4, 3), "1c")
    state = state.apply(accuso("1c 2c 3c", 2))
    assert state.flags[0].kind == FALSE_ACCUSO and state.current_result().accusi == ()


def test_declarations_out_of_their_window_are_flagged_and_do_not_count() -> None:
    line = "5b 4b 6b 7b | 5c 4c 6c 7c | 5d"
    late = play_cards(MatchState.start(DECLARED, 4, 3), line).apply(accuso("1s 2s 3s", 1))
    assert late.flags[0].kind == LATE_ACCUSO and late.current_result().accusi == ()
    end_of_first = play_cards(MatchState.start(DECLARED, 4, 3), "5b 4b 6b 7b").apply(accuso("1s 2s 3s", 1))
    assert not end_of_first.flags and end_of_first.current_result().accusi_points == (0, 3)
    three = Rules.from_mapping({"preset": "accuso", "accuso": "declared",
                                "accuso_window": "first_three_tricks"})
    in_time = play_cards(MatchState.start(three, 4, 3), line).apply(accuso("1s 2s 3s", 1))
    assert not in_time.flags and in_time.current_result().accusi_points == (0, 3)


def test_any_own_turn_accepts_a_declaration_at_the_declarers_turn() -> None:
    rules = Rules.from_mapping({"preset": "accuso", "accuso": "declared", "accuso_window": "any_own_turn"})
    state = play_cards(MatchState.start(rules, 4, 3), "5b 4b 6b 7b | 5c 4c 6c 7c | 8c 9c 10c")
    assert state.to_play == 1
    assert not state.apply(accuso("1s 2s 3s", 1)).flags
    assert state.apply(accuso("1s 2s 3s", 3)).flags[0].kind == LATE_ACCUSO


@pytest.mark.parametrize(("rules", "text", "words"), [
    (DECLARED, "1c 2c", "not a Napoletana or a Bongioco"),
    (ACCUSO, "1c 2c 3c", "accuso = mandatory"),
    (PRESETS["classic"], "1c 2c 3c", "no accusi in this game"),
])
def test_impossible_declarations_raise(rules: Rules, text: str, words: str) -> None:
    with pytest.raises(IllegalEventError, match=words):
        MatchState.start(rules, 4, 3).apply(accuso(text, 0))


def test_the_same_accuso_cannot_be_declared_twice() -> None:
    state = MatchState.start(DECLARED, 4, 3).apply(accuso("1c 2c 3c", 0))
    with pytest.raises(IllegalEventError, match="already declared"):
        state.apply(accuso("1c 2c 3c", 0))


def _due_with_draws(rules: Rules) -> MatchState:
    """Two players: seat 0 holds 2c 2d 2s from the deal and draws 2b after the first trick."""
    state = play_cards(MatchState.start(rules, 2, 1), "4c 5c")
    state = state.apply(Draw(parse_card("6c"), 1)).apply(Draw(parse_card("2b"), 0))
    state = play_cards(state, "7c 2c")
    state = state.apply(Draw(parse_card("8c"), 0)).apply(Draw(parse_card("9c"), 1))
    state = play_cards(state, "2d 4d")
    state = state.apply(Draw(parse_card("10c"), 0)).apply(Draw(parse_card("1c"), 1))
    return play_cards(state, "2s 4s")


def test_two_players_accuso_after_draw_counts_three_then_four_more() -> None:
    only_deal = Rules.from_mapping({"preset": "due", "accuso": "mandatory"})
    assert _due_with_draws(only_deal).current_result().accusi_points == (3, 0)
    after_draw = Rules.from_mapping({"preset": "due", "accuso": "mandatory", "accuso_after_draw": True})
    assert _due_with_draws(after_draw).current_result().accusi_points == (3 + 4, 0)  # seed 000


def test_two_deals_count_the_second_deal_only_when_the_option_says_so() -> None:
    for second in (False, True):
        rules = Rules.from_mapping({"preset": "due-senza", "accuso": "mandatory",
                                    "accuso_second_deal": second})
        for seed in range(12):
            _events, state, holdings = random_match(rules, random.Random(seed), max_hands=1)
            hand = state.hands[0]
            for seat in (0, 1):
                held = holdings[0][seat]
                deals = [held[:10], held[10:]] if second else [held[:10]]
                expected = sum(combo.points for deal in deals for combo in combos_in(deal))
                assert sum(combo.points for by, combo in hand.accusi if by == seat) == expected


def test_a_declared_card_drawn_later_proves_the_accuso_false() -> None:
    rules = Rules.from_mapping({"preset": "due", "accuso": "declared"})
    state = MatchState.start(rules, 2, 1).apply(accuso("1c 2c 3c", 0))
    state = play_cards(state, "4c 5c").apply(Draw(parse_card("1c"), 1))
    flag = state.flags[0]
    assert (flag.kind, flag.by, flag.params["why"]) == (FALSE_ACCUSO, 0, "drawn_by")
    assert "pescato dal posto 1" in flag.message()


def test_an_accuso_of_things_that_are_not_cards_is_refused() -> None:
    bad = Accuso(("1c", "2c", "3c"), 0)  # type: ignore[arg-type]
    with pytest.raises(IllegalEventError, match="an accuso lists cards"):
        MatchState.start(DECLARED, 4, 3).apply(bad)
