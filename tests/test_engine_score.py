"""``score_events`` and its report: exactly RECORD.md's "What `score` prints", plus documented extras."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_card
from engine.errors import IllegalEventError
from engine.events import Accuso, Claim, Meta, Play
from engine.rules import PRESETS, Rules
from engine.score import score_events

ONE_SUIT_EACH = [f"{rank}{suit}" for rank in range(1, 11) for suit in "cdsb"]


def plays(codes: list[str], first: int = 0, seats: int = 4) -> list[Play]:
    """Plays where the same seat leads every trick (true for ONE_SUIT_EACH from seat 0)."""
    return [Play(parse_card(code), (first + index) % seats, meta=Meta(number=index + 1, line=index + 2))
            for index, code in enumerate(codes)]


def test_the_report_has_record_md_keys_and_shapes() -> None:
    report = score_events(PRESETS["accuso"], 4, 3, [*plays(ONE_SUIT_EACH), Play(parse_card("5b"), 1)])
    data = report.to_json()
    assert {"hands", "totals", "winner", "flags"} <= set(data)
    first, unfinished = data["hands"]
    assert {"dealer", "tricks", "card_thirds", "last_trick", "accusi", "points"} <= set(first)
    assert first["dealer"] == 3
    assert first["tricks"][0] == {"leader": 0, "cards": ["1c", "1d", "1s", "1b"], "winner": 0, "thirds": 12}
    assert first["card_thirds"] == [32, 0] and first["last_trick"] == 0
    assert first["accusi"][0] == {"by": 0, "kind": "napoletana", "suit": "c", "cards": ["1c", "2c", "3c"],
                                  "points": 3}
    assert first["points"] == [17, 6] and first["card_points"] == [11, 0]
    assert first["cappotto"]["kind"] == "cappottone"
    assert first["totals"] == [17, 6]
    assert first["complete"] is True
    assert unfinished["complete"] is False and unfinished["dealer"] == 0 and unfinished["totals"] == [17, 6]
    assert unfinished["tricks"] == [] and unfinished["open_trick"] == {"leader": 1, "cards": ["5b"]}
    assert data["totals"] == [17, 6] and data["winner"] is None and data["flags"] == []
    json.dumps(data)


def test_bongioco_reports_rank_and_missing_suit() -> None:
    rules = Rules.from_mapping({"preset": "accuso", "accuso": "declared"})
    events = [Play(parse_card("5b"), 0), Accuso(tuple(map(parse_card, ["2c", "2d", "2s"])), 1)]
    data = score_events(rules, 4, 3, events).to_json()
    (item,) = data["hands"][0]["accusi"]
    assert (item["kind"], item["rank"], item["missing"], item["points"]) == ("bongioco", 2, "b", 3)
    assert data["hands"][0]["points"] == [0, 3] and data["hands"][0]["complete"] is False
    assert data["totals"] == [0, 0]  # the hand is still open: scores are added at its end


def second_hand_trick(side_zero_takes: bool) -> list[Play]:
    """Hand 2 (seat 1 leads): one trick worth one whole point, taken by side 0 (seat 2) or side 1 (seat 3)."""
    codes = ["4c", "1c", "5c", "6c"] if side_zero_takes else ["4c", "5c", "1c", "6c"]
    return [Play(parse_card(code), (1 + offset) % 4) for offset, code in enumerate(codes)]


def test_a_record_stopping_inside_a_hand_of_an_open_match_totals_the_finished_hands_only() -> None:
    """RULES.md: scores are added at the end of each hand. The open hand is listed with its points so far
    (``complete`` false, its running ``totals`` unchanged) but is not in ``totals``."""
    report = score_events(PRESETS["classic"], 4, 3, [*plays(ONE_SUIT_EACH), *second_hand_trick(False)])
    data = report.to_json()
    first, open_hand = data["hands"]
    assert (first["complete"], first["points"], first["totals"]) == (True, [11, 0], [11, 0])
    assert (open_hand["complete"], open_hand["points"], open_hand["totals"]) == (False, [0, 1], [11, 0])
    assert data["totals"] == [11, 0] and data["over"] is False and data["winner"] is None
    assert report.state.live_totals() == (11, 1)  # what a scoreboard shows during the hand


@pytest.mark.parametrize(("options", "ending"), [
    ({"claim": True}, [Claim(0)]),
    ({"win": "immediate"}, []),
])
def test_a_match_ended_inside_a_hand_counts_that_hand_in_the_totals(options: dict[str, object],
                                                                    ending: list[Claim]) -> None:
    """A claim, or ``win = immediate``, ends the match inside hand 2 at 11 + 1 = 12: that hand's points
    so far decided it, so they are in ``totals`` (and in its running ``totals``)."""
    rules = Rules.from_mapping({"preset": "classic", "target": 12, **options})
    data = score_events(rules, 4, 3, [*plays(ONE_SUIT_EACH), *second_hand_trick(True), *ending]).to_json()
    open_hand = data["hands"][1]
    assert (open_hand["complete"], open_hand["points"], open_hand["totals"]) == (False, [1, 0], [12, 0])
    assert data["totals"] == [12, 0] and data["winner"] == 0 and data["over"] is True


def test_flags_carry_event_number_kind_seat_and_a_message_in_italian_or_english() -> None:
    events = [*plays(["4c", "4d", "5c", "6c"]), Play(parse_card("7c"), 3, meta=Meta(number=5)),
              Play(parse_card("8c"), 0, meta=Meta(number=6)), Play(parse_card("9c"), 1, meta=Meta(number=7))]
    report = score_events(PRESETS["classic"], 4, 3, events)
    (flag,) = report.to_json()["flags"]
    assert flag["event"] == 7 and flag["kind"] == "renounce" and flag["by"] == 1
    assert flag["message"].startswith("rinuncia provata")
    assert report.to_json("en")["flags"][0]["message"].startswith("renounce proven")


def test_a_malformed_sequence_raises_naming_the_line_unless_lenient() -> None:
    events = [*plays(["4c", "4d"]), Play(parse_card("4d"), 2, meta=Meta(number=3, line=9))]
    with pytest.raises(IllegalEventError, match=r"event 3 \(line 9\): play 4d by 2: 4d was already played"):
        score_events(PRESETS["classic"], 4, 3, events)
    report = score_events(PRESETS["classic"], 4, 3, events, lenient=True)
    assert report.to_json()["flags"][0]["kind"] == "illegal_event"
    assert report.hands[0].open_trick == (0, ("4c", "4d"))


def test_an_empty_record_scores_nothing() -> None:
    data = score_events(PRESETS["classic"], 4, 3, []).to_json()
    assert data["hands"] == [] and data["totals"] == [0, 0] and data["winner"] is None


def test_per_player_variants_report_points_by_seat() -> None:
    data = score_events(PRESETS["traversone"], 4, 3, plays(ONE_SUIT_EACH)).to_json()
    assert data["hands"][0]["points"] == [0, 11, 11, 11] and data["totals"] == [0, 11, 11, 11]
    assert data["hands"][0]["sides"] == [[0], [1], [2], [3]]
