"""Rule options and presets (RULES.md, "Presets"): reading the header's rules object, refusing bad ones."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleError, TressetteError
from engine.rules import PRESETS, Rules
from tests.italian_text import italian_of


def test_there_are_the_nine_presets_of_rules_md() -> None:
    assert set(PRESETS) == {"classic", "accuso", "fitres", "due", "due-senza", "morto", "chiamata", "cinque",
                            "traversone"}
    for name, rules in PRESETS.items():
        assert rules.preset == name
        rules.check()


def test_classic_is_four_seats_two_sides_no_accusi_to_21_last_trick_point() -> None:
    rules = PRESETS["classic"]
    assert (rules.seats, rules.sides, rules.accuso, rules.target) == (4, ((0, 2), (1, 3)), "off", 21)
    assert (rules.last_trick, rules.win, rules.cappotto) == ("point", "end_of_hand", "none")
    assert not rules.claim


@pytest.mark.parametrize(("name", "expected"), [
    ("accuso", {"accuso": "mandatory", "accuso_window": "first_trick", "target": 31}),
    ("fitres", {"target": 21, "cappotto": "match", "win": "immediate", "claim": True}),
    ("due", {"seats": 2, "drawing": True, "target": 21}),
    ("due-senza", {"seats": 2, "drawing": False, "target": 21}),
    ("morto", {"seats": 4, "sides": "dummy", "dummy": 3, "scoring": "hands"}),
    ("chiamata", {"seats": 4, "sides": "called", "scoring": "hands"}),
    ("cinque", {"seats": 5, "sides": ((0, 2), (1, 3, 4))}),
    ("traversone", {"seats": 4, "sides": "alone", "scoring": "avoid", "accuso": "off", "target": 21}),
])
def test_each_preset_sets_what_rules_md_says(name: str, expected: dict[str, Any]) -> None:
    rules = PRESETS[name]
    assert {key: getattr(rules, key) for key in expected} == expected


def test_from_mapping_is_the_preset_then_overrides() -> None:
    rules = Rules.from_mapping({"preset": "accuso", "target": 41})
    assert rules.accuso == "mandatory" and rules.target == 41 and rules.preset == "accuso"
    assert Rules.from_mapping({}) == PRESETS["classic"]
    assert Rules.from_mapping({"last_trick": "third", "renounce_penalty": True}).last_trick == "third"


def test_turning_accusi_on_or_off_moves_the_default_target_between_21_and_31() -> None:
    assert Rules.from_mapping({"accuso": True}).target == 31
    assert Rules.from_mapping({"accuso": "declared"}).accuso == "declared"
    assert Rules.from_mapping({"accuso": "mandatory", "target": 21}).target == 21
    assert Rules.from_mapping({"preset": "accuso", "accuso": "off"}).target == 21


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_mapping_round_trips(name: str) -> None:
    rules = PRESETS[name]
    mapping = rules.to_mapping()
    assert Rules.from_mapping(mapping) == rules
    assert mapping["preset"] == name


def test_changing_the_seat_count_brings_its_default_sides() -> None:
    rules = Rules.from_mapping({"preset": "traversone", "seats": 5})
    assert rules.sides == "alone" and rules.tricks_per_hand == 8
    assert Rules.from_mapping({"seats": 5}).sides == ((0, 2), (1, 3, 4))
    assert Rules.from_mapping({"sides": [[0, 1], [2, 3]]}).sides == ((0, 1), (2, 3))


@pytest.mark.parametrize(("mapping", "words"), [
    ({"preset": "bridge"}, "unknown preset 'bridge'"),
    ({"targte": 21}, "unknown option 'targte' = 21"),
    ({"target": 0}, "target = 0"),
    ({"target": "21"}, "target = '21'"),
    ({"target": True}, "target = True"),
    ({"last_trick": "half"}, "last_trick = 'half'"),
    ({"win": "sometimes"}, "win = 'sometimes'"),
    ({"cappotto": "all"}, "cappotto = 'all'"),
    ({"four_of_a_kind": 5}, "four_of_a_kind = 5"),
    ({"accuso": "maybe"}, "accuso = 'maybe'"),
    ({"accuso_window": "later"}, "accuso_window = 'later'"),
    ({"claim": "yes"}, "claim = 'yes'"),
    ({"seats": 3}, "seats = 3"),
    ({"sides": [[0, 1, 2], [2, 3]]}, "sides = "),
    ({"sides": [[0], [1], [2, 3]]}, "two sides"),
    ({"sides": "everyone"}, "sides = 'everyone'"),
    ({"preset": "traversone", "accuso": "mandatory"}, "no accusi when avoiding points"),
    ({"preset": "morto", "claim": True}, "claim = true"),
    ({"preset": "classic", "drawing": True}, "drawing = true is for two players"),
    ({"preset": "morto", "dummy": 7}, "dummy = 7"),
    ({"preset": "classic", "dummy": 2}, "dummy = 2"),
    ({"preset": "chiamata", "first_lead": "four_of_denari"}, "four_of_denari"),
    ({"preset": "traversone", "cappotto": "match"}, "cappotto = 'match'"),
    ({"preset": "classic", "scoring": "avoid"}, "each alone"),
    ({"preset": "classic", "sides": "alone"}, "sides = 'alone' is for avoiding points"),
    ("classic", "rules must be an object"),
])
def test_bad_rules_are_refused_naming_the_key_and_value(mapping: Any, words: str) -> None:
    with pytest.raises(RuleError) as caught:
        Rules.from_mapping(mapping)
    assert words in str(caught.value)
    assert isinstance(caught.value, TressetteError) and isinstance(caught.value, ValueError)
    italian_of(caught.value)


def test_rules_are_immutable_values() -> None:
    rules = PRESETS["classic"]
    with pytest.raises(AttributeError):
        rules.target = 41  # type: ignore[misc]
    assert Rules.from_mapping({"target": 41}) == Rules.from_mapping({"target": 41})
