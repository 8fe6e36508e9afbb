"""Debian's PySolFC card sets turned into deck folders for training, and how often each style is drawn."""

from __future__ import annotations

import io
import lzma
import tarfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES
from tests.artwork_helpers import flat_style
from tests.test_classifier import write_tiny_model
from vision.decks import Deck
from vision.training import bank as bank_command
from vision.training import pysol_decks
from vision.training.dataset import Augmentations, draw_sample, load_style, style_draw_weights
from vision.training.pysol_decks import (
    DECKS,
    FOREIGN_DIR,
    LATIN_DECKS,
    LEFT_OUT,
    PysolDeckError,
    checked,
    convert_set,
    deb_members,
    read_cardsets,
    source_file,
    unknown_styles_message,
)

SUITS = "cdhs"


def _png(value: int) -> bytes:
    ok, encoded = cv2.imencode(".png", np.full((60, 40, 3), value, np.uint8))
    assert ok
    return encoded.tobytes()


def _config(kind: str = "1") -> bytes:
    lines = [f"PySolFC solitaire cardset;5;.png;{kind};52;7;2000", "123-test;Test", "40 60 8", "18 20 7 7",
             "back01.png", "back01.png"]
    return "\n".join(lines).encode("latin-1")


def _deb(files: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    """A Debian package (ar archive) whose data archive holds ``files`` and the symbolic ``links``."""
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w") as archive:
        for path, data in files.items():
            info = tarfile.TarInfo(f"./usr/share/games/pysolfc/{path}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for path, target in (links or {}).items():
            info = tarfile.TarInfo(f"./usr/share/games/pysolfc/{path}")
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
    members = [("debian-binary", b"2.0\n"), ("data.tar.xz", lzma.compress(tar_bytes.getvalue()))]
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        out += f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode("ascii")
        out += data + (b"\n" if len(data) % 2 else b"")
    return bytes(out)


def _cardset(name: str, kind: str = "1") -> dict[str, bytes]:
    files = {f"cardset-{name}/{rank:02d}{suit}.png": _png(rank * 10 + SUITS.index(suit))
             for rank in range(1, 14) for suit in SUITS}
    files[f"cardset-{name}/config.txt"] = _config(kind)
    files[f"cardset-{name}/back01.png"] = _png(250)
    return files


@pytest.mark.parametrize(("code", "file_name"), [
    ("1c", "01h.gif"), ("7d", "07d.gif"), ("3s", "03s.gif"), ("2b", "02c.gif"),
    ("8b", "11c.gif"), ("9c", "12h.gif"), ("10d", "13d.gif"),
])
def test_a_tressette_card_is_the_french_deck_file_of_its_suit_and_rank(code: str, file_name: str) -> None:
    assert source_file(code, ".gif") == file_name


def test_every_french_set_of_the_package_is_either_converted_or_left_out_with_a_reason() -> None:
    assert not set(DECKS) & set(LEFT_OUT)
    assert len(DECKS) == len(set(DECKS)) == 78
    assert all(LEFT_OUT.values())


def test_a_set_becomes_a_deck_folder_the_renderer_loads(tmp_path: Path) -> None:
    deb = _deb(_cardset("test"))
    sets = read_cardsets(deb, ["test"])
    folder = convert_set("test", sets["test"], tmp_path)
    assert folder.name == "pysol-test"
    deck = Deck.load(folder)
    assert set(deck.faces) == set(CARD_CODES) and deck.back is not None
    assert deck.faces["9c"][0, 0, 0] == 12 * 10 + SUITS.index("h")  # Cavallo di coppe: queen of hearts
    assert deck.faces["2b"][0, 0, 0] == 2 * 10 + SUITS.index("c")  # Due di bastoni: two of clubs
    assert deck.back[0, 0, 0] == 250


def test_a_french_sets_8_9_10_and_jokers_go_to_its_foreign_folder_for_the_trainer(tmp_path: Path) -> None:
    files = _cardset("test") | {"cardset-test/01z.png": _png(251), "cardset-test/02z.png": _png(252)}
    folder = convert_set("test", read_cardsets(_deb(files), ["test"])["test"], tmp_path)
    foreign = folder / FOREIGN_DIR
    expected = [f"{rank:02d}{suit}.png" for rank in (8, 9, 10) for suit in SUITS] + ["01z.png", "02z.png"]
    assert sorted(p.name for p in foreign.iterdir()) == sorted(expected)
    assert cv2.imread(str(foreign / "09d.png"))[0, 0, 0] == 9 * 10 + SUITS.index("d")
    assert cv2.imread(str(foreign / "02z.png"))[0, 0, 0] == 252
    style = load_style(tmp_path, folder.name)
    assert len(style.foreign) == 14 and set(style.faces) == set(CARD_CODES)


def test_a_french_set_without_its_8_9_or_10_is_named(tmp_path: Path) -> None:
    files = _cardset("short")
    del files["cardset-short/09s.png"], files["cardset-short/10h.png"]
    sets = read_cardsets(_deb(files), ["short"])
    missing = r"cardset-short: no 09s.png, 10h.png in the set \(its 8, 9 and 10\)"
    with pytest.raises(PysolDeckError, match=missing):
        convert_set("short", sets["short"], tmp_path)


def test_a_card_the_package_shares_with_another_set_is_followed(tmp_path: Path) -> None:
    files = _cardset("a") | _cardset("b")
    del files["cardset-b/02h.png"]
    deb = _deb(files, links={"cardset-b/02h.png": "../cardset-a/02h.png"})
    sets = read_cardsets(deb, ["b"])
    assert sets["b"]["02h.png"] == files["cardset-a/02h.png"]
    assert Deck.load(convert_set("b", sets["b"], tmp_path)).faces["2c"][0, 0, 0] == 20 + SUITS.index("h")


def test_a_set_of_another_suit_system_is_refused_naming_its_config_line(tmp_path: Path) -> None:
    sets = read_cardsets(_deb(_cardset("tarock", kind="3")), ["tarock"])
    with pytest.raises(PysolDeckError, match=r"cardset-tarock/config.txt, line 1: not a French-suited set"):
        convert_set("tarock", sets["tarock"], tmp_path)


def test_a_missing_card_is_named(tmp_path: Path) -> None:
    files = _cardset("short")
    del files["cardset-short/11c.png"]
    sets = read_cardsets(_deb(files), ["short"])
    with pytest.raises(PysolDeckError, match=r"cardset-short: no 11c.png for card 8b"):
        convert_set("short", sets["short"], tmp_path)


def test_an_unreadable_card_picture_is_named(tmp_path: Path) -> None:
    files = _cardset("torn")
    files["cardset-torn/05s.png"] = b"not a picture"
    sets = read_cardsets(_deb(files), ["torn"])
    with pytest.raises(PysolDeckError, match=r"cardset-torn/05s.png: not a readable image"):
        convert_set("torn", sets["torn"], tmp_path)


def test_a_package_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PysolDeckError, match=r"here.deb: SHA-256 [0-9a-f]{64}, expected "):
        checked(_deb(_cardset("x")), "here.deb")
    with pytest.raises(PysolDeckError, match=r"not a Debian package"):
        list(deb_members(b"PK\x03\x04 a zip"))
    bad = tmp_path / "other.deb"
    bad.write_bytes(_deb(_cardset("x")))
    assert pysol_decks.main(["--out", str(tmp_path / "out"), "--deb", str(bad)]) == 1
    assert not (tmp_path / "out").exists()  # nothing half written


def test_italian_styles_keep_their_share_of_the_draws_however_many_french_designs() -> None:
    few = style_draw_weights(["napoletane", "sarde", "kde-penguins"], 0.25)
    many = style_draw_weights(["napoletane", "sarde"] + [f"pysol-{i}" for i in range(100)], 0.25)
    for weights in (few, many):
        assert weights.sum() == pytest.approx(1.0)
        assert weights[:2].sum() == pytest.approx(0.25)
    assert np.allclose(style_draw_weights(["a", "b", "c", "d"], 0.25), 0.25)  # one kind only: all alike


def test_the_pysol_designs_can_be_given_their_own_share_so_the_other_french_decks_keep_theirs() -> None:
    names = ["napoletane", "sarde", "kde-penguins", "gnome-paris"] + [f"pysol-{i}" for i in range(8)]
    weights = style_draw_weights(names, italian_share=0.25, pysol_share=0.25)
    assert weights[:2].sum() == pytest.approx(0.25) and weights[4:].sum() == pytest.approx(0.25)
    assert np.allclose(weights[2:4], 0.25)  # the two other French decks share the half left
    only_pysol = style_draw_weights(names, pysol_share=0.5)
    assert only_pysol[4:].sum() == pytest.approx(0.5) and np.allclose(only_pysol[:4], 0.125)
    absent = style_draw_weights(["napoletane", "kde-penguins"], italian_share=0.25, pysol_share=0.25)
    assert absent.tolist() == pytest.approx([0.25, 0.75])  # no PySolFC design: its share goes back


def test_drawn_styles_follow_their_weights_only_when_asked() -> None:
    styles = [flat_style("napoletane", 10)] + [flat_style(f"pysol-{i}", 20 + i) for i in range(9)]
    shares = Augmentations(italian_share=0.25)
    rng = np.random.default_rng(3)
    italian = sum(draw_sample(rng, styles, shares)[2] == 0 for _ in range(400))
    assert 70 <= italian <= 130  # a quarter of 400, not a tenth
    alike = sum(draw_sample(rng, styles)[2] == 0 for _ in range(400))
    assert 20 <= alike <= 65  # a tenth: the shipped recipe's draws, unchanged


def test_a_bank_of_card_sets_not_made_yet_says_how_to_make_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "cards").mkdir()
    monkeypatch.setenv("TRESSETTE_CARDS", str(tmp_path / "cards"))
    model = write_tiny_model(tmp_path / "tiny.onnx")
    with pytest.raises(SystemExit):
        bank_command.main(["--model", str(model), "--styles", "pysol-liege,pysol-gpl"])
    err = capsys.readouterr().err
    assert "2 styles are Debian's PySolFC card sets" in err
    assert "vision.training.pysol_decks --out DIR, then TRESSETTE_CARDS=DIR" in err


def test_missing_styles_are_named_and_missing_pysol_sets_come_with_the_command_that_makes_them(
    tmp_path: Path,
) -> None:
    (tmp_path / "cards" / "francesi").mkdir(parents=True)
    root = tmp_path / "cards"
    assert unknown_styles_message(["francesi"], root) is None
    hint = unknown_styles_message(["francesi", "pysol-liege"], root)
    assert hint is not None and hint.startswith("1 styles are Debian's PySolFC card sets")
    other = unknown_styles_message(["pysol-liege", "sarde"], root)
    assert other == f"unknown styles ['pysol-liege', 'sarde']; available under {root}: francesi"


def _tarot(name: str) -> dict[str, bytes]:
    files = {f"cardset-{name}/{rank:02d}{suit}.png": _png(rank * 10 + SUITS.index(suit))
             for rank in range(1, 15) for suit in SUITS}
    files |= {f"cardset-{name}/{trump:02d}z.png": _png(200) for trump in range(22)}
    files[f"cardset-{name}/config.txt"] = _config("3")
    files[f"cardset-{name}/back01.png"] = _png(250)
    return files


def test_the_latin_tarot_becomes_an_italian_suited_deck_of_valet_cavalier_and_king(tmp_path: Path) -> None:
    assert LATIN_DECKS == ("1880-tarot",)
    sets = read_cardsets(_deb(_tarot("1880-tarot")), ["1880-tarot"])
    deck = Deck.load(convert_set("1880-tarot", sets["1880-tarot"], tmp_path))
    assert deck.italian and set(deck.faces) == set(CARD_CODES)
    assert deck.faces["8s"][0, 0, 0] == 11 * 10 + SUITS.index("s")  # Fante: the Valet
    assert deck.faces["9c"][0, 0, 0] == 12 * 10 + SUITS.index("h")  # Cavallo di coppe: Cavalier of cups
    assert deck.faces["10b"][0, 0, 0] == 14 * 10 + SUITS.index("c")  # Re di bastoni: King of batons
    assert source_file("10d", ".gif", tarot=True) == "14d.gif"
    assert not (tmp_path / "pysol-1880-tarot" / FOREIGN_DIR).exists()  # a tarot's extra cards are its own


def test_a_latin_deck_whose_config_is_not_a_tarot_is_refused(tmp_path: Path) -> None:
    sets = read_cardsets(_deb(_cardset("1880-tarot", kind="1")), ["1880-tarot"])
    with pytest.raises(PysolDeckError, match=r"cardset-1880-tarot/config.txt, line 1: not a tarot set"):
        convert_set("1880-tarot", sets["1880-tarot"], tmp_path)


def test_the_latin_sets_are_converted_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    package = tmp_path / "cards.deb"
    package.write_bytes(_deb(_cardset("a") | _tarot("1880-tarot")))
    monkeypatch.setattr(pysol_decks, "DECKS", ("a",))
    monkeypatch.setattr(pysol_decks, "checked", lambda deb, where: deb)  # a package of the test's own
    given = ["--deb", str(package), "--no-link"]
    assert pysol_decks.main([*given, "--out", str(tmp_path / "plain")]) == 0
    assert sorted(p.name for p in (tmp_path / "plain").iterdir()) == ["pysol-a"]
    assert pysol_decks.main([*given, "--out", str(tmp_path / "all"), "--latin"]) == 0
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == ["pysol-1880-tarot", "pysol-a"]
    assert "2 decks written" in capsys.readouterr().out
