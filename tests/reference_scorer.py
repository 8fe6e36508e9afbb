"""An independent reference scorer for game records, written from RULES.md and RECORD.md only.

It shares no code with the engine (not even ``engine.cards``): the taking order and the card values are
written out again here, so that a cross-check against ``tressette score`` tests the engine, not the engine
against itself. It knows only what the outside review checks:

- ``classic``: 4 players, sides 0+2 / 1+3, no accusi, target 21;
- ``accuso``: as classic with mandatory accusi (tallied from the cards each player is seen to play),
  target 31;
- ``due``: 2 players with drawing (after each of the first 10 tricks the winner draws first, then the
  other), 20 tricks, each player a side, target 21.

Options understood on top of a preset: ``target``, ``accuso`` (``mandatory`` or off), ``four_of_a_kind``
(3 or 4), ``renounce_penalty`` (a proven renounce loses the hand 11 to 0; accusi still count). Anything
else (corrections, declared accusi, claims, calls, other options) is refused with ``UnmodelledRuleError``,
never guessed.

Per hand: tricks (leader, cards, winner), card thirds per side, the side of the last trick, the accusi,
points per side (each side's thirds // 3, the remainder dropped, +1 for the last trick, + accusi). The match
is decided only at the end of a hand: a side at or over the target wins; when both are, the higher total
wins; when they are equal, play goes on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SUITS: tuple[str, ...] = ("c", "d", "s", "b")
CARDS: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 11))

# Taking order, strongest first (RULES.md): 3, 2, Asso, Re, Cavallo, Fante, 7, 6, 5, 4.
TAKING_ORDER: tuple[int, ...] = (3, 2, 1, 10, 9, 8, 7, 6, 5, 4)
# Card values in thirds (RULES.md): Asso 3; 2, 3, Re, Cavallo, Fante 1; scartine 0.
THIRDS: dict[int, int] = {1: 3, 2: 1, 3: 1, 10: 1, 9: 1, 8: 1, 7: 0, 6: 0, 5: 0, 4: 0}
LAST_TRICK_THIRDS = 3
HONOURS: tuple[int, ...] = (1, 2, 3)

PRESETS: dict[str, dict[str, object]] = {
    "classic": {"seats": 4, "accusi": False, "drawing": False},
    "accuso": {"seats": 4, "accusi": True, "drawing": False},
    "due": {"seats": 2, "accusi": False, "drawing": True},
}
# RULES.md "Winning the match": 21 without accusi, 31 with accusi, unless the rules give a target.
TARGET_WITHOUT_ACCUSI = 21
TARGET_WITH_ACCUSI = 31
HAND_SIZE = 10
EVENT_KINDS = frozenset({"play", "accuso", "draw", "call", "claim", "fix", "undo"})


class ReferenceRecordError(ValueError):
    """The record is malformed or describes something that cannot happen; ``line`` is its 1-based line."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class UnmodelledRuleError(ValueError):
    """The record uses something this reference scorer deliberately does not model."""


@dataclass(frozen=True, slots=True)
class Settings:
    seats: int
    accusi: bool
    target: int
    drawing: bool
    four_of_a_kind: int
    renounce_penalty: bool = False

    @property
    def tricks_per_hand(self) -> int:
        return 40 // self.seats

    @property
    def draw_rounds(self) -> int:
        """Tricks after which both players draw (the stock divided by the seats); 0 without drawing."""
        return (40 - self.seats * HAND_SIZE) // self.seats if self.drawing else 0

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.seats == 4 else seat


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Accuso:
    """``kind`` is ``napoletana`` (``key`` = its suit) or ``bongioco`` (``key`` = the rank, as text)."""

    by: int
    kind: str
    key: str
    cards: frozenset[str]
    points: int


@dataclass(frozen=True, slots=True)
class Renounce:
    """A proven renounce: ``by`` failed to follow ``suit`` while holding it; ``event`` (counted from 1
    after the header) is the play that proves it: a card of that suit the seat already held then."""

    by: int
    suit: str
    event: int


@dataclass(frozen=True, slots=True)
class Hand:
    dealer: int
    tricks: tuple[Trick, ...]
    complete: bool
    card_thirds: tuple[int, ...]
    last_trick: int | None
    accusi: tuple[Accuso, ...]
    points: tuple[int, ...] | None
    renounces: tuple[Renounce, ...] = ()


@dataclass(frozen=True, slots=True)
class Score:
    hands: tuple[Hand, ...]
    totals: tuple[int, ...]
    winner: int | None


def rank_of(card: str) -> int:
    return int(card[:-1])


def suit_of(card: str) -> str:
    return card[-1]


def trick_winner_index(cards: Sequence[str]) -> int:
    """Index in ``cards`` (in playing order) of the highest card of the suit led."""
    led = suit_of(cards[0])
    following = [i for i, card in enumerate(cards) if suit_of(card) == led]
    return min(following, key=lambda i: TAKING_ORDER.index(rank_of(cards[i])))


def accusi_in(seat: int, dealt: Iterable[str], four_of_a_kind: int) -> list[Accuso]:
    """Every combination in a dealt hand: napoletana per suit (3), three (3) or four (``four_of_a_kind``) of
    Assi, 2s or 3s. One card may serve in several combinations."""
    held = set(dealt)
    found: list[Accuso] = []
    for suit in SUITS:
        napoli = frozenset(f"{rank}{suit}" for rank in HONOURS)
        if napoli <= held:
            found.append(Accuso(seat, "napoletana", suit, napoli, 3))
    for rank in HONOURS:
        same = frozenset(f"{rank}{suit}" for suit in SUITS) & held
        if len(same) >= 3:
            found.append(Accuso(seat, "bongioco", str(rank), same, four_of_a_kind if len(same) == 4 else 3))
    return found


def settings_from_rules(rules: object, line: int) -> Settings:
    """The header's ``rules``: a preset of PRESETS, then the options over it."""
    if not isinstance(rules, dict) or rules.get("preset") not in PRESETS:
        raise UnmodelledRuleError(f"line {line}: rules {rules!r}: only presets {sorted(PRESETS)}")
    base = dict(PRESETS[str(rules["preset"])])
    four = 4
    penalty = False
    for key, value in rules.items():
        if key == "preset":
            continue
        if key == "target" and isinstance(value, int) and not isinstance(value, bool) and value > 0:
            base["target"] = value
        elif key == "accuso" and value in ("mandatory", False, "none", "off"):
            base["accusi"] = value == "mandatory"
        elif key == "four_of_a_kind" and value in (3, 4):
            four = int(value)
        elif key == "renounce_penalty" and isinstance(value, bool):
            penalty = value
        else:
            raise UnmodelledRuleError(f"line {line}: rule option {key}={value!r} not modelled")
    accusi = bool(base["accusi"])
    target = base.get("target", TARGET_WITH_ACCUSI if accusi else TARGET_WITHOUT_ACCUSI)
    return Settings(seats=int(str(base["seats"])), accusi=accusi, target=int(str(target)),
                    drawing=bool(base["drawing"]), four_of_a_kind=four, renounce_penalty=penalty)


class _HandInProgress:
    """The hand being followed: whose turn it is, the open trick, what each seat played and drew."""

    def __init__(self, settings: Settings, dealer: int) -> None:
        self.settings = settings
        self.dealer = dealer
        self.next_seat = (dealer + 1) % settings.seats
        self.open_cards: list[str] = []
        self.open_leader = self.next_seat
        self.tricks: list[Trick] = []
        self.seen_played: set[str] = set()
        self.seen_drawn: set[str] = set()
        self.played: list[list[str]] = [[] for _ in range(settings.seats)]
        self.drawn: list[list[str]] = [[] for _ in range(settings.seats)]
        self.pending_draws: list[int] = []
        # (seat, suit it did not follow, how many cards it had drawn by then)
        self.failures: list[tuple[int, str, int]] = []
        self.renounces: list[Renounce] = []

    @property
    def is_complete(self) -> bool:
        return len(self.tricks) == self.settings.tricks_per_hand

    @property
    def has_begun(self) -> bool:
        return bool(self.tricks or self.open_cards)

    def play(self, card: str, seat: int, line: int, event: int) -> None:
        if self.pending_draws:
            raise ReferenceRecordError(
                line, f"seat {seat} plays {card} before seat {self.pending_draws[0]} draws")
        if seat != self.next_seat:
            raise ReferenceRecordError(
                line, f"seat {seat} plays {card} out of turn (seat {self.next_seat} is next)")
        if card in self.seen_played:
            raise ReferenceRecordError(line, f"{card} was already played in this hand")
        self.seen_played.add(card)
        self._check_renounce(card, seat, event)
        self.played[seat].append(card)
        self.open_cards.append(card)
        if len(self.open_cards) < self.settings.seats:
            self.next_seat = (seat + 1) % self.settings.seats
            return
        winner = (self.open_leader + trick_winner_index(self.open_cards)) % self.settings.seats
        self.tricks.append(Trick(self.open_leader, tuple(self.open_cards), winner))
        self.open_cards = []
        self.open_leader = self.next_seat = winner
        if len(self.tricks) <= self.settings.draw_rounds:
            self.pending_draws = [winner, *((winner + k) % self.settings.seats
                                            for k in range(1, self.settings.seats))]

    def _check_renounce(self, card: str, seat: int, event: int) -> None:
        """Note a failure to follow; a later play of that suit with a card held at the failure (not
        drawn since) proves it, once for all the open failures of that seat and suit."""
        suit = suit_of(card)
        proving = [failure for failure in self.failures
                   if failure[0] == seat and failure[1] == suit and card not in self.drawn[seat][failure[2]:]]
        if proving:
            self.renounces.append(Renounce(seat, suit, event))
            self.failures = [failure for failure in self.failures if failure not in proving]
        if self.open_cards and suit != suit_of(self.open_cards[0]):
            self.failures.append((seat, suit_of(self.open_cards[0]), len(self.drawn[seat])))

    def draw(self, card: str, seat: int, line: int) -> None:
        if not self.pending_draws:
            raise ReferenceRecordError(line, f"seat {seat} draws {card} when nobody should draw")
        if seat != self.pending_draws[0]:
            raise ReferenceRecordError(
                line, f"seat {seat} draws out of turn (seat {self.pending_draws[0]} draws)")
        if card in self.seen_played or card in self.seen_drawn:
            raise ReferenceRecordError(line, f"{card} was already seen in this hand")
        self.seen_drawn.add(card)
        self.drawn[seat].append(card)
        self.pending_draws.pop(0)

    def result(self) -> Hand:
        settings = self.settings
        sides = 2
        if not self.is_complete:
            return Hand(self.dealer, tuple(self.tricks), False, (), None, (), None, tuple(self.renounces))
        thirds = [0] * sides
        for trick in self.tricks:
            thirds[settings.side_of(trick.winner)] += sum(THIRDS[rank_of(card)] for card in trick.cards)
        last_side = settings.side_of(self.tricks[-1].winner)
        points = [side_thirds // 3 for side_thirds in thirds]
        points[last_side] += LAST_TRICK_THIRDS // 3
        if settings.renounce_penalty and self.renounces:
            # RULES.md renounce_penalty: the side of the first proven offender loses the hand 11 to 0.
            offender = settings.side_of(min(self.renounces, key=lambda renounce: renounce.event).by)
            points = [0 if side == offender else sum(points) for side in range(sides)]
        accusi: list[Accuso] = []
        if settings.accusi:
            for seat in range(settings.seats):
                dealt = set(self.played[seat]) - set(self.drawn[seat])
                accusi.extend(accusi_in(seat, dealt, settings.four_of_a_kind))
        for accuso in accusi:
            points[settings.side_of(accuso.by)] += accuso.points
        return Hand(self.dealer, tuple(self.tricks), True, tuple(thirds), last_side, tuple(accusi),
                    tuple(points), tuple(self.renounces))


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """At the end of a hand: the side at or over the target; both: the higher; equal: nobody yet."""
    reached = [side for side, total in enumerate(totals) if total >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    best = max(totals[side] for side in reached)
    leaders = [side for side in reached if totals[side] == best]
    return leaders[0] if len(leaders) == 1 else None


def _parse_line(text: str, line: int) -> dict[str, object]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReferenceRecordError(line, f"not JSON: {error.msg}") from error
    if not isinstance(value, dict):
        raise ReferenceRecordError(line, f"not a JSON object: {text!r}")
    return value


def _event_kind(event: dict[str, object], line: int) -> str:
    """The one event key of RECORD.md on the line (play, accuso, draw, call, claim, or a fix/undo)."""
    kinds = sorted(set(event) & EVENT_KINDS)
    if len(kinds) != 1:
        raise ReferenceRecordError(
            line, f"expected exactly one of {sorted(EVENT_KINDS)}, got keys {sorted(event)}")
    return kinds[0]


def _seat(event: dict[str, object], seats: int, line: int) -> int:
    seat = event.get("by")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise ReferenceRecordError(line, f"'by' must be a seat 0..{seats - 1}, got {seat!r}")
    return seat


def _card(event: dict[str, object], key: str, line: int) -> str:
    card = event.get(key)
    if not isinstance(card, str) or card not in CARDS:
        raise ReferenceRecordError(line, f"{key!r}: not a card: {card!r}")
    return card


def score_lines(lines: Iterable[str]) -> Score:
    """Score a record given as its text lines (``#`` and blank lines skipped)."""
    numbered = [(number, text) for number, text in enumerate(lines, start=1)
                if text.strip() and not text.lstrip().startswith("#")]
    if not numbered:
        raise ReferenceRecordError(1, "no header")
    header_line, header_text = numbered[0]
    header = _parse_line(header_text, header_line)
    if header.get("tressette") != 1:
        raise ReferenceRecordError(header_line, f"'tressette' must be 1, got {header.get('tressette')!r}")
    settings = settings_from_rules(header.get("rules"), header_line)
    players = header.get("players")
    if not isinstance(players, list) or len(players) != settings.seats:
        raise ReferenceRecordError(
            header_line, f"'players' must list {settings.seats} names, got {players!r}")
    dealer = header.get("dealer", settings.seats - 1)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < settings.seats:
        raise ReferenceRecordError(header_line, f"'dealer' must be a seat, got {dealer!r}")

    hands: list[Hand] = []
    totals = [0, 0]
    winner: int | None = None
    current = _HandInProgress(settings, dealer)
    for number, (line, text) in enumerate(numbered[1:], start=1):
        event = _parse_line(text, line)
        if winner is not None:
            raise ReferenceRecordError(line, f"event after the match was won by side {winner}")
        kind = _event_kind(event, line)
        if kind == "play":
            current.play(_card(event, "play", line), _seat(event, settings.seats, line), line, number)
        elif kind == "draw" and settings.drawing:
            current.draw(_card(event, "draw", line), _seat(event, settings.seats, line), line)
        elif kind == "draw":
            raise ReferenceRecordError(line, "a draw, but these rules have no drawing")
        else:
            raise UnmodelledRuleError(f"line {line}: event {text.strip()!r} not modelled")
        if current.is_complete and not current.pending_draws:
            hand = current.result()
            hands.append(hand)
            totals = [total + points for total, points in zip(totals, hand.points or (0, 0), strict=True)]
            winner = match_winner(totals, settings.target)
            current = _HandInProgress(settings, (current.dealer + 1) % settings.seats)
    if current.has_begun:
        hands.append(current.result())
    return Score(tuple(hands), tuple(totals), winner)


def score_text(text: str) -> Score:
    return score_lines(text.splitlines())


def random_match_lines(rules: str | Mapping[str, object], rng: random.Random, dealer: int | None = None,
                       max_hands: int = 200, renounce_chance: float = 0.0) -> list[str]:
    """A random legal match record written by this module alone (its own deal, follow-suit play and
    draws), ended when ``match_winner`` decides it: a second source of records besides the product's
    simulator, so that a bias shared by the simulator and the engine cannot hide. ``rules`` is a preset
    name or a header ``rules`` object. With ``renounce_chance`` a player who could follow suit sometimes
    does not (a renounce, which scores as usual and is flagged once proven)."""
    rules = {"preset": rules} if isinstance(rules, str) else dict(rules)
    settings = settings_from_rules(rules, 1)
    seats = settings.seats
    dealer = rng.randrange(seats) if dealer is None else dealer
    players = ["Anna", "Bruno", "Carla", "Dario"][:seats]
    lines = [json.dumps({"tressette": 1, "rules": rules, "players": players, "dealer": dealer})]
    totals = [0, 0]
    for _ in range(max_hands):
        deck = list(CARDS)
        rng.shuffle(deck)
        holdings = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(seats)]
        stock = deck[seats * HAND_SIZE:]
        hand_lines = _random_hand(settings, dealer, holdings, stock, rng, renounce_chance)
        lines.extend(hand_lines)
        hand_header = json.dumps({"tressette": 1, "rules": rules, "players": players, "dealer": dealer})
        hand = score_lines([hand_header, *hand_lines]).hands[0]
        totals = [total + points for total, points in zip(totals, hand.points or (0, 0), strict=True)]
        if match_winner(totals, settings.target) is not None:
            return lines
        dealer = (dealer + 1) % seats
    raise RuntimeError(f"no winner after {max_hands} hands")


def _random_hand(settings: Settings, dealer: int, holdings: list[list[str]], stock: list[str],
                 rng: random.Random, renounce_chance: float) -> list[str]:
    lines: list[str] = []
    leader = (dealer + 1) % settings.seats
    for _ in range(settings.tricks_per_hand):
        cards: list[str] = []
        for offset in range(settings.seats):
            seat = (leader + offset) % settings.seats
            held = holdings[seat]
            same_suit = [card for card in held if cards and suit_of(card) == suit_of(cards[0])]
            other_suits = [card for card in held if card not in same_suit]
            renounces = bool(same_suit and other_suits) and rng.random() < renounce_chance
            card = rng.choice(other_suits if renounces else same_suit or held)
            held.remove(card)
            cards.append(card)
            lines.append(json.dumps({"play": card, "by": seat}))
        leader = (leader + trick_winner_index(cards)) % settings.seats
        for offset in range(settings.seats if stock else 0):
            seat = (leader + offset) % settings.seats
            card = stock.pop()
            holdings[seat].append(card)
            lines.append(json.dumps({"draw": card, "by": seat}))
    return lines
