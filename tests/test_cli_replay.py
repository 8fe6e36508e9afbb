"""`tressette replay` and `tressette demo`: the match told for people, in Italian and English."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from table.cli import main
from tests.test_cli_score import HAND_ONE, HAND_TWO, HEADER, plays

DEMO = Path(__file__).resolve().parent.parent / "table" / "data" / "demo.jsonl"


def write(tmp_path: Path, lines: list[str], header: str = HEADER) -> Path:
    path = tmp_path / "partita.jsonl"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_replay_in_italian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "replay", str(write(tmp_path, plays(HAND_ONE) + plays(HAND_TWO))))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == ["Replay della partita: Anna, Bruno, Carla, Dario.",
                         "Squadre: Anna e Carla contro Bruno e Dario.", "Si gioca a 21."]
    assert "Mano 1: dà le carte Dario." in lines
    assert lines[lines.index("Mano 1: dà le carte Dario.") + 1:][:8] == [
        "  Presa 1: apre Anna.",
        "    Anna: Quattro di coppe",
        "    Bruno: Tre di coppe",
        "    Carla: Quattro di spade — Carla non risponde a coppe",
        "    Dario: Quattro di bastoni — Dario non risponde a coppe",
        "    Prende Bruno: il Tre è la carta più alta di coppe.",
        "    La presa vale 1/3.",
        "  Presa 2: apre Bruno.",
    ]
    assert "  Presa 10, l'ultima: apre Anna." in lines
    assert "  In carte: Anna e Carla 8 e 2/3; Bruno e Dario 2 punti, ultima presa ad Anna e Carla." in lines
    assert "  Punti della mano: Anna e Carla 9, Bruno e Dario 2." in lines
    assert "Mano 2: dà le carte Anna." in lines
    # Hand 2 stops after a trick: its point so far is told, but not added to the score until the hand ends.
    assert lines[-5:] == [
        "  In carte: Anna e Carla 1 e 1/3; Bruno e Dario niente.",
        "  Punti della mano finora: Anna e Carla 1, Bruno e Dario 0 (si sommano a fine mano).",
        "  Punteggio: Anna e Carla 9, Bruno e Dario 2.",
        "",
        "La partita non è finita: Anna e Carla 9, Bruno e Dario 2.",
    ]


def test_replay_of_a_match_claimed_inside_a_hand_adds_that_hand(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    header = HEADER.replace('{"preset": "classic"}', '{"preset": "classic", "claim": true, "target": 10}')
    record = write(tmp_path, [*plays(HAND_ONE), *plays(HAND_TWO), '{"claim": 0}'], header)
    status, out, _ = run(capsys, "replay", str(record), "--lang", "en")
    assert status == 0
    assert out.splitlines()[-4:] == [
        "  Points of the hand: Anna and Carla 1, Bruno and Dario 0.",
        "  Score: Anna and Carla 10, Bruno and Dario 2.",
        "",
        "Anna and Carla win: Anna and Carla 10, Bruno and Dario 2 (they claimed the target with the points).",
    ]


def test_replay_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", str(write(tmp_path, plays(HAND_ONE))), "--lang", "en")
    assert status == 0
    assert "Hand 1: Dario deals." in out
    assert "    Bruno: Three of cups\n" in out
    assert "    Bruno takes it: the Three is the highest card of cups.\n" in out
    assert "  Points of the hand: Anna and Carla 9, Bruno and Dario 2.\n" in out


def test_replay_tells_accusi_and_the_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # With accusi mandatory, each player is seen to hold a napoletana (Anna denari, Bruno coppe, Carla spade,
    # Dario bastoni): 3 points each, so 9 + 6 = 15 against 2 + 6 = 8, and 15 reaches the target of 12.
    header = HEADER.replace('{"preset": "classic"}', '{"preset": "accuso", "target": 12}')
    status, out, _ = run(capsys, "replay", str(write(tmp_path, plays(HAND_ONE), header)))
    assert status == 0
    assert "  Accuso di Anna: napoletana di denari, 3 punti.\n" in out
    assert "  Accuso di Bruno: napoletana di coppe, 3 punti.\n" in out
    assert "  Punti della mano: Anna e Carla 15, Bruno e Dario 8.\n" in out
    assert out.splitlines()[-1] == "Vincono Anna e Carla: Anna e Carla 15, Bruno e Dario 8."


def test_replay_of_a_match_where_each_scores_alone(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--preset", "chiamata", "--seed", "4", "--rule", "target=3",
          "--out", str(tmp_path / "chiamata.jsonl")])
    status, out, _ = run(capsys, "replay", str(tmp_path / "chiamata.jsonl"))
    assert status == 0
    assert "I compagni cambiano a ogni mano; ognuno ha il suo punteggio." in out
    assert " chiama " in out
    assert "In questa mano: " in out
    assert out.splitlines()[-1].startswith("Vince ")


def test_replay_of_a_malformed_record_fails_with_the_line(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "replay", str(write(tmp_path, [json.dumps({"play": "4c"})])))
    assert (status, out) == (2, "")
    assert "partita.jsonl:2:" in err


def test_demo_tells_the_bundled_match_in_italian(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Tressette Table, dimostrazione:")
    assert "Mano 1: dà le carte Dario." in lines
    assert lines[-1] == ("Vincono Bruno e Dario: Anna e Carla 21, Bruno e Dario 23 "
                         "(tutte e due oltre 21: vince il punteggio più alto).")


def test_no_arguments_runs_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert capsys.readouterr().out.startswith("Tressette Table, dimostrazione:")


def test_the_demo_record_is_a_complete_classic_match_with_timestamps() -> None:
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["players"] == ["Anna", "Bruno", "Carla", "Dario"]
    assert header["rules"] == {"preset": "classic"}
    events = [json.loads(line) for line in lines[1:]]
    assert all("t" in event for event in events)
    assert len(events) == 160


def test_the_installed_script_runs_the_demo() -> None:
    script = Path(sys.executable).parent / "tressette"
    done = subprocess.run([str(script), "demo", "--lang", "en"], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Tressette Table demo: the bundled example match")
    assert "Bruno and Dario win" in done.stdout


def test_replay_tells_the_draws_of_two_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "due.jsonl"
    main(["simulate", "--preset", "due", "--seed", "1", "--out", str(path)])
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "Ognuno gioca per sé."
    first_draw = next(index for index, line in enumerate(lines) if " pesca " in line)
    assert lines[first_draw - 1].startswith("    La presa vale")
    assert lines[first_draw].startswith("    Bruno pesca ")  # Bruno took the first trick: he draws first
    assert sum(" pesca " in line for line in lines) == 20 * out.count("Mano ")


def test_replay_tells_a_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fitres.jsonl"
    main(["simulate", "--preset", "fitres", "--seed", "0", "--rule", "win=end_of_hand", "--out", str(path)])
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "    Bruno e Dario si chiamano fuori.\n" in out
    assert out.splitlines()[-1].endswith("(si sono chiamati fuori con i punti giusti).")


def test_lenient_replay_lists_what_it_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = plays(HAND_ONE)
    lines.insert(2, json.dumps({"play": "4c", "by": 2}))  # event 3: the 4c seen again
    status, out, _ = run(capsys, "replay", str(write(tmp_path, lines)), "--lenient")
    assert status == 0
    tail = out.splitlines()[-2:]
    assert tail[0] == "Segnalazioni:"
    assert tail[1].startswith("  evento 3: ")


def test_replay_of_an_avoid_points_match_names_the_loser(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "traversone.jsonl"
    main(["simulate", "--preset", "traversone", "--seed", "1", "--out", str(path)])
    status, out, _ = run(capsys, "replay", str(path), "--lang", "en")
    assert status == 0
    assert "Take as few points as you can: whoever reaches 21 loses.\n" in out
    assert out.splitlines()[-1].endswith(" loses.")
