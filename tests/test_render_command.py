"""`tressette render`: record in, mp4 + truth out; bad inputs give one clear line and exit status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from engine.events import Play
from engine.record import write_record
from engine.rules import PRESETS
from engine.simulate import simulate_match
from table.cli import main
from table.commands.render import script_of_record
from table.record_file import read_record
from tests.test_render import synthetic_deck
from vision.scene.render import RenderSettings, SceneRenderer
from vision.scene.truth import read_truth

HEADER = {"tressette": 1, "rules": {"preset": "classic"}, "players": ["Anna", "Bruno", "Carla", "Dario"],
          "dealer": 3}
ONE_TRICK = "\n".join([json.dumps(HEADER)] + [json.dumps({"play": code, "by": seat})
                                              for seat, code in enumerate(["5b", "1b", "9b", "4b"])]) + "\n"


@pytest.fixture
def deck_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "deck"
    folder.mkdir()
    deck = synthetic_deck()
    for code, face in deck.faces.items():
        cv2.imwrite(str(folder / f"{code}.png"), face)
    return folder


def run_render(tmp_path: Path, record: Path, *extra: str) -> tuple[int, Path, Path]:
    out, truth = tmp_path / "clip.mp4", tmp_path / "clip.truth.jsonl"
    status = main(["render", str(record), "--out", str(out), "--truth", str(truth), *extra])
    return status, out, truth


def test_one_trick_record_renders_a_clip_and_its_truth(tmp_path: Path, deck_dir: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    status, out, truth_path = run_render(tmp_path, record, "--deck", str(deck_dir), "--difficulty", "easy",
                                         "--fps", "4", "--seed", "9", "--lang", "en")
    assert status == 0
    assert "4 cards, 1 tricks; truth in" in capsys.readouterr().out
    truth = read_truth(truth_path)
    assert truth.header["record"] == "one.jsonl" and truth.header["deck"] == "deck"
    assert truth.header["seed"] == 9 and truth.header["size"] == [1280, 720]
    rests = [(e["seat"], e["card"]) for e in truth.of_kind("rest")]
    assert rests == [(0, "5b"), (1, "1b"), (2, "9b"), (3, "4b")]
    assert [e["winner"] for e in truth.of_kind("pickup")] == [1]
    video = cv2.VideoCapture(str(out))
    assert video.isOpened()
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == truth.header["frames"]
    ok, frame = video.read()
    assert ok and frame.shape == (720, 1280, 3)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "due", "morto", "cinque"])
def test_a_simulated_hand_renders_every_card_once_in_play_order(tmp_path: Path, deck_dir: Path,
                                                                 preset: str) -> None:
    record = simulate_match(PRESETS[preset], random.Random(4))
    path = tmp_path / f"{preset}.jsonl"
    path.write_text(write_record(record))
    status, _, truth_path = run_render(tmp_path, path, "--deck", str(deck_dir), "--difficulty", "easy",
                                       "--fps", "2", "--hands", "1")
    assert status == 0
    truth = read_truth(truth_path)
    plays = [(e.by, e.card.code) for e in record.corrected_events() if isinstance(e, Play)][:40]
    rests = [(e["seat"], e["card"]) for e in truth.of_kind("rest")]
    assert rests == plays
    assert len({card for _, card in rests}) == 40
    if preset == "due":
        assert len(truth.of_kind("draw")) == 20


def test_missing_deck_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    status, _, _ = run_render(tmp_path, record, "--deck", str(tmp_path / "nodeck"), "--lang", "en")
    assert status == 2
    assert "nodeck: no such deck folder" in capsys.readouterr().err
    run_render(tmp_path, record, "--deck", str(tmp_path / "nodeck"))
    assert "errore: " in (italian := capsys.readouterr().err)
    assert "nodeck: questa cartella di mazzo non esiste" in italian


def test_incomplete_deck_names_the_missing_card(tmp_path: Path, deck_dir: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (deck_dir / "7d.png").unlink()
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    status, _, _ = run_render(tmp_path, record, "--deck", str(deck_dir), "--lang", "en")
    assert status == 2
    assert "no image for card '7d'" in capsys.readouterr().err
    run_render(tmp_path, record, "--deck", str(deck_dir))
    assert "manca l'immagine della carta '7d' (7d.jpg o 7d.png)" in capsys.readouterr().err


def test_bad_size_is_refused_before_rendering(tmp_path: Path, deck_dir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    status, out, _ = run_render(tmp_path, record, "--deck", str(deck_dir), "--size", "800x600")
    assert status == 2
    assert "dimensione del fotogramma non supportata '800x600': la camera riprende 1280x720, 1920x1080" \
        in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such record file"),
    ("not json at all\n", "one.jsonl:1"),
    (json.dumps(HEADER) + '\n{"play": "zz", "by": 0}\n', "one.jsonl:2"),
])
def test_unreadable_records_are_named(tmp_path: Path, deck_dir: Path, capsys: pytest.CaptureFixture[str],
                                      content: str | None, message: str) -> None:
    record = tmp_path / "one.jsonl"
    if content is not None:
        record.write_text(content)
    status, _, _ = run_render(tmp_path, record, "--deck", str(deck_dir), "--lang", "en")
    assert status == 2
    assert message in capsys.readouterr().err


def test_nonsense_hands_and_fps_are_refused(tmp_path: Path, deck_dir: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    assert run_render(tmp_path, record, "--deck", str(deck_dir), "--hands", "0")[0] == 2
    assert "--hands" in capsys.readouterr().err
    assert run_render(tmp_path, record, "--deck", str(deck_dir), "--fps", "0")[0] == 2
    assert "--fps" in capsys.readouterr().err


DATA = Path(__file__).resolve().parents[1] / "table" / "data"


def test_bundled_demo_clip_is_the_first_hand_of_the_demo_record() -> None:
    truth = read_truth(DATA / "demo.truth.jsonl")
    script = script_of_record(read_record(DATA / "demo.jsonl")).limited(1)
    plays = [play for trick in script.hands[0].tricks for play in trick.plays]
    assert [(e["seat"], e["card"]) for e in truth.of_kind("rest")] == plays
    assert [e["winner"] for e in truth.of_kind("pickup")] == [t.winner for t in script.hands[0].tricks]
    assert truth.header["difficulty"] == "normal" and truth.header["deck"] == "napoletane"
    clip = DATA / "demo.mp4"
    assert clip.stat().st_size <= 10 * 1024 * 1024
    video = cv2.VideoCapture(str(clip))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == truth.header["frames"]


def test_unwritable_clip_paths_are_named(tmp_path: Path, deck_dir: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK)
    common = ["--truth", str(tmp_path / "t.jsonl"), "--deck", str(deck_dir)]
    missing_folder = str(tmp_path / "nowhere" / "clip.mp4")
    assert main(["render", str(record), "--out", missing_folder, *common]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["render", str(record), "--out", str(tmp_path / "clip.avi"), *common]) == 2
    assert "must be an .mp4 file" in capsys.readouterr().err


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_gives_a_truth_with_each_played_card_once_per_hand(preset: str) -> None:
    record = simulate_match(PRESETS[preset], random.Random(7))
    script = script_of_record(record).limited(2)
    scene = SceneRenderer(script, synthetic_deck(), RenderSettings(seed=1, difficulty="hard", fps=10.0))
    events = scene.truth_events()
    plays = [play for hand in script.hands for trick in hand.tricks for play in trick.plays]
    assert [(e["seat"], e["card"]) for e in events if e["event"] == "rest"] == plays
    for hand in range(len(script.hands)):
        cards = [e["card"] for e in events if e["event"] == "rest" and e["hand"] == hand]
        assert len(cards) == len(set(cards))
    frames = [e["frame"] for e in events]
    assert frames == sorted(frames) and frames[-1] < scene.frame_count


def test_a_record_stopping_mid_trick_leaves_the_open_trick_on_the_table(tmp_path: Path,
                                                                         deck_dir: Path) -> None:
    record = tmp_path / "one.jsonl"
    record.write_text(ONE_TRICK + '{"play": "3c", "by": 1}\n')
    status, _, truth_path = run_render(tmp_path, record, "--deck", str(deck_dir), "--difficulty", "easy",
                                       "--fps", "2")
    assert status == 0
    truth = read_truth(truth_path)
    assert [e["card"] for e in truth.of_kind("rest")] == ["5b", "1b", "9b", "4b", "3c"]
    assert len(truth.of_kind("pickup")) == 1 and not truth.of_kind("hand_end")
