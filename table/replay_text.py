"""The replay told as players tell it: pure functions from the score object (RECORD.md) to text.

Italian by default, English with ``lang="en"``. Card names as players say them ("Tre di
coppe"), points as players say them ("4 e 2/3", "un punto", "2/3"). Nothing here reads
files or knows the command line; `table.commands.replay` feeds these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import RANK_NAMES, SUIT_NAMES, Card, Lang, parse_card

LAST_TRICK_THIRDS = 3

_WORDS: dict[Lang, dict[str, Any]] = {
    "it": {
        "intro": "Replay della partita: {players}.",
        "sides": "Squadre: {sides}.",
        "alone": "Ognuno gioca per sé.",
        "partners_change": "I compagni cambiano a ogni mano; ognuno ha il suo punteggio.",
        "target": "Si gioca a {target}.",
        "avoid_target": "Si gioca a non prendere punti: chi arriva a {target} perde.",
        "versus": " contro ",
        "and": " e ",
        "hand": "Mano {number}: dà le carte {dealer}.",
        "trick": "Presa {number}: apre {leader}.",
        "last_trick": "Presa {number}, l'ultima: apre {leader}.",
        "played": "{player}: {card}",
        "no_follow": "{player} non risponde a {suit}",
        "takes": "Prende {winner}: {reason}.",
        "highest": "{rank} è la carta più alta di {suit}",
        "worth": "La presa vale {points}.",
        "worth_nothing": "La presa non vale niente.",
        "worth_last": "La presa vale {points}, con l'ultima presa.",
        "accuso": "Accuso di {player}: {what}, {points}.",
        "napoletana": "napoletana di {suit}",
        "bongioco": "{count} {ranks}",
        "missing": " (manca {suit})",
        "card_points": "In carte: {points}.",
        "hand_points": "Punti della mano: {totals}.",
        "hand_points_so_far": "Punti della mano finora: {totals} (si sommano a fine mano).",
        "partners": "In questa mano: {sides}.",
        "call": "{player} chiama {suit}.",
        "loser": "Perde {side}.",
        "draws": "{player} pesca {card}.",
        "claims": "{side} si chiama fuori.",
        "claim": "{side} si chiamano fuori.",
        "open_trick": "Presa {number}, in corso: apre {leader}.",
        "cappotto": "{kind} di {side}!",
        "both_past": "tutte e due oltre {target}: vince il punteggio più alto",
        "why": {"claim": "si sono chiamati fuori con i punti giusti",
                "wrong_claim": "gli avversari si sono chiamati fuori senza avere i punti",
                "cappotto": "per cappotto", "stramazzo": "per stramazzo", "cappottone": "per cappottone",
                "stramazzone": "per stramazzone"},
        "last_to": "ultima presa {to} {side}",
        "score": "Punteggio: {totals}.",
        "winner": "Vince {side}: {totals}.",
        "winners": "Vincono {side}: {totals}.",
        "open": "La partita non è finita: {totals}.",
        "flags": "Segnalazioni:",
        "flag": "evento {event}: {message}",
        "nothing": "niente",
        "one_point": "un punto",
        "points": "{whole} punti",
        "mixed": "{whole} e {thirds}/3",
    },
    "en": {
        "intro": "Replay of the match: {players}.",
        "sides": "Sides: {sides}.",
        "alone": "Everyone plays alone.",
        "partners_change": "Partners change every hand; each player has a score of their own.",
        "target": "Playing to {target}.",
        "avoid_target": "Take as few points as you can: whoever reaches {target} loses.",
        "versus": " against ",
        "and": " and ",
        "hand": "Hand {number}: {dealer} deals.",
        "trick": "Trick {number}: {leader} leads.",
        "last_trick": "Trick {number}, the last: {leader} leads.",
        "played": "{player}: {card}",
        "no_follow": "{player} does not follow {suit}",
        "takes": "{winner} takes it: {reason}.",
        "highest": "{rank} is the highest card of {suit}",
        "worth": "The trick is worth {points}.",
        "worth_nothing": "The trick is worth nothing.",
        "worth_last": "The trick is worth {points}, with the last trick.",
        "accuso": "{player} declares {what}: {points}.",
        "napoletana": "a napoletana of {suit}",
        "bongioco": "{count} {ranks}",
        "missing": " ({suit} missing)",
        "card_points": "In cards: {points}.",
        "hand_points": "Points of the hand: {totals}.",
        "hand_points_so_far": "Points of the hand so far: {totals} (added at the end of the hand).",
        "partners": "In this hand: {sides}.",
        "call": "{player} calls {suit}.",
        "loser": "{side} loses.",
        "draws": "{player} draws {card}.",
        "claims": "{side} claims the target.",
        "claim": "{side} claim the target.",
        "open_trick": "Trick {number}, in play: {leader} leads.",
        "cappotto": "{kind} for {side}!",
        "both_past": "both past {target}: the higher score wins",
        "why": {"claim": "they claimed the target with the points", "wrong_claim":
                "the other side claimed without the points", "cappotto": "by cappotto",
                "stramazzo": "by stramazzo", "cappottone": "by cappottone", "stramazzone": "by stramazzone"},
        "last_to": "last trick {to} {side}",
        "score": "Score: {totals}.",
        "winner": "{side} wins: {totals}.",
        "winners": "{side} win: {totals}.",
        "open": "The match is not over: {totals}.",
        "flags": "Flags:",
        "flag": "event {event}: {message}",
        "nothing": "nothing",
        "one_point": "one point",
        "points": "{whole} points",
        "mixed": "{whole} and {thirds}/3",
    },
}

_RANK_PLURALS: dict[Lang, dict[int, str]] = {
    "it": {1: "Assi", 2: "Due", 3: "Tre"},
    "en": {1: "Aces", 2: "Twos", 3: "Threes"},
}
_COUNT_WORDS: dict[Lang, dict[int, str]] = {
    "it": {3: "tre", 4: "quattro"},
    "en": {3: "three", 4: "four"},
}


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where: player names by seat, and the names of whatever ``points`` is indexed by
    (sides such as "Anna e Carla", or the players themselves where each plays alone)."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    side_of_seat: tuple[int, ...] | None = None
    partners_change: bool = False

    @classmethod
    def with_sides(cls, players: Sequence[str], sides: Sequence[Sequence[int]], lang: Lang = "it") -> Table:
        """Sides given as lists of seats: ``[[0, 2], [1, 3]]`` names them "Anna e Carla", "Bruno e Dario"."""
        names = tuple(join_names([players[seat] for seat in side], lang) for side in sides)
        side_of_seat = [0] * len(players)
        for index, side in enumerate(sides):
            for seat in side:
                side_of_seat[seat] = index
        return cls(players=tuple(players), sides=names, side_of_seat=tuple(side_of_seat))

    @classmethod
    def each_alone(cls, players: Sequence[str], *, partners_change: bool = False) -> Table:
        """Points per player: each plays alone, or (``partners_change``) with partners that change every
        hand but scores alone (chiamata del tre, morto)."""
        return cls(players=tuple(players), sides=tuple(players), side_of_seat=tuple(range(len(players))),
                   partners_change=partners_change)


def points_text(thirds: int, lang: Lang = "it") -> str:
    """Points as players say them: ``niente``, ``2/3``, ``un punto``, ``5 punti``, ``4 e 2/3``."""
    words = _WORDS[lang]
    whole, rest = divmod(thirds, 3)
    if thirds == 0:
        return words["nothing"]
    if whole == 0:
        return f"{rest}/3"
    if rest:
        return words["mixed"].format(whole=whole, thirds=rest)
    if whole == 1:
        return words["one_point"]
    return words["points"].format(whole=whole)


def rank_with_article(card: Card, lang: Lang = "it") -> str:
    """The rank as the subject of a sentence: ``il Tre``, ``l'Asso`` / ``the Three``."""
    rank = RANK_NAMES[lang][card.rank]
    if lang == "en":
        return f"the {rank}"
    return f"l'{rank}" if rank[0] in "AEIOU" else f"il {rank}"


def hand_heading(number: int, dealer: str, lang: Lang = "it") -> str:
    return _WORDS[lang]["hand"].format(number=number, dealer=dealer)


def trick_lines(number: int, trick: Mapping[str, Any], table: Table, lang: Lang = "it", *,
                is_last: bool = False) -> list[str]:
    """One trick: who led, each card with who played it, who did not follow, who took it and why,
    and what it was worth (with the last-trick point when ``is_last``)."""
    words = _WORDS[lang]
    leader, winner = trick["leader"], trick["winner"]
    cards = [parse_card(code) for code in trick["cards"]]
    seats = [(leader + offset) % len(table.players) for offset in range(len(cards))]
    suit_led = cards[0].suit
    heading = words["last_trick" if is_last else "trick"].format(number=number, leader=table.players[leader])
    lines = [heading]
    for seat, card in zip(seats, cards, strict=True):
        line = words["played"].format(player=table.players[seat], card=card.name(lang))
        if card.suit != suit_led:
            suit = SUIT_NAMES[lang][suit_led]
            line += " — " + words["no_follow"].format(player=table.players[seat], suit=suit)
        lines.append(line)
    winning_card = cards[seats.index(winner)]
    reason = words["highest"].format(rank=rank_with_article(winning_card, lang),
                                     suit=SUIT_NAMES[lang][suit_led])
    lines.append(words["takes"].format(winner=table.players[winner], reason=reason))
    thirds = sum(card.thirds for card in cards)
    if is_last:
        lines.append(words["worth_last"].format(points=points_text(thirds + LAST_TRICK_THIRDS, lang)))
    elif thirds:
        lines.append(words["worth"].format(points=points_text(thirds, lang)))
    else:
        lines.append(words["worth_nothing"])
    return lines


def accuso_line(accuso: Mapping[str, Any], table: Table, lang: Lang = "it") -> str:
    """``Accuso di Anna: napoletana di coppe, 3 punti.`` / ``Anna declares three Aces (batons missing)``."""
    words = _WORDS[lang]
    if accuso.get("kind") == "napoletana":
        what = words["napoletana"].format(suit=SUIT_NAMES[lang].get(accuso.get("suit", ""), "?"))
    else:
        missing = accuso.get("missing")
        count = 3 if missing else 4
        what = words["bongioco"].format(count=_COUNT_WORDS[lang][count],
                                        ranks=_RANK_PLURALS[lang].get(accuso.get("rank", 0), "?"))
        if missing:
            what += words["missing"].format(suit=SUIT_NAMES[lang].get(missing, missing))
    points = points_text(3 * int(accuso.get("points", 0)), lang)
    return words["accuso"].format(player=table.players[accuso["by"]], what=what, points=points)


def side_names(sides: Sequence[Sequence[int]], table: Table, lang: Lang = "it") -> tuple[str, ...]:
    """Seat groups named by their players: ``[[0, 2], [1, 3]]`` -> "Anna e Carla", "Bruno e Dario"."""
    return tuple(join_names([table.players[seat] for seat in side], lang) for side in sides)


def join_names(names: Sequence[str], lang: Lang = "it") -> str:
    """``Anna``, ``Anna e Carla``, ``Bruno, Carla e Dario`` / ``Bruno, Carla and Dario``."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + _WORDS[lang]["and"] + names[-1]


def card_points_line(hand: Mapping[str, Any], table: Table, lang: Lang = "it") -> str:
    """What each side of the hand took in cards (thirds, as players say them) and who took the last trick.

    The hand's own ``sides`` (seat groups) name them when the score has them, else the table's sides."""
    words = _WORDS[lang]
    sides = side_names(hand["sides"], table, lang) if hand.get("sides") else table.sides
    parts = [f"{sides[index]} {points_text(thirds, lang)}"
             for index, thirds in enumerate(hand["card_thirds"])]
    line = words["card_points"].format(points="; ".join(parts))
    last = hand.get("last_trick")
    if last is not None and last < len(sides):
        line = line[:-1] + ", " + words["last_to"].format(to=_to(sides[last], lang), side=sides[last]) + "."
    return line


def hand_points_line(hand: Mapping[str, Any], table: Table, lang: Lang = "it", *,
                     counted: bool = True) -> str:
    """What the hand adds to the match score, per side (or per player where each scores alone); a hand not
    yet ``counted`` (a record that stops inside a hand of an open match) says what it holds so far."""
    key = "hand_points" if counted else "hand_points_so_far"
    return _WORDS[lang][key].format(totals=totals_text(hand["points"], table))


def partners_line(hand: Mapping[str, Any], table: Table, lang: Lang = "it") -> str | None:
    """Where sides change every hand (chiamata, morto): who played with whom in this one."""
    sides = hand.get("sides")
    if not sides or table.side_of_seat is None or all(len(side) == 1 for side in sides):
        return None
    fixed = [[seat for seat, side in enumerate(table.side_of_seat) if side == index]
             for index in range(len(table.sides))]
    if sorted(map(sorted, sides)) == sorted(fixed):
        return None
    return _WORDS[lang]["partners"].format(sides=_WORDS[lang]["versus"].join(side_names(sides, table, lang)))


def totals_text(totals: Sequence[int], table: Table) -> str:
    return ", ".join(f"{table.sides[index]} {total}" for index, total in enumerate(totals))


def score_line(totals: Sequence[int], table: Table, lang: Lang = "it") -> str:
    return _WORDS[lang]["score"].format(totals=totals_text(totals, table))


def result_line(winner: int | None, totals: Sequence[int], table: Table, lang: Lang = "it",
                reason: str | None = None, target: int | None = None) -> str:
    """``Vincono Anna e Carla: ...`` (plural for a side of several), with how they won when it was not
    simply reaching the target alone (a claim, a cappotto, both sides past the target in the same hand),
    or that the match is still open."""
    words = _WORDS[lang]
    if winner is None:
        return words["open"].format(totals=totals_text(totals, table))
    key = "winners" if _is_plural(winner, table) else "winner"
    line = words[key].format(side=table.sides[winner], totals=totals_text(totals, table))
    why = words["why"].get(reason or "")
    both_past = reason == "target" and target is not None and sum(total >= target for total in totals) > 1
    if both_past and len(totals) == 2:
        why = words["both_past"].format(target=target)
    return f"{line[:-1]} ({why})." if why else line


def _is_plural(side: int, table: Table) -> bool:
    return table.side_of_seat is not None and table.side_of_seat.count(side) > 1


def intro_lines(table: Table, target: int | None, lang: Lang = "it", *, avoid: bool = False) -> list[str]:
    """Who plays, with whom, and to what target (``avoid``: the traversone family, the target loses)."""
    words = _WORDS[lang]
    lines = [words["intro"].format(players=", ".join(table.players))]
    if table.partners_change:
        lines.append(words["partners_change"])
    elif table.sides == table.players:
        lines.append(words["alone"])
    else:
        lines.append(words["sides"].format(sides=words["versus"].join(table.sides)))
    if target is not None:
        lines.append(words["avoid_target" if avoid else "target"].format(target=target))
    return lines


Notes = Mapping[int, Sequence[str]]
"""Lines told between tricks (draws, claims), by the number of tricks of the hand done before them."""


def draw_line(seat: int, code: str, table: Table, lang: Lang = "it") -> str:
    """``Anna pesca il Sette di denari.`` / ``Anna draws the Seven of coins.``"""
    card = parse_card(code)
    joiner = " di " if lang == "it" else " of "
    named = f"{rank_with_article(card, lang)}{joiner}{SUIT_NAMES[lang][card.suit]}"
    return _WORDS[lang]["draws"].format(player=table.players[seat], card=named)


def claim_line(side: int, table: Table, lang: Lang = "it") -> str:
    """``Anna e Carla si chiamano fuori.`` (a side claims the target during play)."""
    key = "claim" if _is_plural(side, table) else "claims"
    return _WORDS[lang][key].format(side=table.sides[side])


def cappotto_line(cappotto: Mapping[str, Any], hand: Mapping[str, Any], table: Table,
                  lang: Lang = "it") -> str:
    """The cappotto (or stramazzo, cappottone, stramazzone), always announced: who made it."""
    seat = cappotto.get("seat")
    if seat is not None:
        who = table.players[seat]
    else:
        sides = side_names(hand["sides"], table, lang) if hand.get("sides") else table.sides
        who = sides[cappotto["side"]]
    return _WORDS[lang]["cappotto"].format(kind=str(cappotto["kind"]).capitalize(), side=who)


def open_trick_lines(number: int, open_trick: Mapping[str, Any], table: Table,
                     lang: Lang = "it") -> list[str]:
    """The trick still on the table when the record ends: who led and what is down so far."""
    words = _WORDS[lang]
    leader = open_trick["leader"]
    lines = [words["open_trick"].format(number=number, leader=table.players[leader])]
    for offset, code in enumerate(open_trick["cards"]):
        seat = (leader + offset) % len(table.players)
        name = parse_card(code).name(lang)
        lines.append("  " + words["played"].format(player=table.players[seat], card=name))
    return lines


def hand_lines(number: int, hand: Mapping[str, Any], table: Table, running: Sequence[int],
               lang: Lang = "it", notes: Notes | None = None, *, counted: bool = True) -> list[str]:
    """A whole hand: heading, its tricks (with what happened between them), its accusi, its points and
    the running score (``counted`` false: the hand is still open, its points are not in ``running``)."""
    words = _WORDS[lang]
    notes = notes or {}
    lines = [hand_heading(number, table.players[hand["dealer"]], lang)]
    if hand.get("call"):
        caller = _first_player(hand, table)
        lines.append("  " + words["call"].format(player=table.players[caller],
                                                 suit=SUIT_NAMES[lang][hand["call"]]))
    tricks = hand.get("tricks", [])
    is_complete = hand.get("last_trick") is not None
    lines.extend("  " + note for note in notes.get(0, ()))
    for index, trick in enumerate(tricks, start=1):
        is_last = is_complete and index == len(tricks)
        told = trick_lines(index, trick, table, lang, is_last=is_last)
        lines.extend("  " + line for line in _indent_plays(told))
        lines.extend("    " + note for note in notes.get(index, ()))
    if hand.get("open_trick"):
        in_play = open_trick_lines(len(tricks) + 1, hand["open_trick"], table, lang)
        lines.extend("  " + line for line in in_play)
    if hand.get("cappotto"):
        lines.append("  " + cappotto_line(hand["cappotto"], hand, table, lang))
    lines.extend("  " + accuso_line(accuso, table, lang) for accuso in hand.get("accusi", []))
    partners = partners_line(hand, table, lang)
    if partners is not None:
        lines.append("  " + partners)
    if hand.get("card_thirds"):
        lines.append("  " + card_points_line(hand, table, lang))
    lines.append("  " + hand_points_line(hand, table, lang, counted=counted))
    lines.append("  " + score_line(running, table, lang))
    return lines


def _first_player(hand: Mapping[str, Any], table: Table) -> int:
    """Who led the hand's first trick (the caller, in chiamata): the seat after the dealer if unknown."""
    tricks = hand.get("tricks") or []
    if tricks:
        return int(tricks[0]["leader"])
    return (int(hand["dealer"]) + 1) % len(table.players)


def match_text(report: Mapping[str, Any], table: Table, lang: Lang = "it", *,
               target: int | None = None, avoid: bool = False, notes: Sequence[Notes] = ()) -> str:
    """The whole match from the score object (RECORD.md "What `score` prints"); ``notes[h]`` are the
    lines told between the tricks of hand ``h`` (counted from 0)."""
    words = _WORDS[lang]
    lines = intro_lines(table, target, lang, avoid=avoid)
    running = [0] * len(table.sides)
    is_over = report.get("over", report.get("winner") is not None)
    for index, hand in enumerate(report["hands"]):
        # Scores are added at the end of each hand (RULES.md): an open hand of an open match is told
        # with its points so far, which the match score does not include yet.
        counted = hand.get("complete", True) or is_over
        if counted:
            running = [total + points for total, points in zip(running, hand["points"], strict=True)]
        lines.append("")
        hand_notes = notes[index] if index < len(notes) else None
        lines.extend(hand_lines(index + 1, hand, table, running, lang, hand_notes, counted=counted))
    lines.append("")
    lines.append(result_line(report.get("winner"), report["totals"], table, lang, report.get("reason"),
                             None if avoid else target))
    if report.get("loser") is not None:
        lines.append(words["loser"].format(side=table.sides[report["loser"]]))
    flags = report.get("flags", [])
    if flags:
        lines.append(words["flags"])
        lines.extend("  " + words["flag"].format(event=flag.get("event"), message=flag.get("message", ""))
                     for flag in flags)
    return "\n".join(lines) + "\n"


def _to(name: str, lang: Lang) -> str:
    """``to``; in Italian ``a``, or ``ad`` before a name starting with A (ad Anna)."""
    if lang == "en":
        return "to"
    return "ad" if name[:1].lower() == "a" else "a"


def _indent_plays(lines: list[str]) -> list[str]:
    """Trick heading flush, the plays and the outcome indented under it."""
    return [lines[0], *("  " + line for line in lines[1:])]
