"""`tressette score`: the exact score object on hand-checked records, and clear errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from table.cli import main

HEADER = '{"tressette": 1, "rules": {"preset": "classic"}, "players": ["Anna", "Bruno", "Carla", "Dario"], ' \
         '"dealer": 3}'

# Hand 1 (Dario deals, Anna leads). Anna holds coppe 4-10 and 1-2-3 of denari, Bruno the 1-2-3 of coppe
# and denari 4-Re, Carla every spade, Dario every bastone. Worked out by hand:
#  1 Anna 4c Bruno 3c Carla 4s Dario 4b -> Bruno (3c) 1/3     6 Anna 2d Bruno 6d ... -> Anna       1
#  2 Bruno 2c Carla 5s Dario 5b Anna 5c -> Bruno     1/3     7 Anna 6c Bruno 7d ... -> Anna       2/3
#  3 Bruno 1c Carla 6s Dario 6b Anna Rc -> Bruno     1 1/3   8 Anna 7c Bruno 8d 1s 1b -> Anna     2 1/3
#  4 Bruno 4d Carla 7s Dario 7b Anna 3d -> Anna      1/3     9 Anna 8c Bruno 9d 2s 2b -> Anna     1 1/3
#  5 Anna 1d Bruno 5d Carla 8s Dario 8b -> Anna      1 2/3  10 Anna 9c Bruno Rd 3s 3b -> Anna    1 1/3
# Anna e Carla 26 thirds + 3 for the last trick = 29 -> 9 points; Bruno e Dario 6 thirds -> 2. 9 + 2 = 11.
HAND_ONE = [
    ("4c", 0), ("3c", 1), ("4s", 2), ("4b", 3),
    ("2c", 1), ("5s", 2), ("5b", 3), ("5c", 0),
    ("1c", 1), ("6s", 2), ("6b", 3), ("10c", 0),
    ("4d", 1), ("7s", 2), ("7b", 3), ("3d", 0),
    ("1d", 0), ("5d", 1), ("8s", 2), ("8b", 3),
    ("2d", 0), ("6d", 1), ("9s", 2), ("9b", 3),
    ("6c", 0), ("7d", 1), ("10s", 2), ("10b", 3),
    ("7c", 0), ("8d", 1), ("1s", 2), ("1b", 3),
    ("8c", 0), ("9d", 1), ("2s", 2), ("2b", 3),
    ("9c", 0), ("10d", 1), ("3s", 2), ("3b", 3),
]
# Hand 2 (Anna deals, Bruno leads): Bruno 1b, Carla 3b takes (1 1/3 -> 1 whole point so far); Carla leads Rd.
HAND_TWO = [("1b", 1), ("3b", 2), ("4b", 3), ("5b", 0), ("10d", 2)]

EXPECTED_HANDS = [
    {"dealer": 3,
     "tricks": [{"leader": 0, "cards": ["4c", "3c", "4s", "4b"], "winner": 1},
                {"leader": 1, "cards": ["2c", "5s", "5b", "5c"], "winner": 1},
                {"leader": 1, "cards": ["1c", "6s", "6b", "10c"], "winner": 1},
                {"leader": 1, "cards": ["4d", "7s", "7b", "3d"], "winner": 0},
                {"leader": 0, "cards": ["1d", "5d", "8s", "8b"], "winner": 0},
                {"leader": 0, "cards": ["2d", "6d", "9s", "9b"], "winner": 0},
                {"leader": 0, "cards": ["6c", "7d", "10s", "10b"], "winner": 0},
                {"leader": 0, "cards": ["7c", "8d", "1s", "1b"], "winner": 0},
                {"leader": 0, "cards": ["8c", "9d", "2s", "2b"], "winner": 0},
                {"leader": 0, "cards": ["9c", "10d", "3s", "3b"], "winner": 0}],
     "card_thirds": [26, 6], "last_trick": 0, "accusi": [], "points": [9, 2]},
    {"dealer": 0,
     "tricks": [{"leader": 1, "cards": ["1b", "3b", "4b", "5b"], "winner": 2}],
     "card_thirds": [4, 0], "last_trick": None, "accusi": [], "points": [1, 0]},
]
RECORD_KEYS = {"hands", "totals", "winner", "flags"}
HAND_KEYS = ("dealer", "tricks", "card_thirds", "last_trick", "accusi", "points")
TRICK_KEYS = ("leader", "cards", "winner")


def plays(moves: list[tuple[str, int]]) -> list[str]:
    return [json.dumps({"play": card, "by": seat}) for card, seat in moves]


def write(tmp_path: Path, lines: list[str], name: str = "partita.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    return path


def run_score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["score", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def record_md_view(report: dict) -> dict:
    """The keys RECORD.md defines (the engine adds more; those are its own tests' business)."""
    hands = [{key: hand[key] for key in HAND_KEYS} for hand in report["hands"]]
    for hand in hands:
        hand["tricks"] = [{key: trick[key] for key in TRICK_KEYS} for trick in hand["tricks"]]
    return {"hands": hands, "totals": report["totals"], "winner": report["winner"], "flags": report["flags"]}


def test_score_prints_the_hand_checked_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ["# mano 1", *plays(HAND_ONE), "# mano 2", *plays(HAND_TWO)])
    status, out, err = run_score(capsys, str(path))
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert set(report) >= RECORD_KEYS
    # Hand 2 is still open: listed with its point so far, but scores are added at the end of a hand.
    assert record_md_view(report) == {"hands": EXPECTED_HANDS, "totals": [9, 2], "winner": None, "flags": []}
    assert [hand["complete"] for hand in report["hands"]] == [True, False]


def test_corrections_are_applied_before_scoring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    right = plays(HAND_ONE)
    lines = [
        *right[:3],  # events 1-3
        '{"play": "9b", "by": 3, "confidence": 0.3}',  # event 4: the camera saw a card that was not played
        '{"undo": 4, "source": "button"}',  # event 5: withdrawn at once
        right[3],  # event 6
        right[4],  # event 7
        '{"play": "7s", "by": 2, "confidence": 0.4}',  # event 8: misread, it was the 5s
        *right[6:9],  # events 9-11
        '{"fix": 8, "play": "5s", "by": 2, "source": "web"}',  # event 12
        *right[9:],
        *plays(HAND_TWO),
    ]
    status, out, _ = run_score(capsys, str(write(tmp_path, lines)))
    assert status == 0
    assert record_md_view(json.loads(out))["hands"] == EXPECTED_HANDS


def test_a_whole_match_has_a_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The bundled demo (a regression anchor, not hand-checked trick by trick): Bruno e Dario win 23 to 21,
    # both sides past the target in the same hand, so the higher total wins.
    status, out, _ = run_score(capsys, str(Path("table/data/demo.jsonl")))
    report = json.loads(out)
    assert status == 0
    assert report["totals"] == [21, 23]
    assert report["winner"] == 1
    assert [hand["points"] for hand in report["hands"]] == [[6, 5], [2, 9], [5, 6], [8, 3]]
    assert all(sum(hand["points"]) == 11 for hand in report["hands"])


def test_the_output_is_exactly_the_engine_object_as_json(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from engine.record import parse_record
    from engine.score import score_events

    path = write(tmp_path, plays(HAND_ONE))
    record = parse_record(path.read_text(encoding="utf-8"))
    header = record.header
    expected = score_events(header.rules, header.seats, header.dealer, record.corrected_events()).to_json()
    _, out, _ = run_score(capsys, str(path))
    assert json.loads(out) == expected
    assert out.startswith('{\n  "hands": [\n')
    assert '      "card_thirds": [26, 6],\n' in out  # short lists stay on one line, as RECORD.md shows them


def test_a_malformed_record_is_one_line_naming_file_and_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [*plays(HAND_ONE[:3]), '{"play": "3c", "by": 7}'])
    status, out, err = run_score(capsys, str(path), "--lang", "en")
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1
    assert f"{path}:5:" in err
    assert 'key "by"' in err
    _, _, italian = run_score(capsys, str(path))
    assert italian == (f'tressette score: errore: {path}:5: chiave "by": serve un posto 0..3 '
                       "(i giocatori sono 4), non 7\n")


def test_a_card_played_twice_is_an_error_naming_its_line(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    moves = list(HAND_ONE)
    moves[7] = ("3c", 0)  # Anna "plays" the Tre di coppe Bruno already played
    path = str(write(tmp_path, plays(moves)))
    status, out, err = run_score(capsys, path, "--lang", "en")
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1
    assert "partita.jsonl:9: event 8:" in err
    assert "3c" in err  # the rest of the message is the engine's
    _, _, italian = run_score(capsys, path)
    assert "partita.jsonl:9: evento 8: il posto 0 gioca 3c: 3c è già stata giocata in questa mano (mano 1, " \
           "presa 2" in italian


def test_a_play_out_of_turn_is_an_error_naming_its_line(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, plays([("4c", 0), ("4s", 2)])))
    status, out, err = run_score(capsys, path, "--lang", "en")
    assert (status != 0, out) == (True, "")
    assert "partita.jsonl:3: event 2:" in err
    assert run_score(capsys, path)[2].endswith(
        "partita.jsonl:3: evento 2: il posto 2 gioca 4s: tocca al posto 1 "
        "(mano 1, presa 1 (4c, aperta dal posto 0); tocca al posto 1)\n")


def test_lenient_skips_and_flags_impossible_events_and_unreadable_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = plays(HAND_ONE)
    lines.insert(4, json.dumps({"play": "4c", "by": 1}))  # event 5: the 4c again
    lines.insert(9, "{not json")  # event 10: unreadable
    status, out, err = run_score(capsys, str(write(tmp_path, lines)), "--lenient")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert [(flag["event"], flag["kind"]) for flag in report["flags"]] == [(5, "illegal_event"),
                                                                          (10, "unreadable_line")]
    assert "riga 11" in report["flags"][1]["message"]
    assert record_md_view(report)["hands"] == EXPECTED_HANDS[:1]  # nothing else lost


def test_a_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_score(capsys, str(tmp_path / "nowhere.jsonl"), "--lang", "en")
    assert (status, out) == (2, "")
    assert "nowhere.jsonl: no such record file" in err
    italian = run_score(capsys, str(tmp_path / "nowhere.jsonl"))[2]
    assert "nowhere.jsonl: questo file di partita non esiste" in italian


def test_a_file_that_is_not_utf8_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(HEADER.replace("Anna", "Niccolò").encode("latin-1") + b"\n")
    status, _, err = run_score(capsys, str(path), "--lang", "en")
    assert status == 2
    assert "not UTF-8" in err
    assert "non è testo UTF-8 (byte non valido alla posizione" in run_score(capsys, str(path))[2]


def test_score_reads_standard_input(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([HEADER, *plays(HAND_ONE)]) + "\n"))
    status, out, _ = run_score(capsys, "-")
    assert status == 0
    assert json.loads(out)["totals"] == [9, 2]
