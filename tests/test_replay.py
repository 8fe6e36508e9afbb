"""The replay narration: pure functions from the score object to what players say."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from table.replay_text import (
    Table,
    accuso_line,
    cappotto_line,
    card_points_line,
    claim_line,
    draw_line,
    hand_lines,
    hand_points_line,
    match_text,
    partners_line,
    points_text,
    rank_with_article,
    result_line,
    trick_lines,
)

PLAYERS = ("Anna", "Bruno", "Carla", "Dario")
SIDES = [[0, 2], [1, 3]]


@pytest.fixture
def table() -> Table:
    return Table.with_sides(PLAYERS, SIDES)


@pytest.mark.parametrize(("thirds", "italian", "english"), [
    (0, "niente", "nothing"),
    (1, "1/3", "1/3"),
    (2, "2/3", "2/3"),
    (3, "un punto", "one point"),
    (4, "1 e 1/3", "1 and 1/3"),
    (14, "4 e 2/3", "4 and 2/3"),
    (15, "5 punti", "5 points"),
    (35, "11 e 2/3", "11 and 2/3"),
])
def test_points_as_players_say_them(thirds: int, italian: str, english: str) -> None:
    assert points_text(thirds) == italian
    assert points_text(thirds, "en") == english


def test_rank_with_article() -> None:
    assert rank_with_article(parse_card("3c")) == "il Tre"
    assert rank_with_article(parse_card("1b")) == "l'Asso"
    assert rank_with_article(parse_card("8d")) == "il Fante"
    assert rank_with_article(parse_card("1b"), "en") == "the Ace"


def test_sides_are_named_by_their_players() -> None:
    assert Table.with_sides(PLAYERS, SIDES).sides == ("Anna e Carla", "Bruno e Dario")
    assert Table.with_sides(PLAYERS, SIDES, "en").sides == ("Anna and Carla", "Bruno and Dario")
    assert Table.each_alone(PLAYERS).sides == PLAYERS
    assert Table.with_sides(("Anna", "Bruno", "Carla", "Dario", "Elena"), [[0, 2], [1, 3, 4]]).sides == \
        ("Anna e Carla", "Bruno, Dario e Elena")


def test_a_trick_says_who_led_what_was_played_who_took_it_and_why(table: Table) -> None:
    trick = {"leader": 1, "cards": ["5b", "3b", "1c", "9b"], "winner": 2}
    assert trick_lines(4, trick, table) == [
        "Presa 4: apre Bruno.",
        "Bruno: Cinque di bastoni",
        "Carla: Tre di bastoni",
        "Dario: Asso di coppe — Dario non risponde a bastoni",
        "Anna: Cavallo di bastoni",
        "Prende Carla: il Tre è la carta più alta di bastoni.",
        "La presa vale 1 e 2/3.",
    ]


def test_a_trick_in_english(table: Table) -> None:
    trick = {"leader": 0, "cards": ["4d", "5d", "6d", "7d"], "winner": 3}
    assert trick_lines(1, trick, table, "en") == [
        "Trick 1: Anna leads.",
        "Anna: Four of coins",
        "Bruno: Five of coins",
        "Carla: Six of coins",
        "Dario: Seven of coins",
        "Dario takes it: the Seven is the highest card of coins.",
        "The trick is worth nothing.",
    ]


def test_the_last_trick_adds_its_point(table: Table) -> None:
    trick = {"leader": 3, "cards": ["2s", "4s", "5s", "6s"], "winner": 3}
    lines = trick_lines(10, trick, table, is_last=True)
    assert lines[0] == "Presa 10, l'ultima: apre Dario."
    assert lines[-1] == "La presa vale 1 e 1/3, con l'ultima presa."


def test_accusi_lines(table: Table) -> None:
    assert accuso_line({"by": 0, "kind": "napoletana", "suit": "c", "points": 3}, table) == \
        "Accuso di Anna: napoletana di coppe, 3 punti."
    assert accuso_line({"by": 1, "kind": "bongioco", "rank": 1, "missing": "b", "points": 3}, table) == \
        "Accuso di Bruno: tre Assi (manca bastoni), 3 punti."
    assert accuso_line({"by": 2, "kind": "bongioco", "rank": 2, "points": 4}, table, "en") == \
        "Carla declares four Twos: 4 points."


def test_card_points_and_hand_points_name_the_sides_and_the_last_trick(table: Table) -> None:
    hand = {"dealer": 3, "tricks": [], "card_thirds": [17, 15], "last_trick": 0, "accusi": [],
            "points": [6, 5]}
    assert card_points_line(hand, table) == \
        "In carte: Anna e Carla 5 e 2/3; Bruno e Dario 5 punti, ultima presa ad Anna e Carla."
    assert hand_points_line(hand, table) == "Punti della mano: Anna e Carla 6, Bruno e Dario 5."


def test_hands_with_changing_sides_say_who_played_with_whom() -> None:
    alone = Table.each_alone(PLAYERS)
    hand = {"dealer": 0, "call": "s", "sides": [[1, 2], [0, 3]], "card_thirds": [20, 12], "last_trick": 1,
            "tricks": [{"leader": 1, "cards": ["3s", "4s", "5s", "6s"], "winner": 1}], "accusi": [],
            "points": [-1, 1, 1, -1]}
    lines = hand_lines(3, hand, alone, [0, 2, 2, -4])
    assert lines[1] == "  Bruno chiama spade."
    assert "  In questa mano: Bruno e Carla contro Anna e Dario." in lines
    assert "  In carte: Bruno e Carla 6 e 2/3; Anna e Dario 4 punti, ultima presa ad Anna e Dario." in lines
    assert lines[-2:] == ["  Punti della mano: Anna -1, Bruno 1, Carla 1, Dario -1.",
                          "  Punteggio: Anna 0, Bruno 2, Carla 2, Dario -4."]
    assert partners_line({"sides": [[0, 2], [1, 3]]}, Table.with_sides(PLAYERS, SIDES)) is None


def test_result_line_singular_plural_and_open(table: Table) -> None:
    assert result_line(1, [17, 22], table) == "Vincono Bruno e Dario: Anna e Carla 17, Bruno e Dario 22."
    english = Table.with_sides(PLAYERS, SIDES, "en")
    assert result_line(None, [3, 8], english, "en") == \
        "The match is not over: Anna and Carla 3, Bruno and Dario 8."
    alone = Table.each_alone(PLAYERS)
    assert result_line(2, [1, -1, 3, -3], alone) == "Vince Carla: Anna 1, Bruno -1, Carla 3, Dario -3."


def test_hand_lines_give_heading_tricks_points_and_running_score(table: Table) -> None:
    hand = {"dealer": 3,
            "tricks": [{"leader": 0, "cards": ["1b", "4b", "5b", "6b"], "winner": 0}],
            "card_thirds": [3, 0], "last_trick": 0, "accusi": [], "points": [2, 0]}
    lines = hand_lines(1, hand, table, [2, 0])
    assert lines[0] == "Mano 1: dà le carte Dario."
    assert lines[1] == "  Presa 1, l'ultima: apre Anna."
    assert lines[-1] == "  Punteggio: Anna e Carla 2, Bruno e Dario 0."


def test_match_text_ends_with_the_winner_and_the_flags(table: Table) -> None:
    hand = {"dealer": 3, "tricks": [], "card_thirds": [0, 0], "last_trick": None, "accusi": [],
            "points": [0, 0]}
    report = {"hands": [hand, hand], "totals": [21, 4], "winner": 0,
              "flags": [{"event": 7, "kind": "renounce", "message": "Bruno renounced"}]}
    text = match_text(report, table, target=21)
    assert text.startswith("Replay della partita: Anna, Bruno, Carla, Dario.\n"
                           "Squadre: Anna e Carla contro Bruno e Dario.\nSi gioca a 21.\n")
    assert "Mano 2: dà le carte Dario." in text
    assert text.endswith("Vincono Anna e Carla: Anna e Carla 21, Bruno e Dario 4.\n"
                         "Segnalazioni:\n  evento 7: Bruno renounced\n")


def test_draws_and_claims_are_told(table: Table) -> None:
    assert draw_line(1, "7d", table) == "Bruno pesca il Sette di denari."
    assert draw_line(0, "1c", table) == "Anna pesca l'Asso di coppe."
    assert draw_line(0, "1c", table, "en") == "Anna draws the Ace of cups."
    assert claim_line(1, table) == "Bruno e Dario si chiamano fuori."
    assert claim_line(0, Table.each_alone(PLAYERS)) == "Anna si chiama fuori."


def test_notes_go_between_the_tricks_of_their_hand(table: Table) -> None:
    hand = {"dealer": 3, "tricks": [{"leader": 0, "cards": ["1b", "4b", "5b", "6b"], "winner": 0}],
            "card_thirds": [3, 0], "last_trick": None, "accusi": [], "points": [1, 0],
            "open_trick": {"leader": 0, "cards": ["2c", "3c"]}}
    lines = hand_lines(1, hand, table, [1, 0], notes={1: ["Anna e Carla si chiamano fuori."]})
    after = lines.index("    La presa vale un punto.")
    assert lines[after + 1:after + 5] == ["    Anna e Carla si chiamano fuori.",
                                          "  Presa 2, in corso: apre Anna.",
                                          "    Anna: Due di coppe",
                                          "    Bruno: Tre di coppe"]


def test_a_cappotto_is_announced_and_explains_the_win(table: Table) -> None:
    hand = {"sides": [[0, 2], [1, 3]]}
    assert cappotto_line({"kind": "cappotto", "side": 1, "seat": None, "games": 2}, hand, table) == \
        "Cappotto di Bruno e Dario!"
    assert cappotto_line({"kind": "cappottone", "side": 0, "seat": 2, "games": 6}, hand, table, "en") == \
        "Cappottone for Carla!"
    assert result_line(1, [3, 21], table, reason="cappotto") == \
        "Vincono Bruno e Dario: Anna e Carla 3, Bruno e Dario 21 (per cappotto)."
    assert result_line(0, [21, 3], table, reason="target", target=21) == \
        "Vincono Anna e Carla: Anna e Carla 21, Bruno e Dario 3."
    assert result_line(0, [24, 22], table, "en", reason="target", target=21) == \
        "Anna e Carla win: Anna e Carla 24, Bruno e Dario 22 (both past 21: the higher score wins)."
