"""One hand in play: the trick so far, the tricks taken, who plays next, and what each event changes.

``Hand`` is an immutable value (a named tuple, so that the hot path stays lean); every function here
returns a new ``Hand`` and the flags the event raised, or raises ``IllegalEventError`` when the event
cannot happen. The rules (RULES.md, "Play"):

- must follow suit when able (the engine does not see hands: ``MatchState.legal_plays`` applies this to a
  known hand, and a failure becomes a flagged renounce once proven); only the suit led takes; strongest
  3, 2, Asso, Re, Cavallo, Fante, 7..4;
- the trick's winner leads next; with two players and drawing, after each trick the winner draws
  first, then the other, while the stock lasts;
- a renounce is proven when a seat that did not follow a suit later plays a card of that suit that it
  already held at one of its failures to follow it (dealt, or drawn before that failure).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.accusi import Combo
from engine.cards import DECK, SUITS, Card
from engine.errors import IllegalEventError, Message, joined
from engine.events import Meta
from engine.flags import FALSE_ACCUSO, FOUR_OF_DENARI, RENOUNCE, Flag
from engine.rules import Rules

# Per card: (bit in a 40-bit mask, suit index, taking strength, value in thirds, the DECK card itself).
# Looked up by identity first (the 40 cards of DECK are the ones parse_card returns), then by value;
# hands keep the DECK card, so that later lookups always hit the identity table.
CardInfo = tuple[int, int, int, int, Card]
_INFO_BY_VALUE: dict[Card, CardInfo] = {
    card: (1 << index, SUITS.index(card.suit), card.strength, card.thirds, card)
    for index, card in enumerate(DECK)
}
_INFO_BY_ID: dict[int, CardInfo] = {id(card): info for card, info in _INFO_BY_VALUE.items()}
FOUR_DENARI = Card(4, "d")
_FOUR_DENARI_BIT = _INFO_BY_VALUE[FOUR_DENARI][0]
SECOND_DEAL_TRICK = 10  # two players without drawing: tricks 11-20 are the second deal
_tuple_new = tuple.__new__


def card_info(card: Card) -> CardInfo:
    """The table entry of ``card``; raises ``IllegalEventError`` for anything that is not a card."""
    info = _INFO_BY_ID.get(id(card)) or _INFO_BY_VALUE.get(card)
    if info is None:
        raise IllegalEventError(_not_a_card(card))
    return info


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
    # (seat, suit index, trick index it was not followed): every failure after which the seat may have
    # acquired a card of that suit (a repeat with nothing acquired in between proves nothing new)
    voids: tuple[tuple[int, int, int], ...] = ()
    renounces: tuple[int, ...] = ()


NO_EXTRA = HandExtra()


class Hand(NamedTuple):
    """The hand in play. ``first`` leads the first trick (``None``: any seat may, for ``four_of_denari``);
    ``turn`` is who plays next (``None`` while a draw or call is due, or when any seat may lead);
    ``played`` is the 40-bit mask of the cards played; ``thirds`` the card thirds each seat has taken;
    ``void_mask`` has bit ``seat * 4 + suit`` for a suit a seat did not follow."""

    number: int
    dealer: int
    first: int | None
    turn: int | None
    leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    played: int
    thirds: tuple[int, ...]
    void_mask: int
    extra: HandExtra

    @property
    def has_started(self) -> bool:
        return bool(self.played) or bool(self.extra.call) or bool(self.extra.declarations)

    @property
    def is_call_due(self) -> bool:
        return self.turn is None and self.first is not None and not self.extra.pending and not self.played

    def describe(self, lang: str = "en") -> str:
        """The state in words, for error messages: hand, trick so far, whose turn (English, or Italian for
        ``"it"``)."""
        italian = lang == "it"
        trick_no = len(self.tricks) + 1
        so_far = " ".join(card.code for card in self.trick) or ("ancora nessuna carta" if italian else
                                                                "no card yet")
        if self.extra.pending:
            seat = self.extra.pending[0]
            due = f"deve pescare il posto {seat}" if italian else f"seat {seat} must draw"
        elif self.turn is not None:
            due = f"tocca al posto {self.turn}" if italian else f"seat {self.turn} to play"
        elif self.first is None and not self.played:
            due = ("può aprire chiunque (Quattro di denari)" if italian else
                   "any seat may lead (four of denari)")
        else:
            due = (f"il posto {self.first} deve prima chiamare un seme" if italian else
                   f"seat {self.first} must call a suit first")
        if italian:
            leader = f", aperta dal posto {self.leader}" if self.trick else ""
            return f"mano {self.number + 1}, presa {trick_no} ({so_far}{leader}); {due}"
        leader = f", led by seat {self.leader}" if self.trick else ""
        return f"hand {self.number + 1}, trick {trick_no} ({so_far}{leader}); {due}"


def new_hand(rules: Rules, number: int, dealer: int, first: int | None) -> Hand:
    """A hand about to start. ``first`` is the first player (``None``: any seat may lead)."""
    seats = rules.seats
    turn = None if rules.sides == "called" else first
    stock = 40 - seats * rules.cards_per_deal if rules.drawing else 0
    extra = HandExtra(stock=stock) if stock else NO_EXTRA
    return Hand(number, dealer, first, turn, first, (), (), 0, (0,) * seats, 0, extra)


def acquired_at(rules: Rules, hand: Hand, card: Card, seat: int, trick_index: int) -> int:
    """The trick index from which ``seat`` held ``card``, which it plays in ``trick_index``."""
    for drawn, by, when in hand.extra.drawn:
        if drawn == card and by == seat:
            return when
    if rules.seats == 2 and not rules.drawing and trick_index >= SECOND_DEAL_TRICK:
        return SECOND_DEAL_TRICK
    return 0


_EVENT_WORDS: dict[str, Message] = {
    "play": Message("play {detail} by {by}", "il posto {by} gioca {detail}"),
    "draw": Message("draw {detail} by {by}", "il posto {by} pesca {detail}"),
    "accuso": Message("accuso {detail} by {by}", "il posto {by} accusa {detail}"),
    "call": Message("call {detail} by {by}", "il posto {by} chiama {detail}"),
    "claim": Message("claim {detail}", "il lato {detail} si chiama fuori"),
}


def event_words(kind: str, detail: object, by: object = None) -> Message:
    """An event as an error message names it: ``play 3c by 1`` / ``il posto 1 gioca 3c``."""
    english, italian = _EVENT_WORDS[kind]
    return Message(english.format(detail=detail, by=by), italian.format(detail=detail, by=by))


def place_words(where: Meta | int) -> Message:
    """Where an event is: its Meta (``event 17 (line 18)``) or, for an event read from no file, its
    number."""
    meta = Meta(number=where) if isinstance(where, int) else where
    return Message(meta.where("en"), meta.where("it"))


def illegal(where: Meta | int, event: Message, hand: Hand, why: Message) -> IllegalEventError:
    """The error for an impossible event: where it is in the record, the event, why, and the state."""
    state = Message(f" ({hand.describe('en')})", f" ({hand.describe('it')})")
    return IllegalEventError(joined(place_words(where), event, why) + state)


def play(rules: Rules, hand: Hand, card: Card, by: int, event_no: int,
         meta: Meta | int) -> tuple[Hand, tuple[Flag, ...]]:
    """Seat ``by`` plays ``card``: the new hand and the flags the play raised. This is the hot path of
    every fold, so it reads the per-card table once and builds the next ``Hand`` directly."""
    info = _INFO_BY_ID.get(id(card)) or _INFO_BY_VALUE.get(card)
    if info is None:
        raise illegal(meta, event_words("play", repr(card), by), hand, _not_a_card(card))
    bit, suit, _strength, _thirds, card = info
    if by != hand[3]:
        hand = _lead_by_anyone(hand, card, by, meta)
    number, dealer, first, _turn, leader, trick, tricks, played, thirds, void_mask, extra = hand
    seats = rules.seats
    if played & bit:
        raise illegal(meta, event_words("play", card.code, by), hand, _already_played(card))
    flags: tuple[Flag, ...] = ()
    if extra is not NO_EXTRA:
        if extra.drawn_mask & bit:
            owner = next(seat for drawn, seat, _ in extra.drawn if drawn == card)
            if owner != by:
                raise illegal(meta, event_words("play", card.code, by), hand,
                              Message(f"{card.code} was drawn by seat {owner}",
                                      f"{card.code} l'ha pescata il posto {owner}"))
        if extra.declared_mask & bit:
            extra, flags = falsify(rules, extra, card, by, len(tricks), event_no, drawn=False)
        if extra.call is not None and extra.partner is None and card.rank == 3 and card.suit == extra.call:
            extra = extra._replace(partner=by)
    if trick:
        lead_suit = _INFO_BY_ID[id(trick[0])][1]
        if suit != lead_suit:
            if not void_mask >> (by * 4 + lead_suit) & 1:
                void_mask |= 1 << (by * 4 + lead_suit)
                extra = extra._replace(voids=(*extra.voids, (by, lead_suit, len(tricks))))
            elif seats == 2:  # only two players acquire cards during a hand (draws, the second deal)
                extra = _fail_again(rules, extra, by, lead_suit, len(tricks))
    if void_mask and void_mask >> (by * 4 + suit) & 1:
        extra, void_mask, more = _check_renounce(rules, hand, extra, void_mask, card, by, suit, event_no)
        flags += more
    if bit == _FOUR_DENARI_BIT and number == 0 and rules.first_lead == "four_of_denari":
        first_leader = tricks[0].leader if tricks else leader
        if first_leader != by:
            flags += (Flag(event_no, FOUR_OF_DENARI, by, {"leader": first_leader}),)
    trick = (*trick, card)
    if len(trick) < seats:
        return _tuple_new(Hand, (number, dealer, first, (by + 1) % seats, leader, trick, tricks, played | bit,
                                 thirds, void_mask, extra)), flags
    return _close_trick(seats, hand, trick, played | bit, void_mask, extra), flags


def _lead_by_anyone(hand: Hand, card: Card, by: int, meta: Meta | int) -> Hand:
    """A play by a seat whose turn it is not: allowed only as the first lead with ``four_of_denari``."""
    text = event_words("play", card.code, by)
    if hand.turn is not None:
        raise illegal(meta, text, hand, Message(f"it is seat {hand.turn}'s turn",
                                                f"tocca al posto {hand.turn}"))
    if hand.extra.pending:
        seat = hand.extra.pending[0]
        raise illegal(meta, text, hand, Message(f"seat {seat} must draw first",
                                                f"prima deve pescare il posto {seat}"))
    if hand.first is not None and not hand.played:
        raise illegal(meta, text, hand, Message(f"seat {hand.first} must call a suit first",
                                                f"prima il posto {hand.first} deve chiamare un seme"))
    if hand.first is not None or hand.played:
        raise illegal(meta, text, hand, Message("no card can be played now",
                                                "ora non si può giocare nessuna carta"))
    return hand._replace(first=by, leader=by, turn=by)


def _close_trick(seats: int, hand: Hand, trick: tuple[Card, ...], played: int, void_mask: int,
                 extra: HandExtra) -> Hand:
    """The trick is complete: its winner takes its thirds and leads (after the draws, if any)."""
    leader = hand.leader if hand.leader is not None else 0
    _bit, lead_suit, best_strength, trick_thirds, _card = _INFO_BY_ID[id(trick[0])]
    best = 0
    for offset in range(1, seats):
        _bit, suit, strength, value, _card = _INFO_BY_ID[id(trick[offset])]
        trick_thirds += value
        if suit == lead_suit and strength > best_strength:
            best, best_strength = offset, strength
    winner = (leader + best) % seats
    taken = hand.thirds
    taken = (*taken[:winner], taken[winner] + trick_thirds, *taken[winner + 1:])
    tricks = (*hand.tricks, _tuple_new(Trick, (leader, trick, winner, trick_thirds)))
    next_turn: int | None = winner
    if extra.stock and len(tricks) < 40 // seats:
        extra = extra._replace(pending=(winner, (winner + 1) % seats))
        next_turn = None
    return _tuple_new(Hand, (hand.number, hand.dealer, hand.first, next_turn, winner, (), tricks, played,
                             taken, void_mask, extra))


def seat_masks(hand: Hand, seats: int) -> list[int]:
    """The cards each seat has played in this hand, as 40-bit masks."""
    masks = [0] * seats
    info = _INFO_BY_ID
    for leader, cards, _winner, _thirds in hand.tricks:
        for offset, card in enumerate(cards):
            masks[(leader + offset) % seats] |= info[id(card)][0]
    if hand.trick and hand.leader is not None:
        for offset, card in enumerate(hand.trick):
            masks[(hand.leader + offset) % seats] |= info[id(card)][0]
    return masks


def seat_mask(hand: Hand, seat: int, seats: int) -> int:
    """The cards ``seat`` has played in this hand, as a 40-bit mask."""
    mask = 0
    for trick in hand.tricks:
        mask |= card_info(trick.cards[(seat - trick.leader) % seats])[0]
    if hand.trick and hand.leader is not None:
        position = (seat - hand.leader) % seats
        if position < len(hand.trick):
            mask |= card_info(hand.trick[position])[0]
    return mask


def _fail_again(rules: Rules, extra: HandExtra, by: int, suit: int, trick_index: int) -> HandExtra:
    """``by`` fails ``suit`` again. The failure is remembered only if ``by`` may hold a card now that it
    did not hold at its last remembered failure of that suit (drawn since, or dealt in the second deal):
    otherwise the two failures prove renounces with exactly the same cards."""
    last = max(when for seat, s, when in extra.voids if seat == by and s == suit)
    acquired = deal_of(rules, trick_index) != deal_of(rules, last) or any(
        seat == by and last < when <= trick_index for _card, seat, when in extra.drawn)
    if not acquired:
        return extra
    return extra._replace(voids=(*extra.voids, (by, suit, trick_index)))


def _check_renounce(rules: Rules, hand: Hand, extra: HandExtra, void_mask: int, card: Card, by: int,
                    suit: int, event_no: int) -> tuple[HandExtra, int, tuple[Flag, ...]]:
    """``by`` plays a card of a suit it did not follow: a renounce if it held this card at any of those
    failures (dealt, or drawn before that failure). Every failure it held the card at is proven by this
    one play and forgotten; the earliest is the one named. Failures from before the card came into the
    hand stay open, for another card of the suit to prove."""
    held_from = acquired_at(rules, hand, card, by, len(hand.tricks))
    proven = [when for seat, s, when in extra.voids if seat == by and s == suit and when >= held_from]
    if not proven:
        return extra, void_mask, ()
    voids = tuple((seat, s, when) for seat, s, when in extra.voids
                  if not (seat == by and s == suit and when >= held_from))
    if not any(seat == by and s == suit for seat, s, _when in voids):
        void_mask &= ~(1 << (by * 4 + suit))
    renounces = (*extra.renounces, by)
    flag = Flag(event_no, RENOUNCE, by, {"suit": SUITS[suit], "trick": min(proven) + 1, "card": card.code})
    return extra._replace(voids=voids, renounces=renounces), void_mask, (flag,)


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
         where: Meta | int) -> tuple[Hand, tuple[Flag, ...]]:
    """Two players with drawing: the trick's winner draws first, then the other; the card is shown."""
    extra = hand.extra
    info = _INFO_BY_ID.get(id(card)) or _INFO_BY_VALUE.get(card)
    text = event_words("draw", info[4].code if info else repr(card), by)
    if info is None:
        raise illegal(where, text, hand, _not_a_card(card))
    if not extra.pending:
        raise illegal(where, text, hand, Message("no draw is due", "non c'è da pescare"))
    if by != extra.pending[0]:
        seat = extra.pending[0]
        raise illegal(where, text, hand, Message(f"seat {seat} draws first", f"pesca prima il posto {seat}"))
    bit, _suit, _strength, _thirds, card = info
    if hand.played & bit:
        raise illegal(where, text, hand, _already_played(card))
    if extra.drawn_mask & bit:
        raise illegal(where, text, hand, Message(f"{card.code} was already drawn in this hand",
                                                 f"{card.code} è già stata pescata in questa mano"))
    flags: tuple[Flag, ...] = ()
    trick_index = len(hand.tricks)
    if extra.declared_mask & bit:
        extra, flags = falsify(rules, extra, card, by, trick_index, event_no, drawn=True)
    pending = extra.pending[1:]
    extra = extra._replace(pending=pending, stock=extra.stock - 1, drawn_mask=extra.drawn_mask | bit,
                           drawn=(*extra.drawn, (card, by, trick_index)))
    turn = hand.leader if not pending else None
    return hand._replace(turn=turn, extra=extra), flags


def call(rules: Rules, hand: Hand, suit: str, by: int, where: Meta | int) -> Hand:
    """Chiamata del tre: before the first lead the first player names a suit."""
    text = event_words("call", suit, by)
    if rules.sides != "called":
        raise illegal(where, text, hand, Message("there is no call in this game (sides are not 'called')",
                                                 "in questa partita non si chiama (sides non è 'called')"))
    if hand.extra.call is not None:
        called = hand.extra.call
        raise illegal(where, text, hand, Message(f"{called} was already called in this hand",
                                                 f"in questa mano si è già chiamato {called}"))
    if hand.played:
        raise illegal(where, text, hand, Message("the call comes before the first lead",
                                                 "si chiama prima che si apra la prima presa"))
    if by != hand.first:
        raise illegal(where, text, hand, Message(f"seat {hand.first} calls in this hand",
                                                 f"in questa mano chiama il posto {hand.first}"))
    if suit not in SUITS:
        raise illegal(where, text, hand, Message(f"{suit!r} is not a suit (c, d, s, b)",
                                                 f"{suit!r} non è un seme (c, d, s, b)"))
    return hand._replace(turn=hand.first, extra=hand.extra._replace(call=suit))


def _not_a_card(thing: object) -> Message:
    return Message(f"{thing!r} is not a card", f"{thing!r} non è una carta")


def _already_played(card: Card) -> Message:
    return Message(f"{card.code} was already played in this hand",
                   f"{card.code} è già stata giocata in questa mano")
