"""Cross-check of `tressette score` against tests/reference_scorer.py, an independent scorer written from
RULES.md and RECORD.md alone, the way an outside review will check the engine.

Records come from two sources: the product's own `tressette simulate` (with a random first dealer), and
reference_scorer.random_match_lines (this test's own deal and follow-suit play, optionally with players
who sometimes renounce), so that a bias shared by the simulator and the engine cannot hide. For every hand
the trick leaders, cards and winners, the card thirds per side, the last trick, the accusi and the points
are compared; then the totals, the winner and the flags (only proven renounces, at the proving play).

Disagreements where the engine departs from RULES.md are ``xfail(strict=True)`` with the reason: they
stay visible, and the marker must go once the engine is fixed.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.cards import DECK
from table.cli import main
from tests.reference_scorer import (
    CARDS,
    TAKING_ORDER,
    THIRDS,
    Accuso,
    Hand,
    ReferenceRecordError,
    Score,
    UnmodelledRuleError,
    random_match_lines,
    score_lines,
    trick_winner_index,
)

# What the outside review checks, and the options over them that RULES.md names for these presets.
MAIN_VARIANTS: dict[str, dict[str, Any]] = {
    "classic": {"preset": "classic"},
    "accuso": {"preset": "accuso"},
    "due": {"preset": "due"},
}
OPTION_VARIANTS: dict[str, dict[str, Any]] = {
    "due-accusi": {"preset": "due", "accuso": "mandatory"},
    "accuso-41": {"preset": "accuso", "target": 41},
    "accuso-four-is-3": {"preset": "accuso", "four_of_a_kind": 3},
    "classic-11": {"preset": "classic", "target": 11},
}
ALL_VARIANTS = {**MAIN_VARIANTS, **OPTION_VARIANTS}
FAST_MATCHES = 30
RENOUNCE_CHANCE = 0.05
SOURCES = ("simulate", "own", "own-with-renounces")
FAST_OPTION_MATCHES = 6
SLOW_MATCHES = 300
SLOW_OPTION_MATCHES = 50


# --- running the product ---------------------------------------------------------------------------------


def product_score(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`tressette score PATH`, in process: the printed JSON object."""
    capsys.readouterr()
    status = main(["score", str(path)])
    captured = capsys.readouterr()
    assert status == 0, f"tressette score {path} exited {status}: {captured.err}"
    return json.loads(captured.out)


def simulated_record(rules: dict[str, Any], seed: int, folder: Path,
                     capsys: pytest.CaptureFixture[str]) -> Path:
    """`tressette simulate --preset P [--rule K=V]... --seed N --dealer D --out FILE`; D from the seed."""
    preset = rules["preset"]
    path = folder / f"{preset}-{seed}.jsonl"
    dealer = random.Random(seed).randrange(2 if preset == "due" else 4)
    options = [f"{key}={json.dumps(value) if not isinstance(value, str) else value}"
               for key, value in rules.items() if key != "preset"]
    capsys.readouterr()
    status = main(["simulate", "--preset", preset, *(f"--rule={option}" for option in options),
                   "--seed", str(seed), "--dealer", str(dealer), "--out", str(path)])
    assert status == 0, capsys.readouterr().err
    return path


def own_record(rules: dict[str, Any], seed: int, folder: Path, renounce_chance: float = 0.0) -> Path:
    path = folder / f"own-{rules['preset']}-{seed}.jsonl"
    lines = random_match_lines(rules, random.Random(seed), renounce_chance=renounce_chance)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def reference_score(path: Path) -> Score:
    return score_lines(path.read_text(encoding="utf-8").splitlines())


# --- comparing -------------------------------------------------------------------------------------------


def accuso_key(by: int, kind: str, key: str, cards: Sequence[str], points: int) -> tuple[Any, ...]:
    return (by, kind, key, tuple(sorted(cards)), points)


def reference_accusi(accusi: Sequence[Accuso]) -> list[tuple[Any, ...]]:
    return sorted(accuso_key(a.by, a.kind, a.key, sorted(a.cards), a.points) for a in accusi)


def product_accusi(accusi: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = []
    for accuso in accusi:
        key = accuso.get("suit") if accuso.get("kind") == "napoletana" else str(accuso.get("rank"))
        keys.append(accuso_key(accuso.get("by"), accuso.get("kind"), key, accuso.get("cards", ()),
                               accuso.get("points")))
    return sorted(keys)


def hand_differences(number: int, expected: Hand, got: dict[str, Any]) -> list[str]:
    where = f"hand {number}"
    found: list[str] = []
    if got.get("dealer") != expected.dealer:
        found.append(f"{where}: dealer expected {expected.dealer}, got {got.get('dealer')}")
    got_tricks = got.get("tricks", [])
    if len(got_tricks) != len(expected.tricks):
        found.append(f"{where}: {len(expected.tricks)} tricks expected, got {len(got_tricks)}")
    for index, (trick, product) in enumerate(zip(expected.tricks, got_tricks, strict=False)):
        mine = {"leader": trick.leader, "cards": list(trick.cards), "winner": trick.winner}
        theirs = {key: product.get(key) for key in mine}
        if mine != theirs:
            found.append(f"{where} trick {index}: expected {mine}, got {theirs}")
    if not expected.complete:
        return found
    checks = {"card_thirds": list(expected.card_thirds), "last_trick": expected.last_trick,
              "points": list(expected.points or ())}
    for key, value in checks.items():
        if got.get(key) != value:
            found.append(f"{where}: {key} expected {value}, got {got.get(key)}")
    mine_accusi, their_accusi = reference_accusi(expected.accusi), product_accusi(got.get("accusi", []))
    if mine_accusi != their_accusi:
        found.append(f"{where}: accusi expected {mine_accusi}, got {their_accusi}")
    return found


def differences(expected: Score, got: dict[str, Any]) -> list[str]:
    """Every field where the product's score differs from the reference, in words."""
    found: list[str] = []
    got_hands = got.get("hands", [])
    if len(got_hands) != len(expected.hands):
        found.append(f"{len(expected.hands)} hands expected, got {len(got_hands)}")
    for number, (hand, product) in enumerate(zip(expected.hands, got_hands, strict=False)):
        found.extend(hand_differences(number, hand, product))
    if got.get("totals") != list(expected.totals):
        found.append(f"totals expected {list(expected.totals)}, got {got.get('totals')}")
    if got.get("winner") != expected.winner:
        found.append(f"winner expected {expected.winner}, got {got.get('winner')}")
    found.extend(f"unexpected flag {flag}" for flag in got.get("flags", []) if flag.get("kind") != "renounce")
    return found


def renounce_differences(expected: Score, got: dict[str, Any]) -> list[str]:
    """The proven renounces, as (event, seat) of the proving play, against the product's renounce flags."""
    mine = sorted((renounce.event, renounce.by) for hand in expected.hands for renounce in hand.renounces)
    theirs = sorted((flag.get("event"), flag.get("by")) for flag in got.get("flags", [])
                    if flag.get("kind") == "renounce")
    return [f"renounce flags (event, seat) expected {mine}, got {theirs}"] if mine != theirs else []


def crosscheck(paths: Sequence[Path], capsys: pytest.CaptureFixture[str]) -> dict[str, list[str]]:
    """Score each record both ways; the records that disagree, with their differences."""
    disagreements: dict[str, list[str]] = {}
    for path in paths:
        expected = reference_score(path)
        found = differences(expected, product_score(path, capsys))
        if found:
            disagreements[path.name] = found
    return disagreements


def report(disagreements: dict[str, list[str]], total: int) -> str:
    lines = [f"{len(disagreements)} of {total} records disagree"]
    for name, found in list(disagreements.items())[:5]:
        lines.append(f"{name}:")
        lines.extend(f"  {item}" for item in found[:6])
    return "\n".join(lines)


def run_crosscheck(rules: dict[str, Any], seeds: range, source: str, folder: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    if source == "simulate":
        paths = [simulated_record(rules, seed, folder, capsys) for seed in seeds]
    elif source == "own":
        paths = [own_record(rules, seed, folder) for seed in seeds]
    else:
        paths = [own_record(rules, seed, folder, renounce_chance=RENOUNCE_CHANCE) for seed in seeds]
    for path in paths:
        # Every simulated match is decided (classic/accuso/due have no claims): the reference must agree.
        assert reference_score(path).winner is not None, path.name
    disagreements = crosscheck(paths, capsys)
    assert not disagreements, report(disagreements, len(paths))


# --- the cross-checks ------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("variant", sorted(MAIN_VARIANTS))
def test_score_agrees_with_reference(variant: str, source: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    run_crosscheck(MAIN_VARIANTS[variant], range(FAST_MATCHES), source, tmp_path, capsys)


@pytest.mark.parametrize("source", ["simulate", "own"])
@pytest.mark.parametrize("variant", sorted(OPTION_VARIANTS))
def test_score_agrees_with_reference_with_options(variant: str, source: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run_crosscheck(OPTION_VARIANTS[variant], range(FAST_OPTION_MATCHES), source, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("variant", sorted(MAIN_VARIANTS))
def test_score_agrees_with_reference_many(variant: str, source: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    run_crosscheck(MAIN_VARIANTS[variant], range(1000, 1000 + SLOW_MATCHES), source, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("source", ["simulate", "own"])
@pytest.mark.parametrize("variant", sorted(OPTION_VARIANTS))
def test_score_agrees_with_reference_with_options_many(variant: str, source: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    run_crosscheck(OPTION_VARIANTS[variant], range(1000, 1000 + SLOW_OPTION_MATCHES), source, tmp_path,
                   capsys)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "accuso"])
def test_renounce_flags_agree_with_reference_many(preset: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    disagreements: dict[str, list[str]] = {}
    for seed in range(1000, 1000 + SLOW_MATCHES):
        path = own_record({"preset": preset}, seed, tmp_path, renounce_chance=RENOUNCE_CHANCE)
        found = renounce_differences(reference_score(path), product_score(path, capsys))
        if found:
            disagreements[path.name] = found
    assert not disagreements, report(disagreements, SLOW_MATCHES)


@pytest.mark.parametrize("preset", ["classic", "accuso", "due"])
def test_renounce_flags_agree_with_reference(preset: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Own matches where players sometimes do not follow suit though they could: the renounce flags
    (the proving play's event and the offender) match the reference's."""
    disagreements: dict[str, list[str]] = {}
    for seed in range(FAST_MATCHES):
        path = own_record({"preset": preset}, seed, tmp_path, renounce_chance=RENOUNCE_CHANCE)
        found = renounce_differences(reference_score(path), product_score(path, capsys))
        if found:
            disagreements[path.name] = found
    assert not disagreements, report(disagreements, FAST_MATCHES)


@pytest.mark.parametrize("preset", ["classic", "accuso", "due"])
def test_renounce_penalty_scores_agree_with_reference(preset: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Option ``renounce_penalty``: the side of the first proven offender loses the hand 11 to 0, so a
    missed renounce changes the points, the totals and possibly the winner. (own due seed 9: the
    reference scores hand 1 11-0 for seat 0, renounce of seat 1 proven at event 53; while the engine
    remembered only the first failure per seat and suit, `score` had 5-6 and then ended the match after
    hand 3, 9-24 for seat 1, refusing the rest; the reference has seat 0 win 26-18 after hand 4.)"""
    rules = {"preset": preset, "renounce_penalty": True}
    paths = [own_record(rules, seed, tmp_path, renounce_chance=RENOUNCE_CHANCE)
             for seed in range(FAST_MATCHES)]
    disagreements: dict[str, list[str]] = {}
    for path in paths:
        capsys.readouterr()
        status = main(["score", "--lenient", str(path)])
        found = differences(reference_score(path), json.loads(capsys.readouterr().out))
        if status != 0 or found:
            disagreements[path.name] = [f"exit {status}", *found]
    assert not disagreements, report(disagreements, len(paths))


def due_second_failure_record() -> list[str]:
    """Own due match, seed 57, renounces 5%, cut after event 45. Seat 1 fails bastoni at event 18
    (void then), draws 5b at event 20 (shown), fails bastoni again at event 26 while holding 5b, and
    plays 5b at event 45: a proven renounce."""
    return random_match_lines("due", random.Random(57), renounce_chance=RENOUNCE_CHANCE)[:46]


def test_due_second_failure_record_is_what_it_says() -> None:
    lines = due_second_failure_record()
    events = [json.loads(line) for line in lines]
    assert events[18] == {"play": events[18]["play"], "by": 1} and events[17]["play"][-1] == "b"
    assert events[18]["play"][-1] != "b"
    assert events[20] == {"draw": "5b", "by": 1}
    assert events[26]["by"] == 1 and events[26]["play"][-1] != "b" and events[25]["play"][-1] == "b"
    assert events[45] == {"play": "5b", "by": 1}
    assert [(renounce.event, renounce.by) for renounce in score_lines(lines).hands[0].renounces] == [(45, 1)]


def test_due_renounce_after_a_second_failure_is_flagged(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "due-renounce.jsonl"
    path.write_text("\n".join(due_second_failure_record()) + "\n", encoding="utf-8")
    flags = product_score(path, capsys)["flags"]
    assert [(flag["event"], flag["by"]) for flag in flags if flag["kind"] == "renounce"] == [(45, 1)]


def test_header_without_dealer_and_with_comments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RECORD.md: ``dealer`` defaults to the last seat; ``#`` and blank lines are ignored; extra keys on an
    event (``t``, ``source``, ``confidence``) are kept and ignored."""
    for preset, seed in (("classic", 1), ("accuso", 2), ("due", 3)):
        lines = random_match_lines(preset, random.Random(seed), dealer=3 if preset != "due" else 1)
        header = json.loads(lines[0])
        del header["dealer"]
        events = [json.loads(line) for line in lines[1:]]
        text = [json.dumps(header), "# dealt by the last seat", ""]
        for number, event in enumerate(events):
            text.append(json.dumps({**event, "t": 2.5 * number, "source": "camera", "confidence": 0.9}))
            if number % 7 == 3:
                text.extend(["", "# a comment between events"])
        path = tmp_path / f"commented-{preset}.jsonl"
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        expected = reference_score(path)
        assert expected.hands[0].dealer == header_seats(header) - 1
        assert differences(expected, product_score(path, capsys)) == []


def header_seats(header: dict[str, Any]) -> int:
    return len(header["players"])


def test_every_hand_hands_out_eleven_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: without accusi a hand always hands out exactly 11 points; a due hand too."""
    for preset in ("classic", "due"):
        for seed in range(5):
            record = simulated_record({"preset": preset}, seed, tmp_path, capsys)
            report_json = product_score(record, capsys)
            for hand in report_json["hands"]:
                assert sum(hand["points"]) == 11, (preset, seed, hand["points"])


# --- the reference itself --------------------------------------------------------------------------------


def test_reference_card_values_match_rules_and_deck() -> None:
    """The reference's own tables (written from RULES.md) agree with engine.cards on all 40 cards."""
    assert sorted(CARDS) == sorted(card.code for card in DECK)
    assert sum(THIRDS[card.rank] for card in DECK) == 32  # 10 2/3 points in the deck
    for card in DECK:
        assert THIRDS[card.rank] == card.thirds, card
    by_strength = sorted({card.rank: card.strength for card in DECK}.items(), key=lambda item: -item[1])
    assert tuple(rank for rank, _ in by_strength) == TAKING_ORDER


def test_reference_trick_winner_is_highest_of_suit_led() -> None:
    assert trick_winner_index(["5b", "1b", "9b", "4b"]) == 1
    assert trick_winner_index(["4c", "3d", "1s", "2b"]) == 0  # nobody followed: the lead takes
    assert trick_winner_index(["10c", "3d", "2c", "1c"]) == 2
    assert trick_winner_index(["3s", "2s"]) == 0


# --- known answers from the seed texts -------------------------------------------------------------------

CLASSIC_HEADER = {"tressette": 1, "rules": {"preset": "classic"}, "players": ["A", "B", "C", "D"],
                  "dealer": 3}


def write_record(path: Path, header: dict[str, Any], events: Sequence[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n", encoding="utf-8")
    return path


def plays(tricks: Sequence[tuple[int, Sequence[str]]]) -> list[dict[str, Any]]:
    """Play events from (leader, cards in playing order) per trick, four seats."""
    return [{"play": card, "by": (leader + offset) % 4} for leader, cards in tricks
            for offset, card in enumerate(cards)]


# Side 0 (seats 0, 2) wins three tricks holding, of value, only a Due, a Tre and a Fante; side 1 wins the
# other seven, the last one included. Everyone follows suit while they can.
DUE_TRE_FANTE_HAND = [
    (0, ["3c", "4c", "5c", "6c"]),    # seat 0 takes: Tre (1 third)
    (0, ["2d", "4d", "5d", "6d"]),    # seat 0 takes: Due (1 third)
    (0, ["8s", "4s", "5s", "6s"]),    # seat 0 takes: Fante (1 third)
    (0, ["7c", "2c", "8c", "9c"]),    # seat 1 takes
    (1, ["1d", "7d", "3d", "8d"]),    # seat 3 takes
    (3, ["10d", "9d", "1c", "10c"]),  # seat 3 takes (seats 1 and 2 have no denari left)
    (3, ["1s", "7s", "2s", "9s"]),    # seat 1 takes
    (1, ["3s", "10s", "4b", "5b"]),   # seat 1 takes
    (1, ["1b", "6b", "7b", "8b"]),    # seat 1 takes
    (1, ["3b", "9b", "10b", "2b"]),   # seat 1 takes the last trick
]


def test_due_tre_fante_is_one_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000: "Due + Tre + Fante = 1 punto". Side 0 takes exactly those: 1 point; side 1 the other
    29 thirds (9 points, the 2/3 dropped) + the last trick = 10."""
    path = write_record(tmp_path / "dtf.jsonl", CLASSIC_HEADER, plays(DUE_TRE_FANTE_HAND))
    expected = reference_score(path)
    assert expected.hands[0].card_thirds == (3, 29)
    assert expected.hands[0].points == (1, 10)
    got = product_score(path, capsys)
    assert got["hands"][0]["card_thirds"] == [3, 29]
    assert got["hands"][0]["last_trick"] == 1
    assert got["hands"][0]["points"] == [1, 10]
    assert got["flags"] == []
    assert differences(expected, got) == []


def cappotto_hand() -> list[tuple[int, list[str]]]:
    """Seat 1 holds the top five coppe and denari, seat 3 the top five spade and bastoni: side 1 takes
    all ten tricks. Everyone follows suit while they can."""
    tricks = [(0, ["4c", "3c", "4b", "3b"])]
    tricks += [(1, [high, discard2, discard3, low]) for high, low, discard2, discard3 in zip(
        ["2c", "1c", "10c", "9c"], ["5c", "6c", "7c", "8c"], ["5b", "6b", "7b", "8b"],
        ["2b", "1b", "10b", "9b"],
        strict=True)]
    tricks += [(1, [high, low, discard3, discard0]) for high, low, discard3, discard0 in zip(
        ["3d", "2d", "1d", "10d", "9d"], ["4d", "5d", "6d", "7d", "8d"], ["3s", "2s", "1s", "10s", "9s"],
        ["4s", "5s", "6s", "7s", "8s"], strict=True)]
    return tricks


def test_cappotto_is_eleven_to_nothing_and_only_announced(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Classic: cappotto is announced only; side 1 takes all 32 thirds (10, the 2/3 dropped) + last trick."""
    path = write_record(tmp_path / "cappotto.jsonl", CLASSIC_HEADER, plays(cappotto_hand()))
    expected = reference_score(path)
    assert expected.hands[0].points == (0, 11)
    got = product_score(path, capsys)
    assert got["hands"][0]["points"] == [0, 11]
    assert got["hands"][0].get("cappotto"), "RULES.md: the product always announces a cappotto"
    assert got["totals"] == [0, 11]
    assert got["winner"] is None
    assert differences(expected, got) == []


def first_tie_over_target(lines: Sequence[str], target: int) -> int | None:
    """The hand after which both sides stood at or over the target with equal totals, if any."""
    totals = [0, 0]
    for number, hand in enumerate(score_lines(lines).hands):
        totals = [total + points for total, points in zip(totals, hand.points or (0, 0), strict=True)]
        if min(totals) >= target and totals[0] == totals[1]:
            return number
    return None


@pytest.mark.parametrize(("preset", "target"), [("classic", 21), ("accuso", 31), ("due", 21)])
def test_equal_totals_over_the_target_play_on(preset: str, target: int, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: if both sides reach the target in the same hand with equal totals, another hand is
    played; the product must not name a winner at the tie and must score the hands after it."""
    seed, tie = next((seed, tie) for seed in range(1000)
                     if (tie := first_tie_over_target(random_match_lines(preset, random.Random(seed)),
                                                      target)) is not None)
    path = own_record({"preset": preset}, seed, tmp_path)
    expected = reference_score(path)
    assert len(expected.hands) > tie + 1 and expected.winner is not None
    got = product_score(path, capsys)
    assert got["hands"][tie]["totals"][0] == got["hands"][tie]["totals"][1] >= target
    assert differences(expected, got) == []


def accuso_record_with(seat_zero_cards: Sequence[str], seed: int) -> list[str]:
    """An accuso hand, legal random play, where seat 0 was dealt ``seat_zero_cards`` (+ random others)
    and nobody else holds a combination."""
    rng = random.Random(seed)
    while True:
        rest = [card for card in CARDS if card not in seat_zero_cards]
        rng.shuffle(rest)
        hand = list(seat_zero_cards) + rest[:10 - len(seat_zero_cards)]
        others = rest[10 - len(seat_zero_cards):]
        holdings = [hand, others[0:10], others[10:20], others[20:30]]
        if any(_has_combination(held) for held in holdings[1:]):
            continue
        return _play_out(holdings, rng)


def _has_combination(cards: Sequence[str]) -> bool:
    held = set(cards)
    napoli = any({f"1{s}", f"2{s}", f"3{s}"} <= held for s in "cdsb")
    trio = any(sum(f"{rank}{s}" in held for s in "cdsb") >= 3 for rank in (1, 2, 3))
    return napoli or trio


def _play_out(holdings: list[list[str]], rng: random.Random) -> list[str]:
    header = {"tressette": 1, "rules": {"preset": "accuso"}, "players": ["A", "B", "C", "D"], "dealer": 3}
    lines = [json.dumps(header)]
    leader = 0
    for _ in range(10):
        cards: list[str] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            follow = [c for c in holdings[seat] if cards and c[-1] == cards[0][-1]]
            card = rng.choice(follow or holdings[seat])
            holdings[seat].remove(card)
            cards.append(card)
            lines.append(json.dumps({"play": card, "by": seat}))
        leader = (leader + trick_winner_index(cards)) % 4
    return lines


@pytest.mark.parametrize(("cards", "accusi_points"), [
    # Seed 000: 4 Assi + 3 Due (denari among them) + Tre di denari = 4 + 3 + 3 = 10.
    (["1c", "1d", "1s", "1b", "2c", "2d", "2s", "3d", "4b", "5b"], 10),
    # RULES.md / seed 002: napoletana di coppe + four 2s = 7.
    (["1c", "2c", "3c", "2d", "2s", "2b", "4d", "5d", "6d", "7d"], 7),
    # A lone napoletana, and three 3s with the napoletana di spade: 3, and 3 + 3.
    (["1s", "2s", "3s", "4c", "5c", "6c", "7c", "4d", "5d", "6d"], 3),
    (["1s", "2s", "3s", "3c", "3d", "6c", "7c", "4d", "5d", "6d"], 6),
])
def test_seed_accusi_known_answers(cards: list[str], accusi_points: int, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "accusi.jsonl"
    path.write_text("\n".join(accuso_record_with(cards, seed=len(cards) + accusi_points)) + "\n",
                    encoding="utf-8")
    expected = reference_score(path)
    assert sum(accuso.points for accuso in expected.hands[0].accusi) == accusi_points
    got = product_score(path, capsys)
    hand = got["hands"][0]
    assert sum(accuso["points"] for accuso in hand["accusi"] if accuso["by"] == 0) == accusi_points
    assert all(accuso["by"] == 0 for accuso in hand["accusi"])
    card_points = [thirds // 3 for thirds in hand["card_thirds"]]
    card_points[hand["last_trick"]] += 1
    assert hand["points"] == [card_points[0] + accusi_points, card_points[1]]
    assert differences(expected, got) == []


# --- malformed lines -------------------------------------------------------------------------------------

def line_is_named(message: str, line: int) -> bool:
    """The error names the line: ``FILE:7:`` or ``riga 7`` / ``line 7``."""
    return re.search(rf"(:{line}:|\b(riga|line|linea)\s+{line}\b)", message) is not None


def corrupted(lines: list[str], line: int, text: str) -> list[str]:
    changed = list(lines)
    changed[line - 1] = text
    return changed


MALFORMED = {
    "bad JSON": lambda event: json.dumps(event)[:-1],
    "unknown card": lambda event: json.dumps({**event, "play": "11c"}),
    "card code in words": lambda event: json.dumps({**event, "play": "Tre di coppe"}),
    "seat out of range": lambda event: json.dumps({**event, "by": 4}),
    "negative seat": lambda event: json.dumps({**event, "by": -1}),
    "not an object": lambda event: json.dumps([event]),
    "seat missing": lambda event: json.dumps({"play": event["play"]}),
    "seat as text": lambda event: json.dumps({**event, "by": str(event["by"])}),
    "seat as true": lambda event: json.dumps({**event, "by": True}),
    "unknown event kind": lambda event: json.dumps({"plya": event["play"], "by": event["by"]}),
    "two events on a line": lambda event: json.dumps({**event, "draw": "4d"}),
}


@pytest.mark.parametrize("line", [2, 7, 23])
@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_line_is_refused_naming_its_line(kind: str, line: int, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    lines = random_match_lines("classic", random.Random(line))
    event = json.loads(lines[line - 1])
    bad = corrupted(lines, line, MALFORMED[kind](event))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(ReferenceRecordError) as refused:
        score_lines(bad)
    assert refused.value.line == line
    capsys.readouterr()
    status = main(["score", str(path)])
    captured = capsys.readouterr()
    assert status != 0
    assert captured.out == ""
    assert line_is_named(captured.err, line), captured.err


FOUR = '"players": ["A", "B", "C", "D"]'
HEADER_FAULTS = {
    "bad JSON": '{"tressette": 1, "rules": {"preset": "classic"}',
    "no version": '{"rules": {"preset": "classic"}, ' + FOUR + '}',
    "unknown preset": '{"tressette": 1, "rules": {"preset": "scopa"}, ' + FOUR + '}',
    "three players": '{"tressette": 1, "rules": {"preset": "classic"}, "players": ["A", "B", "C"]}',
    "dealer out of range": '{"tressette": 1, "rules": {"preset": "classic"}, ' + FOUR + ', "dealer": 4}',
}


@pytest.mark.parametrize("kind", sorted(HEADER_FAULTS))
def test_malformed_header_is_refused_naming_line_one(kind: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad-header.jsonl"
    path.write_text(HEADER_FAULTS[kind] + '\n{"play": "1c", "by": 0}\n', encoding="utf-8")
    with pytest.raises((ReferenceRecordError, UnmodelledRuleError)):
        score_lines(path.read_text(encoding="utf-8").splitlines())
    capsys.readouterr()
    assert main(["score", str(path)]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert line_is_named(captured.err, 1), captured.err


def test_malformed_due_draw_is_refused_naming_its_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    lines = random_match_lines("due", random.Random(5))
    line = next(number for number, text in enumerate(lines, start=1) if '"draw"' in text)
    bad = corrupted(lines, line, json.dumps({"draw": "0d", "by": 0}))
    path = tmp_path / "bad-draw.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["score", str(path)]) != 0
    assert line_is_named(capsys.readouterr().err, line)


def test_malformed_line_number_counts_comments_and_blank_lines(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The line named is the line of the file, ``#`` and blank lines included."""
    lines = random_match_lines("accuso", random.Random(9))
    text = [lines[0], "# Partita al circolo", "", *lines[1:6], "", json.dumps({"play": "3x", "by": 1}),
            *lines[7:]]
    path = tmp_path / "commented-bad.jsonl"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(ReferenceRecordError) as refused:
        score_lines(text)
    assert refused.value.line == 10
    capsys.readouterr()
    assert main(["score", str(path)]) != 0
    assert line_is_named(capsys.readouterr().err, 10)


def test_play_out_of_turn_is_refused_naming_its_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Strict `score` refuses an impossible event (here seat 2 plays in seat 1's turn) with its line."""
    lines = random_match_lines("classic", random.Random(4))
    second = json.loads(lines[2])
    bad = corrupted(lines, 3, json.dumps({**second, "by": (second["by"] + 1) % 4}))
    path = tmp_path / "out-of-turn.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    with pytest.raises(ReferenceRecordError) as refused:
        score_lines(bad)
    assert refused.value.line == 3
    capsys.readouterr()
    assert main(["score", str(path)]) != 0
    assert line_is_named(capsys.readouterr().err, 3)


# --- records that stop inside a hand ---------------------------------------------------------------------


def truncated_records(folder: Path, count: int) -> list[tuple[Path, Score]]:
    """Own matches of each main preset cut at a random event inside a hand (never at a hand's end)."""
    records = []
    for seed in range(count):
        for preset in MAIN_VARIANTS:
            lines = random_match_lines(preset, random.Random(seed))
            rng = random.Random(seed * 7 + 1)
            while True:
                cut = rng.randrange(2, len(lines))
                kept = lines[:cut]
                expected = score_lines(kept)
                if expected.hands and not expected.hands[-1].complete:
                    break
            path = folder / f"cut-{preset}-{seed}.jsonl"
            path.write_text("\n".join(kept) + "\n", encoding="utf-8")
            records.append((path, expected))
    return records


def test_record_stopping_mid_hand_agrees_on_tricks_and_finished_hands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record that stops inside a hand: the finished hands, and the tricks of the open one, agree."""
    for path, expected in truncated_records(tmp_path, 10):
        got = product_score(path, capsys)
        found = [item for item in differences(expected, got) if not item.startswith("totals")]
        assert found == [], (path.name, found)
        assert got["winner"] is None


def test_record_stopping_mid_hand_totals_count_finished_hands_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, expected in truncated_records(tmp_path, 10):
        got = product_score(path, capsys)
        assert got["totals"] == list(expected.totals), (path.name, got["totals"], expected.totals)
