"""Errors a player meets say it in Italian, by default, with the English text kept for logs and code.

Known answers for each impossible event the engine refuses (the state it names, the event, why), the
card and match-start errors, the record file's own errors, and the impossible-event flag; the record
reader's and the rules' errors are checked where those are tested (test_record.py, test_rules.py).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.card_names import parse_card_name
from engine.cards import Card, parse_card
from engine.errors import BilingualError, IllegalEventError, Message, RuleError, TressetteError, joined
from engine.events import Accuso, Call, Claim, Draw, Event, Meta, Play
from engine.record import RecordError, parse_record
from engine.rules import PRESETS, Rules
from engine.state import MatchState
from table.errors import TableError
from table.record_file import read_record
from tests.engine_matches import play_cards
from tests.italian_text import italian_of

DECLARED = Rules.from_mapping({"preset": "accuso", "accuso": "declared"})


def c(code: str) -> Card:
    return parse_card(code)


def start(preset: str | Rules = "classic") -> MatchState:
    rules = PRESETS[preset] if isinstance(preset, str) else preset
    return MatchState.start(rules, rules.seats, rules.seats - 1)


def numbered(event: Event) -> Event:
    return type(event)(*[getattr(event, name) for name in event.__dataclass_fields__ if name != "meta"],
                       meta=Meta(number=12, line=13))


def accuso(codes: str, by: int) -> Accuso:
    return Accuso(tuple(c(code) for code in codes.split()), by)


def win_at_once() -> MatchState:
    return play_cards(start(Rules.from_mapping({"target": 3, "win": "immediate"})), "1c 1d 1s 1b")


@pytest.mark.parametrize(("state", "event", "italian"), [
    (lambda: play_cards(start(), "5b"), Play(c("5b"), 1),
     "evento 12 (riga 13): il posto 1 gioca 5b: 5b è già stata giocata in questa mano "
     "(mano 1, presa 1 (5b, aperta dal posto 0); tocca al posto 1)"),
    (start, Play(c("3c"), 2),
     "evento 12 (riga 13): il posto 2 gioca 3c: tocca al posto 0 (mano 1, presa 1 (ancora nessuna carta); "
     "tocca al posto 0)"),
    (start, Play(c("3c"), 7), "il posto 7 gioca 3c: non c'è il posto 7 (posti 0..3)"),
    (start, Draw(c("3c"), 0), "il posto 0 pesca 3c: non c'è da pescare"),
    (lambda: play_cards(start("due"), "4c 5c"), Draw(c("6c"), 0), "pesca prima il posto 1"),
    (lambda: play_cards(start("due"), "4c 5c"), Play(c("6c"), 1),
     "prima deve pescare il posto 1 (mano 1, presa 2 (ancora nessuna carta); deve pescare il posto 1)"),
    (lambda: play_cards(start("due"), "4c 5c").apply(Draw(c("6c"), 1)), Draw(c("6c"), 0),
     "6c è già stata pescata in questa mano"),
    (lambda: play_cards(start("due"), "4c 5c").apply(Draw(c("6c"), 1)).apply(Draw(c("7c"), 0)),
     Play(c("7c"), 1), "7c l'ha pescata il posto 0"),
    (lambda: start("chiamata"), Play(c("5b"), 0), "il posto 0 deve prima chiamare un seme"),
    (lambda: start("chiamata"), Call("c", 1), "il posto 1 chiama c: in questa mano chiama il posto 0"),
    (lambda: start("chiamata"), Call("x", 0), "'x' non è un seme (c, d, s, b)"),
    (lambda: start("chiamata").apply(Call("c", 0)), Call("d", 0), "in questa mano si è già chiamato c"),
    (start, Call("c", 0), "in questa partita non si chiama (sides non è 'called')"),
    (lambda: start(DECLARED), accuso("1c 2c", 0),
     "il posto 0 accusa 1c 2c: queste carte non sono una Napoletana né un Bongioco"),
    (lambda: start("accuso"), accuso("1c 2c 3c", 0), "gli accusi si contano dalle carte giocate"),
    (start, accuso("1c 2c 3c", 0), "in questa partita non ci sono accusi"),
    (lambda: start(DECLARED).apply(accuso("1c 2c 3c", 0)), accuso("1c 2c 3c", 0),
     "il posto 0 l'ha già accusato"),
    (win_at_once, Play(c("2c"), 0), "la partita è finita (vince 0, target all'evento 4)"),
    (lambda: play_cards(start(), "1c"), Claim(0),
     "il lato 0 si chiama fuori: in questa partita non ci si chiama fuori (opzione claim = false)"),
    (lambda: start("fitres"), Claim(2), "il lato 2 si chiama fuori: non c'è il lato 2 (lati 0 e 1)"),
    (lambda: start(Rules.from_mapping({"first_lead": "four_of_denari"})), Draw(c("3c"), 0),
     "può aprire chiunque (Quattro di denari)"),
])
def test_an_impossible_event_is_told_in_italian(state: Callable[[], MatchState], event: Event,
                                                 italian: str) -> None:
    with pytest.raises(IllegalEventError) as caught:
        state().apply(numbered(event))
    text = italian_of(caught.value)
    assert italian in text
    assert str(caught.value).startswith("event 12 (line 13): ")


def test_what_is_not_a_card_or_not_an_event_is_told_in_italian() -> None:
    with pytest.raises(IllegalEventError) as caught:
        start().apply(Play("3c", 0))  # type: ignore[arg-type]
    assert "'3c' non è una carta" in italian_of(caught.value)
    with pytest.raises(IllegalEventError) as caught:
        start(DECLARED).apply(Accuso(("1c", "2c", "3c"), 0))  # type: ignore[arg-type]
    assert "un accuso elenca delle carte" in italian_of(caught.value)
    with pytest.raises(IllegalEventError) as caught:
        start().apply("play 3c")  # type: ignore[arg-type]
    assert italian_of(caught.value) == "evento 1: 'play 3c' non è un evento della partita " \
                                       '("play", "accuso", "draw", "call" o "claim")'


@pytest.mark.parametrize(("make", "italian"), [
    (lambda: parse_card(3), "il codice di una carta è un testo come '3c', non 3"),
    (lambda: parse_card("11c"), "non è il codice di una carta: '11c' (si scrive il valore 1-10 e il seme"),
    (lambda: Card(11, "c"), "questa carta non esiste: valore 11, seme 'c'"),
    (lambda: parse_card_name("Dodici di coppe"), "non è il nome di una carta: 'Dodici di coppe'"),
    (lambda: MatchState.start(PRESETS["classic"], 4, 4), "dealer = 4 deve essere un posto 0..3"),
    (lambda: MatchState.start(PRESETS["classic"], 5, 0),
     "la partita ha 5 giocatori ma le regole (classic) sono per 4 posti"),
])
def test_card_and_match_start_errors_are_told_in_italian(make: Callable[[], object], italian: str) -> None:
    with pytest.raises(TressetteError) as caught:
        make()
    assert italian in italian_of(caught.value)


def test_record_file_errors_are_told_in_italian(tmp_path: Path) -> None:
    with pytest.raises(TableError) as caught:
        read_record(tmp_path / "nowhere.jsonl")
    assert italian_of(caught.value).endswith("nowhere.jsonl: questo file di partita non esiste")
    with pytest.raises(TableError) as caught:
        read_record(tmp_path)
    assert italian_of(caught.value).endswith(": è una cartella, non un file di partita")
    (tmp_path / "latin1.jsonl").write_bytes("Niccolò".encode("latin-1"))
    with pytest.raises(TableError) as caught:
        read_record(tmp_path / "latin1.jsonl")
    assert italian_of(caught.value).endswith("latin1.jsonl: non è testo UTF-8 "
                                             "(byte non valido alla posizione 6)")


def test_a_skipped_event_is_flagged_in_the_language_asked() -> None:
    state = start().apply_all([Play(c("3c"), 0, meta=Meta(number=1, line=2)),
                               Play(c("3c"), 1, meta=Meta(number=2, line=3))], lenient=True)
    (flag,) = state.flags
    assert flag.message("it") == ("evento impossibile saltato: evento 2 (riga 3): il posto 1 gioca 3c: "
                                  "3c è già stata giocata in questa mano "
                                  "(mano 1, presa 1 (3c, aperta dal posto 0); tocca al posto 1)")
    assert flag.message("en").startswith("impossible event skipped: event 2 (line 3): play 3c by 1: 3c was "
                                         "already played")


def test_the_italian_text_survives_a_trip_to_another_process() -> None:
    record_error = RecordError("p.jsonl", 4, Message("bad", "guasto"), 3)
    copy = pickle.loads(pickle.dumps(record_error))
    assert (str(copy), copy.italian, copy.problem, copy.event) == ("p.jsonl:4: bad", "p.jsonl:4: guasto",
                                                                   "bad", 3)
    rule_error = pickle.loads(pickle.dumps(RuleError(Message("rules: x", "regole: x"))))
    assert type(rule_error) is RuleError and rule_error.italian == "regole: x"
    assert pickle.loads(pickle.dumps(TableError("only English"))).italian is None


def test_an_error_without_italian_shows_its_english_text_in_both() -> None:
    error = BilingualError("internal: 'std' must be positive")
    assert error.italian is None
    assert error.message == Message("internal: 'std' must be positive", "internal: 'std' must be positive")


def test_messages_join_each_language_with_its_own() -> None:
    joined_message = joined(Message("event 2", "evento 2"), "3c", Message("gone", "sparita"))
    assert joined_message == Message("event 2: 3c: gone", "evento 2: 3c: sparita")
    assert "x " + Message("a", "b") + "!" == Message("x a!", "x b!")
    assert joined_message.in_language("it") == "evento 2: 3c: sparita"
    assert joined_message.in_language("en") == "event 2: 3c: gone"


def test_a_lenient_record_keeps_each_unreadable_line_in_both_languages() -> None:
    record = parse_record('{"tressette": 1, "rules": {}, "players": ["A", "B", "C", "D"]}\n{"play": "3c"}\n',
                          lenient=True)
    (error,) = record.errors
    assert error.problem == 'missing key "by": which seat (0..3) did it'
    assert error.problem_words.it == 'manca la chiave "by": quale posto (0..3) l\'ha fatto'
