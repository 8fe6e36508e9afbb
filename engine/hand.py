"""One hand in play: the trick so far, the tricks taken, who plays next, and what each event changes.

``Hand`` is an immutable value (a named tuple, so that the hot path stays lean); every function here
returns a new ``Hand`` and the flags the event raised, or raises ``IllegalEventError`` when the event
cannot happen. The rules (RULES.md, "Play"):

- must follow suit when able; only the suit led takes; strongest 3, 2, Asso, Re, Cavallo, Fante, 7..4;
- the trick's winner leads next; with two players and drawing, after each trick the winner draws
  first, then the other, while the stock lasts;
- a renounce is proven when a seat that did not follow a suit later plays a card of that suit that it
  already held then.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.accusi import Combo
from engine.cards import DECK, SUITS, Card
from engine.errors import IllegalEventError
from engine.flags import FALSE_ACCUSO, FOUR_OF_DENARI, RENOUNCE, Flag
from engine.rules import Rules

# Per card: (bit in a 40-bit mask, suit index, taking strength, value in thirds). Looked up by identity
# first (the 40 cards of DECK are the ones parse_card returns), then by value.
CardInfo = tuple[int, int, int, int]
_INFO_BY_VALUE: dict[Card, CardInfo] = {
    card: (1 << index, SUITS.index(card.suit), card.strength, card.thirds) for index, card in enumerate(DECK)
}
_INFO_BY_ID: dict[int, CardInfo] = {id(card): info for card, info in _INFO_BY_VALUE.items()}
FOUR_DENARI = Card(4, "d")
SECOND_DEAL_TRICK = 10  # two players without drawing: tricks 11-20 are the second deal


def card_info(card: Card) -> CardInfo:
    info = _INFO_BY_ID.get(id(card))
    return info if info is not None else _INFO_BY_VALUE[card]


def cards_in(mask: int) -> tuple[Card, ...]:
    """The cards of a 40-bit mask, in deck order."""
    return tuple(card for index, card in enumerate(DECK) if mask >> index & 1)


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order from the leader, who took it, its thirds."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    thirds: int


class Declaration(NamedTuple):
    """A declared accuso (``accuso = declared``): the seat, its combinations, the event that made it,
    the trick index it was made in, and whether it has been proven false."""

    by: int
    combos: tuple[Combo, ...]
    event: int
    trick: int
    false: bool = False


class HandExtra(NamedTuple):
    """The parts of a hand that change rarely (calls, draws, declarations, renounce bookkeeping)."""

    call: str | None = None
    partner: int | None = None
    pending: tuple[int, ...] = ()
    stock: int = 0
    drawn: tuple[tuple[Card, int, int], ...] = ()  # (card, seat, trick index it came into the hand)
    drawn_mask: int = 0
    declarations: tuple[Declaration, ...] = ()
    declared_mask: int = 0
    voids: tuple[tuple[int, int, int], ...] = ()  # (seat, suit index, trick index it was not followed)
    renounces: tuple[int, ...] = ()


NO_EXTRA = HandExtra()


class Hand(NamedTuple):
    """The hand in play. ``first`` leads the first trick (``None``: any seat may, for ``four_of_denari``);
    ``turn`` is who plays next (``None`` while a draw or call is due, or when any seat may lead);
    ``played``/``by_seat`` are 40-bit masks of the cards played (per seat); ``thirds`` the card thirds each
    seat has taken; ``void_mask`` has bit ``seat * 4 + suit`` for a suit a seat did not follow."""

    number: int
    dealer: int
    first: int | None
    turn: int | None
    leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    played: int
    by_seat: tuple[int, ...]
    thirds: tuple[int, ...]
    void_mask: int
    extra: HandExtra

    @property
    def has_started(self) -> bool:
        return bool(self.played) or bool(self.extra.call) or bool(self.extra.declarations)

    @property
    def is_call_due(self) -> bool:
        return self.turn is None and self.first is not None and not self.extra.pending and not self.played

    def describe(self) -> str:
        """The state in words, for error messages: hand, trick so far, whose turn."""
        trick_no = len(self.tricks) + 1
        so_far = " ".join(card.code for card in self.trick) or "no card yet"
        if self.extra.pending:
            due = f"seat {self.extra.pending[0]} must draw"
        elif self.turn is not None:
            due = f"seat {self.turn} to play"
        elif self.first is None and not self.played:
            due = "any seat may lead (four of denari)"
        else:
            due = f"seat {self.first} must call a suit first"
        leader = f", led by seat {self.leader}" if self.trick else ""
        return f"hand {self.number + 1}, trick {trick_no} ({so_far}{leader}); {due}"


def new_hand(rules: Rules, number: int, dealer: int, first: int | None) -> Hand:
    """A hand about to start. ``first`` is the first player (``None``: any seat may lead)."""
    seats = rules.seats
    turn = None if rules.sides == "called" else first
    stock = 40 - seats * rules.cards_per_deal if rules.drawing else 0
    return Hand(number, dealer, first, turn, first, (), (), 0, (0,) * seats, (0,) * seats, 0,
                HandExtra(stock=stock))


def trick_winner(leader: int, cards: tuple[Card, ...], seats: int) -> int:
    """The seat whose card of the suit led is strongest (a trick never ties)."""
    lead_suit = cards[0].suit
    best = 0
    best_strength = -1
    for offset, card in enumerate(cards):
        if card.suit == lead_suit:
            strength = card_info(card)[2]
            if strength > best_strength:
                best, best_strength = offset, strength
    return (leader + best) % seats


def acquired_at(rules: Rules, hand: Hand, card: Card, seat: int, trick_index: int) -> int:
    """The trick index from which ``seat`` held ``card``, which it plays in ``trick_index``."""
    for drawn, by, when in hand.extra.drawn:
        if drawn == card and by == seat:
            return when
    if rules.seats == 2 and not rules.drawing and trick_index >= SECOND_DEAL_TRICK:
        return SECOND_DEAL_TRICK
    return 0


def illegal(where: str, event: str, hand: Hand, why: str) -> IllegalEventError:
    return IllegalEventError(f"{where}: {event}: {why} ({hand.describe()})")


def play(rules: Rules, hand: Hand, card: Card, by: int, event_no: int,
         where: str) -> tuple[Hand, tuple[Flag, ...]]:
    """Seat ``by`` plays ``card``: the new hand and the flags the play raised."""
    bit, suit, _strength, _thirds = card_info(card)
    text = f"play {card.code} by {by}"
    seats = rules.seats
    turn = hand.turn
    if turn is None:
        if hand.first is None and not hand.played and not hand.extra.pending:
            if not 0 <= by < seats:
                raise illegal(where, text, hand, f"no seat {by} (seats 0..{seats - 1})")
            hand = hand._replace(first=by, leader=by)
        else:
            raise illegal(where, text, hand, "no card can be played now")
    elif by != turn:
        raise illegal(where, text, hand, f"it is seat {turn}'s turn")
    if hand.played & bit:
        raise illegal(where, text, hand, f"{card.code} was already played in this hand")
    extra = hand.extra
    flags: tuple[Flag, ...] = ()
    if extra.drawn_mask & bit:
        owner = next(seat for drawn, seat, _ in extra.drawn if drawn == card)
        if owner != by:
            raise illegal(where, text, hand, f"{card.code} was drawn by seat {owner}")
    trick = hand.trick
    void_mask = hand.void_mask
    trick_index = len(hand.tricks)
    if trick:
        lead_suit = card_info(trick[0])[1]
        if suit != lead_suit:
            void_bit = 1 << (by * 4 + lead_suit)
            if not void_mask & void_bit:
                void_mask |= void_bit
                extra = extra._replace(voids=(*extra.voids, (by, lead_suit, trick_index)))
    if void_mask >> (by * 4 + suit) & 1:
        hand_now = hand._replace(extra=extra)
        extra, void_mask, flags = _check_renounce(rules, hand_now, extra, void_mask, card, by, suit,
                                                  trick_index, event_no)
    if extra.declared_mask & bit:
        extra, more = _check_declarations_on_play(rules, extra, card, by, trick_index, event_no)
        flags += more
    if extra.call is not None and extra.partner is None and card.rank == 3 and card.suit == extra.call:
        extra = extra._replace(partner=by)
    if hand.number == 0 and rules.first_lead == "four_of_denari" and card == FOUR_DENARI:
        first_leader = hand.tricks[0].leader if hand.tricks else hand.leader
        if first_leader != by:
            flags += (Flag(event_no, FOUR_OF_DENARI, by, {"leader": first_leader}),)
    by_seat = hand.by_seat
    by_seat = (*by_seat[:by], by_seat[by] | bit, *by_seat[by + 1:])
    trick = (*trick, card)
    played = hand.played | bit
    leader = hand.leader
    if len(trick) < seats:
        return Hand(hand.number, hand.dealer, hand.first, (by + 1) % seats, leader, trick, hand.tricks,
                    played, by_seat, hand.thirds, void_mask, extra), flags
    winner = trick_winner(leader, trick, seats)
    trick_thirds = 0
    for each in trick:
        trick_thirds += card_info(each)[3]
    taken = hand.thirds
    taken = (*taken[:winner], taken[winner] + trick_thirds, *taken[winner + 1:])
    tricks = (*hand.tricks, Trick(leader, trick, winner, trick_thirds))
    next_turn: int | None = winner
    if extra.stock and len(tricks) < rules.tricks_per_hand:
        extra = extra._replace(pending=(winner, (winner + 1) % seats))
        next_turn = None
    return Hand(hand.number, hand.dealer, hand.first, next_turn, winner, (), tricks, played, by_seat, taken,
                void_mask, extra), flags


def _check_renounce(rules: Rules, hand: Hand, extra: HandExtra, void_mask: int, card: Card, by: int,
                    suit: int, trick_index: int, event_no: int) -> tuple[HandExtra, int, tuple[Flag, ...]]:
    """``by`` plays a card of a suit it once did not follow: a renounce if it held this card then."""
    held_from = acquired_at(rules, hand, card, by, trick_index)
    proof = next(((seat, s, when) for seat, s, when in extra.voids
                  if seat == by and s == suit and when >= held_from), None)
    if proof is None:
        return extra, void_mask, ()
    voids = tuple(item for item in extra.voids if not (item[0] == by and item[1] == suit))
    void_mask &= ~(1 << (by * 4 + suit))
    renounces = (*extra.renounces, by)
    flag = Flag(event_no, RENOUNCE, by, {"suit": SUITS[suit], "trick": proof[2] + 1, "card": card.code})
    return extra._replace(voids=voids, renounces=renounces), void_mask, (flag,)


def _check_declarations_on_play(rules: Rules, extra: HandExtra, card: Card, by: int, trick_index: int,
                                event_no: int) -> tuple[HandExtra, tuple[Flag, ...]]:
    return falsify(rules, extra, card, by, trick_index, event_no, drawn=False)


def deal_of(rules: Rules, trick_index: int) -> int:
    """0 for the first deal, 1 for the second (two players without drawing, tricks 11-20)."""
    return 1 if rules.seats == 2 and not rules.drawing and trick_index >= SECOND_DEAL_TRICK else 0


def falsify(rules: Rules, extra: HandExtra, card: Card, by: int, trick_index: int, event_no: int,
            *, drawn: bool) -> tuple[HandExtra, tuple[Flag, ...]]:
    """A declared card is seen played or drawn: the declarations it proves false (a card played or drawn
    by another seat, drawn later by the declarer, or played in the other deal), flagged."""
    flags: list[Flag] = []
    declarations = list(extra.declarations)
    for index, declaration in enumerate(declarations):
        if declaration.false or not any(card in combo.cards for combo in declaration.combos):
            continue
        why: str | None = None
        if by != declaration.by:
            why = "drawn_by" if drawn else "played_by"
        elif drawn:
            why = "drawn_later"
        elif deal_of(rules, trick_index) != deal_of(rules, declaration.trick):
            why = "other_deal"
        if why is not None:
            declarations[index] = declaration._replace(false=True)
            params = {"card": card.code, "why": why, "other": by}
            flags.append(Flag(event_no, FALSE_ACCUSO, declaration.by, params))
    return extra._replace(declarations=tuple(declarations)), tuple(flags)


def draw(rules: Rules, hand: Hand, card: Card, by: int, event_no: int,
         where: str) -> tuple[Hand, tuple[Flag, ...]]:
    """Two players with drawing: the trick's winner draws first, then the other; the card is shown."""
    extra = hand.extra
    text = f"draw {card.code} by {by}"
    if not extra.pending:
        raise illegal(where, text, hand, "no draw is due")
    if by != extra.pending[0]:
        raise illegal(where, text, hand, f"seat {extra.pending[0]} draws first")
    bit = card_info(card)[0]
    if hand.played & bit:
        raise illegal(where, text, hand, f"{card.code} was already played in this hand")
    if extra.drawn_mask & bit:
        raise illegal(where, text, hand, f"{card.code} was already drawn in this hand")
    flags: tuple[Flag, ...] = ()
    trick_index = len(hand.tricks)
    if extra.declared_mask & bit:
        extra, flags = falsify(rules, extra, card, by, trick_index, event_no, drawn=True)
    pending = extra.pending[1:]
    extra = extra._replace(pending=pending, stock=extra.stock - 1, drawn_mask=extra.drawn_mask | bit,
                           drawn=(*extra.drawn, (card, by, trick_index)))
    turn = hand.leader if not pending else None
    return hand._replace(turn=turn, extra=extra), flags


def call(rules: Rules, hand: Hand, suit: str, by: int, where: str) -> Hand:
    """Chiamata del tre: before the first lead the first player names a suit."""
    text = f"call {suit} by {by}"
    if rules.sides != "called":
        raise illegal(where, text, hand, "there is no call in this game (sides are not 'called')")
    if hand.extra.call is not None:
        raise illegal(where, text, hand, f"{hand.extra.call} was already called in this hand")
    if hand.played:
        raise illegal(where, text, hand, "the call comes before the first lead")
    if by != hand.first:
        raise illegal(where, text, hand, f"seat {hand.first} calls in this hand")
    if suit not in SUITS:
        raise illegal(where, text, hand, f"{suit!r} is not a suit (c, d, s, b)")
    return hand._replace(turn=hand.first, extra=hand.extra._replace(call=suit))
