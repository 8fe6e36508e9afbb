"""The game record reader/writer and corrections (RECORD.md version 1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CARD_CODES, parse_card
from engine.events import Accuso, Call, Claim, Draw, Meta, Play
from engine.record import (
    Header,
    Record,
    RecordEntry,
    RecordError,
    entry_line,
    header_line,
    parse_record,
    write_record,
)
from tests.italian_text import italian_of

HEADER = '{"tressette": 1, "rules": {"preset": "classic"}, "players": ["Anna", "Bruno", "Carla", "Dario"]}'


def record_text(*lines: str, header: str = HEADER) -> str:
    return "\n".join([header, *lines]) + "\n"


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        parse_record(text, name="partita.jsonl")
    return caught.value


# --- reading ------------------------------------------------------------------------------------------


def test_reads_header_defaults_and_keeps_extra_keys() -> None:
    record = parse_record('{"tressette": 1, "rules": {"preset": "classic"}, "players": ["Anna", "Bruno", '
                          '"Carla", "Dario"], "started": "2026-11-29T21:00", "table": "Bar Sport"}\n')
    assert record.header.players == ("Anna", "Bruno", "Carla", "Dario")
    assert record.header.dealer == 3  # default: the last seat
    assert record.header.version == 1
    assert record.header.rules_mapping == {"preset": "classic"}
    assert record.header.extra == {"started": "2026-11-29T21:00", "table": "Bar Sport"}
    assert record.entries == ()


def test_reads_every_event_kind_with_meta() -> None:
    text = record_text(
        '{"play": "3c", "by": 0, "t": 1.5, "source": "camera", "confidence": 0.93, "box": [1, 2]}',
        '{"accuso": ["1c", "2c", "3c"], "by": 1}',
        '{"draw": "7d", "by": 2}',
        '{"call": "s", "by": 3}',
        '{"claim": 1, "source": "button"}',
    )
    events = parse_record(text).corrected_events()
    assert events == (
        Play(parse_card("3c"), 0),
        Accuso((parse_card("1c"), parse_card("2c"), parse_card("3c")), 1),
        Draw(parse_card("7d"), 2),
        Call("s", 3),
        Claim(1),
    )
    first = events[0].meta
    assert (first.number, first.line, first.t, first.source, first.confidence) == (1, 2, 1.5, "camera", 0.93)
    assert first.extra == {"box": [1, 2]}
    assert [event.meta.number for event in events] == [1, 2, 3, 4, 5]


def test_comments_and_blank_lines_are_ignored_but_counted_as_lines() -> None:
    text = "# partita del giovedì\n\n" + HEADER + "\n   \n# primo giro\n" + '{"play": "1b", "by": 0}\n'
    record = parse_record(text)
    (event,) = record.corrected_events()
    assert event.meta.number == 1
    assert event.meta.line == 6


def test_a_byte_order_mark_and_windows_line_ends_are_accepted() -> None:
    record = parse_record("\ufeff" + record_text('{"play": "1b", "by": 0}').replace("\n", "\r\n"))
    assert [event.meta.line for event in record.corrected_events()] == [2]


# --- every error names its line -----------------------------------------------------------------------


@pytest.mark.parametrize(("bad_line", "words"), [
    ('{"play": "3c", "by": 0', "bad JSON"),
    ('["play", "3c"]', "one JSON object per line"),
    ('{"play": "3c", "play": "4c", "by": 0}', 'key "play" appears twice'),
    ('{"play": "3c", "by": 0, "t": NaN}', "NaN"),
    ('{"plya": "3c", "by": 0}', "unknown event kind"),
    ('{"by": 0}', "unknown event kind"),
    ('{"play": "3c", "draw": "4c", "by": 0}', "one event per line"),
    ('{"play": "11c", "by": 0}', 'key "play": unknown card code'),
    ('{"play": "3x", "by": 0}', 'key "play": unknown card code'),
    ('{"play": 3, "by": 0}', 'key "play": unknown card code'),
    ('{"draw": "Tre di coppe", "by": 0}', 'key "draw": unknown card code'),
    ('{"accuso": ["1c", "2z"], "by": 0}', 'key "accuso": unknown card code'),
    ('{"accuso": [], "by": 0}', 'key "accuso"'),
    ('{"accuso": "1c", "by": 0}', 'key "accuso"'),
    ('{"play": "3c", "by": 4}', 'key "by": expected a seat 0..3'),
    ('{"play": "3c", "by": -1}', 'key "by"'),
    ('{"play": "3c", "by": true}', 'key "by"'),
    ('{"play": "3c", "by": "Anna"}', 'key "by"'),
    ('{"play": "3c"}', 'missing key "by"'),
    ('{"call": "x", "by": 0}', 'key "call"'),
    ('{"claim": 7}', 'key "claim"'),
    ('{"claim": 0, "by": 1}', 'key "by"'),
    ('{"play": "3c", "by": 0, "t": -2}', 'key "t"'),
    ('{"play": "3c", "by": 0, "t": "10s"}', 'key "t"'),
    ('{"play": "3c", "by": 0, "confidence": 1.5}', 'key "confidence"'),
    ('{"play": "3c", "by": 0, "source": 5}', 'key "source"'),
])
def test_a_bad_event_line_is_an_error_naming_file_line_and_key(bad_line: str, words: str) -> None:
    text = record_text('{"play": "1b", "by": 0}', "# a comment", bad_line, '{"play": "2b", "by": 1}')
    error = error_of(text)
    assert error.line == 4
    assert str(error).startswith("partita.jsonl:4: ")
    assert words in str(error)
    assert italian_of(error).startswith("partita.jsonl:4: ")


@pytest.mark.parametrize(("header", "words"), [
    ('{"rules": {"preset": "classic"}, "players": ["A", "B", "C", "D"]}', 'missing key "tressette"'),
    ('{"play": "3c", "by": 0}', 'missing key "tressette"'),
    ('{"tressette": 2, "rules": {"preset": "classic"}, "players": ["A", "B", "C", "D"]}',
     "unsupported format version 2"),
    ('{"tressette": "1", "rules": {"preset": "classic"}, "players": ["A", "B", "C", "D"]}',
     'key "tressette"'),
    ('{"tressette": 1, "players": ["A", "B", "C", "D"]}', 'missing key "rules"'),
    ('{"tressette": 1, "rules": "classic", "players": ["A", "B", "C", "D"]}', 'key "rules"'),
    ('{"tressette": 1, "rules": {"preset": "briscola"}, "players": ["A", "B", "C", "D"]}', 'key "rules"'),
    ('{"tressette": 1, "rules": {"preset": "classic"}}', 'missing key "players"'),
    ('{"tressette": 1, "rules": {"preset": "classic"}, "players": ["A", "B", "C"]}', 'key "players"'),
    ('{"tressette": 1, "rules": {"preset": "classic"}, "players": ["A", "", "C", "D"]}', 'key "players"'),
    ('{"tressette": 1, "rules": {"preset": "classic"}, "players": ["A", "B", "C", "D"], "dealer": 4}',
     'key "dealer"'),
])
def test_a_bad_header_is_an_error_naming_its_line_and_key(header: str, words: str) -> None:
    error = error_of("# header next\n" + header + "\n")
    assert error.line == 2
    assert str(error).startswith("partita.jsonl:2: ")
    assert words in str(error)
    assert italian_of(error).startswith("partita.jsonl:2: ")


def test_a_bad_rules_object_wraps_the_rules_error() -> None:
    error = error_of(record_text(header='{"tressette": 1, "rules": {"preset": "classic", "colour": "blue"}, '
                                        '"players": ["A", "B", "C", "D"]}'))
    assert 'key "rules"' in str(error)
    assert "colour" in str(error)


def test_an_empty_record_is_an_error() -> None:
    error = error_of("# nothing here\n\n")
    assert error.line == 1
    assert "header" in str(error)


def test_a_bad_header_is_fatal_even_when_lenient() -> None:
    with pytest.raises(RecordError, match="unsupported format version"):
        parse_record('{"tressette": 9, "rules": {}, "players": []}\n', lenient=True)


# --- corrections --------------------------------------------------------------------------------------


def test_fix_replaces_an_event_in_place_and_keeps_its_number() -> None:
    text = record_text(
        '{"play": "1b", "by": 0, "t": 3.0}',
        '{"play": "4c", "by": 1, "t": 5.0, "confidence": 0.41}',
        '{"play": "5b", "by": 2, "t": 7.0}',
        '{"fix": 2, "play": "4b", "by": 1, "source": "web"}',
    )
    events = parse_record(text).corrected_events()
    assert [event.card.code for event in events] == ["1b", "4b", "5b"]
    fixed = events[1].meta
    assert (fixed.number, fixed.line, fixed.source, fixed.t, fixed.confidence) == (2, 5, "web", 5.0, 0.41)


def test_undo_withdraws_an_event_and_a_later_fix_wins() -> None:
    text = record_text(
        '{"play": "1b", "by": 0}',
        '{"play": "4c", "by": 1}',
        '{"play": "4c", "by": 1}',
        '{"undo": 3}',
        '{"fix": 2, "play": "6b", "by": 1}',
        '{"fix": 2, "play": "7b", "by": 1}',
        '{"play": "9b", "by": 2}',
    )
    events = parse_record(text).corrected_events()
    assert [(event.card.code, event.meta.number) for event in events] == [("1b", 1), ("7b", 2), ("9b", 7)]


@pytest.mark.parametrize(("lines", "words"), [
    (['{"fix": 2, "play": "5b", "by": 1}', '{"fix": 3, "play": "6b", "by": 1}'], "itself a correction"),
    (['{"undo": 2}', '{"undo": 3}'], "itself a correction"),
    (['{"undo": 2}', '{"undo": 2}'], "already withdrawn"),
    (['{"undo": 2}', '{"fix": 2, "play": "5b", "by": 1}'], "already withdrawn"),
    (['{"play": "5b", "by": 2}', '{"undo": 9}'], "earlier event"),
    (['{"play": "5b", "by": 2}', '{"undo": 4}'], "earlier event"),
    (['{"play": "5b", "by": 2}', '{"undo": 0}'], "earlier event"),
    (['{"play": "5b", "by": 2}', '{"fix": 1}'], "carries the replacing event"),
    (['{"play": "5b", "by": 2}', '{"undo": 1, "play": "5b", "by": 2}'], "carries none"),
    (['{"play": "5b", "by": 2}', '{"undo": 1, "fix": 1, "play": "5b", "by": 2}'], "not both"),
])
def test_a_bad_correction_is_an_error_naming_its_line(lines: list[str], words: str) -> None:
    error = error_of(record_text('{"play": "1b", "by": 0}', '{"play": "4b", "by": 1}', *lines))
    assert error.line == 5
    assert words in str(error)
    assert italian_of(error).startswith("partita.jsonl:5: ")


def test_a_correction_of_an_unreadable_event_is_an_error() -> None:
    text = record_text('{"play": "1b", "by": 0}', '{"play": "44b", "by": 1}',
                       '{"fix": 2, "play": "4b", "by": 1}')
    record = parse_record(text, lenient=True)
    assert [error.line for error in record.errors] == [3, 4]
    assert "no readable event 2" in str(record.errors[1])


# --- lenient ------------------------------------------------------------------------------------------


def test_lenient_collects_every_error_and_keeps_every_readable_event() -> None:
    text = record_text(
        '{"play": "1b", "by": 0}',
        '{"play": "1b", "by": 9}',
        "not json",
        '{"play": "4b", "by": 1}',
        '{"undo": 77}',
        '{"play": "9b", "by": 2}',
    )
    record = parse_record(text, name="r.jsonl", lenient=True)
    assert [error.line for error in record.errors] == [3, 4, 6]
    assert [str(error).split(":")[:2] for error in record.errors] == [["r.jsonl", "3"], ["r.jsonl", "4"],
                                                                       ["r.jsonl", "6"]]
    assert [error.event for error in record.errors] == [2, 3, 5]
    events = record.corrected_events()
    assert [(event.card.code, event.meta.number) for event in events] == [("1b", 1), ("4b", 4), ("9b", 6)]


def test_strict_stops_at_the_first_error() -> None:
    text = record_text('{"play": "1b", "by": 9}', "not json")
    assert error_of(text).line == 2


# --- writing ------------------------------------------------------------------------------------------


def test_write_then_read_gives_the_same_record_with_every_key_kept() -> None:
    text = record_text(
        '{"play": "3c", "by": 0, "t": 1.25, "source": "camera", "confidence": 0.9, "box": [1, 2, 3, 4]}',
        '{"accuso": ["1c", "1d", "1s"], "by": 1, "note": "manca bastoni"}',
        '{"draw": "7d", "by": 2}',
        '{"call": "c", "by": 3}',
        '{"claim": 0}',
        '{"fix": 1, "play": "2c", "by": 0, "source": "web"}',
        '{"undo": 3, "t": 60}',
        header='{"tressette": 1, "rules": {"preset": "classic", "target": 31}, '
               '"players": ["Niccolò", "Bruno", "Carla", "Dario"], "dealer": 1, "table": {"camera": "pi"}}',
    )
    record = parse_record(text)
    written = write_record(record)
    again = parse_record(written)
    assert again == record  # nothing before the header, no comments: even the line numbers agree
    assert write_record(again) == written
    assert "Niccolò" in written  # UTF-8 kept, not escaped
    assert json.loads(written.splitlines()[0])["table"] == {"camera": "pi"}
    assert json.loads(written.splitlines()[1]) == {"play": "3c", "by": 0, "t": 1.25, "source": "camera",
                                                   "confidence": 0.9, "box": [1, 2, 3, 4]}


def test_writing_a_lenient_read_renumbers_the_corrections() -> None:
    text = record_text('{"play": "1b", "by": 0}', '{"play": "1b", "by": 99}', '{"play": "7b", "by": 1}',
                       '{"fix": 3, "play": "4b", "by": 1}', '{"undo": 1}')
    record = parse_record(text, lenient=True)
    written = write_record(record)
    assert written.splitlines()[3:] == ['{"fix": 2, "play": "4b", "by": 1}', '{"undo": 1}']
    assert parse_record(written).corrected_events() == record.corrected_events()


def test_a_record_appended_line_by_line_reads_back() -> None:
    header = Header.create({"preset": "due"}, ["Anna", "Bruno"])
    entries = [RecordEntry(1, Meta(t=2.5, source="camera"), event=Play(parse_card("1b"), 0)),
               RecordEntry(2, Meta(), undo=1)]
    text = "".join(line + "\n" for line in [header_line(header), *map(entry_line, entries)])
    assert text.splitlines()[1:] == ['{"play": "1b", "by": 0, "t": 2.5, "source": "camera"}', '{"undo": 1}']
    record = parse_record(text)
    assert [entry.to_mapping() for entry in record.entries] == [entry.to_mapping() for entry in entries]
    assert record.corrected_events() == ()


def test_from_events_numbers_events_and_writes_a_readable_record() -> None:
    header = Header.create({"preset": "classic"}, ["Anna", "Bruno", "Carla", "Dario"], dealer=3, started="x")
    events = [Play(parse_card("5b"), 0), Play(parse_card("1b"), 1)]
    record = Record.from_events(header, events)
    assert [entry.number for entry in record.entries] == [1, 2]
    again = parse_record(write_record(record))
    assert again.corrected_events() == tuple(events)
    assert again.header == header


def test_header_create_checks_like_the_reader() -> None:
    with pytest.raises(RecordError, match='key "players"'):
        Header.create({"preset": "classic"}, ["Anna", "Bruno"])


# --- properties ---------------------------------------------------------------------------------------

_plays = st.tuples(st.sampled_from(CARD_CODES), st.integers(0, 3))


@st.composite
def lines_and_model(draw: st.DrawFn) -> tuple[list[str], dict[int, tuple[str, int]]]:
    """Random plays, fixes and undos that are all valid, and what the corrected sequence must be."""
    lines: list[str] = []
    live: dict[int, tuple[str, int]] = {}
    plain: set[int] = set()
    for number in range(1, draw(st.integers(1, 25)) + 1):
        choice = draw(st.sampled_from(["play", "play", "fix", "undo"])) if live else "play"
        card, seat = draw(_plays)
        if choice == "play":
            extra = {"t": draw(st.floats(0, 1e4, allow_nan=False))} if draw(st.booleans()) else {}
            lines.append(json.dumps({"play": card, "by": seat, **extra}))
            live[number] = (card, seat)
            plain.add(number)
        else:
            target = draw(st.sampled_from(sorted(live)))
            if choice == "fix":
                lines.append(json.dumps({"fix": target, "play": card, "by": seat}))
                live[target] = (card, seat)
            else:
                lines.append(json.dumps({"undo": target}))
                del live[target]
    return lines, live


@settings(max_examples=60, deadline=None)
@given(lines_and_model())
def test_corrections_and_round_trip_agree_with_a_simple_model(
        case: tuple[list[str], dict[int, tuple[str, int]]]) -> None:
    lines, model = case
    record = parse_record(record_text(*lines))
    events = record.corrected_events()
    assert [(event.card.code, event.by, event.meta.number) for event in events] == \
        [(card, seat, number) for number, (card, seat) in sorted(model.items())]
    again = parse_record(write_record(record))
    assert again == record
