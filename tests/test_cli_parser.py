"""argparse's own words (usage, sections, its errors) in Italian by default and in English with --lang en."""

from __future__ import annotations

import pytest

from table.cli import build_parser, main
from table.cli_parser import LANGUAGE, argparse_in_italian, language_of


def run_failing(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(list(argv))
    assert caught.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


@pytest.mark.parametrize(("argv", "lang"), [
    ([], "it"),
    (["score", "x.jsonl"], "it"),
    (["score", "x.jsonl", "--lang", "en"], "en"),
    (["--lang=en"], "en"),
    (["score", "--lang", "it", "x.jsonl"], "it"),
    (["score", "--", "--lang", "en"], "it"),
    (["score", "--lang"], "it"),
])
def test_the_language_is_read_from_the_command_line_before_parsing(argv: list[str], lang: str) -> None:
    assert language_of(argv) == lang


def test_a_missing_argument_is_told_in_italian_with_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    err = run_failing(capsys, "score")
    assert err == ("uso: tressette score [-h] [--lenient] [--lang {it,en}] RECORD\n"
                   "tressette score: errore: mancano questi argomenti: RECORD\n")
    assert run_failing(capsys, "score", "--lang", "en") == (
        "usage: tressette score [-h] [--lenient] [--lang {it,en}] RECORD\n"
        "tressette score: error: the following arguments are required: RECORD\n")
    assert LANGUAGE.get() == "it"


@pytest.mark.parametrize(("argv", "italian"), [
    (["giocami"], "argomento COMMAND: scelta non valida: 'giocami' (si sceglie tra 'classify', "),
    (["score", "x.jsonl", "--piano"], "argomenti sconosciuti: --piano"),
    (["classify", "--top", "tre", "a.jpg"], "argomento --top: un numero intero da 1 in su, non 'tre'"),
    (["classify", "--threads", "a.jpg"], "argomento --threads: un numero intero da 1 in su, non 'a.jpg'"),
    (["simulate", "--preset", "classic", "--seed", "uno"],
     "argomento --seed: serve un numero intero, non 'uno'"),
    (["classify", "a.jpg", "--deck"], "argomento --deck: serve un valore"),
    (["replay", "x.jsonl", "--lang", "fr"],
     "argomento --lang: scelta non valida: 'fr' (si sceglie tra 'it', 'en')"),
    (["simulate", "--preset", "classic", "--seed", "1", "--players", "A,,C,D"],
     "argomento --players: nomi separati da virgole, senza nomi vuoti: 'A,,C,D'"),
    (["enroll", "--in-order", "--suits", "c,d,s", "--out", "d.npz", "deck"],
     "argomento --suits: i quattro semi, una volta ciascuno, in ordine; non 'c,d,s'"),
])
def test_a_bad_command_line_is_told_in_italian(capsys: pytest.CaptureFixture[str], argv: list[str],
                                               italian: str) -> None:
    err = run_failing(capsys, *argv)
    assert err.startswith("uso: tressette")
    assert f": errore: {italian}" in err


def test_the_same_errors_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert "error: argument --top: a whole number of 1 or more, got 'tre'" in run_failing(
        capsys, "classify", "--top", "tre", "a.jpg", "--lang", "en")
    assert "error: argument --players: names separated by commas, none empty: 'A,,C,D'" in run_failing(
        capsys, "simulate", "--preset", "classic", "--seed", "1", "--players", "A,,C,D", "--lang", "en")


def test_the_help_is_headed_in_italian_or_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    italian = capsys.readouterr().out
    assert italian.startswith("uso: tressette score")
    assert "\nargomenti:\n" in italian and "\nopzioni:\n" in italian
    assert "-h, --help      mostra questo aiuto ed esce" in italian
    with pytest.raises(SystemExit):
        main(["score", "--help", "--lang", "en"])
    english = capsys.readouterr().out
    assert english.startswith("usage: tressette score")
    assert "\noptions:\n" in english and "show this help message and exit" in english


@pytest.mark.parametrize(("english", "italian"), [
    ("expected at least one argument", "serve almeno un valore"),
    ("expected at most one argument", "serve al più un valore"),
    ("one of the arguments --a --b is required", "serve uno degli argomenti --a --b"),
    ("not allowed with argument --a", "non va insieme all'argomento --a"),
    ("ambiguous option: --l could match --lang, --lenient",
     "opzione ambigua: --l può essere --lang, --lenient"),
    ("ignored explicit argument 'x'", "valore ignorato: 'x'"),
    ("argument --x: invalid float value: 'y'", "argomento --x: serve un numero, non 'y'"),
    ("argument --x: invalid Path value: 'y'", "argomento --x: serve un valore Path, non 'y'"),
    ("nessun modello in m.onnx", "nessun modello in m.onnx"),
])
def test_argparse_messages_in_italian(english: str, italian: str) -> None:
    assert argparse_in_italian(english) == italian


ITALIAN_WORDS = ("predefinit", " il ", " la ", " della ", " delle ", " che ", " lingua ")
ENGLISH_WORDS = ("default", " the ", " of ", " language ", " which ")


@pytest.mark.parametrize("command", ["classify", "demo", "enroll", "render", "replay", "score", "simulate"])
def test_every_commands_help_is_in_italian_or_in_english(command: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    texts = {}
    for lang in ("it", "en"):
        with pytest.raises(SystemExit):
            main([command, "--help", "--lang", lang])
        texts[lang] = capsys.readouterr().out.lower()
    assert not [word for word in ITALIAN_WORDS if word in texts["en"]], texts["en"]
    assert not [word for word in ENGLISH_WORDS if word in texts["it"]], texts["it"]


def test_a_parser_built_in_english_is_english_throughout() -> None:
    help_text = build_parser("en").format_help()
    assert help_text.startswith("usage: tressette")
    assert "follows a game of Tressette" in help_text and "prints the score" in help_text
    assert LANGUAGE.get() == "it"
