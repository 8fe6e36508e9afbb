"""Random legal matches: deterministic from the seed, legal for every preset, every event kind written."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.events import Accuso, Call, Claim, Draw, Play
from engine.record import Record, parse_record, write_record
from engine.rules import PRESETS, Rules
from engine.score import score_events
from engine.simulate import SimulationError, default_players, rules_mapping, simulate_match

# Scoring by hands won (+1/-1) walks slowly to 21: a lower target keeps these tests fast.
FAST_TARGETS = {"morto": 5, "chiamata": 5}


def rules_for(preset: str, **options: object) -> Rules:
    mapping: dict[str, object] = {"preset": preset, **options}
    if preset in FAST_TARGETS and "target" not in options:
        mapping["target"] = FAST_TARGETS[preset]
    return Rules.from_mapping(mapping)


def score(record: Record) -> dict[str, object]:
    header = record.header
    return score_events(header.rules, header.seats, header.dealer, record.corrected_events()).to_json()


def kinds(record: Record) -> Counter[str]:
    return Counter(type(event).__name__ for event in record.corrected_events())


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_gives_a_finished_legal_match_without_flags(preset: str) -> None:
    record = simulate_match(rules_for(preset), random.Random(7))
    again = parse_record(write_record(record))  # what the file says, not the objects in memory
    report = score(again)
    assert report["winner"] is not None or report["loser"] is not None
    assert report["flags"] == []
    assert again.header.players == default_players(again.header.rules)


@pytest.mark.parametrize("preset", ["classic", "due", "chiamata"])
def test_the_same_seed_gives_the_same_record_and_another_seed_another(preset: str) -> None:
    rules = rules_for(preset)
    first = write_record(simulate_match(rules, random.Random(11)))
    assert write_record(simulate_match(rules, random.Random(11))) == first
    assert write_record(simulate_match(rules, random.Random(12))) != first


def test_each_hand_plays_all_forty_cards_once_and_time_moves_forward() -> None:
    record = simulate_match(rules_for("classic"), random.Random(3))
    plays = [event for event in record.corrected_events() if isinstance(event, Play)]
    assert len(plays) % 40 == 0
    for start in range(0, len(plays), 40):
        assert len({play.card for play in plays[start:start + 40]}) == 40
    times = [event.meta.t for event in record.corrected_events()]
    assert all(t is not None for t in times)
    assert times == sorted(times)


def test_two_players_with_drawing_write_draws() -> None:
    record = simulate_match(rules_for("due"), random.Random(1))
    counts = kinds(record)
    assert counts["Draw"] > 0
    assert counts["Draw"] * 2 == counts["Play"]  # per hand: 20 drawn, 40 played
    first_draw = next(event for event in record.corrected_events() if isinstance(event, Draw))
    assert first_draw.meta.number == 3  # after the first trick of two cards


def test_chiamata_calls_a_suit_before_each_hand() -> None:
    record = simulate_match(rules_for("chiamata"), random.Random(2))
    events = record.corrected_events()
    assert isinstance(events[0], Call)
    assert kinds(record)["Call"] * 40 == kinds(record)["Play"]


@pytest.mark.parametrize("options", [
    {"preset": "accuso", "accuso": "declared"},
    {"preset": "due", "accuso": "declared", "accuso_after_draw": True},
    {"preset": "due-senza", "accuso": "declared", "accuso_second_deal": True},
])
def test_declared_accusi_are_written_and_hold(options: dict[str, object]) -> None:
    found = 0
    for seed in range(3):
        record = simulate_match(Rules.from_mapping(options), random.Random(seed))
        found += kinds(record)["Accuso"]
        report = score(record)
        assert report["flags"] == []  # every declaration is true and in its window
        assert any(hand["accusi"] for hand in report["hands"]) == (kinds(record)["Accuso"] > 0)
    assert found > 0


def test_claims_happen_where_allowed() -> None:
    rules = rules_for("fitres", win="end_of_hand")
    records = [simulate_match(rules, random.Random(seed)) for seed in range(6)]
    claimed = [record for record in records if kinds(record)["Claim"]]
    assert claimed
    for record in claimed:
        assert isinstance(record.corrected_events()[-1], Claim)
        assert score(record)["reason"] in ("claim", "wrong_claim")


def test_no_claims_where_not_allowed() -> None:
    assert not kinds(simulate_match(rules_for("classic"), random.Random(0)))["Claim"]
    assert not any(isinstance(event, Accuso | Draw | Call)
                   for event in simulate_match(rules_for("classic"), random.Random(0)).corrected_events())


def test_players_and_dealer_are_used_and_checked() -> None:
    record = simulate_match(rules_for("classic"), random.Random(0), ["Ugo", "Lia", "Pio", "Ada"], dealer=1)
    assert record.header.players == ("Ugo", "Lia", "Pio", "Ada")
    assert record.header.dealer == 1
    first = record.corrected_events()[0]
    assert first.by == 2  # the seat after the dealer leads
    with pytest.raises(ValueError, match="players"):
        simulate_match(rules_for("classic"), random.Random(0), ["Ugo", "Lia"])


def test_morto_names_the_dummy_who_never_deals() -> None:
    record = simulate_match(rules_for("morto"), random.Random(0))
    assert record.header.players == ("Anna", "Bruno", "Carla", "Morto")
    assert record.header.dealer == 2
    assert score(record)["hands"][0]["dealer"] == 2
    assert all(hand["dealer"] != 3 for hand in score(record)["hands"])


def test_rules_mapping_is_short_and_means_the_same_rules() -> None:
    rules = Rules.from_mapping({"preset": "accuso", "target": 41})
    assert rules_mapping(rules) == {"preset": "accuso", "target": 41}
    assert rules_mapping(PRESETS["due"]) == {"preset": "due"}


def test_a_match_that_runs_too_long_stops_with_a_clear_error() -> None:
    with pytest.raises(SimulationError, match="no winner after 50 events") as caught:
        simulate_match(rules_for("classic"), random.Random(0), max_events=50)
    assert "target 21); lower the target" in str(caught.value)
    assert caught.value.italian is not None
    assert caught.value.italian.startswith("nessun vincitore dopo 50 eventi (punteggio ")
    assert caught.value.italian.endswith("si gioca a 21); abbassate il punteggio da raggiungere (target)")
